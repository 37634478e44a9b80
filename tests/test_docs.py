"""The README and the manual (docs/, mkdocs.yml).

The README stays short and its quick-start test line is the line CI runs;
neither the README nor any page cites the team's internal reference document;
every page the navigation names exists; and, where MkDocs is installed
(``pip install -e '.[docs]'``), the manual builds with ``--strict`` (any
warning fails it).
"""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: The internal reference document's name; spelled in two parts so that a
#: search of the repository for it finds only real citations.
INTERNAL = "SP" + "EC"


def _readme_lines():
    return README.read_text(encoding="utf-8").splitlines()


def _nav_pages(nav):
    """Every page file named in a MkDocs ``nav`` (nested lists and dicts)."""
    if isinstance(nav, str):
        yield nav
    elif isinstance(nav, list):
        for item in nav:
            yield from _nav_pages(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            yield from _nav_pages(value)


def _nav():
    """The ``nav`` of mkdocs.yml, read without PyYAML's custom tags (the file
    names a Python function for the mermaid fence)."""
    yaml = pytest.importorskip("yaml")

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    return config["nav"]


def test_readme_has_at_most_150_lines():
    assert len(_readme_lines()) <= 150


def test_readme_test_line_is_the_last_line_of_ci():
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    commands = [line for line in ci if line and not line.startswith("#")]
    quick = [line.strip() for line in _readme_lines() if line.strip().startswith("pip install")]
    assert quick[:2] == ["pip install -e . && designer study run studies/red_light.toml",
                         "pip install -e '.[test]' && python -m pytest -q"]
    assert quick[1] == commands[-1]


def test_readme_cites_no_internal_document():
    cited = [n for n, line in enumerate(_readme_lines(), 1) if INTERNAL in line]
    assert not cited, f"README.md lines {cited} mention {INTERNAL}"


def test_docs_cite_no_internal_document():
    cited = [str(p.relative_to(ROOT)) for p in sorted(DOCS.rglob("*"))
             if p.is_file() and p.suffix in (".md", ".py", ".yml", ".html", ".css", ".js")
             and INTERNAL in p.read_text(encoding="utf-8")]
    assert not cited, f"{cited} mention {INTERNAL}"


def test_readme_lists_every_study_file():
    text = README.read_text(encoding="utf-8")
    missing = [p.name for p in sorted((ROOT / "studies").glob("*.toml"))
               if f"studies/{p.name}" not in text]
    assert not missing


def test_every_page_in_the_navigation_exists():
    pages = list(_nav_pages(_nav()))
    assert "index.md" in pages and len(pages) == len(set(pages))
    missing = [p for p in pages if not (DOCS / p).is_file()]
    assert not missing, f"mkdocs.yml names pages that do not exist: {missing}"


def test_every_page_is_in_the_navigation():
    pages = set(_nav_pages(_nav()))
    orphans = [str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")
               if str(p.relative_to(DOCS)) not in pages]
    assert not orphans


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None
                    or importlib.util.find_spec("mkdocstrings") is None,
                    reason="mkdocs is not installed (pip install -e '.[docs]')")
def test_the_manual_builds_strictly(tmp_path):
    site = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "WARNING" not in r.stdout + r.stderr
    # the generated parts are there: every command's help, the support table
    cli = (site / "cli" / "index.html").read_text(encoding="utf-8")
    for command in ("solve", "compare", "policy train-nn", "study run", "study resume",
                    "study status", "study top", "study export", "report", "simulate",
                    "play", "strategy"):
        assert f"designer {command}</code>" in cli, command
    assert "<!-- designer:" not in cli
    assert "policy train-nn" in (site / "limits" / "index.html").read_text(encoding="utf-8")
    # no page of the built manual cites the internal document either
    pages = [p for p in site.rglob("*") if p.suffix in (".html", ".json")]
    cited = [str(p.relative_to(site)) for p in pages
             if re.search(rf"\b{INTERNAL}\b", p.read_text(encoding="utf-8"))]
    assert not cited
