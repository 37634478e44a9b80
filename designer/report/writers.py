"""Writing a report: ``index.html`` (self-contained), ``report.md``, the
figures as PNG and the data behind every table and figure (parquet, CSV)."""

import base64
from pathlib import Path

from jinja2 import Environment, select_autoescape

from designer.report.content import Figure, Table, Text

HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ report.title }}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 0.5rem 0 1.5rem; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #ccc; text-align: right; }
th { background: #eee; }
img { max-width: 100%; height: auto; }
figure { margin: 1rem 0 2rem; }
figcaption { font-size: 0.9rem; color: #444; }
.strong { font-weight: 600; font-size: 1.1rem; }
.data { font-size: 0.8rem; color: #555; }
</style></head>
<body>
<h1>{{ report.title }}</h1>
{% for section in report.sections %}
<h2>{{ section.title }}</h2>
{% for b in section.blocks %}
{% if b.kind == "text" %}<p{% if b.strong %} class="strong"{% endif %}>{{ b.text }}</p>
{% elif b.kind == "table" %}<h3>{{ b.title }}</h3>
{{ b.html | safe }}
<p class="data">Data: data/{{ b.name }}.csv, data/{{ b.name }}.parquet</p>
{% else %}<figure><img alt="{{ b.title }}" src="data:image/png;base64,{{ b.b64 }}">
<figcaption>{{ b.title }}{% if b.caption %}. {{ b.caption }}{% endif %}
(data: data/{{ b.name }}.csv)</figcaption></figure>
{% endif %}
{% endfor %}
{% endfor %}
</body></html>
"""


def _blocks_for_html(report):
    out = []
    for s in report.sections:
        blocks = []
        for b in s.blocks:
            if isinstance(b, Text):
                blocks.append({"kind": "text", "text": b.text, "strong": b.strong})
            elif isinstance(b, Table):
                blocks.append({"kind": "table", "title": b.title, "name": b.name,
                               "html": b.shown.to_html(index=False, border=0, escape=True)})
            else:
                blocks.append({"kind": "figure", "title": b.title, "name": b.name,
                               "caption": b.caption,
                               "b64": base64.b64encode(b.png).decode("ascii")})
        out.append({"title": s.title, "blocks": blocks})
    return {"title": report.title, "sections": out}


def _markdown_escape(value):
    """A table cell as Markdown text: ``|`` would end the cell, ``\\`` escape."""
    if not isinstance(value, str):
        return value
    return value.replace("\\", "\\\\").replace("|", "\\|")


def _markdown_table(frame):
    """``frame`` as a pipe table whose cells and headers cannot split a column.

    A ``|`` inside a header such as ``|P1 - 50%|`` or a cell would otherwise
    start a new column, and a header row with more cells than the delimiter
    row is no table at all to a Markdown renderer.
    """
    shown = frame.rename(columns=lambda c: _markdown_escape(str(c)))
    shown = shown.apply(lambda col: col.map(_markdown_escape)) if len(shown) else shown
    return shown.to_markdown(index=False)


def to_markdown(report):
    """The report as Markdown (figures linked from ``figures/``)."""
    lines = [f"# {report.title}", ""]
    for s in report.sections:
        lines += [f"## {s.title}", ""]
        for b in s.blocks:
            if isinstance(b, Text):
                lines += [f"**{b.text}**" if b.strong else b.text, ""]
            elif isinstance(b, Table):
                lines += [f"### {b.title}", "", _markdown_table(b.shown), "",
                          f"Data: [CSV](data/{b.name}.csv), [parquet](data/{b.name}.parquet)", ""]
            else:
                cap = f"{b.title}. {b.caption}" if b.caption else b.title
                lines += [f"![{b.title}](figures/{b.name}.png)", "", f"*{cap}* "
                          f"(data: [CSV](data/{b.name}.csv))", ""]
    return "\n".join(lines)


def to_html(report):
    """The report as one self-contained HTML page (images embedded)."""
    env = Environment(autoescape=select_autoescape(default=True))
    return env.from_string(HTML).render(report=_blocks_for_html(report))


def write(report, out_dir):
    """Write every file of the report into ``out_dir``; returns index.html's path."""
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    (out / "data").mkdir(parents=True, exist_ok=True)
    for s in report.sections:
        for b in s.blocks:
            if isinstance(b, (Table, Figure)):
                b.data.to_csv(out / "data" / f"{b.name}.csv", index=False)
                b.data.to_parquet(out / "data" / f"{b.name}.parquet", index=False)
            if isinstance(b, Figure):
                (out / "figures" / f"{b.name}.png").write_bytes(b.png)
    (out / "report.md").write_text(to_markdown(report))
    index = out / "index.html"
    index.write_text(to_html(report))
    return index
