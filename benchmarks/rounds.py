"""Benchmark: the rounds ending (equal turns) against the race of the same game.

Run by hand: ``python benchmarks/rounds.py [--repeats N] [--three]
[--zombie]``. For two-player Fowl Play and Pig (the bar's games), Red
Light, Pig to 50 and a 3-bad 60-good deck to 50 it prints the median warm
time of the race solve and of the rounds solve measured in the same process
(the two alternate), the median of their ratios (the bar: at most 3) and the
ratio of the best times, and the headline figures. ``--three`` adds
three-player rounds solves (Pig to 50, Red Light to 30, Fowl Play to 20)
with their unsettled max-n positions; ``--zombie`` the all-yellow Zombie
game with 2, 3 and 4 players (two players: the two-player Zombie solver)
and a small full Zombie Dice game with three. Give ``uptime`` load beside
every figure.
"""

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_time  # noqa: E402

from designer import load_game  # noqa: E402
from designer.solve import solve  # noqa: E402


def _load():
    return "load %.2f %.2f %.2f" % os.getloadavg()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--three", action="store_true", help="also three-player rounds solves")
    ap.add_argument("--zombie", action="store_true", help="also Zombie Dice with 2-4 players")
    args = ap.parse_args()
    if args.zombie:
        _zombie(args.repeats)
    # the bar's games, then two smaller ones where fixed costs weigh more
    # and a deck richer than its goal (seat 1's chains past the goal are
    # the longest there)
    for name, kw in (("fowl-play", {}), ("pig", {}), ("red-light", {}), ("pig", {"goal": 50}),
                     ("deck", {"bad": 3, "good": 60, "goal": 50})):
        race = load_game(name, **kw)
        rounds = load_game(name, ending="rounds", **kw)
        name = f"{name} {'/'.join(str(v) for v in kw.values())}" if kw else name
        solve(race.with_goal(5)), solve(rounds.with_goal(5))  # compile / load the kernels
        # race and rounds alternate, so that both see the same machine: on a
        # shared 2-core machine the speed drifts by 20-30% within a minute,
        # and two blocks of runs timed one after the other gave ratios from
        # 2.3 to 3.4 for the same code
        times, so = [], None
        for _ in range(args.repeats):
            tr, _ = median_time(lambda: solve(race), 1)
            to, so = median_time(lambda: solve(rounds), 1)
            times.append((tr, to))
        tr = statistics.median(t[0] for t in times)
        to = statistics.median(t[1] for t in times)
        ratio = statistics.median(t[1] / t[0] for t in times)
        best = min(t[1] for t in times) / min(t[0] for t in times)
        print(f"{name:12s} race {tr:7.3f} s   rounds {to:7.3f} s   ratio {ratio:5.2f} (median of "
              f"{args.repeats} alternating pairs; best times {best:.2f})   ({_load()})")
        print(f"{'':12s} rounds: seat win {so.seat_win()}, fair komi {so.fair_komi()}, "
              f"expected actions {so.expected_actions():.3f}, sweeps/tuple "
              f"{so.sweeps / so.start_win.shape[0]:.2f}")
    if args.three:
        for name, goal in (("pig", 50), ("red-light", 30), ("fowl-play", 20)):
            g = load_game(name, ending="rounds", players=3, goal=goal, komi=0)
            t, s = median_time(lambda: solve(g), 1)
            print(f"3 players {name} goal {goal}: {t:.2f} s, seat win "
                  f"{[round(p, 6) for p in s.seat_win()]}, unsettled {s.unsettled} "
                  f"(largest residual {s.unsettled_residual:.1e}) ({_load()})")


def _zombie(repeats):
    from designer.games import ZombieDiceGame, ZombieGame

    games = [ZombieGame(players=n) for n in (2, 3, 4)]
    games.append(ZombieDiceGame(4, 3, 2, players=3, goal=8, cap=28))
    for g in games:
        solve(g.with_goal(3))  # compile / load the kernels
        # the full game once: about a minute
        t, s = median_time(lambda: solve(g), repeats if isinstance(g, ZombieGame) else 1)
        wins = s.seat_win() if g.players > 2 else [s.first_player_win(), 1 - s.first_player_win()]
        print(f"{g.name:22s} {g.players} players, goal {g.goal}, cap {g.cap}: {t:7.3f} s, seat win "
              f"{[round(p, 6) for p in wins]}, fair komi {s.fair_komi()} ({_load()})")


if __name__ == "__main__":
    main()
