"""Writing a report: ``index.html`` (self-contained), ``report.md``, the
figures as PNG and the data behind every table and figure (parquet, CSV)."""

import base64
from pathlib import Path

from jinja2 import Environment, select_autoescape

from designer.report import interactive
from designer.report.content import Explorer, Figure, Table, Text

HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ report.title }}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 76rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 0.5rem 0 1.5rem; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #ccc; text-align: right; }
th { background: #eee; }
#ranked-table tbody tr { cursor: pointer; }
#ranked-table tbody tr:hover { background: #fff6c8; }
img { max-width: 100%; height: auto; }
figure { margin: 1rem 0 2rem; }
figcaption { font-size: 0.9rem; color: #444; }
.strong { font-weight: 600; font-size: 1.1rem; }
.data { font-size: 0.8rem; color: #555; }
.explore { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; }
@media (max-width: 60rem) { .explore { grid-template-columns: 1fr; } }
#filters .filter { display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; align-items: center;
                   margin: 0.2rem 0; }
#filters .flabel { min-width: 16rem; }
#filters output { display: inline-block; min-width: 5rem; font-variant-numeric: tabular-nums; }
.panel { background: #fafafa; border: 1px solid #ddd; border-radius: 6px; padding: 0.6rem 1rem; }
dl.glossary dt { font-weight: 600; margin-top: 0.5rem; }
dl.glossary dd { margin-left: 1.5rem; }
code { background: #f0f0f0; padding: 0 0.2rem; }
</style>
</head>
<body>
<h1>{{ report.title }}</h1>
{% for section in report.sections %}
<h2>{{ section.title }}</h2>
{% set terms = section.blocks | selectattr("term") | list %}
{% if terms %}<dl class="glossary">
{% for b in terms %}<dt>{{ b.term }}</dt><dd>{{ b.text }}</dd>
{% endfor %}</dl>{% endif %}
{% for b in section.blocks %}
{% if b.kind == "text" %}{% if not b.term %}<p{% if b.id %} id="{{ b.id }}"{% endif %}{% if b.strong %} class="strong"{% endif %}>{{ b.text }}</p>{% endif %}
{% elif b.kind == "table" %}<h3{% if b.name == "top_designs" %} id="ranked-title"{% endif %}>{{ b.title }}</h3>
<div{% if b.name == "top_designs" %} id="ranked-table"{% endif %}>{{ b.html | safe }}</div>
{% if b.name == "top_designs" and explorer %}<p class="data">The table follows the filters above;
click a row to see that design.</p>{% endif %}
<p class="data">Data: data/{{ b.name }}.csv, data/{{ b.name }}.parquet</p>
{% elif b.kind == "explorer" %}
<div class="panel">
<p><b>Filters.</b> The study's constraints are the starting point; move the sliders and the
recommendation, the map and the ranked table follow. <span id="filter-count"></span>
<button id="filters-reset" type="button">back to the study's constraints</button></p>
<div id="filters"></div>
<p id="colour-switch">Colour the map by:
<label><input type="radio" name="colour" value="fairness" checked> fairness</label>
<label><input type="radio" name="colour" value="skill_gap"> skill gap</label></p>
</div>
<div class="explore">
<div id="map-box"><div id="fairness-map"></div>
<p class="data">Hover a cell to see its fairest design; click it for its komi curve and
policy. Bright cells are fairer; the recommended design is outlined (solid), the one shown
on the right dotted.</p></div>
<div><h3 id="detail-title"></h3><p id="detail-text"></p>
{% if b.komi %}<div id="komi-curve"></div>{% endif %}
<p id="policy-note" class="data"></p><div id="policy-picture"></div></div>
</div>
{% else %}<figure><img alt="{{ b.title }}" src="data:image/png;base64,{{ b.b64 }}">
<figcaption>{{ b.title }}{% if b.caption %}. {{ b.caption }}{% endif %}
(data: data/{{ b.name }}.csv)</figcaption></figure>
{% endif %}
{% endfor %}
{% endfor %}
{# plotly.js last: the text and the tables show while the browser reads its 4.8 MB #}
{% if explorer %}<script>{{ plotly_js | safe }}</script>
<script type="application/json" id="report-data">{{ data_json | safe }}</script>
<script>{{ page_js | safe }}</script>{% endif %}
</body></html>
"""

#: PNG figures the interactive map replaces in ``index.html`` (they stay in
#: ``figures/`` and ``report.md``).
REPLACED = ("fairness_heatmap", "skill_heatmap")


def _explorer(report):
    for s in report.sections:
        for b in s.blocks:
            if isinstance(b, Explorer):
                return b
    return None


def _blocks_for_html(report):
    explorer = _explorer(report)
    interactive_map = explorer is not None and explorer.data.get("axes") is not None
    out = []
    for s in report.sections:
        blocks = []
        for b in s.blocks:
            if isinstance(b, Text):
                blocks.append({"kind": "text", "text": b.text, "strong": b.strong, "id": b.id,
                               "term": b.term})
            elif isinstance(b, Table):
                blocks.append({"kind": "table", "title": b.title, "name": b.name, "term": "",
                               "html": b.shown.to_html(index=False, border=0, escape=True)})
            elif isinstance(b, Explorer):
                blocks.append({"kind": "explorer", "term": "",
                               "komi": "komi" in b.data["cols"]})
            elif interactive_map and b.name in REPLACED:
                continue
            else:
                blocks.append({"kind": "figure", "title": b.title, "name": b.name, "term": "",
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
    # numbers are already text as people should read them: "+0.001" keeps its sign
    return shown.to_markdown(index=False, disable_numparse=True)


def to_markdown(report):
    """The report as Markdown (figures linked from ``figures/``)."""
    lines = [f"# {report.title}", ""]
    for s in report.sections:
        lines += [f"## {s.title}", ""]
        for b in s.blocks:
            if isinstance(b, Text) and b.page_only:
                continue  # changes from run to run: report.md stays the same file
            if isinstance(b, Text) and b.term:
                lines += [f"**{b.term}**: {b.text}", ""]
            elif isinstance(b, Text):
                lines += [f"**{b.text}**" if b.strong else b.text, ""]
            elif isinstance(b, Explorer):
                lines += ["Open `index.html` (beside this file) in a browser to explore: hover "
                          "the fairness map to see each design's numbers, click a cell for its "
                          "komi curve and optimal policy, and filter by the study's constraints, "
                          "the game length and the skill gap; the recommendation and the ranked "
                          "table follow the filters.", ""]
            elif isinstance(b, Table):
                lines += [f"### {b.title}", "", _markdown_table(b.shown), "",
                          f"Data: [CSV](data/{b.name}.csv), [parquet](data/{b.name}.parquet)", ""]
            else:
                cap = f"{b.title}. {b.caption}" if b.caption else b.title
                lines += [f"![{b.title}](figures/{b.name}.png)", "", f"*{cap}* "
                          f"(data: [CSV](data/{b.name}.csv))", ""]
    return "\n".join(lines)


def to_html(report):
    """The report as one self-contained HTML page: images embedded, and
    plotly.js, the page's script and the study's rows inlined (no network)."""
    env = Environment(autoescape=select_autoescape(default=True))
    explorer = _explorer(report)
    extra = {}
    if explorer is not None:
        extra = {"plotly_js": interactive.plotly_script(), "page_js": interactive.page_script(),
                 "data_json": interactive.embed_json(explorer.data)}
    return env.from_string(HTML).render(report=_blocks_for_html(report),
                                        explorer=explorer is not None, **extra)


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
