"""Benchmark: planning a turn of many states (decks of kinds of items).

Run by hand: ``python benchmarks/plan_many_states.py [--repeats N]
[--no-baseline]``. A deck of kinds of items has one turn state per count
of each kind drawn, tens of thousands of them, each its own component of
the turn's moves. The plan of a solve (:func:`designer.engine.solve.plan`)
orders the states of each component by its moves that score nothing;
the baseline here is that step as it was written before, reading every
move once per component (quadratic in the states), run in the same
process on the same model; the current step reads the moves once. Both
orders are checked equal. Also timed: the whole ``plan`` and the rules
file's reading (its enumeration), the parts of ``designer rules check``.

The load average and the processor are printed first: the machine is
shared, and other processes move every figure here.
"""

import argparse
import sys
from graphlib import TopologicalSorter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import cpu, load, median_time  # noqa: E402

from designer.engine.rulesfile import parse_rules  # noqa: E402
from designer.engine.solve import _edges, _sccs, plan  # noqa: E402

DECKS = {
    "small": "a = { count = 10, points = 1 }\nb = { count = 10, points = 2 }\n"
                    "d = { count = 8, points = 3 }\nr = { count = 4, bust = true }\n",
    "large": "a = { count = 10, points = 1 }\nb = { count = 10, points = 2 }\n"
                     "e = { count = 8, points = 3 }\nd = { count = 4, points = 5 }\n"
                     "r = { count = 4, bust = true }\n",
}


def _components(model):
    moves, _, _ = _edges(model)
    succ = [[] for _ in range(model.states)]
    for s, s2, _ in moves:
        succ[s].append(s2)
    return moves, _sccs(model.states, succ)


def order_baseline(moves, comps):
    """The order as first written: every move read for every component."""
    order = []
    for comp in comps:
        members = set(comp)
        ts = TopologicalSorter({s: [] for s in comp})
        for s, s2, g in moves:
            if g == 0 and s in members and s2 in members:
                ts.add(s, s2)
        order.extend(ts.static_order())
    return order


def order_now(moves, comps):
    """The order as :func:`plan` makes it: the moves grouped once."""
    comp_of = {s: ci for ci, comp in enumerate(comps) for s in comp}
    level = {}
    for s, s2, g in moves:
        if g == 0 and comp_of[s] == comp_of[s2]:
            level.setdefault(comp_of[s], []).append((s, s2))
    order = []
    for ci, comp in enumerate(comps):
        if ci not in level:
            order.extend(comp)
            continue
        ts = TopologicalSorter({s: [] for s in comp})
        for s, s2 in level[ci]:
            ts.add(s, s2)
        order.extend(ts.static_order())
    return order


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the quadratic baseline (minutes on the largest deck)")
    args = ap.parse_args()
    print(f"{cpu()}; {load()}")
    print(f"{'turn states':>14}  {'read':>8}  {'plan':>8}  {'order now':>10}  {'baseline':>10}  "
          f"ratio")
    for items in DECKS.values():
        text = f"goal = 50\n[deck.items]\n{items}"
        t_read, rules = median_time(lambda: parse_rules(text), args.repeats)
        m = rules.model
        name = f"{m.states:,}"
        t_plan, _ = median_time(lambda: plan(m, 50), args.repeats)
        moves, comps = _components(m)
        t_now, now = median_time(lambda: order_now(moves, comps), args.repeats)
        if args.no_baseline:
            print(f"{name:>14}  {t_read:7.2f}s  {t_plan:7.2f}s  {t_now:9.3f}s")
            continue
        t_base, base = median_time(lambda: order_baseline(moves, comps), 1)
        assert base == now, "the two orders differ"
        print(f"{name:>14}  {t_read:7.2f}s  {t_plan:7.2f}s  {t_now:9.3f}s  {t_base:9.2f}s  "
              f"{t_base / t_now:,.0f}x")


if __name__ == "__main__":
    main()
