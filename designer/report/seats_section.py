"""The report section of a study over players and endings.

Per player count: the fairest design under each ending (the start points
that achieve it, seat by seat), which ending is fairer, and a figure of
every seat's win probability for those designs.
"""

import pandas as pd

from designer.report import figures
from designer.report.content import Figure, Section, Table, Text


def _pct(x):
    return f"{100 * x:.2f}%"


def _starts_words(text):
    pts = [int(v) for v in str(text).split(",")]
    if not any(pts):
        return "no start points for anyone"
    given = [(s + 1, p) for s, p in enumerate(pts) if p]
    return ", ".join(f"seat {s} starts with {p} point{'s' if p != 1 else ''}" for s, p in given)


def seats_section(fam, feasible):
    """The "Seats and endings" section, or None when the rows have one
    player count and one ending."""
    if feasible.empty or (feasible["players"].nunique() == 1 and feasible["ending"].nunique() == 1):
        return None
    order = ["fairness", "expected_actions", "components"]
    best = (feasible.sort_values(order, kind="stable")
            .drop_duplicates(["players", "ending"]).sort_values(["players", "ending"]))
    blocks = []
    shown = []
    for N, part in best.groupby("players"):
        part = part.sort_values(order, kind="stable")
        top = part.iloc[0]
        words = (f"With {int(N)} players the fairest design is under the {top['ending']} ending: "
                 f"{fam.describe_design(top)}, goal {int(top['goal'])}, "
                 f"{_starts_words(top['starts'])}; every seat wins within "
                 f"{100 * top['fairness']:.2f} percentage points of an equal share "
                 f"({100 / int(N):.2f}%).")
        if len(part) > 1:
            other = part.iloc[1]
            words += (f" The fairest under the {other['ending']} ending ({_starts_words(other['starts'])}) "
                      f"misses by {100 * other['fairness']:.2f} points.")
        blocks.append(Text(words, id=f"seats-{int(N)}"))
    seats = int(best["players"].max())  # no column for a seat no design has
    for _, r in best.iterrows():
        N = int(r["players"])
        shown.append({"players": N, "ending": r["ending"], "design": fam.describe_design(r),
                      "goal": int(r["goal"]), "start points (seat 1 first)": r["starts"],
                      "largest gap from equal": f"{100 * r['fairness']:.3f} points",
                      **{f"seat {s} wins": (_pct(r[f"seat_{s}_win"]) if s <= N else "")
                         for s in range(1, seats + 1)}})
    blocks.append(Table("seats_and_endings", "Fairest design per player count and ending",
                        pd.DataFrame(shown), best.reset_index(drop=True)))
    png, data = figures.seat_bars(best.reset_index(drop=True),
                                  lambda r: f"{int(r['players'])} players, {r['ending']}, "
                                            f"starts {r['starts']}")
    blocks.append(Figure("seat_wins", "Each seat's win probability in the fairest designs", png,
                         data, "One group per player count and ending: the fairest design "
                               "found, how far each seat's exact win probability under "
                               "optimal (max-n) play is above or below an equal share, in "
                               "percentage points."))
    if (feasible["players"] > 2).any():
        blocks.append(Text("With three or more players, best replies do not always settle at a "
                           "few positions (each player maximises its own chance of winning, "
                           "and at some scores two answers are equally stable, or none is). "
                           "Their effect on the probabilities above is small; the "
                           "largest remaining error in the technical details includes them."))
    return Section("Seats and endings", blocks)
