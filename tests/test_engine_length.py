"""The expected game length under optimal play of a rules game
(designer.engine.length): against the slow match reference written from the
rules (optimal against optimal, tests/engine_match_reference.py), against
today's family solvers, and in ``designer solve``'s output."""

import json

import numpy as np
import pytest
from cli_runner import cli
from engine_match_reference import Optimal, reference_match
from engine_reference import Deck, Die, FromModel, PairOfDice

from designer import load_game
from designer.engine.game import load_rules_game, solve_game
from designer.engine.length import game_lengths
from designer.engine.match import match_model, parse_rules_policy
from designer.engine.model import build_model
from designer.engine.rulesfile import parse_rules
from designer.engine.solve import plan, solve_model
from designer.solve import solve

PIGLET = "goal = {goal}\n[dice]\nsides = 2\nface.1 = { bust = true }\nface.2 = { points = 1 }\n"
D3 = "goal = 8\n[dice]\nsides = 3\nface.1 = { bust = true }\n"
DECK = "goal = 6\n[turn]\nforced_first = true\n[deck]\nbad = 2\ngood = 3\n"
PAIR = ("goal = 12\n[dice]\ncount = 2\nsides = 3\nface.1 = { bust = true }\n"
        "[dice.bust_effect]\nbust_faces = 2\nscore = \"zero\"\n")
# (one throw a turn: with several throws a turn, throwing two dice at once
# and one die twice can be worth exactly the same, a tie the length of a
# game depends on and rounding breaks)
CHOICES = ("goal = 9\n[dice]\ncount = [1, 3]\nsides = 3\nface.1 = { bust = true }\n"
           "face.2 = { points = 1 }\nface.3 = { points = 2 }\none_throw = true\n"
           "bust_points = 1\n")
MIN_BANK = "goal = 8\n[turn]\nmin_bank = 3\n[dice]\nsides = 3\nface.1 = { bust = true }\n"


def _odd(min_bank=0, forced_first=False):
    """Two continuations at state 0, a choice of two options, an end with
    points and a choice between equal gains."""
    return build_model([
        [[(0.3, "bust", 0, "none", 0), (0.4, "choose", [(1, 0), (2, 1)]), (0.3, "end", 2, 0)],
         [(0.4, "bust", 0, "none", 0), (0.6, "choose", [(3, 1)])]],
        [[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(1, 0), (1, 1)])]],
    ], [0, 0], min_bank=min_bank, forced_first=forced_first)


def _two_starts():
    """Two turn starts, each of whose busts can hand the opponent either
    one: the turn ends of both loop back inside a pair, so the solve needs
    two feedback states (the general match gives the lengths)."""
    return build_model([
        [[(0.2, "bust", 0, "none", 0), (0.2, "bust", 1, "none", 0), (0.6, "choose", [(1, 0)])]],
        [[(0.3, "bust", 1, "none", 0), (0.1, "bust", 0, "none", 0), (0.6, "choose", [(2, 1)])]],
    ], [1, 0])


def _lengths(model, goal):
    sol = solve_model(model, goal, 0)
    L, _ = game_lengths(model, sol)
    return sol, L


CASES = [
    ("piglet-4", lambda: parse_rules(PIGLET.replace("{goal}", "4")).model, 4,
     Die(["bust", 1]), {}),
    ("piglet-7", lambda: parse_rules(PIGLET.replace("{goal}", "7")).model, 7,
     Die(["bust", 1]), {}),
    ("d3-8", lambda: parse_rules(D3).model, 8, Die(["bust", 2, 3]), {}),
    ("d3-min-bank", lambda: parse_rules(MIN_BANK).model, 8, Die(["bust", 2, 3]),
     {"min_bank": 3}),
    ("deck-2-3", lambda: parse_rules(DECK).model, 6, Deck(2, 3), {"forced_first": True}),
    ("choose-dice", lambda: parse_rules(CHOICES).model, 9, None, {}),
    ("odd", lambda: _odd(), 6, None, {}),
    ("odd-min-bank", lambda: _odd(min_bank=2), 6, None, {"min_bank": 2}),
    ("odd-forced", lambda: _odd(forced_first=True), 6, None, {"forced_first": True}),
    ("two-starts", _two_starts, 5, None, {}),
]


@pytest.mark.parametrize("name, build, goal, proc, opts", CASES, ids=[c[0] for c in CASES])
def test_lengths_match_the_reference(name, build, goal, proc, opts):
    model = build()
    proc = FromModel(model) if proc is None else proc
    sol, L = _lengths(model, goal)
    for start in ((0, 0), (0, 2), (3, 1)):
        ref = reference_match(proc, goal, Optimal(), Optimal(), start=start, **opts)
        got = L[start[0], start[1], 0]
        assert abs(got - ref["actions_as_first"]) < 1e-9, start
        assert got >= 1.0


def test_two_feedback_states_take_the_general_match():
    assert len(plan(_two_starts(), 5)["fh"]) == 2


@pytest.mark.parametrize("start", [(0, 0), (5, 2)], ids=["start0", "start1"])
def test_lengths_where_scores_fall(start):
    rules = parse_rules(PAIR)
    sol, L = _lengths(rules.model, rules.goal)
    assert rules.model.falls
    ref = reference_match(PairOfDice(3), rules.goal, Optimal(), Optimal(), start=start,
                          tol=1e-14)
    assert abs(L[start[0], start[1], 0] - ref["actions_as_first"]) < 1e-9


@pytest.mark.parametrize("name, goal", [("piglet", None), ("two-dice-pig", 40), ("hog", 40),
                                        ("farkle", 1500), ("fowl-play", 20)])
def test_lengths_equal_the_match_everywhere(name, goal):
    """Every turn start of the table, not only the first: the general match
    (optimal against optimal) counts the same actions."""
    game = load_rules_game(name, goal=goal)
    model, g = game.rules.model, game.rules.goal
    sol, L = _lengths(model, g)
    opt = parse_rules_policy("optimal", game)
    m = match_model(model, g, opt, opt, solution=sol)
    assert np.abs(L - m.actions[0]).max() <= 1e-9 * np.abs(m.actions[0]).max()


@pytest.mark.parametrize("preset, rules, goal", [("pig", "rules:pig", 100),
                                                  ("fowl-play", "rules:fowl-play", 50),
                                                  ("red-light", "rules:red-light", 50)])
def test_lengths_equal_todays_solvers(preset, rules, goal):
    today = solve(load_game(preset))
    game = load_rules_game(rules)
    summary = solve_game(game, max_komi=6)
    komi = game.start[1]  # Red Light's second player starts with 1 point
    assert abs(summary["expected_actions"] - today.expected_actions(goal, komi)) < 1e-9
    for row in summary["komi_table"]:
        assert abs(row["expected_actions"] - today.expected_actions(goal, row["komi"])) < 1e-9


def test_a_longer_race_takes_longer():
    short = _lengths(parse_rules(PIGLET.replace("{goal}", "5")).model, 5)[1][0, 0, 0]
    long = _lengths(parse_rules(PIGLET.replace("{goal}", "9")).model, 9)[1][0, 0, 0]
    assert long > short > 1.0


def test_solve_prints_the_length():
    r = cli("solve", "rules:pig", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert abs(out["expected_actions"] - 84.14484319125475) < 1e-9
    assert out["komi_table"][1]["expected_actions"] < out["komi_table"][0]["expected_actions"]
    r = cli("solve", "piglet")
    assert r.returncode == 0 and "expected game length:" in r.stdout
    assert "game length (actions)" in r.stdout


# -- rolls that come back to the same state ---------------------------------------

BLANK = ("goal = {goal}\n[dice]\nsides = 4\nface.1 = { bust = true }\nface.2 = { points = 0 }\n"
         "face.3 = { points = 2 }\nface.4 = { points = 3 }\n")


@pytest.mark.parametrize("goal", [6, 9])
def test_a_blank_face_is_thrown_though_folded_away(goal):
    """A face worth nothing leaves the turn where it was: the turn model
    folds it away, but the player still throws it, and the length counts
    those throws (the reference keeps the blank face and iterates)."""
    rules = parse_rules(BLANK.replace("{goal}", str(goal)))
    assert rules.model.states == 1 and abs(rules.model.cont_throws[0] - 4 / 3) < 1e-15
    sol, L = _lengths(rules.model, goal)
    proc = Die(["bust", 0, 2, 3])
    for start in ((0, 0), (2, 4)):
        ref = reference_match(proc, goal, Optimal(), Optimal(), start=start, tol=1e-14)
        assert abs(L[start[0], start[1], 0] - ref["actions_as_first"]) < 1e-9


def test_rounds_length_is_the_rounds_match_of_optimal_play():
    """Under the rounds ending the length is optimal play against itself in
    the rounds match (checked there against a slow reference and the Zombie
    Dice solver), read at the game's start and at each komi."""
    from designer.engine._match_kernels import OPTIMAL
    from designer.engine.match import RulesPolicy
    from designer.engine.rounds_match import match_rounds_model

    game = load_rules_game("great-rolled-ones", goal=20, komi=-2)
    out = solve_game(game, max_komi=3)
    opt = RulesPolicy(OPTIMAL, "optimal")
    m = match_rounds_model(game.rules.model, 20, opt, opt, ties=game.rules.ties)
    assert abs(out["expected_actions"] - m.actions_as_first((2, 0))) < 1e-9
    for row in out["komi_table"]:
        assert abs(row["expected_actions"] - m.actions_as_first((0, row["komi"]))) < 1e-9


def test_no_length_skips_it():
    r = cli("solve", "piglet", "--no-length", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert "expected_actions" not in out and "expected_actions" not in out["komi_table"][0]


def test_a_long_rounds_length_is_left_out_unless_asked(monkeypatch):
    """By default the rounds ending's length is left out, with its estimated
    time, where it would take over the limit; ``length=True`` computes it."""
    import designer.engine.game as engine_game

    game = load_rules_game("great-rolled-ones", goal=12)
    monkeypatch.setattr(engine_game, "LENGTH_AUTO_SECONDS", 0.0)
    out = solve_game(game, max_komi=1)
    assert "expected_actions" not in out and "expected_actions" not in out["komi_table"][0]
    assert out["length_skipped_seconds"] == round(
        out["seconds"] * engine_game.ROUNDS_LENGTH_PER_SOLVE, 1)
    asked = solve_game(game, max_komi=1, length=True)
    assert asked["expected_actions"] > 1.0 and "length_skipped_seconds" not in asked
    # the race's length costs about the solve: never left out
    race = solve_game(load_rules_game("piglet", goal=12), max_komi=1)
    assert race["expected_actions"] > 1.0


def test_length_flags_are_refused_for_other_games():
    for flag in ("--length", "--no-length"):
        r = cli("solve", "pig", flag)
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr.strip().splitlines() == [
            f"designer: error: invalid {flag} for Pig: allowed only for rules games (the "
            "solvers of the other games give the length with the solve)"]


#: A coin whose tail wipes the banked score: optimal play rolls from 0 until
#: the goal or a tail, so a game lasts as long as it takes to throw ``goal``
#: heads in a row (an astronomically long game past a goal of about 40).
COIN_WIPE = ('goal = {goal}\nending = "{ending}"\n[dice]\nsides = 2\nface.1 = {{ bust = true }}\n'
             'face.2 = {{ points = 1 }}\n[dice.bust_effect]\nbust_faces = 1\nscore = "zero"\n')


@pytest.mark.parametrize("goal", [3, 5, 12])
def test_a_run_of_heads_takes_its_classic_length(goal, tmp_path):
    """In the race, the expected throws until ``goal`` heads in a row are
    ``2^(goal + 1) - 2`` (a known result), plus the winning stop."""
    path = tmp_path / "coin.toml"
    path.write_text(COIN_WIPE.format(goal=goal, ending="race"))
    out = solve_game(load_rules_game(str(path)))
    assert out["expected_actions"] == pytest.approx(2.0 ** (goal + 1) - 1, rel=1e-12)


def test_stalled_tells_a_settling_length_from_a_growing_one():
    """A length converging as a geometric series (even a slow one) is left
    to settle; one that grows by a round's worth each pass (its relative
    change falling as 1 / pass) is found stalled long before the budget,
    and one whose change does not fall at once."""
    from designer.engine.length import STALL_WINDOW, stalled

    slow_geometric = [0.5 * 0.97 ** k for k in range(1, 400)]  # settles in about 900 passes
    assert not any(stalled(slow_geometric[:n], 10_000) for n in range(1, 400))
    assert stalled(slow_geometric, 500)  # not within 500 passes
    growing = [1.0 / k for k in range(1, 10_000)]
    first = next(n for n in range(1, 10_000) if stalled(growing[:n], 10_000))
    assert STALL_WINDOW < first < 1_000
    assert stalled([1e-3] * (STALL_WINDOW + 1), 10**9)
    assert not stalled([1e-3] * STALL_WINDOW, 10**9)  # too few passes to tell


def test_a_race_too_long_to_measure_keeps_its_win(tmp_path, monkeypatch):
    """The same coin to 45 in the race: about 7e13 actions, whose length
    the passes cannot settle (it grows by a round's worth each pass); once
    that is plain (here within a budget of 2,000 passes: the default's
    10,000 takes about 3 s to tell) the solve stands with its win and says
    why the length is not given, instead of failing after every pass
    allowed (once about 270 s to goal 50)."""
    import designer.engine.length as length

    monkeypatch.setattr(length, "MAX_PASSES", 2_000)
    path = tmp_path / "coin.toml"
    path.write_text(COIN_WIPE.format(goal=45, ending="race"))
    out = solve_game(load_rules_game(str(path)))
    assert out["first_player_win"] == pytest.approx(0.5, abs=1e-9)
    assert out["length_error"] == length.TOO_LONG and "expected_actions" not in out
    r = cli("solve", str(path))
    assert r.returncode == 0 and "expected game length: not given: the game is too long" in \
        " ".join(r.stdout.split())


# a die whose 1 costs 3 banked points (not below -3): busts lower the score
# often, so the passes are many
PENALTY = ("goal = 14\n[dice]\nsides = 4\nface.1 = { bust = true }\n[dice.bust_effect]\n"
           "bust_faces = 1\nscore = \"penalty\"\npenalty = 3\nfloor = -3\n")


@pytest.mark.parametrize("text", [PAIR, PENALTY], ids=["wipe", "penalty"])
def test_passes_where_scores_fall_do_not_depend_on_the_threads(text):
    """Where scores fall, a pass of the race's solve and of its length runs
    on every thread, each pair reading the pairs below its own score sum
    as the last pass left them: the tables, passes and residual are those
    of one thread, bit for bit (three runs on all threads: they meet in
    another order each time)."""
    import numba

    rules = parse_rules(text)
    assert rules.model.falls
    all_threads = numba.config.NUMBA_NUM_THREADS
    try:
        numba.set_num_threads(1)
        one = solve_model(rules.model, rules.goal)
        L1, _ = game_lengths(rules.model, one)
        numba.set_num_threads(all_threads)
        for _ in range(3):
            many = solve_model(rules.model, rules.goal)
            L, _ = game_lengths(rules.model, many)
            assert np.array_equal(one.win, many.win) and np.array_equal(L1, L)
            assert (many.passes, many.sweeps, many.residual) == (one.passes, one.sweeps,
                                                                   one.residual)
    finally:
        numba.set_num_threads(all_threads)
    assert one.passes > 5


def test_the_race_reports_each_pass_of_the_solve_and_the_length():
    """``solve_game(progress=...)`` hears every pass of the race's solve
    (its largest change of a win, the last one at most the tolerance) and
    then every pass of the game length (relative changes) where scores
    fall."""
    heard = []
    game = load_rules_game("two-dice-pig", goal=20)
    out = solve_game(game, progress=lambda n, change, what: heard.append((what, n, change)))
    solve = [(n, c) for what, n, c in heard if what == "solve"]
    length = [(n, c) for what, n, c in heard if what == "length"]
    assert [what for what, _, _ in heard] == ["solve"] * len(solve) + ["length"] * len(length)
    assert [n for n, _ in solve] == list(range(1, out["passes"] + 1)) and len(solve) > 2
    assert solve[-1][1] <= out["residual"] <= 1e-12
    assert all(c > 1e-12 for _, c in solve[:-1])
    assert [n for n, _ in length] == list(range(1, len(length) + 1)) and len(length) > 2
    assert all(c > 1e-12 for _, c in length)


def test_the_status_line_gives_the_time_left_at_the_rate_seen():
    """The terminal's status line of an iterated solve: each pass in words,
    and once the change has fallen for five passes, the time left at that
    rate (a change falling tenfold a pass, 2 s a pass, at 1e-6: six more
    passes to 1e-12, 12 s); a new stage (the game length) starts afresh."""
    from designer.commands.solve import PassesStatus

    class Status:
        def update(self, text):
            self.text = text

    clock = iter(range(0, 100, 2))
    status = Status()
    track = PassesStatus(status, "Pig", clock=lambda: next(clock))
    for k in range(5):
        track(k + 1, 10.0 ** -k)
        assert "left" not in status.text
    assert status.text == "solving Pig exactly: pass 5, largest change 1.0e-04 (stops at 1e-12)"
    track(6, 1e-5)
    assert status.text.endswith("change 1.0e-05 (stops at 1e-12), about 14 s left")
    track(7, 1e-6)
    assert status.text == ("solving Pig exactly: pass 7, largest change 1.0e-06 (stops at "
                           "1e-12), about 12 s left")
    track(1, 0.5, "length")
    assert status.text == "game length of Pig: pass 1, largest change 5.0e-01 (stops at 1e-12)"
