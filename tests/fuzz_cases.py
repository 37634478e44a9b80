"""Bad input for the fuzz tests: command lines and study files that must be
refused with one line on stderr and exit status 2.

Everything here is generated from a few lists of bad values per kind of
input, crossed with every sub-command and flag that takes that kind; the
cases need files (a directory, a non-UTF-8 file, truncated networks, Python
files whose target is not a function ...) that :func:`make_fixtures` writes
into a temporary folder. :func:`run_cli` runs one invocation in-process
through :func:`designer.cli.main` under a time limit.
"""

import contextlib
import io
import itertools
import os
import signal
import time
import zipfile
from pathlib import Path

import numpy as np

#: Seconds one invocation may take before it counts as a hang.
TIME_LIMIT = 10

BAD_INTS = ["-1", "x", "1.5", "", "nan", "99999999999999999999999", "1e3"]
HUGE_INTS = ["100000", "18446744073709551616"]
BAD_SEEDS = ["-1", "18446744073709551616", "x"]
BAD_FLOATS = ["nan", "inf", "-inf", "-1", "x"]

VALID_STUDY = """\
[study]
name = "tiny"
family = "deck"
method = "grid"
workers = 1

[space]
bad = {min = 1, max = 2}
good = {min = 2, max = 3}
goal = 8
komi = [0, 1]

[objectives]
rank = ["fairness"]
"""


class Hang(BaseException):
    """Raised by the alarm when an invocation runs past TIME_LIMIT."""


def _alarm(signum, frame):
    raise Hang()


def run_cli(argv, cwd, limit=TIME_LIMIT):
    """Run ``designer ARGV`` in-process in ``cwd``.

    Returns ``(status, stdout, stderr, seconds)``; ``status`` is None on a
    hang (an invocation that ran past ``limit`` seconds).
    """
    from designer.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    handler = signal.signal(signal.SIGALRM, _alarm)
    t0 = time.perf_counter()
    status = None
    try:
        os.chdir(cwd)
        signal.alarm(limit)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except Hang:
        status = None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, handler)
        os.chdir(old)
    return status, out.getvalue(), err.getvalue(), time.perf_counter() - t0


def snapshot(folder):
    """Every file under ``folder`` with its size and modification time."""
    out = {}
    for p in Path(folder).rglob("*"):
        if p.is_file():
            st = p.stat()
            out[str(p)] = (st.st_size, st.st_mtime_ns)
    return out


# -- fixtures -----------------------------------------------------------------

def make_fixtures(root):
    """Write the files the cases refer to into ``root``; returns ``root``."""
    root = Path(root)
    (root / "adir").mkdir(exist_ok=True)
    (root / "adir.toml").mkdir(exist_ok=True)
    (root / "latin1.toml").write_bytes(VALID_STUDY.replace("tiny", "tiny\xe9").encode("latin-1"))
    (root / "binary.toml").write_bytes(bytes(range(256)))
    (root / "empty.toml").write_text("")
    (root / "tiny.toml").write_text(VALID_STUDY)
    (root / "notnpz.npz").write_text("this is not a zip file\n")
    (root / "empty.npz").write_bytes(b"")
    np.savez(root / "other.npz", a=np.arange(3))
    # a real network truncated half-way, and one whose arrays have wrong shapes
    np.savez(root / "shapes.npz", W1=np.zeros((2, 2)), b1=np.zeros(2), W2=np.zeros(3),
             b2=0.0, lo=np.zeros(7), hi=np.ones(7), features=np.array(["a"]), bad=4, good=24,
             goal=50, komi=1, game_name="red-light", kind="designer-nn-7-13-1")
    np.savez(root / "nanbad.npz", W1=np.zeros((13, 7)), b1=np.zeros(13), W2=np.zeros(13),
             b2=0.0, lo=np.zeros(7), hi=np.ones(7), features=np.array(["a"]), bad=-4, good=24,
             goal=50, komi=1, game_name="red-light", kind="designer-nn-7-13-1")
    np.savez(root / "nanweights.npz", W1=np.full((13, 7), np.nan), b1=np.zeros(13),
             W2=np.zeros(13), b2=0.0, lo=np.zeros(7), hi=np.ones(7), features=np.array(["a"]),
             bad=4, good=24, goal=50, komi=1, game_name="red-light", kind="designer-nn-7-13-1")
    full = (root / "shapes.npz").read_bytes()
    (root / "truncated.npz").write_bytes(full[: len(full) // 2])
    with zipfile.ZipFile(root / "badmember.npz", "w") as z:
        z.writestr("W1.npy", b"\x93NUMPY garbage")
        z.writestr("kind.npy", b"nonsense")
    (root / "pol.py").write_text(
        "import math\n"
        "NOT_A_FUNCTION = 3\n"
        "class Klass:\n    pass\n"
        "def returns_str(i, j, k, w, c, bad, good, goal):\n    return 'yes'\n"
        "def returns_list(i, j, k, w, c, bad, good, goal):\n    return [1]\n"
        "def returns_none(i, j, k, w, c, bad, good, goal):\n    return None\n"
        "def wrong_arity(i):\n    return True\n"
        "def raises(i, j, k, w, c, bad, good, goal):\n    return 1 // (k - k)\n"
        "def dice_str(i, j, k, faces, goal):\n    return 'no'\n")
    (root / "broken.py").write_text("def f(:\n")
    (root / "notpy.txt").write_text("hello\n")
    return root


# -- command lines ------------------------------------------------------------

GAME_FLAGS = {"--bad": "deck", "--good": "deck", "--faces": "dice", "--goal": "deck",
              "--komi": "deck", "--brains": "zombie", "--shotguns": "zombie",
              "--footprints": "zombie", "--dice": "zombie", "--bust-shotguns": "zombie",
              "--cap": "zombie"}
GAME_FOR = {"deck": ["red-light", "deck --bad 3 --good 10"], "dice": ["pig", "dice"],
            "zombie": ["zombie-yellow", "zombie"]}


def _game_cases(cmd, extra=()):
    """Every game flag with every bad integer, on a preset and a family."""
    out = []
    for flag, fam in GAME_FLAGS.items():
        for value, game in itertools.product(BAD_INTS + HUGE_INTS, GAME_FOR[fam][:1]):
            out.append([*cmd, *game.split(), flag, value, *extra])
    for game in ["chess", "", "../../etc/passwd", "red-light/", "RED LIGHT"]:
        out.append([*cmd, game, *extra])
    for bf in ["", "x", "1,,2", "0", "7", "1,2,3,4,5,6", "1.5"]:
        out.append([*cmd, "pig", "--bust-faces", bf, *extra])
    # flags of another family, mixed families
    out.append([*cmd, "pig", "--bad", "3", *extra])
    out.append([*cmd, "red-light", "--faces", "6", *extra])
    out.append([*cmd, "zombie-yellow", "--good", "3", *extra])
    out.append([*cmd, "deck", "--bad", "3", *extra])
    return out


def cli_cases(root):
    """Bad command lines (each must exit 2 with one line on stderr)."""
    r = Path(root)
    cases = []
    # solve
    cases += _game_cases(["solve"])
    cases += [["solve", "red-light", "--max-komi", v] for v in BAD_INTS + HUGE_INTS]
    cases += [["solve"], ["solve", "red-light", "--nope"], ["--nope"], [], ["solve", "-x"]]
    # compare
    cases += _game_cases(["compare"], ["--policy", "max-score"])
    for pol in ["", "nope", "hold-at:", "hold-at:0", "hold-at:-3", "hold-at:x",
                "hold-at:99999999999999999999", "nn:", f"nn:{r}/missing.npz", f"nn:{r}/adir",
                f"nn:{r}/notnpz.npz", f"nn:{r}/empty.npz", f"nn:{r}/other.npz",
                f"nn:{r}/shapes.npz", f"nn:{r}/truncated.npz", f"nn:{r}/badmember.npz",
                f"nn:{r}/nanbad.npz", f"nn:{r}/nanweights.npz",
                "py:", f"py:{r}/pol.py", f"py:{r}/pol.py:", f"py:{r}/pol.py:missing",
                f"py:{r}/pol.py:NOT_A_FUNCTION", f"py:{r}/pol.py:Klass", f"py:{r}/pol.py:math",
                f"py:{r}/pol.py:returns_str", f"py:{r}/pol.py:returns_list",
                f"py:{r}/pol.py:returns_none", f"py:{r}/pol.py:wrong_arity",
                f"py:{r}/pol.py:raises", f"py:{r}/broken.py:f", f"py:{r}/notpy.txt:f",
                f"py:{r}/adir:f", f"py:{r}/missing.py:f"]:
        cases.append(["compare", "red-light", "--policy", pol])
        cases.append(["compare", "red-light", "--policy", "max-score", "--against", pol])
    for pol in [f"py:{r}/pol.py:dice_str", "hold-at:0", f"nn:{r}/shapes.npz"]:
        cases.append(["compare", "pig", "--policy", pol])
    cases += [["compare", "zombie-yellow", "--policy", p] for p in
              ["nope", "hold-at:0", "hold-at:x", f"nn:{r}/shapes.npz", "py:x.py:f"]]
    cases += [["compare", "red-light"]]
    # policy train-nn
    base = ["policy", "train-nn", "red-light", "--out", str(r / "out.npz")]
    cases += [[*base, "--epochs", v] for v in ["0", "-1", "x", "99999999999999999999"]]
    cases += [[*base, "--seed", v] for v in BAD_SEEDS]
    cases += [[*base, "--minutes", v] for v in BAD_FLOATS + ["0"]]
    cases += [[*base, "--games", v] for v in ["0", "-5", "x", "99999999999999999999"]]
    cases += [[*base, "--stake", v] for v in BAD_FLOATS + ["1.5"]]
    for out in [str(r / "adir"), str(r / "missing_parent" / "n.npz"), "", "/proc/x.npz",
                str(r / "tiny.toml" / "n.npz")]:
        cases.append(["policy", "train-nn", "red-light", "--epochs", "1", "--out", out])
    cases += [["policy", "train-nn", "pig", "--out", str(r / "p.npz"), "--epochs", "1"],
              ["policy", "train-nn", "red-light"], ["policy"], ["policy", "nope"]]
    # study: files that are not study files, and bad flags
    bad_files = [str(r / "missing.toml"), str(r / "adir"), str(r / "adir.toml"),
                 str(r / "latin1.toml"), str(r / "binary.toml"), str(r / "empty.toml"),
                 str(r / "notnpz.npz"), ""]
    for action in ["run", "resume", "status", "top", "export"]:
        cases += [["study", action, f] for f in bad_files]
    tiny = str(r / "tiny.toml")
    cases += [["study", "run", tiny, "--workers", v] for v in ["0", "-1", "x", "100000"]]
    cases += [["study", "run", tiny, "--backend", "dask"],
              ["study", "run", tiny, "--backend", "dask", "--scheduler", "localhost"],
              ["study", "run", tiny, "--backend", "dask", "--scheduler", "tcp://127.0.0.1"],
              ["study", "run", tiny, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:x"],
              ["study", "run", tiny, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:99999"],
              ["study", "run", tiny, "--scheduler", "tcp://127.0.0.1:8786"],
              ["study", "run", tiny, "--backend", "nope"],
              ["study", "run", tiny, "--top", "-1"], ["study", "run", tiny, "--top", "x"]]
    cases += [["study", "top", tiny, "--n", v] for v in ["0", "-1", "x"]]
    cases += [["study", "export", tiny, "--format", v] for v in ["xlsx", "", "PARQUET;rm"]]
    # no results yet (`study status` answers instead: 0 done, tests/test_progress_truth.py)
    cases += [["study", "top", tiny], ["study", "export", tiny], ["study", "resume", tiny]]
    cases += [["study"], ["study", "nope", tiny]]
    # report
    cases += [["report", f] for f in bad_files]
    cases += [["report", tiny]]  # no results yet
    cases += [["report", tiny, "--card-size", v] for v in ["-1", "81", "x", "1e3"]]
    cases += [["report", tiny, "--policies", v] for v in ["-1", "x"]]
    # simulate
    sim = ["simulate", "persian-monarchs", "--games", "100"]
    for flag in ["--max-raise", "--ante", "--start", "--rounds", "--pack"]:
        cases += [[*sim, flag, v] for v in BAD_INTS + HUGE_INTS[flag == "--start":] + ["0"]]
    cases += [[*sim, "--seed", v] for v in BAD_SEEDS]
    cases += [[*sim, "--games", v] for v in ["0", "-1", "x", "99999999999999999999"]]
    cases += [[*sim, "--jobs", v] for v in ["0", "-2", "x", "100000"]]
    cases += [[*sim, "--player", v] for v in ["", "nope", "optimal"]]
    cases += [[*sim, "--opponent", v] for v in ["", "nope"]]
    cases += [["simulate", g, "--games", "100"] for g in ["red-light", "pig", "chess", ""]]
    # play (non-interactive paths only)
    cases += [["play", "red-light", "--seed", v, "--stats"] for v in BAD_SEEDS]
    cases += [["play", "red-light", "--level", v]
              for v in ["", "rule:", "rule:" + str(r / "notnpz.npz"), "rule:" + str(r), "HARD"]]
    cases += [["play", "zombie-dice", "--test-mode"], ["play", "zombie-yellow", "--nn", "x"]]
    cases += [["play", "red-light", "--level", "nope"],
              ["play", "red-light", "--first", "nope"],
              ["play", "chess", "--stats"],
              ["play", "red-light", "--nn", str(r / "notnpz.npz")],
              ["play", "red-light", "--nn", str(r / "truncated.npz")],
              ["play", "red-light", "--level", "hard", "--nn", str(r / "adir")]]
    # seats and endings
    for v in BAD_INTS + ["0", "1", "5"]:
        cases.append(["solve", "pig", "--players", v])
    for v in ["", "sudden", "RACE", "race,rounds"]:
        cases.append(["solve", "pig", "--ending", v])
    for komi, more in [("0,1", ["--players", "3"]), ("0,1,2", []), ("0,1,2,3,4", ["--players", "4"]),
                       ("a,b,c", ["--players", "3"]), ("1.5", []), ("1,,2", ["--players", "3"]),
                       ("1,2", []), ("-1,0,0", ["--players", "3"]), ("0,999,0", ["--players", "3"]),
                       ("-1", ["--players", "3"])]:
        cases.append(["solve", "pig", "--komi", komi, *more])
    cases += [["solve", "fowl-play", "--players", "4", "--goal", "400"],
              ["solve", "zombie-dice", "--players", "5"],
              ["solve", "zombie-yellow", "--players", "3", "--komi", "0,1"],
              ["solve", "zombie-yellow", "--players", "4", "--komi", "0,0,0,13"],
              ["solve", "red-light", "--players", "3", "--ending", "rounds", "--goal", "400"]]
    # Zombie Dice with 3-4 seats, compared and played as rules
    cases += [["compare", "zombie-yellow", "--players", "3", "--policy", v]
              for v in ["rule:below x", "py:x.py:f", "hold-at:-1", "hold-at:x", "neller", ""]]
    cases += [["compare", "zombie-yellow", "--players", "3", "--cap", v, "--policy", "hold-at:2"]
              for v in BAD_INTS + ["5"]]
    cases += [["compare", "zombie-dice", "--players", "4", "--policy", "max-score"],  # memory
              ["play", "zombie-yellow", "--players", "3", "--level", "neller"],
              ["play", "zombie-dice", "--players", "4", "--komi", "0,1"]]
    # full Zombie Dice colours
    for flag in ["--green", "--yellow", "--red"]:
        cases += [["solve", "zombie", flag, v] for v in BAD_INTS + ["100"]]
    cases += [["solve", "zombie", "--green", "1", "--yellow", "0", "--red", "0"],
              ["compare", "zombie-dice", "--policy", "max-score"],  # decks and dice only
              ["compare", "zombie-dice", "--policy", "hold-at:0"],
              ["compare", "zombie-dice", "--policy", "nn:x.npz"]]
    # strategy cards
    cases += [["strategy", "pig", "--max-size", v] for v in BAD_INTS + ["81", "1000"]]
    cases += [["strategy", g] for g in ["chess", "persian-monarchs", "zombie-dice", ""]]
    cases += [["strategy", "pig", "--players", "5"],
              ["strategy", "pig", "--players", "3", "--ending", "rounds", "--max-size", "-1"],
              ["strategy", "pig", "--players", "3", "--trials", "0"],  # played as rules
              ["strategy", "pig", "--ending", "rounds", "--trials", "0"],  # played as rules
              ["compare", "pig", "--ending", "rounds", "--policy", "two-player"],
              ["compare", "red-light", "--ending", "rounds", "--policy", "nn:x.npz"],
              ["compare", "pig", "--ending", "rounds", "--policy", "rule:"],
              ["compare", "pig", "--players", "3", "--ending", "rounds", "--policy", "rule:k<5"],
              ["strategy", "pig", "--trials", "0"], ["strategy", "pig", "--jobs", "0"],
              ["strategy", "pig", "--out", str(r / "missing_parent" / "rule.toml")],
              ["strategy", "pig", "--out", str(r / "adir.toml")],
              ["strategy", "pig", "--cache", str(r / "missing_parent" / "c.jsonl")],
              ["strategy", "pig", "--cache", str(r / "adir")]]
    for f in ["missing.toml", "adir", "latin1.toml", "binary.toml", "empty.toml", "tiny.toml",
              "notnpz.npz"]:
        cases.append(["compare", "pig", "--policy", f"rule:{r / f}"])
    cases.append(["compare", "pig", "--policy", "rule:"])
    # the two-player abstraction: other seats optimal, race only
    cases += [["compare", "pig", "--players", "3", "--policy", "two-player", "--against", a]
              for a in ["max-score", "neller", "hold-at:3", "two-player", ""]]
    cases += [["compare", "pig", "--players", "3", "--ending", "rounds", "--goal", "10",
               "--policy", "two-player"],
              ["compare", "pig", "--players", "3", "--policy", "nonsense"],
              ["compare", "pig", "--players", "3", "--policy", "hold-at:0"],
              ["compare", "zombie-yellow", "--players", "3", "--policy", "two-player"],
              ["compare", "fowl-play", "--players", "4", "--policy", "two-player"],  # memory
              ["compare", "red-light", "--players", "4", "--goal", "40", "--policy", "two-player"],
              ["compare", "pig", "--policy", "two-player", "--players", "5"]]
    return cases


# -- study files --------------------------------------------------------------

def _replace(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


def study_cases():
    """Malformed study files: ``(label, text or bytes)``, each must be refused."""
    v = VALID_STUDY
    cases = []
    # wrong types anywhere
    for key, old in [("name", 'name = "tiny"'), ("family", 'family = "deck"'),
                     ("method", 'method = "grid"'), ("workers", "workers = 1"),
                     ("goal", "goal = 8"), ("komi", "komi = [0, 1]"),
                     ("bad", "bad = {min = 1, max = 2}"), ("rank", 'rank = ["fairness"]')]:
        lhs = old.split(" = ")[0]
        for bad in ['[1, 2]', '{a = 1}', '3.5', 'true', '"text"', '1979-05-27',
                    '[]', '{}', '["a", 1]']:
            if (key in ("goal", "komi", "bad") and bad == "[1, 2]") or (
                    key == "name" and bad == '"text"'):
                continue  # valid: a list of values, a plain name
            cases.append((f"{key}={bad}", _replace(v, old, f"{lhs} = {bad}")))
    # names that escape or are not plain words
    for name in ["../escape", "a/b", "a b", "", ".", "..", "x" * 200, "na\\me", "\u00e9t\u00e9",
                 "name\n", "a.b"]:
        cases.append((f"name {name!r}", _replace(v, 'name = "tiny"', f"name = {_toml_str(name)}")))
    for results in ["../../outside", "/tmp/elsewhere", "a/../../b"]:
        cases.append((f"results {results}", _replace(
            v, "workers = 1", f"workers = 1\nresults = {_toml_str(results)}")))
    # NaN, inf and reversed bounds
    for cons in ["{min = nan}", "{max = inf}", "{min = -inf}", "{min = 0.6, max = 0.4}",
                 "{min = nan, max = 1}", "{}", "{mean = 1}", "[1, 2]", '"0.5"']:
        cases.append((f"constraint {cons}", v + f"\n[constraints]\nfirst_player_win = {cons}\n"))
    cases.append(("unknown constraint", v + "\n[constraints]\nspeed = {max = 1}\n"))
    # ranges
    for r in ["{min = 2, max = 1}", "{min = 1}", "{min = 1, max = 2, step = 1}",
              "{min = 1.0, max = 2.0}", "{min = -5, max = 2}", "{min = 1, max = 100000}",
              "[0, 1]", "[1, 99999999999]"]:
        cases.append((f"bad range {r}", _replace(v, "bad = {min = 1, max = 2}", f"bad = {r}")))
    # a space too large to enumerate
    cases.append(("huge space", _replace(_replace(v, "bad = {min = 1, max = 2}",
                                                  "bad = {min = 1, max = 60}"),
                                         "good = {min = 2, max = 3}",
                                         "good = {min = 1, max = 400}").replace(
        "goal = 8", "goal = {min = 1, max = 1000}")))
    cases.append(("huge komi list", _replace(v, "komi = [0, 1]", "komi = {min = 0, max = 10000000}")))
    # players and endings in a study
    for label, extra in [("players 5", "players = [2, 5]"), ("players 1", "players = 1"),
                         ("players text", 'players = "three"'), ("ending sudden", 'ending = "sudden"'),
                         ("ending list bad", 'ending = ["race", "sudden"]'), ("ending int", "ending = 2"),
                         ("ending empty", "ending = []"), ("ending table", "ending = {min = 1}"),
                         ("negative komi in race", 'players = 3\nkomi = {min = -1, max = 1}')]:
        body = _replace(v, "komi = [0, 1]\n", "") if "komi" in extra else v
        cases.append((label, _replace(body, "goal = 8", "goal = 8\n" + extra)))
    cases.append(("seats under optuna", _replace(_replace(v, 'method = "grid"', 'method = "optuna"'),
                                                 "goal = 8", "goal = 8\nplayers = 3")))
    # structure
    cases += [("unknown table", v + "\n[extra]\na = 1\n"),
              ("unknown key", _replace(v, "workers = 1", "workers = 1\ncolour = 'red'")),
              ("no study table", v.replace("[study]", "[studyy]")),
              ("no space table", v.replace("[space]", "[spaces]")),
              ("no family", _replace(v, 'family = "deck"\n', "")),
              ("family chess", _replace(v, 'family = "deck"', 'family = "chess"')),
              ("method random", _replace(v, 'method = "grid"', 'method = "random"')),
              ("workers 0", _replace(v, "workers = 1", "workers = 0")),
              ("workers huge", _replace(v, "workers = 1", "workers = 100000")),
              ("missing good", _replace(v, "good = {min = 2, max = 3}\n", "")),
              ("param of another family", _replace(v, "goal = 8", "goal = 8\nfaces = 6")),
              ("rank empty", _replace(v, 'rank = ["fairness"]', "rank = []")),
              ("rank unknown", _replace(v, 'rank = ["fairness"]', 'rank = ["speed"]')),
              ("rank direction", _replace(v, 'rank = ["fairness"]', 'rank = ["up:fairness"]')),
              ("objectives extra", _replace(v, 'rank = ["fairness"]', 'rank = ["fairness"]\nx = 1')),
              ("optuna trials 0", v + "\n[optuna]\ntrials = 0\n"),
              ("optuna trials str", v + "\n[optuna]\ntrials = 'many'\n"),
              ("optuna seed big", v + "\n[optuna]\nseed = 18446744073709551616\n"),
              ("optuna seed negative", v + "\n[optuna]\nseed = -1\n"),
              ("optuna storage list", v + "\n[optuna]\nstorage = [1]\n"),
              ("optuna storage url", _replace(v, 'method = "grid"', 'method = "optuna"')
               + "\n[optuna]\nstorage = 'nonsense://x'\n"),
              ("simulation on deck", v + "\n[simulation]\ngames = 100\n"),
              ("study is a list", v.replace("[study]", "study = [1]\n[studyx]")),
              ("space is a string", v.replace("[space]", "space = 'x'\n[spacex]")),
              ("komi >= goal", _replace(v, "komi = [0, 1]", "komi = [0, 8]")),
              ("goal 0", _replace(v, "goal = 8", "goal = 0")),
              ("duplicate key", _replace(v, "workers = 1", "workers = 1\nworkers = 2")),
              ("bad toml", v + "\n[study\n"),
              ("not utf-8", v.encode("utf-8").replace(b"tiny", b"ti\xffny")),
              ("binary", bytes(range(256))),
              ("nul byte", v.replace("tiny", "ti\x00ny").encode()),
              ("empty", "")]
    # wager studies: simulation bounds
    w = ('[study]\nname = "w"\nfamily = "wager"\n\n[space]\nmax_raise = {min = 2, max = 3}\n'
         "\n[simulation]\ngames = 1000\nseed = 1\n")
    for old, new in [("games = 1000", "games = 0"), ("games = 1000", "games = 10.5"),
                     ("seed = 1", "seed = -1"), ("seed = 1", "seed = 18446744073709551616"),
                     ("games = 1000", "games = 1000000000000")]:
        cases.append((f"wager {new}", _replace(w, old, new)))
    return cases


def _toml_str(s):
    import json

    return json.dumps(s)


# -- generated from the parser and the support table ---------------------------

#: Numbers far outside any range, in the forms a user might type them.
HUGE_NUMBERS = ["99999999999999999999", "-99999999999999999999", "1e400", "1" + "0" * 400,
                "9223372036854775808"]
#: Options that carry numbers as text (parsed by the command, not argparse).
NUMERIC_TEXT = {"komi", "bust_faces", "green_faces", "yellow_faces", "red_faces"}


def _base(path, root):
    """A command line that would run, for the sub-command ``path``."""
    r = Path(root)
    tiny = str(r / "tiny.toml")
    return {
        ("solve",): ["solve", "pig", "--goal", "10"],
        ("rules", "check"): ["rules", "check", "piglet"],
        ("compare",): ["compare", "pig", "--goal", "10", "--policy", "max-score"],
        ("play",): ["play", "pig", "--goal", "10"],
        ("strategy",): ["strategy", "pig", "--goal", "10", "--max-size", "1"],
        ("policy", "train-nn"): ["policy", "train-nn", "red-light", "--goal", "10", "--out",
                                 str(r / "o.npz"), "--epochs", "1"],
        ("simulate",): ["simulate", "persian-monarchs", "--games", "10"],
        ("study", "run"): ["study", "run", tiny], ("study", "resume"): ["study", "resume", tiny],
        ("study", "status"): ["study", "status", tiny], ("study", "top"): ["study", "top", tiny],
        ("study", "export"): ["study", "export", tiny], ("report",): ["report", tiny],
    }.get(path)


def _subparsers(parser, path=()):
    """``(path, parser)`` for every sub-command, nested ones included."""
    import argparse

    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
    for action in subs:
        for name, p in action.choices.items():
            yield from _subparsers(p, path + (name,))


def _numeric(action):
    """Whether an option reads a number (by its argparse type or its name)."""
    import argparse

    if not action.option_strings or action.nargs not in (None, "?"):
        return False
    if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction,
                           argparse._HelpAction, argparse._VersionAction,
                           argparse._StoreConstAction)):
        return False
    kind = action.type
    return (kind in (int, float) or getattr(kind, "__name__", "") in ("integer", "number")
            or action.dest in NUMERIC_TEXT or (kind is not None and "seed" in action.dest))


def huge_number_cases(root):
    """Every option that reads a number, of every sub-command, given a huge
    one on a command line that would otherwise run: generated from the
    argument parser, so a new option is covered when it is added."""
    from designer.cli import build_parser

    cases = []
    for path, parser in _subparsers(build_parser()):
        base = _base(path, root)
        if base is None:
            continue
        for action in parser._actions:
            if _numeric(action):
                flag = max(action.option_strings, key=len)
                # seeds take 0 .. 2**64 - 1: 2**63 is one of them
                values = [v for v in HUGE_NUMBERS
                          if "seed" not in action.dest or v != "9223372036854775808"]
                cases += [[*base, flag, v] for v in values]
    return cases


#: Values of --players and --ending that no command takes.
BAD_PLAYERS = ["0", "1", "5", "-2", "x", "", "2.0", "99999999999999999999"]
BAD_ENDINGS = ["", "RACE", "rounds ", "sudden-death", "race,rounds", "0"]


def seat_cases(root):
    """Every command that takes a game, on every kind of game (the support
    table's), with players and endings no command takes."""
    from designer.support import KINDS, SUPPORT

    games = {"deck": ["deck", "--bad", "2", "--good", "4", "--goal", "6"],
             "dice": ["dice", "--faces", "4", "--goal", "8"],
             "zombie": ["zombie", "--goal", "5", "--cap", "9"],
             "zombie-dice": ["zombie-dice", "--goal", "4", "--green", "3", "--yellow", "1",
                             "--red", "1"],
             "wager": ["persian-monarchs"], "rules": ["piglet", "--goal", "6"]}
    cases = []
    for command in SUPPORT:
        if command == "study run":
            continue  # study files: study_cases
        base = _base(tuple(command.split()), root)
        for kind in KINDS:
            game = games[kind]
            argv = [*command.split(), *game, *base[len(command.split()) + 1:]]
            cases += [[*argv, "--players", v] for v in BAD_PLAYERS]
            cases += [[*argv, "--ending", v] for v in BAD_ENDINGS]
    return cases


VALID_STATS = {
    "version": 1,
    "designs": {
        "deck:bad=2,good=4,goal=6,komi=0": {
            "name": "deck 2 bad / 4 good",
            "params": {"family": "deck", "bad": 2, "good": 4, "goal": 6, "komi": 0},
            "levels": {"hard": {"games": 3, "wins": 1, "quits": 1, "decisions": 4,
                                "loss": 0.0312,
                                "moves": [[0, 0, 0, 0, 4, "draw"], [0, 0, 2, 0, 2, "hold"]]}}},
        "dice:faces=4,bust_faces=1,goal=8,komi=0": {
            "name": "d4 bust on 1",
            "params": {"family": "dice", "faces": 4, "bust_faces": [1], "goal": 8, "komi": 0},
            "levels": {"easy": {"games": 1, "wins": 1, "quits": 0}}},
    },
}

#: What replaces a value of the statistics file: other types, negative and
#: huge numbers, and values JSON allows but no count is.
STATS_DAMAGE = [None, "x", -1, 1.5, True, [], {}, 10**30, float("nan"), float("inf")]


def _paths(doc, path=()):
    """Every path into a JSON document (objects and lists), leaves last."""
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, path + (i,))


def _replaced(doc, path, value):
    import copy

    out = copy.deepcopy(doc)
    if not path:
        return value
    node = out
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return out


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _same_kind(old, new):
    """A replacement of the same kind (a count by a count, text by text):
    the file may then be read; any other must be refused."""
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new)
    if isinstance(old, int) and isinstance(new, int):
        return new >= 0
    if isinstance(old, float) and isinstance(new, (int, float)):
        return new == new and abs(new) != float("inf")
    return type(old) is type(new)  # text for text; an empty list or object for one


def stats_cases():
    """Damaged statistics files: ``(label, bytes, must_refuse)``; every value
    of a valid file replaced by every damage, and broken files."""
    import json

    cases = []
    for path in _paths(VALID_STATS):
        old = _get(VALID_STATS, path)
        for value in STATS_DAMAGE:
            doc = _replaced(VALID_STATS, path, value)
            label = "/".join(map(str, path)) + f"={value!r}"
            cases.append((label, json.dumps(doc).encode(), not _same_kind(old, value)))
    whole = json.dumps(VALID_STATS).encode()
    cases += [("truncated", whole[: len(whole) // 2], True), ("empty", b"", True),
              ("binary", bytes(range(256)), True), ("latin-1", '{"\xe9": 1}'.encode("latin-1"),
                                                    True),
              ("a list", b"[1, 2]", True), ("nested deep", b"[" * 100000 + b"]" * 100000, True)]
    return cases
