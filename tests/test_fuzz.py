"""Fuzz the command line with bad input (issue 14, "Bad input").

Every generated invocation (tests/fuzz_cases.py: bad numbers, names, files,
policies, flags of every sub-command, and malformed study files) must end
with exit status 2, exactly one line on stderr, no traceback, within
TIME_LIMIT seconds, and write no file. Invocations run in-process through
``designer.cli.main`` (the same code path as the console script); the few
things only a real process shows (a closed pipe, DESIGNER_DEBUG's
traceback) run in subprocesses.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import fuzz_cases as F

ROOT = "@ROOT@"  # placeholder replaced by the fixtures folder at run time
CLI_CASES = F.cli_cases(ROOT)
STUDY_CASES = F.study_cases()
#: Generated from the argument parser and the support table (issue 27):
#: every numeric option given a huge number, every game-taking command on
#: every kind of game with players and endings no command takes.
GENERATED_CASES = F.huge_number_cases(ROOT) + F.seat_cases(ROOT)
STATS_CASES = F.stats_cases()


@pytest.fixture(scope="module")
def fuzz_dirs(tmp_path_factory):
    root = F.make_fixtures(tmp_path_factory.mktemp("fuzz_fixtures"))
    work = tmp_path_factory.mktemp("fuzz_cwd")
    return root, work


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    # `designer play` keeps statistics in the user data directory
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path / "data"))


def _check_refused(argv, root, work, extra_dirs=()):
    watched = [root, work, *extra_dirs]
    before = [F.snapshot(d) for d in watched]
    status, out, err, seconds = F.run_cli(argv, work)
    shown = " ".join(argv)
    assert status is not None, f"hang (> {F.TIME_LIMIT} s): designer {shown}"
    lines = err.splitlines()
    assert "Traceback" not in err, f"designer {shown}\n{err}"
    assert status == 2, f"exit {status} for designer {shown}\nstdout: {out[:300]}\nstderr: {err}"
    assert len(lines) == 1, f"designer {shown}: {len(lines)} stderr lines:\n{err}"
    assert lines[0].startswith("designer"), lines[0]
    for d, b in zip(watched, before):
        assert F.snapshot(d) == b, f"designer {shown} wrote files in {d}"
    return lines[0]


def test_enough_cases():
    assert len(CLI_CASES) >= 300
    assert len(STUDY_CASES) >= 60
    commands = {c[0] for c in CLI_CASES if c}
    assert commands >= {"solve", "compare", "policy", "study", "report", "simulate", "play"}
    assert {c[1] for c in CLI_CASES if c and c[0] == "study" and len(c) > 1} >= {
        "run", "resume", "status", "top", "export"}


def test_enough_generated_cases():
    assert len(GENERATED_CASES) >= 500 and len(STATS_CASES) >= 200
    flags = {c[c.index(v) - 1] for c in F.huge_number_cases(ROOT) for v in F.HUGE_NUMBERS
             if v in c}
    # every kind of number a user types: game parameters, seeds, budgets, ...
    assert flags >= {"--bad", "--goal", "--komi", "--players", "--seed", "--max-komi",
                     "--games", "--workers", "--top", "--card-size", "--max-size", "--trials",
                     "--jobs", "--minutes", "--stake", "--green-faces"}


@pytest.mark.parametrize("argv", GENERATED_CASES, ids=lambda a: " ".join(a)[:90])
def test_generated_command_line(argv, fuzz_dirs):
    root, work = fuzz_dirs
    argv = [a.replace(ROOT, str(root)) for a in argv]
    _check_refused(argv, root, work)


@pytest.fixture(scope="module")
def card_cache(tmp_path_factory):
    """The strategy-card cache ``play --stats`` leaves beside the valid
    file (the closest-rule search of its deck design, several seconds): each
    damaged file starts beside a copy, so the search runs once per process
    and each case tests the reading of its file."""
    import json

    folder = tmp_path_factory.mktemp("card_cache")
    (folder / "play-stats.json").write_text(json.dumps(F.VALID_STATS))
    old = os.environ.get("DESIGNER_DATA_DIR")
    os.environ["DESIGNER_DATA_DIR"] = str(folder)
    try:
        # a search of several seconds, not a refusal: the fuzz cases' time
        # limit would fail it on a slow or busy machine
        status, out, err, _ = F.run_cli(["play", "--stats"], folder, limit=300)
    finally:
        os.environ.pop("DESIGNER_DATA_DIR")
        if old is not None:
            os.environ["DESIGNER_DATA_DIR"] = old
    assert status == 0, err
    files = {p.name: p.read_bytes() for p in folder.glob("strategy-*")}
    assert files  # the search kept its cache
    return out, files


def test_the_valid_statistics_file_is_read(card_cache):
    """The damaged files are mutations of a file that is itself read (in
    a folder of its own, the closest-rule search run from scratch)."""
    out, _ = card_cache
    # the closest strategy-card rule to the recorded moves
    assert "deck 2 bad / 4 good (hard): your decisions agree 100.0%" in " ".join(out.split())


@pytest.mark.parametrize("label,data,must_refuse", STATS_CASES,
                         ids=[c[0][:80] for c in STATS_CASES])
def test_damaged_statistics_file(label, data, must_refuse, tmp_path, monkeypatch, card_cache):
    """``play --stats`` reads the file: a damaged one is refused in one line
    naming it (and left as it is, nothing written beside it); a value of
    the right kind may be read."""
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    path = tmp_path / "play-stats.json"
    path.write_bytes(data)
    for name, content in card_cache[1].items():
        (tmp_path / name).write_bytes(content)
    before = sorted(p.name for p in tmp_path.iterdir())
    status, out, err, _ = F.run_cli(["play", "--stats"], tmp_path)
    assert status is not None and "Traceback" not in err, err
    left = sorted(p.name for p in tmp_path.iterdir())
    if must_refuse or status != 0:
        assert status == 2, f"{label}: exit {status}\n{out[:300]}{err}"
        lines = err.splitlines()
        assert len(lines) == 1 and "play-stats.json" in lines[0], err
        assert left == before
    else:  # read: the closest-rule search may keep its cache beside the file
        assert [n for n in left if not n.startswith("strategy-")] == ["play-stats.json"]
    assert path.read_bytes() == data


def test_valid_study_is_valid(fuzz_dirs):
    """The malformed files are mutations of a file that is itself accepted."""
    from designer.search import load_study

    root, _ = fuzz_dirs
    spec = load_study(root / "tiny.toml")
    assert spec.name == "tiny" and len(spec.space["bad"].values) == 2


@pytest.mark.parametrize("argv", CLI_CASES, ids=lambda a: " ".join(a)[:80] or "(none)")
def test_bad_command_line(argv, fuzz_dirs):
    root, work = fuzz_dirs
    argv = [a.replace(ROOT, str(root)) for a in argv]
    _check_refused(argv, root, work)


@pytest.mark.parametrize("label,text", STUDY_CASES, ids=[c[0][:60] for c in STUDY_CASES])
def test_bad_study_file(label, text, fuzz_dirs, tmp_path):
    root, work = fuzz_dirs
    path = tmp_path / "s.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    for argv in (["study", "run", str(path)], ["report", str(path)]):
        line = _check_refused(argv, root, work, extra_dirs=(tmp_path,))
        assert str(path) in line or "s.toml" in line, line


def test_huge_space_refused_with_the_count(tmp_path):
    from designer.search import StudyError, load_study

    text = F.VALID_STUDY.replace("good = {min = 2, max = 3}", "good = {min = 1, max = 400}")
    text = text.replace("goal = 8", "goal = {min = 10, max = 1000}").replace(
        "bad = {min = 1, max = 2}", "bad = {min = 1, max = 60}")
    (tmp_path / "h.toml").write_text(text)
    with pytest.raises(StudyError, match="the space holds 47,568,000 designs: allowed at most 1,000,000"):
        load_study(tmp_path / "h.toml")


def _designer(*args, env=None, shell=None, timeout=60):
    base = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    base.update(env or {})
    if shell:
        return subprocess.run(shell, shell=True, capture_output=True, text=True, env=base,
                              timeout=timeout, executable="/bin/bash")
    return subprocess.run([sys.executable, "-m", "designer", *args], capture_output=True,
                          text=True, env=base, timeout=timeout)


def test_closed_pipe_ends_quietly():
    cmd = (f"set -o pipefail; {sys.executable} -m designer solve pig --goal 30 --json "
           "| head -c 10")
    r = _designer(shell=cmd)
    assert len(r.stdout) == 10
    assert r.stderr == "", r.stderr  # no BrokenPipeError, no "Exception ignored"


def test_one_line_in_a_real_process_and_traceback_on_request(tmp_path):
    (tmp_path / "bad.toml").write_bytes(b"[study]\nname = \"\xff\"\n")
    r = _designer("study", "run", str(tmp_path / "bad.toml"))
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert "not a UTF-8 text file" in r.stderr and "Traceback" not in r.stderr
    r = _designer("study", "run", str(tmp_path / "bad.toml"), env={"DESIGNER_DEBUG": "1"})
    assert r.returncode != 0
    assert "Traceback" in r.stderr and "StudyError" in r.stderr
    assert not list(tmp_path.glob("*.results"))


def test_too_many_compositions_refused_with_the_count(tmp_path):
    from designer.search import StudyError, load_study

    (tmp_path / "z.toml").write_text(
        '[study]\nfamily = "zombie"\n\n[space]\nbrains = {min = 1, max = 20}\n'
        "shotguns = {min = 1, max = 20}\nfootprints = {min = 0, max = 20}\n"
        "dice = {min = 1, max = 10}\nbust_shotguns = [2, 3]\ngoal = 13\nkomi = 0\n")
    with pytest.raises(StudyError, match="168,000 compositions .one solve each.: allowed at most"):
        load_study(tmp_path / "z.toml")
