"""Helpers to write small study files in temporary folders."""

import textwrap


def write_study(tmp_path, body, name="small"):
    path = tmp_path / f"{name}.toml"
    path.write_text(textwrap.dedent(body))
    return path


SMALL_DECK = """
[study]
name = "{name}"
family = "deck"
method = "grid"
workers = {workers}

[space]
bad = {{min = 1, max = 3}}
good = {{min = 2, max = 6}}
goal = {{min = 5, max = 8}}
komi = {{min = 0, max = 3}}

[constraints]
components = {{max = 8}}
"""
