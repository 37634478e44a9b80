"""Compile the heavy numba kernels once per test run, shared by the test
processes (see ``_kernels_compiled`` in conftest.py).

On a fresh clone numba's cache is empty, and the two pytest-xdist processes
would each compile the kernels their first tests call, often the same ones
at the same time (a deck race kernel is 12 s of CPU). Here the families are
split in two halves of about equal compile time; each process compiles its
half first, each task under a file lock, then takes the other half, which
by then only loads from numba's cache what the other process wrote. The
games are tiny: the tasks compile, they do not test (every kernel is tested
elsewhere). Run as a script (see its end), one half fills the cache before
the tests start: CI does that in the background while it installs the rest.
"""

import time
from pathlib import Path

from filelock import FileLock


def _game(family, **kw):
    from designer.games import DeckGame, DiceGame

    return DeckGame(2, 3, 4, **kw) if family == "deck" else DiceGame(6, 5, **kw)


def _solve(family, **kw):
    from designer.solve import solve

    return solve(_game(family, **kw))


def _seats_compare(family):
    from designer.analysis.seat_compare import compare_seats

    compare_seats(_game(family, players=3), "two-player")


def _zombie():
    from designer import load_game
    from designer.games.zombie import ZombieDiceGame
    from designer.solve import solve
    from designer.solve.zombie import evaluate_zombie_match

    y = solve(load_game("zombie-yellow", goal=3, cap=6))
    evaluate_zombie_match(y.game, y.policy, y.policy)
    solve(ZombieDiceGame(2, 1, 1, dice=2, goal=3, cap=5))


def _rules(name, **kw):
    """Solve a rules game (with its game length, as ``designer solve``)."""
    from designer.engine.game import load_rules_game, solve_game

    solve_game(load_rules_game(name, **kw))


def _rules_matches():
    from designer.analysis.rules_compare import compare_rules
    from designer.engine.game import load_rules_game

    compare_rules(load_rules_game("piglet", goal=3), "max-score", "optimal")
    compare_rules(load_rules_game("two-dice-pig", goal=3), "hold-at:2", "optimal")
    # the rounds ending's match (both tie rules, every policy kind)
    compare_rules(load_rules_game("great-rolled-ones", goal=4), "max-score", "hold-at:2")


def _falls_compare():
    """Equal turns where a bust lowers a banked score: the falls match's
    kernels (a rule against optimal play, its agreement counted)."""
    from designer.analysis.rules_compare import compare_rules
    from designer.engine.game import load_rules_game

    compare_rules(load_rules_game("two-dice-pig", goal=3, ending="rounds"), "rule:below 2",
                  "optimal")


def _seat_rounds_falls():
    """Three seats in rounds where a bust lowers a banked score: the solve
    (a pass of its own; the evaluation of a policy at one seat runs the
    same kernel) and the kernels play calls one at a time."""
    from designer.analysis.rules_compare import compare_rules_seats
    from designer.engine.game import load_rules_game, solve_game
    from designer.play import rules_engine

    game = load_rules_game("two-dice-pig", goal=2, players=3, ending="rounds")
    solve_game(game)
    compare_rules_seats(game, "hold-at:2")
    sol = rules_engine.solve(game)
    sol.best(rules_engine.new_game(game))


def _seat_rounds_compare():
    """A policy at one seat of three in rounds: the solve at the policy's
    cap (without the game length: a second compilation of the seat-rounds
    kernels) and the evaluation's kernels, every kind of policy."""
    from designer.analysis.rules_compare import compare_rules_seats
    from designer.engine.game import load_rules_game

    compare_rules_seats(load_rules_game("piglet", goal=3, players=3, ending="rounds"),
                        "hold-at:2")


def _seat_race_compare():
    """A policy at one seat of three in the race: the seat profile's kernels
    over the N-player race solve."""
    from designer.analysis.rules_compare import compare_rules_seats
    from designer.engine.game import load_rules_game

    compare_rules_seats(load_rules_game("piglet", goal=3, players=3), "hold-at:2")


def _strategy():
    # the rule interpreter's tables, the exact matches and the induction's
    # visits and losses (a strategy card or `play --stats` would compile them
    # inside a test with a time limit)
    from designer.strategy.card import strategy_card

    strategy_card(_game("deck"), max_size=1, trials=2)
    strategy_card(_game("dice"), max_size=1, trials=2)


#: Two lists of (name, task), about equal in compile time (seconds from
#: nothing in the comments: each half in a process of its own, side by
#: side on the 2-core machine, as CI runs them; about 250 s a half, 305-308 s
#: in a slower hour, 328-336 s with the falls match's task, 360 and 408 s
#: with the 3-4 seat falls task before its half lent the falls match to the
#: other), one per test process. A task needs only kernels
#: compiled before it in its own list or by a task of the other list that
#: ends earlier (the policy profile reads the N-player race and the
#: two-player race; the two-seat rounds ending and the matches of rules
#: games run on the two-player race's kernel, so the engine's race comes
#: first).
HALVES = (
    [("engine-race", lambda: _rules("piglet", goal=3)),  # 55
     ("deck-rounds-seats", lambda: _solve("deck", players=3, ending="rounds")),  # 28
     ("deck-race-seats", lambda: _solve("deck", players=3)),  # 14
     ("deck-profile", lambda: _seats_compare("deck")),  # 3
     ("engine-rounds", lambda: _rules("great-rolled-ones", goal=4)),  # 31
     ("dice-rounds-seats", lambda: _solve("dice", players=3, ending="rounds")),  # 13
     # a policy at one seat of three in rounds: compiled inside the tests
     # otherwise, by both processes when they meet it at once
     ("engine-seat-rounds-compare", _seat_rounds_compare),  # 77
     # the dice race's seat profile, last here: the dice race (the other
     # half's second task) is long compiled by then
     ("dice-race-seats", lambda: _seats_compare("dice")),  # 25
     ("strategy", _strategy),  # 18: rule tables, matches, visits, induction
     # the two-seat falls match (compare, strategy cards): last here, after
     # the other half's falls solve it reads (its kernels then load)
     ("engine-rounds-falls-compare", _falls_compare)],  # 23-31
    [("deck-race", lambda: (_solve("deck", ending="rounds"), _solve("deck"))),  # 26
     ("dice-race", lambda: (_solve("dice", ending="rounds"), _solve("dice"))),  # 13
     ("zombie", _zombie),  # 11-18
     ("engine-seats", lambda: _rules("piglet", goal=3, players=3)),  # 32
     # a policy at one seat of three in the race (strategy cards with 3-4
     # players, compare): compiled inside the tests otherwise
     ("engine-seat-profile", _seat_race_compare),  # 25
     # the rounds ending with 3 or 4 seats (both tie rules share the kernels)
     ("engine-seat-rounds", lambda: _rules("piglet", goal=3, players=3, ending="rounds")),  # 47
     ("engine-matches", _rules_matches),  # 81
     # equal turns where a bust lowers a banked score: its own iteration
     ("engine-rounds-falls", lambda: _rules("two-dice-pig", goal=3, ending="rounds")),  # 21
     # the same with 3 or 4 seats: a pass of its own
     ("engine-seat-rounds-falls", _seat_rounds_falls)],  # 55
)


def compile_all(lock_dir, half=0, other=True, say=None):
    """Run every task once in this process, its ``half`` of
    :data:`HALVES` first (then the other half, unless ``other`` is
    False), each under its file lock in ``lock_dir``: a task another
    process is compiling is waited for, then only loaded from numba's
    cache. ``say(text)`` hears each task's seconds. Returns ``{name:
    seconds}`` spent here."""
    lock_dir = Path(lock_dir)
    lock_dir.mkdir(parents=True, exist_ok=True)
    spent = {}
    for name, task in HALVES[half % 2] + (HALVES[1 - half % 2] if other else []):
        with FileLock(str(lock_dir / f"{name}.lock")):
            t = time.perf_counter()
            task()
            spent[name] = time.perf_counter() - t
        if say:
            say(f"warm-up {half}: {name} {spent[name]:.1f} s")
    return spent


if __name__ == "__main__":
    # ``python tests/kernel_warmup.py HALF LOCK_DIR``: fill numba's cache with
    # one half's kernels before the tests run (CI runs both halves in the
    # background while it installs the rest); the other process compiles
    # the other half
    import sys

    compile_all(sys.argv[2], int(sys.argv[1]), other=False,
                say=lambda text: print(text, flush=True))
