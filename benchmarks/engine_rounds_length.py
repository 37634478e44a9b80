"""Benchmark: the expected game length of a rules game under the rounds
ending (two seats).

Run by hand: ``python benchmarks/engine_rounds_length.py [--repeats N]
[--no-zombie] [--no-busy]``. In one process, so every figure meets the same
machine:

1. For Pig to 100, The Great Rolled Ones, Hog, Fowl Play and Red Light
   (written as rules by :mod:`designer.engine.family_rules`) and full
   Zombie Dice: the engine's rounds solve, the game length by its own
   sweeps (:func:`designer.engine.rounds_length.rounds_lengths`) and the
   rounds match of optimal play against itself
   (:func:`designer.engine.rounds_match.match_rounds_model`, the way to the
   length before), medians of their own seconds; the ratios length / solve
   and match / length, and the largest difference between the two length
   tables.
2. Where a coded family solves the same game in rounds (Pig, Fowl Play, Red
   Light, full Zombie Dice), today's solve, which gives the length with the
   win, against the engine's solve plus its length.
3. The length (one thread) as the machine is and beside one CPU-bound
   process.

The load average is printed with every section.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import Busy, load, median_time  # noqa: E402

from designer import load_game  # noqa: E402
from designer.engine._match_kernels import OPTIMAL  # noqa: E402
from designer.engine.family_rules import as_rules_game  # noqa: E402
from designer.engine.match import RulesPolicy  # noqa: E402
from designer.engine.rounds import solve_rounds_model  # noqa: E402
from designer.engine.rounds_length import rounds_lengths  # noqa: E402
from designer.engine.rounds_match import match_rounds_model  # noqa: E402
from designer.engine.rulesfile import example_path, load_rules  # noqa: E402
from designer.solve import solve  # noqa: E402

OPT = RulesPolicy(OPTIMAL, "optimal")


def _games(zombie):
    """``(name, model, goal, ties, today)``; ``today`` a coded family's game or None."""
    out = []
    pig = load_rules(example_path("pig"))
    out.append(("pig 100", pig.model, 100, "replay", load_game("pig", ending="rounds")))
    gro = load_rules(example_path("great-rolled-ones"))
    out.append((f"great-rolled-ones {gro.goal}", gro.model, gro.goal, gro.ties, None))
    hog = load_rules(example_path("hog"))
    out.append((f"hog {hog.goal}", hog.model, hog.goal, "replay", None))
    for name in ("fowl-play", "red-light"):
        game = load_game(name, ending="rounds")
        out.append((f"{name} {game.goal}", as_rules_game(game).rules.model, game.goal, "replay",
                    game))
    if zombie:
        z = load_rules(example_path("zombie-dice"))
        out.append((f"zombie-dice {z.goal}", z.model, z.goal, "replay", load_game("zombie-dice")))
    return out


def lengths(games, repeats):
    print(f"\n1. solve, length by sweeps, rounds match ({load()})")
    print(f"{'game':<22} {'solve s':>8} {'length s':>9} {'match s':>9} {'len/solve':>10} "
          f"{'match/len':>10} {'max |dL|':>9}")
    for name, model, goal, ties, _ in games:
        n = 1 if name.startswith("zombie") else repeats
        sol = solve_rounds_model(model, goal, ties=ties)
        ts, sol = median_time(lambda: solve_rounds_model(model, goal, ties=ties), n)
        rounds_lengths(model, sol)
        tl, (L, _) = median_time(lambda: rounds_lengths(model, sol), n)
        tm, m = median_time(lambda: match_rounds_model(model, goal, OPT, OPT, ties=ties,
                                                       solution=sol), 1)
        diff = float(np.abs(L - m.actions[0]).max())
        print(f"{name:<22} {ts:>8.4f} {tl:>9.4f} {tm:>9.3f} {tl / ts:>9.2f}x {tm / tl:>9.1f}x "
              f"{diff:>9.1e}", flush=True)


def against_today(games, repeats):
    print(f"\n2. today's solve (with its length) against the engine's solve + length ({load()})")
    print(f"{'game':<22} {'today s':>8} {'engine s':>9} {'ratio':>7} {'today L':>12} "
          f"{'engine L':>12}")
    for name, model, goal, ties, today in games:
        if today is None:
            continue
        n = 1 if name.startswith("zombie") else repeats
        solve(today)
        tt, fam = median_time(lambda: solve(today), n)

        def engine():
            sol = solve_rounds_model(model, goal, ties=ties, cap=getattr(fam, "cap", None))
            return sol, rounds_lengths(model, sol)[0]

        engine()
        te, (sol, L) = median_time(engine, n)
        h0 = int(np.searchsorted(sol.start_states, 0))
        print(f"{name:<22} {tt:>8.4f} {te:>9.4f} {te / tt:>6.2f}x "
              f"{fam.expected_actions():>12.6f} {L[0, 0, h0]:>12.6f}", flush=True)


def busy(games, repeats):
    print(f"\n3. the length quiet and beside one busy process ({load()})")
    print(f"{'game':<22} {'quiet s':>8} {'busy s':>8} {'ratio':>7}")
    rows = []
    for name, model, goal, ties, _ in games:
        if name.startswith("zombie"):
            continue
        sol = solve_rounds_model(model, goal, ties=ties)
        rows.append((name, model, sol, median_time(lambda: rounds_lengths(model, sol),
                                                   repeats)[0]))
    with Busy():
        for name, model, sol, quiet in rows:
            t = median_time(lambda: rounds_lengths(model, sol), repeats)[0]
            print(f"{name:<22} {quiet:>8.4f} {t:>8.4f} {t / quiet:>6.2f}x", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5, help="runs of each small solve")
    ap.add_argument("--no-zombie", action="store_true", help="skip full Zombie Dice")
    ap.add_argument("--no-busy", action="store_true", help="skip the busy-machine round")
    args = ap.parse_args()
    games = _games(not args.no_zombie)
    lengths(games, args.repeats)
    against_today(games, args.repeats)
    if not args.no_busy:
        busy(games, args.repeats)


if __name__ == "__main__":
    main()
