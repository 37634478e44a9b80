"""Every command x every kind of game x 2-4 players x both endings.

Generated from the support table (:data:`designer.support.SUPPORT`): each
cell the table marks as taken runs through the command line and, where the
command computes a figure, agrees with the solver called directly; each
other cell is refused in one line with exit status 2 before any work (no
file written, nothing on stdout). The README's table and every command's
``--help`` are checked against the same table.
"""

import dataclasses
import itertools
import json
import os
import re
import sys
from pathlib import Path

import pytest

from cli_runner import cli
from designer.engine.game import load_rules_game, solve_game
from designer.games import load_game
from designer.solve import solve
from designer.support import ENDINGS, KINDS, PLAYERS, SUPPORT, as_rules, markdown_table, refusal

ROOT = Path(__file__).resolve().parents[1]

#: A small game of each kind: (name on the command line, its parameters).
GAMES = {
    "deck": ("deck", {"bad": 2, "good": 4, "goal": 6}),
    "dice": ("dice", {"faces": 4, "goal": 8}),
    "zombie": ("zombie", {"goal": 5, "cap": 9}),
    "zombie-dice": ("zombie-dice", {"goal": 3, "cap": 6, "green": 3, "yellow": 1, "red": 1}),
    "wager": ("wager", {}),
    "rules": ("piglet", {"goal": 6}),
}
#: What `simulate` is given for each kind (it takes no game parameters).
PRESETS = {"deck": "fowl-play", "dice": "pig", "zombie": "zombie-yellow",
           "zombie-dice": "zombie-dice", "wager": "persian-monarchs", "rules": "piglet"}


def _flags(params):
    return [x for k, v in params.items() for x in (f"--{k.replace('_', '-')}", str(v))]


def _cells():
    for command, kind, n, e in itertools.product(SUPPORT, KINDS, PLAYERS, ENDINGS):
        yield pytest.param(command, kind, n, e, id=f"{command.replace(' ', '-')}-{kind}-{n}-{e}")


def _taken(command, kind, n, e):
    """Whether the table takes this cell. A wagering game has no players or
    ending to set: its one cell taken is (2, race) given without the flags."""
    reach = SUPPORT[command].get(kind)
    if reach is None:
        return False
    if kind == "wager":
        return (n, e) == (2, "race")
    return reach.takes(n, e)


def _seat_flags(kind, n, e):
    return [] if kind == "wager" and (n, e) == (2, "race") else ["--players", str(n),
                                                                 "--ending", e]


def _argv(command, kind, n, e, tmp_path):
    name, params = GAMES[kind]
    game = [name, *_flags(params), *_seat_flags(kind, n, e)]
    if command == "solve":
        return ["solve", *game, "--json"]
    if command == "rules check":
        return ["rules", "check", *game, "--json"]
    if command == "compare":
        return ["compare", *game, "--policy", "optimal", "--json"]
    if command == "play":
        return ["play", *game, "--no-pause", "--first", "human", "--seed", "1"]
    if command == "strategy":
        return ["strategy", *game, "--max-size", "1", "--trials", "2", "--jobs", "1",
                "--json"]
    if command == "policy train-nn":
        return ["policy", "train-nn", *game, "--out", str(tmp_path / "nn.npz"), "--epochs", "1",
                "--games", "5", "--json"]
    if command == "simulate":
        seats = [] if (n, e) == (2, "race") else ["--players", str(n), "--ending", e]
        return ["simulate", PRESETS[kind], *seats, "--games", "10",
                "--rounds", "2", "--json"]
    raise AssertionError(command)


def _game(kind, n, e, cap=True):
    name, params = GAMES[kind]
    if not cap:  # the default cap (a study does not set one)
        params = {k: v for k, v in params.items() if k != "cap"}
    if kind == "wager":  # two sides, no ending
        return load_game(name, **params)
    if kind == "rules":  # a rules file, solved by the engine
        return load_rules_game(name, **params, players=n, ending=e)
    return load_game(name, **params, players=n, ending=e)


def _first_seat_win(kind, n, e, cap=True):
    if kind == "rules":
        return solve_game(_game(kind, n, e))["first_player_win"]
    return solve(_game(kind, n, e, cap)).summary()["first_player_win"]


def _study_file(tmp_path, kind, n, e):
    space = {"deck": "bad = 2\ngood = 4\ngoal = 6\nkomi = [0]",
             "dice": "faces = 4\ngoal = 8\nkomi = [0]",
             "zombie": ("brains = 2\nshotguns = 2\nfootprints = 2\ndice = 3\nbust_shotguns = 3\n"
                        "goal = 5\nkomi = [0]"),
             "zombie-dice": "green = 3\nyellow = 1\nred = 1\ngoal = 3\nkomi = [0]",
             "wager": "max_raise = 2\nante = 1\nstart = 10\nrounds = 2\npack = 52",
             "rules": "goal = 6\nkomi = [0]"}[kind]
    seats = "" if kind == "wager" and (n, e) == (2, "race") else f'players = {n}\nending = "{e}"'
    path = tmp_path / "s.toml"
    rules = 'rules = "piglet"\n' if kind == "rules" else ""
    path.write_text(f'[study]\nname = "s"\nfamily = "{kind}"\nmethod = "grid"\nworkers = 1\n'
                    f"{rules}\n[space]\n{space}\n{seats}\n")
    return path


def _expected_refusal(command, kind, n, e):
    """The one line a refused cell must give (a part of it)."""
    if kind == "wager" and (n, e) != (2, "race"):
        # the flags themselves: simulate has none, a wagering game takes none
        return "unrecognized arguments" if command == "simulate" else "does not take"
    if command == "simulate" and kind != "wager":
        if (n, e) != (2, "race"):
            return "unrecognized arguments"
        preset = (load_rules_game if kind == "rules" else load_game)(PRESETS[kind])
        return refusal(command, kind, 2, "rounds" if kind.startswith("zombie") else "race",
                       preset.name)
    if command == "study run":
        return refusal(command, kind, n, e, f"{kind} studies", ("players = ", "ending = "))
    if command == "rules check" and kind == "zombie-dice":
        # `rules check` reads rules files only, so the name is the shipped
        # rules file of Zombie Dice, which has no family parameters
        return ("Zombie Dice (a rules file) does not take --cap, --green, --yellow, --red: "
                "its parameters are --goal, --komi, --players, --ending")
    if kind.startswith("zombie") and e == "race":
        return "invalid ending='race': allowed rounds"  # Zombie Dice's only ending
    return refusal(command, kind, n, e, _game(kind, n, e).name)


@pytest.mark.parametrize("command, kind, n, e", list(_cells()))
def test_cell(command, kind, n, e, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path / "data"))
    taken = _taken(command, kind, n, e)
    if command == "play" and taken:
        return _play_cell(kind, n, e, tmp_path)
    if command == "study run":
        path = _study_file(tmp_path, kind, n, e)
        r = cli("study", "run", str(path))
    else:
        r = cli(*_argv(command, kind, n, e, tmp_path))
    if not taken:
        assert r.returncode == 2, (r.returncode, r.stderr)
        assert r.stdout == ""
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("designer"), r.stderr
        assert _expected_refusal(command, kind, n, e) in lines[0]
        left = sorted(p.name for p in tmp_path.iterdir()) if tmp_path.exists() else []
        assert left in ([], ["s.toml"]), left  # nothing written before the refusal
        return
    assert r.returncode == 0, r.stderr
    if command == "solve":
        assert json.loads(r.stdout)["first_player_win"] == _first_seat_win(kind, n, e)
    elif command == "rules check":  # the state count is the solver's
        assert json.loads(r.stdout)["states"] == solve_game(_game(kind, n, e))["states"]
    elif command == "compare":
        out = json.loads(r.stdout)
        if n == 2:  # optimal against optimal: the solver's figure
            assert out["win_as_first"] == pytest.approx(_first_seat_win(kind, n, e), abs=1e-12)
        else:  # each seat's optimum is the N-player solve's (the engine's where the
            # command plays the game as rules: at a position where max-n best replies
            # cycle, two solvers may stop at different points of the cycle)
            game = as_rules("compare", _game(kind, n, e))
            if out.get("cap") is not None:  # the rounds: the cap the evaluation used, at
                # least the game's (a Zombie game's own, raised past the turns' reach)
                assert out["cap"] >= (game.cap or 0)
                game = dataclasses.replace(game, cap=out["cap"] // game.unit)
            seat_win = (solve_game(game)["seat_win"] if game.family == "rules"
                        else solve(game).summary()["seat_win"])
            assert [s["optimal_win"] for s in out["seats"]] == pytest.approx(seat_win[:n],
                                                                             abs=1e-12)
    elif command == "policy train-nn":
        assert (tmp_path / "nn.npz").is_file()
    elif command == "study run":
        _study_agrees(path, kind, n, e)
    else:
        json.loads(r.stdout)  # strategy, simulate: one JSON document


def _study_agrees(path, kind, n, e):
    from designer.search import load_study, open_store

    rows = open_store(load_study(path), readonly=True).rows()
    assert len(rows) >= 1
    if kind == "wager":
        return
    column = "seat_1_win" if "seat_1_win" in rows else "first_player_win"
    assert rows[column].iloc[0] == pytest.approx(_first_seat_win(kind, n, e, cap=False),
                                                 abs=1e-12)


def _play_cell(kind, n, e, tmp_path):
    """A taken play cell: the game starts in a terminal, q ends it (exit 0)."""
    pexpect = pytest.importorskip("pexpect")
    name, params = GAMES[kind]
    env = {**os.environ, "DESIGNER_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100"}
    child = pexpect.spawn(sys.executable, ["-m", "designer", "play", name, *_flags(params),
                                           "--players", str(n), "--ending", e, "--no-pause",
                                           "--first", "human", "--seed", "1"],
                          cwd=str(ROOT), env=env, encoding="utf-8", timeout=120,
                          dimensions=(50, 100))
    child.expect("q = quit")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_every_cell_is_generated():
    cells = list(_cells())
    assert len(cells) == len(SUPPORT) * len(KINDS) * len(PLAYERS) * len(ENDINGS) == 288


def test_the_readme_shows_the_table():
    text = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- generated by designer.support.markdown_table\(\)[^\n]*-->\n(.*?)\n"
                      r"<!-- end of the generated table -->", text, re.S)
    assert block and block.group(1) == markdown_table()


@pytest.mark.parametrize("command", list(SUPPORT))
def test_help_says_what_each_command_takes(command):
    from designer.support import sentence

    r = cli(*command.split(), "--help")
    assert r.returncode == 0
    assert " ".join(sentence(command).split()) in " ".join(r.stdout.split())
