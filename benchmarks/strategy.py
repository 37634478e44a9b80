"""Cost of scoring one rule exactly, against the built-in max-score path.

For each game: the median time of ``Evaluator.score`` for a rule (interpreter
kernel table + match evaluation of both seats), and as the baseline, in the
same run, the time of the same match with the built-in max-score policy's
table (``MaxScorePolicy`` + ``match_table``; zombie: the slides' ``minh``
table + the two matches). The ratio shows what interpreting a rule costs.
Also: candidates per second with 1 and 2 scoring threads, and for the deck
and dice games the cost of induction (exact visits, the loss table, the
tree search) against one exact rule score measured in the same run.

    PYTHONPATH=. python benchmarks/strategy.py
"""

import os
import statistics
import time

from joblib import Parallel, delayed

from designer import load_game
from designer.analysis.compare import match_table
from designer.policies import MaxScorePolicy
from designer.policies.zombie import policy_table
from designer.solve.zombie import evaluate_zombie_match
from designer.strategy import Evaluator, Rule


def median_time(fn, n=5):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def main():
    print(f"load average: {os.getloadavg()}")
    cases = [("fowl-play", "opp_need <= 3 -> roll; boldpace 1 11"),
             ("pig", "max_ij >= 71 -> roll; pace 21 8"),
             ("zombie-yellow", "p == 2, j >= 13, i2 < j -> roll; s == 0 -> roll; "
                               "s == 1, j >= 8 -> reachmax 13 3; s == 1 -> below 4; below 1")]
    for name, text in cases:
        game = load_game(name)
        ev = Evaluator(game)
        rule = Rule.parse(game.family, text)
        ev.score(rule)
        t_rule = median_time(lambda: ev.score(rule))
        if game.family == "zombie":
            def base():
                R = policy_table(game, "minh")
                evaluate_zombie_match(game, R, ev._opt)
                evaluate_zombie_match(game, ev._opt, R)
        else:
            def base():
                match_table(game, MaxScorePolicy(game).table(), ev._opt)
        t_base = median_time(base)
        rules = [rule] * 8
        rates = {}
        for jobs in (1, 2):
            t = time.perf_counter()
            Parallel(n_jobs=jobs, backend="threading")(delayed(ev.score)(r) for r in rules)
            rates[jobs] = len(rules) / (time.perf_counter() - t)
        print(f"{name:14s} rule score {t_rule * 1e3:8.1f} ms   built-in baseline "
              f"{t_base * 1e3:8.1f} ms   ratio {t_rule / t_base:5.2f}   "
              f"rules/s: 1 thread {rates[1]:6.1f}, 2 threads {rates[2]:6.1f}")
        if game.family in ("deck", "dice"):
            from designer.strategy.induce import induce, losses
            from designer.strategy.visits import visits

            T = ev._opt
            t_vis = median_time(lambda: visits(game, T, T), n=3)
            t_loss = median_time(lambda: losses(game, ev.solution), n=1)
            ls = losses(game, ev.solution)
            t_tree = median_time(lambda: induce(ls, max_size=8), n=1)
            print(f"{'':14s} induction: visits {t_vis * 1e3:8.1f} ms, loss table {t_loss:6.2f} s, "
                  f"tree search {t_tree:6.2f} s  (= {(t_vis + t_loss + t_tree) / t_rule:5.1f} "
                  f"rule scores)")
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
