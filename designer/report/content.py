"""What a study report says: sections of text, tables and figures.

The content is built once, as blocks, and written twice (Markdown and HTML,
see :mod:`designer.report.writers`), so both always say the same thing.
Metrics that later features add to the study rows (any column named in
``designer.search.spec.METRICS`` beyond the basic ones) appear in the ranked
table through the same machinery.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from designer.report import figures
from designer.search.families import DESIGN_COLUMNS, unit_game
from designer.search.ranking import apply_constraints, rank, sentence


@dataclass
class Text:
    """A paragraph; ``strong`` paragraphs are emphasised."""

    text: str
    strong: bool = False


@dataclass
class Table:
    """A formatted table and the raw data behind it."""

    name: str
    title: str
    shown: pd.DataFrame
    data: pd.DataFrame


@dataclass
class Figure:
    """A PNG figure and the data drawn in it."""

    name: str
    title: str
    png: bytes = field(repr=False)
    data: pd.DataFrame = field(repr=False)
    caption: str = ""


@dataclass
class Section:
    title: str
    blocks: list


@dataclass
class Report:
    title: str
    sections: list


#: How the summary names each metric.
METRIC_WORDS = {"fairness": "|first-player win - 1/2|", "expected_actions": "expected game length",
                "components": "number of components", "first_player_win": "first-player win"}


def _pct(x):
    return f"{100 * x:.3f}%"


def _design_label(family):
    if family == "deck":
        return lambda d: f"{d['bad']} bad / {d['good']} good, goal {d['goal']}"
    return lambda d: f"d{d['faces']} bust {d['bust_faces']}, goal {d['goal']}"


def ranked_table(ranked, spec, n=10):
    """The top ``n`` ranked rows, formatted for people."""
    cols = (["rank"] + list(DESIGN_COLUMNS[spec.family]) +
            ["goal", "komi", "first_player_win", "fairness", "fair_komi", "expected_actions",
             "components"])
    extra = [c for c in ranked.columns if c not in cols and c not in (
        "fair_first_player_win",) and pd.api.types.is_numeric_dtype(ranked[c])]
    data = ranked.head(n)[cols + extra]
    shown = data.copy()
    shown["first_player_win"] = data["first_player_win"].map(_pct)
    shown["fairness"] = data["fairness"].map(lambda v: f"{100 * v:.4f}%")
    shown["expected_actions"] = data["expected_actions"].map(lambda v: f"{v:.1f}")
    for c in extra:
        shown[c] = data[c].map(lambda v: f"{v:.4g}")
    shown = shown.rename(columns={
        "first_player_win": "first-player win", "fairness": "|win - 50%|",
        "fair_komi": "fair komi", "expected_actions": "expected actions",
        "components": "components", "bust_faces": "bust faces"})
    return Table("top_designs", f"Top {len(data)} designs", shown, data)


def build(spec, rows, status):
    """Build the report of a study from its stored rows and status dict."""
    family = spec.family
    sections = []
    feasible = apply_constraints(rows, spec)
    ranked = rank(rows, spec)
    progress = (f"{status['done']} of {status['units']} units computed"
                + (f", {status['failed']} failed" if status["failed"] else "")
                + (" (the study is complete)." if status["done"] == status["units"]
                   else f" - the study is NOT complete; this report covers "
                        f"{100 * status['done'] / max(1, status['units']):.0f}% of the space."))
    summary = [Text(spec.description or f"Study {spec.name}."), Text(progress)]
    if len(ranked):
        best = ranked.iloc[0]
        summary.append(Text("Recommended: " + sentence(best, family) + ".", strong=True))
        why = ("Chosen by " + ", then ".join(
            f"{'smallest' if o.direction == 'min' else 'largest'} {METRIC_WORDS.get(o.metric, o.metric)}"
            for o in spec.objectives) + " among " + f"{len(feasible):,} feasible designs "
            f"({len(rows):,} computed) over {spec.describe_space()}.")
        summary.append(Text(why))
        if spec.constraints:
            summary.append(Text("Constraints: " + "; ".join(
                f"{k.replace('_', ' ')} " + " and ".join(
                    f"{'>=' if b == 'min' else '<='} {v:g}" for b, v in bounds.items())
                for k, bounds in spec.constraints.items()) + "."))
    else:
        summary.append(Text("No feasible design has been computed yet.", strong=True))
    sections.append(Section("Summary", summary))
    if not len(ranked):
        return Report(f"Study {spec.name}", sections)

    sections.append(Section("Ranked designs", [ranked_table(ranked, spec)]))

    figs = []
    if family == "deck":
        png, data = figures.fairness_heatmap(feasible, "bad", "good", "bad items", "good items")
    else:
        png, data = figures.fairness_heatmap(feasible, "faces", "goal", "faces of the die", "goal")
    if feasible[DESIGN_COLUMNS[family][0]].nunique() * feasible[
            "good" if family == "deck" else "goal"].nunique() > 1:
        figs.append(Figure("fairness_heatmap", "Fairness over the design space", png, data,
                           "Each cell: the best |first-player win - 1/2| over goal and komi; "
                           "the number is the komi that achieves it."))
    keys = list(DESIGN_COLUMNS[family]) + ["goal"]
    top_designs = ranked.drop_duplicates(keys).head(5)[keys]
    png, data = figures.komi_lines(feasible, top_designs, _design_label(family))
    figs.append(Figure("komi_lines", "First-player win against komi", png, data,
                       "Where a line crosses 50% is that design's fair komi."))
    if family == "deck" and feasible["good"].nunique() > 1:
        png, data = figures.length_lines(feasible, "good", "bad", "good items", "bad")
        figs.append(Figure("length", "Game length against composition", png, data,
                           "Feasible designs only, each at its fairest komi."))
    elif family == "dice" and feasible["goal"].nunique() > 1:
        png, data = figures.length_lines(feasible, "goal", "faces", "goal (points)", "faces")
        figs.append(Figure("length", "Game length against goal", png, data))
    sections.append(Section("Fairness and length", figs))
    sections.append(Section("Optimal play of the recommended design",
                            [policy_figure(family, ranked.iloc[0])]))
    return Report(f"Study {spec.name}", sections)


def policy_figure(family, best):
    """The recommended design's optimal policy, as the Fowl Play paper shows it."""
    from designer.solve import solve

    unit = {c: (list(map(int, str(best[c]).split(","))) if c == "bust_faces" else int(best[c]))
            for c in DESIGN_COLUMNS[family]}
    goal = int(best["goal"])
    sol = solve(unit_game(family, unit, goal))
    if family == "deck":
        g = sol.game
        states = [("fresh deck", 0, 0), (f"{g.bad - 1} bad drawn (one left)", g.bad - 1, 0),
                  (f"{g.good // 2} good drawn", 0, g.good // 2)]
        if g.bad > 1:
            states.append((f"{g.bad // 2} bad, {g.good // 2} good drawn", g.bad // 2, g.good // 2))
        i = np.arange(goal)[:, None]
        panels = []
        for sub, w, c in states:
            t = sol.policy[:, :, w, c].astype(float)
            # draws to the goal are shown as the points still needed
            panels.append((sub, np.minimum(t, goal - i)))
        png, data = figures.policy_heatmaps(panels, goal, "good draws before holding",
                                            f"Optimal policy: good draws before holding ({g.name})")
        caption = ("At each score pair, the number of good items the optimal player draws "
                   "before holding, at several deck states.")
    else:
        G = goal
        hold = np.array([[sol.hold_at(i, j) for j in range(G)] for i in range(G)], dtype=float)
        png, data = figures.policy_heatmaps([("hold at turn total", hold)], G, "hold at (points)",
                                            f"Optimal policy: turn total at which to hold ({sol.game.name})")
        caption = "At each score pair, the smallest turn total at which the optimal player holds."
    return Figure("policy", "Optimal policy", png, data, caption)
