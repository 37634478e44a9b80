"""Helpers to write small study files in temporary folders."""

import signal
import subprocess
import sys
import textwrap


def write_study(tmp_path, body, name="small"):
    path = tmp_path / f"{name}.toml"
    path.write_text(textwrap.dedent(body))
    return path


def report_markdown(path, out, run=True):
    """``designer study run PATH`` (unless ``run`` is False), then
    ``designer report PATH --out OUT --no-card``; the report's Markdown."""
    commands = ([["study", "run", str(path)]] if run else []) + [
        ["report", str(path), "--out", str(out), "--no-card"]]
    for argv in commands:
        done = subprocess.run([sys.executable, "-m", "designer", *argv], capture_output=True,
                              text=True, cwd=path.parent)
        assert done.returncode == 0, done.stderr
    return (out / "report.md").read_text()


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


#: Two small decks over ``players`` (a TOML value) and both endings.
SMALL_SEATS = """
[study]
name = "{name}"
family = "deck"
method = "grid"
workers = 1

[space]
bad = {{min = 1, max = 2}}
good = {{min = 3, max = 4}}
goal = 8
komi = [0, 1]
players = {players}
ending = ["race", "rounds"]
"""


def ctrl_c_deliverable():
    """``preexec_fn`` of a child whose Ctrl-C a test sends: SIGINT unblocked
    and at its default, as in a terminal. A child inherits an ignored or
    blocked SIGINT from its parent, and a test process once had it so after
    other tests, so the run never saw the Ctrl-C under test."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def assert_refused(tmp_path, path):
    """``designer study run PATH`` refused: exit 2, one line on stderr that
    names the study file, nothing on stdout, nothing written in
    ``tmp_path``. Returns the line."""
    from cli_runner import cli

    before = sorted(p.name for p in tmp_path.iterdir())
    r = cli("study", "run", path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and r.stdout == "", r.stderr
    assert str(path) in lines[0], lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written
    return lines[0]
