"""Study reports: files, content, partial studies, and a real browser."""

import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from designer.report.study_report import write_report
from designer.search import load_study, open_store
from designer.search.families import evaluate_unit, family, units
from designer.search.grid import run_grid
from browser import headless_chromium, wait_for
from study_helpers import SMALL_DECK, write_study

DICE = """
[study]
name = "dice"
family = "dice"
method = "grid"
workers = 1

[space]
faces = {min = 3, max = 5}
goal = [10, 15]
komi = {min = 0, max = 3}
"""


@pytest.fixture(scope="module")
def deck_report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("deck")
    path = write_study(tmp, SMALL_DECK.format(name="deckrep", workers=1))
    spec = load_study(path)
    run_grid(spec, open_store(spec))
    index, st = write_report(path, tmp / "out")
    return index, spec, st


def test_report_files(deck_report):
    index, spec, st = deck_report
    out = index.parent
    assert (out / "report.md").exists()
    for name in ("fairness_heatmap", "skill_heatmap", "komi_lines", "length", "policy"):
        png = out / "figures" / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(pd.read_csv(out / "data" / f"{name}.csv")) > 0
        assert len(pd.read_parquet(out / "data" / f"{name}.parquet")) > 0
    top = pd.read_csv(out / "data" / "top_designs.csv")
    assert list(top["rank"]) == list(range(1, len(top) + 1))
    assert top["fairness"].is_monotonic_increasing


def test_report_content_matches_ranking(deck_report):
    index, spec, st = deck_report
    from designer.search.ranking import rank, sentence

    best = rank(open_store(spec).rows(), spec).iloc[0]
    expected = sentence(best, "deck")
    html = index.read_text()
    md = (index.parent / "report.md").read_text()
    assert expected in md and expected in html
    # 14 compositions, each at goals 5-8 and komi 0-3
    assert "14 of 14 deck compositions computed, 224 designs in all" in md
    assert "the study is complete." in md
    # self-contained: scripts inline, every image embedded, nothing fetched
    # (plotly.js itself names URLs in strings, so look outside the scripts)
    tags, text = _tags(html)
    scripts = [a for t, a in tags if t == "script"]
    assert len(scripts) == 3 and not any("src" in a for a in scripts)
    srcs = [a["src"] for t, a in tags if "src" in a]
    # the two heatmaps are interactive in the page; komi lines, length, policy stay PNG
    assert len(srcs) == 3 and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert not any(t == "link" or "href" in a for t, a in tags)
    assert "http://" not in text and "https://" not in text


def _tags(html):
    """Every start tag of ``html`` as (name, attributes), and its text
    outside scripts (a real HTML parser: script bodies are not markup)."""
    from html.parser import HTMLParser

    class P(HTMLParser):
        tags, text, in_script = [], [], False

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, dict(attrs)))
            self.in_script = tag == "script"

        def handle_endtag(self, tag):
            self.in_script = False

        def handle_data(self, data):
            if not self.in_script:
                self.text.append(data)

    p = P()
    p.tags, p.text = [], []
    p.feed(html)
    return p.tags, "".join(p.text)


def test_report_plain_words(deck_report):
    """Designs, not units; the edge with its sign; komi in points for the
    second player; convergence only in the technical details; a glossary."""
    index, spec, st = deck_report
    md = (index.parent / "report.md").read_text()
    from designer.search.ranking import rank

    best = rank(open_store(spec).rows(), spec).iloc[0]
    edge = 100 * (best["first_player_win"] - 0.5)
    assert f"First-player edge: {edge:+.3f} percentage points (the " in md
    assert ("first player wins more often" if edge > 0 else "second player wins more often") in md
    assert f"the fair komi of this design at goal {int(best['goal'])} is " in md
    assert "units" not in md.lower() and "log10" not in md
    main, _, rest = md.partition("## Technical details")
    assert "residual" not in main and "sweep" not in main
    assert "Convergence: the largest remaining error of a solve (the residual" in rest
    tech, _, glossary = rest.partition("## Glossary")
    for word in ("design", "composition", "komi", "fair komi", "first-player edge",
                 "expected length", "skill gap"):
        assert f"**{word}**: " in glossary, word
    assert glossary.count("**") // 2 >= 10
    headers = md.split("### Top")[1].split("\n")[2]
    assert "first-player edge (points of %)" in headers and "fair komi (points to 2nd" in headers
    first = md.split("### Top")[1].split("\n")[4]
    assert f"| {edge:+.3f} " in first  # the sign survives the Markdown table


def test_fairness_colours_are_brighter_when_fairer():
    """The map's colour value grows as a design gets fairer (bright = fair
    with cividis), on fixed limits for win probabilities: 10% edge and more
    at the bottom, 0.001% and less at the top."""
    import numpy as np

    from designer.report.figures import _fairness_scale

    z, lo, hi = _fairness_scale(np.array([0.2, 0.01, 1e-4, 1e-6, 0.0]), probability=True)
    assert (lo, hi) == (1.0, 5.0)
    assert list(np.argsort(z)) == [0, 1, 2, 3, 4] and np.allclose(z[:4], [0.69897, 2, 4, 6])


def test_partial_study_says_how_far(tmp_path):
    path = write_study(tmp_path, SMALL_DECK.format(name="part", workers=1))
    spec = load_study(path)
    store = open_store(spec)
    for u in units(spec)[:5]:
        store.commit_unit(evaluate_unit("deck", u, family("deck").unit_args(spec)))
    index, st = write_report(path, tmp_path / "out")
    md = (index.parent / "report.md").read_text()
    assert "5 of 14 deck compositions computed" in md and "NOT complete" in md and "36%" in md


def test_dice_report(tmp_path):
    path = write_study(tmp_path, DICE)
    spec = load_study(path)
    run_grid(spec, open_store(spec))
    index, st = write_report(path, tmp_path / "out")
    md = (index.parent / "report.md").read_text()
    assert "-sided die busting on 1" in md
    assert (index.parent / "figures" / "policy.png").exists()


def test_cli_report_errors(tmp_path):
    path = write_study(tmp_path, SMALL_DECK.format(name="none", workers=1))
    r = subprocess.run([sys.executable, "-m", "designer", "report", str(path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "has no results yet" in r.stderr and "Traceback" not in r.stderr



@pytest.mark.parametrize("bad", ["-3", "x", "1.5", ""])
def test_cli_report_bad_policies(deck_report, bad, capsys, tmp_path):
    from designer.cli import main

    index, spec, st = deck_report
    out = tmp_path / "nothing"
    assert main(["report", str(spec.path), "--out", str(out), f"--policies={bad}"]) == 2
    err = capsys.readouterr().err
    assert err == (f"designer: error: invalid --policies={bad!r}: allowed an integer >= 0 "
                   "or 'all'\n")
    assert not out.exists()  # checked before anything is written


def test_cli_open_flag(deck_report, monkeypatch, capsys):
    """--open exists and is optional; without a display it says where the
    page is instead of starting (or waiting for) a browser."""
    import argparse
    import webbrowser

    from designer.commands import report as cmd

    parser = argparse.ArgumentParser()
    cmd.register(parser.add_subparsers())
    index, spec, st = deck_report
    assert parser.parse_args(["report", "x.toml"]).open is False
    assert parser.parse_args(["report", "x.toml", "--open"]).open is True
    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        monkeypatch.delenv(var, raising=False)
    out = index.parent.parent / "opened"
    assert cmd.run(parser.parse_args(["report", str(spec.path), "--out", str(out), "--open",
                                      "--policies", "all"])) == 0
    assert opened == [] and "no browser to open here: open" in capsys.readouterr().out
    # --policies all: every (composition, goal) of the study has its picture
    import json

    page = (out / "index.html").read_text()
    data = json.loads(re.search(r'<script type="application/json" id="report-data">(.*?)'
                                r"</script>", page, re.S).group(1))
    rows = open_store(spec).rows()
    keys = {f"{b}|{g}|{goal}" for b, g, goal in rows[["bad", "good", "goal"]].itertuples(
        index=False)}
    assert set(data["policies"]) == keys and len(keys) == 14 * 4
    monkeypatch.setenv("DISPLAY", ":0")
    assert cmd.open_in_browser(out / "index.html") is True
    assert opened == [(out / "index.html").resolve().as_uri()]


def test_report_in_a_real_browser(deck_report):
    """The page in headless Chromium: images decode, every cell of the map
    has its hover text, the recommendation and ranked table the page
    computes equal the Python ranking, a filter re-ranks the table as the
    Python ranking with that constraint would, a click shows the cell's
    design and komi curve, nothing is fetched and the console stays clean."""
    from designer.report.content import ranked_table
    from designer.search.ranking import apply_constraints, rank

    index, spec, st = deck_report
    rows = open_store(spec).rows()
    browser = headless_chromium()
    if isinstance(browser, str):
        pytest.skip(browser)
    try:
        browser.get(index.resolve().as_uri())
        assert wait_for(browser, "return document.documentElement.getAttribute('data-drawn')") \
            == "yes"
        n_images = browser.execute_script("return document.images.length")
        decoded = browser.execute_script(
            "return Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
        text = browser.find_element("tag name", "body").text
        fetched = browser.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)")
        hover = browser.execute_script(
            "return document.getElementById('fairness-map').data[0].hovertext")
        table_js = "return Array.from(document.querySelectorAll('#ranked-table tbody tr'))" \
                   ".map(r => Array.from(r.cells).map(c => c.textContent))"
        before = browser.execute_script(table_js)
        browser.execute_script("window.tableBefore = JSON.stringify(arguments[0])", before)
        # the mouse over the (bad 2, good 5) cell (categories 1 and 3) shows its box
        browser.execute_script(
            "var gd = document.getElementById('fairness-map');"
            "var xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;"
            "var el = gd.querySelector('.nsewdrag'), r = el.getBoundingClientRect();"
            "el.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + xa.c2p(1),"
            " clientY: r.top + ya.c2p(3), bubbles: true}));")
        hovered = wait_for(browser, "var h = document.querySelector('#fairness-map .hovertext');"
                                 "return h && h.textContent")
        # filter: at most 6 components
        browser.execute_script(
            "var inp = document.querySelector('input[data-metric=components][data-side=hi]');"
            "var F = JSON.parse(document.getElementById('report-data').textContent).filters"
            ".filter(f => f.metric === 'components')[0];"
            "inp.value = F.values.indexOf(6); inp.dispatchEvent(new Event('input'));")
        after = wait_for(browser, table_js.replace("return ", "var t = ") +
                      "; return JSON.stringify(t) !== window.tableBefore && t")
        rec_after = browser.find_element("id", "recommendation").text
        # click the (bad 1, good 4) cell
        browser.execute_script("document.getElementById('fairness-map')"
                               ".emit('plotly_click', {points: [{x: '1', y: '4'}]});")
        title = wait_for(browser, "var t = document.getElementById('detail-title').textContent;"
                               "return t.startsWith('1 bad and 4 good') && t")
        curve = browser.execute_script("return document.getElementById('komi-curve').data[0]")
        note = browser.find_element("id", "policy-note").text
        # the recommended design (a row of the table) has its policy picture
        browser.execute_script("document.querySelector('#ranked-table tbody tr').click()")
        picture = wait_for(browser, "var p = document.getElementById('policy-picture');"
                                 "return p.data && p.style.display !== 'none' && p.data[0].z")
        from designer.report.content import format_value

        cases = [(f, v, se) for f in ("pct3", "edge", "pct4", "f1", "pct2", "g4", "int")
                 for v, se in ((0.5, None), (0.123456789, None), (0.49999, None),
                               (1234.56789, None), (3e-07, None), (-0.0456, None))
                 if not (f == "int" and v != int(v))]
        cases += [("se", 0.1224, 0.0357), ("se", -0.0175, 0.25), ("se", 1.5e-05, 2e-06),
                  ("se", 123456.0, 789.0), ("tied", True, None), ("tied", False, None)]
        js_formats = browser.execute_script(
            "return arguments[0].map(c => window.reportFormat(c[0], c[1], c[2]))", cases)
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        browser.quit()
    assert js_formats == [format_value(*c) for c in cases]
    assert n_images == 3 and decoded
    assert errors == [] and all(u.startswith("data:") for u in fetched), (errors, fetched)
    # hover text for every cell: 3 bad x 5 good; 13 hold a feasible design
    feasible = apply_constraints(rows, spec)
    cells = [h for line in hover for h in line]
    assert len(hover) == 5 and len(cells) == 15 and all(cells)
    assert sum("fair komi:" in h for h in cells) == feasible.groupby(["bad", "good"]).ngroups
    assert "2 bad and 5 good items" in hovered and "fair komi:" in hovered
    # the page ranks as Python does, before and after the filter
    expected = ranked_table(rank(rows, spec), spec).shown.astype(str).values.tolist()
    assert before == expected
    ranked6 = rank(rows[rows["components"] <= 6], spec)
    assert after == ranked_table(ranked6, spec).shown.astype(str).values.tolist()
    assert after != before
    from designer.search.ranking import sentence

    assert rec_after == "Recommended: " + sentence(ranked6.iloc[0], "deck") + "."
    assert "Recommended: " + sentence(rank(rows, spec).iloc[0], "deck") in text
    # the click: the fairest feasible design of that cell and its komi curve
    cell = rows[(rows["bad"] == 1) & (rows["good"] == 4) & (rows["components"] <= 6)]
    best = cell.loc[cell["fairness"].idxmin()]
    assert title == f"1 bad and 4 good items, goal {int(best['goal'])}"
    same = rows[(rows["bad"] == 1) & (rows["good"] == 4) & (rows["goal"] == best["goal"])]
    assert curve["x"] == same["komi"].tolist()
    assert curve["y"] == pytest.approx((100 * same["first_player_win"]).tolist())
    # its policy is not among the 3 embedded: the page gives the command that embeds it
    order = rank(rows, spec).drop_duplicates(["bad", "good", "goal"]).reset_index(drop=True)
    pos = order.index[(order["bad"] == 1) & (order["good"] == 4)
                      & (order["goal"] == best["goal"])]
    n = str(pos[0] + 1) if len(pos) else "all"
    assert int(n) > 3 if n != "all" else True
    assert f"designer report {spec.path} --policies {n}" in note
    # the picture of the filtered recommendation: good draws before holding, fresh deck
    from designer.games import DeckGame
    from designer.solve import solve

    top = ranked6.iloc[0]
    sol = solve(DeckGame(int(top["bad"]), int(top["good"]), int(top["goal"])))
    goal = int(top["goal"])
    fresh = np.minimum(sol.policy[:, :, 0, 0], goal - np.arange(goal)[:, None])
    assert np.array_equal(np.array(picture), fresh.T)


def test_constraints_in_words():
    from pathlib import Path

    from designer.report.content import _constraint_words

    spec = load_study(Path(__file__).parent.parent / "studies" / "fair_and_skilful.toml")
    assert _constraint_words(spec) == (
        "number of components at most 49; first-player edge (either sign) at most 0.1 "
        "percentage points; expected game length at most 250")


def test_wager_and_zombie_reports(tmp_path):
    from test_study_families import WAGER, ZOMBIE

    for body, needle in ((WAGER, "counters per hand"), (ZOMBIE, "brain")):
        d = tmp_path / needle.split()[0]
        d.mkdir()
        path = write_study(d, body)
        spec = load_study(path)
        run_grid(spec, open_store(spec))
        index, st = write_report(path, d / "out")
        md = (index.parent / "report.md").read_text()
        assert "Recommended:" in md and needle in md
        html = index.read_text()
        assert html.count("data:image/png;base64,") >= 1
        tables = _markdown_tables(md)
        top = pd.read_csv(index.parent / "data" / "top_designs.csv")
        assert len(top) and all(len(r) == len(tables[0]["head"]) for r in tables[0]["rows"])
        if needle == "counters per hand":  # "|non-dealer/hand|" stays one header cell
            assert "|non-dealer/hand|" in tables[0]["head"], tables[0]["head"]
            assert "**non-dealer gain per hand**: " in md


def test_markdown_escapes_pipes_and_backslashes():
    from designer.report.writers import _markdown_table

    frame = pd.DataFrame({"|a|": ["x|y", "back\\slash"], "b": [1, 2]})
    text = _markdown_table(frame)
    (t,) = _markdown_tables(text)
    assert len(t["head"]) == 2 and all(len(r) == 2 for r in t["rows"])
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(text)
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", html)
    assert cells == ["|a|", "b", "x|y", "1", "back\\slash", "2"], cells


def _markdown_tables(md):
    """Every table a CommonMark + GFM-tables renderer finds in ``md``, as
    ``(header cells, [row cells, ...])``."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    tables, cur, row, where = [], None, None, None
    for t in tokens:
        if t.type == "table_open":
            cur = {"head": [], "rows": []}
        elif t.type in ("thead_open", "tbody_open"):
            where = t.type[:5]
        elif t.type == "tr_open":
            row = []
        elif t.type == "inline" and row is not None:
            row.append(t.content)
        elif t.type == "tr_close":
            if where == "thead":
                cur["head"] = row
            else:
                cur["rows"].append(row)
            row = None
        elif t.type == "table_close":
            tables.append(cur)
    return tables


def test_markdown_tables_keep_their_columns(deck_report):
    """Each table of report.md renders as one table with the columns of its
    data file, headers like ``|P1 - 50%|`` included (a ``|`` must not split
    a cell)."""
    index, spec, st = deck_report
    out = index.parent
    md = (out / "report.md").read_text()
    names = re.findall(r"^### .*\n\n(?:.*\n)*?Data: \[CSV\]\(data/([^)]+)\.csv\)", md, re.M)
    tables = _markdown_tables(md)
    assert len(names) >= 1 and len(tables) == len(names)
    for name, table in zip(names, tables):
        n = len(pd.read_csv(out / "data" / f"{name}.csv").columns)
        shown = len(table["head"])
        assert shown >= 1 and all(len(r) == shown for r in table["rows"]), name
        assert shown <= n, (name, shown, n)
    assert "first-player edge (points of %)" in tables[0]["head"]


def test_the_same_results_give_the_same_markdown_and_figures(deck_report, tmp_path):
    """A report written again from the same store is the same files (the
    example reports are kept in Git: writing them again must not change
    them); the compute time, which changes from run to run, is on the page."""
    index, spec, _ = deck_report
    again, _ = write_report(spec.path, tmp_path / "again")
    first, second = index.parent, again.parent
    assert (first / "report.md").read_bytes() == (second / "report.md").read_bytes()
    for png in sorted((first / "figures").glob("*.png")):
        assert png.read_bytes() == (second / "figures" / png.name).read_bytes(), png.name
    assert "Compute time" not in (first / "report.md").read_text()
    assert "Compute time" in index.read_text()
