"""The rounds ending where a bust can lower a banked score
(designer.engine.rounds_falls), two seats: against the slow reference
written from the rules (tests/engine_reference.py), against the rounds
solver where scores never fall, and through solve_game and the CLI."""

import numpy as np
import pytest
from engine_reference import Die, FromModel, PairOfDice, PenaltyDie, reference_rounds

from designer.engine.game import load_rules_game, solve_game
from designer.engine.model import build_model
from designer.engine.rounds import solve_rounds_model
from designer.engine.rounds_falls import ENDLESS, falls_estimate, solve_rounds_falls
from designer.engine.rounds_length import rounds_lengths
from designer.engine.rulesfile import parse_rules

TWO3 = ('goal = 6\n[dice]\ncount = 2\nsides = 3\nface.1 = { bust = true }\n'
        '[dice.bust_effect]\nbust_faces = 2\nscore = "zero"\n')
WIPE = ('goal = 5\n[dice]\nsides = 3\nface.1 = { bust = true }\n'
        '[dice.bust_effect]\nbust_faces = 1\nscore = "zero"\n')
PENALTY = ('goal = 4\n[dice]\nsides = 3\nface.1 = { bust = true }\n'
           '[dice.bust_effect]\nbust_faces = 1\nscore = "penalty"\npenalty = 2\nfloor = -2\n')
FORCED = ('goal = 5\n[turn]\nforced_first = true\nmin_bank = 3\n[dice]\ncount = 2\nsides = 3\n'
          'face.1 = { bust = true }\n[dice.bust_effect]\nbust_faces = 2\nscore = "zero"\n')


def _two_starts():
    """Busts return to two different start states, one of them wiping the
    score: every start value of a pair is its own unknown."""
    conts = [[[(1 / 3, "bust", 0, "zero", 0), (1 / 3, "choose", [(2, 0)]),
               (1 / 3, "choose", [(3, 0)])]],
             [[(1 / 2, "bust", 1, "none", 0), (1 / 2, "choose", [(2, 1)])]]]
    return build_model(conts, [1, 0], forced_first=True)


CASES = [(ties, name) for ties in ("replay", "earlier-seat")
         for name in ("two3", "wipe", "penalty", "two-starts")]
CASES.append(("replay", "forced"))  # a forced first roll and a bank rule


def _case(name):
    if name == "two-starts":
        m = _two_starts()
        return m, 4, FromModel(m), dict(forced_first=True)
    text, proc = {"two3": (TWO3, PairOfDice(3)), "wipe": (WIPE, Die(["zero", 2, 3])),
                  "penalty": (PENALTY, PenaltyDie(["bust", 2, 3], 2, -2)),
                  "forced": (FORCED, PairOfDice(3))}[name]
    rules = parse_rules(text, name)
    m = rules.model
    return m, rules.goal, proc, dict(forced_first=m.forced_first, min_bank=m.min_bank,
                                     floor=m.floor)


@pytest.mark.parametrize("ties, name", CASES, ids=[f"{n}-{t}" for t, n in CASES])
def test_falls_match_reference(ties, name):
    """Every round start (both scores from the floor to below the goal,
    every start state) to 1e-9 of value iteration over the actual scores."""
    model, goal, proc, opts = _case(name)
    assert model.falls
    cap = goal + 6
    got = solve_rounds_falls(model, goal, ties=ties, cap=cap)
    p, R = reference_rounds(proc, goal, ties, cap=cap, **opts)
    assert abs(got.first_player_win - p) < 1e-9
    lo = got.floor
    assert lo == opts.get("floor", 0)
    checked = 0
    for h, state in enumerate(got.start_states):
        key = proc.start if isinstance(proc.start, str) else int(state)
        if not any(k[2] == key for k in R):
            continue
        for a in range(lo, goal):
            for b in range(lo, goal):
                assert abs(got.X[a - lo, b - lo, h] - R[(a, b, key)]) < 1e-9, (a, b, state)
                checked += 1
    assert checked >= (goal - lo) ** 2
    assert got.residual <= 1e-12 and got.passes > 2  # falls take passes


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_scores_that_never_fall_match_the_rounds_solver(ties):
    """Where no bust lowers a score, the same game by both solvers: Pig to
    30, every round start, wins and expected lengths to 1e-12, in two passes."""
    game = load_rules_game("pig")
    model = game.rules.model
    ref = solve_rounds_model(model, 30, ties=ties)
    got = solve_rounds_falls(model, 30, ties=ties)
    assert np.abs(got.X[:30, :30] - ref.X).max() < 1e-12
    L, _ = rounds_lengths(model, ref)
    assert np.abs(got.LX[:30, :30] - L).max() < 1e-9 * L.max()
    assert got.passes == 2


def test_two_dice_pig_cap_does_not_move_the_figures():
    """Scores are capped above the goal: raising the cap moves nothing
    printed (Two-Dice Pig to 20)."""
    model = load_rules_game("two-dice-pig").rules.model
    a = solve_rounds_falls(model, 20, cap=60)
    b = solve_rounds_falls(model, 20, cap=100)
    assert abs(a.first_player_win - b.first_player_win) < 1e-10
    assert abs(a.actions(0, 0) - b.actions(0, 0)) < 1e-8
    assert 0.4 < a.first_player_win < 0.5  # the first seat is the underdog


def test_solve_game_reaches_falling_scores_in_rounds():
    """solve_game: the same keys as any two-seat rounds game, seat wins
    summing to 1, the fair komi to seat 1 (negative), the length."""
    game = load_rules_game("two-dice-pig", goal=20, ending="rounds")
    out = solve_game(game, max_komi=3)
    p = out["first_player_win"]
    assert out["ending"] == "rounds" and out["seat_win"] == [p, 1.0 - p]
    r = solve_rounds_falls(game.rules.model, 20, ties=game.rules.ties, cap=game.cap)
    assert p == pytest.approx(r.first_player_win, abs=1e-15)
    assert out["fair_komi"] <= 0 and out["residual"] <= 1e-12 and out["passes"] > 2
    assert out["expected_actions"] == pytest.approx(r.actions(0, 0), rel=1e-12)
    assert [row["komi"] for row in out["komi_table"]] == [0, 1, 2, 3]
    est = falls_estimate(game.rules.model, 20, game.cap, game.rules.ties)
    assert out["states"] == est["positions"]


def test_play_that_passes_for_ever_has_no_length(tmp_path):
    """Rolling busts three times in four and costs 3 points: above the goal
    both seats pass a replayed round for ever, so the game need not end
    (its wins there are one solution of many); the length is refused in
    words, not iterated for ever. With ties to seat 1 it ends, and equals
    the reference."""
    text = ('goal = 3\nending = "rounds"\n[dice]\ncount = 2\nsides = 2\n'
            'face.1 = { bust = true }\nface.2 = { points = 1 }\n[dice.bust_effect]\n'
            'bust_faces = 1\nscore = "penalty"\npenalty = 3\nfloor = -2\n')
    model = parse_rules(text).model
    endless = solve_rounds_falls(model, 3, cap=9)
    assert not endless.length_finite and endless.length_problem == "endless"
    (tmp_path / "pass.toml").write_text(text)
    out = solve_game(load_rules_game(str(tmp_path / "pass.toml")))
    assert out["length_error"] == ENDLESS and "expected_actions" not in out
    got = solve_rounds_falls(model, 3, ties="earlier-seat", cap=9)
    p, _ = reference_rounds(FromModel(model), 3, "earlier-seat", cap=9, floor=-2)
    assert abs(got.first_player_win - p) < 1e-9 and got.length_finite


@pytest.mark.parametrize("name, goal", [("two-dice-pig", 40), ("penalty", 12), ("two-starts", 10)])
def test_the_numbers_do_not_depend_on_the_threads(name, goal):
    """A pass runs on every thread, each taking the next pair whose inputs
    are solved: every pair reads what it reads in one thread's order, so
    the tables are identical, bit for bit, on one thread and on all (run
    three times on all: the threads meet in another order each time)."""
    import numba

    if name == "two-dice-pig":
        model = load_rules_game(name).rules.model
    else:
        model = _case(name)[0]
    all_threads = numba.config.NUMBA_NUM_THREADS
    try:
        numba.set_num_threads(1)
        one = solve_rounds_falls(model, goal)
        numba.set_num_threads(all_threads)
        for _ in range(3):
            many = solve_rounds_falls(model, goal)
            for table in ("X", "LX", "Y", "LY"):
                assert np.array_equal(getattr(one, table), getattr(many, table)), table
            assert (many.passes, many.residual) == (one.passes, one.residual)
    finally:
        numba.set_num_threads(all_threads)
    assert one.passes > 2


def test_the_solve_reports_each_pass():
    """``solve_game(progress=...)`` hears every pass of the iteration: its
    number and the largest change of a win it made, the last the residual
    (the terminal's status line says so in words)."""
    from designer.commands.solve import passes_said

    heard = []
    game = load_rules_game("two-dice-pig", goal=12, ending="rounds")
    out = solve_game(game, progress=lambda n, change, what: heard.append((n, change)))
    assert [n for n, _ in heard] == list(range(1, out["passes"] + 1)) and len(heard) > 2
    assert heard[-1][1] == out["residual"] <= 1e-12
    assert all(change > 1e-12 for _, change in heard[:-1])
    assert passes_said("Two-Dice Pig", 12, 3.24e-7) == (
        "solving Two-Dice Pig exactly: pass 12, largest change 3.2e-07 (stops at 1e-12)")


def test_a_game_too_long_to_measure_keeps_its_win(tmp_path):
    """A coin whose tail wipes the score, in equal turns: a game to 20
    lasts about 2 million actions, which the solve gives; to 40 about 2^41,
    which double precision cannot give (a round comes back to the same
    scores with a chance within 1e-10 of 1): the win stands, the length is
    refused in words, not given wrong (it was once about 19.5 actions to
    50, the passes stopping when the wins settled)."""
    from designer.engine.length import TOO_LONG

    text = ('goal = {goal}\nending = "rounds"\n[dice]\nsides = 2\nface.1 = {{ bust = true }}\n'
            'face.2 = {{ points = 1 }}\n[dice.bust_effect]\nbust_faces = 1\nscore = "zero"\n')
    path = tmp_path / "coin.toml"
    path.write_text(text.format(goal=20))
    out = solve_game(load_rules_game(str(path)))
    assert 2.0 ** 21 <= out["expected_actions"] < 2.0 ** 21 * 1.01
    path.write_text(text.format(goal=40))
    out = solve_game(load_rules_game(str(path)))
    assert out["first_player_win"] == pytest.approx(0.5, abs=1e-12)
    assert out["length_error"] == TOO_LONG and "expected_actions" not in out
    r = solve_rounds_falls(load_rules_game(str(path)).rules.model, 40)
    assert (r.length_finite, r.length_problem) == (False, "too long")
    # not asked: the passes stop once the wins settle
    r = solve_rounds_falls(load_rules_game(str(path)).rules.model, 40, lengths=False)
    assert (r.length_finite, r.length_problem) == (False, "not asked")
