"""Study reports: files, content, partial studies, and a real browser."""

import re
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from designer.report.study_report import write_report
from designer.search import load_study, open_store
from designer.search.families import evaluate_unit, family, units
from designer.search.grid import run_grid
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
    assert "14 of 14 units computed (the study is complete)" in md
    # self-contained: every image is embedded, nothing is fetched
    srcs = re.findall(r'src="([^"]*)"', html)
    assert len(srcs) == 5 and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert "http://" not in html and "https://" not in html


def test_partial_study_says_how_far(tmp_path):
    path = write_study(tmp_path, SMALL_DECK.format(name="part", workers=1))
    spec = load_study(path)
    store = open_store(spec)
    for u in units(spec)[:5]:
        store.commit_unit(evaluate_unit("deck", u, family("deck").unit_args(spec)))
    index, st = write_report(path, tmp_path / "out")
    md = (index.parent / "report.md").read_text()
    assert "5 of 14 units computed" in md and "NOT complete" in md and "36%" in md


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


def _browser():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (chromium and driver):
        return None
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=opts)


def test_report_in_a_real_browser(deck_report):
    index, spec, st = deck_report
    browser = _browser()
    if browser is None:
        pytest.skip("no headless chromium + chromedriver + selenium on this machine")
    try:
        browser.get(index.resolve().as_uri())
        n_images = browser.execute_script("return document.images.length")
        decoded = browser.execute_script(
            "return Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
        text = browser.find_element("tag name", "body").text
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        browser.quit()
    assert n_images == 5 and decoded
    assert "Recommended:" in text
    assert errors == []


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
    ranked = tables[0]["head"]
    assert any("|" in h for h in ranked), ranked  # the |P1 - 50%| header, whole
