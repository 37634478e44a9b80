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
from designer.search.families import family as family_of
from designer.search.ranking import apply_constraints, rank


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
                "components": "number of components", "first_player_win": "first-player win",
                "skill_vs_noncounting": "margin of counting over non-counting",
                "skill_vs_random": "margin of counting over random",
                "net_sd": "spread of outcomes",
                "skill_gap": "skill gap (optimal vs max-score, seats averaged, minus 1/2)"}


def _words(fam, metric):
    return fam.fairness_words[0] if metric == "fairness" else METRIC_WORDS.get(metric, metric)


def _pct(x):
    return f"{100 * x:.3f}%"


def ranked_table(ranked, spec, n=10):
    """The top ``n`` ranked rows, formatted for people.

    Simulated metrics are shown as ``value ± 1.96 se``; every numeric column
    beyond the basic ones (metrics added by later features) is shown too.
    """
    fam = family_of(spec.family)
    lead = ["rank"] + (["tied"] if "tied" in ranked.columns else [])
    # parameters the study holds fixed are said once in the summary, not per row
    keys = [c for c in fam.design_columns + fam.plane
            if not (c in spec.space and len(spec.space[c].values) == 1)
            and c not in spec.fixed]
    se_cols = set(fam.se.values())
    metrics = [c for c in fam.stored if c not in se_cols and c not in (
        "fair_first_player_win", "games", "nondealer_advantage", "nondealer_advantage_se")]
    extra = [c for c in ranked.columns
             if c not in lead + list(fam.design_columns + fam.plane) + list(fam.stored)
             and pd.api.types.is_numeric_dtype(ranked[c])]
    data = ranked.head(n)[lead + keys + metrics + [c for c in fam.stored if c in se_cols] + extra]
    shown = data[lead + keys].copy()
    for c in metrics + extra:
        v = data[c]
        if c == "first_player_win":
            shown[c] = v.map(_pct)
        elif c == "fairness" and not fam.se:  # in percentage points
            shown[c] = v.map(lambda x: f"{100 * x:.4f}%")
        elif c == "expected_actions":
            shown[c] = v.map(lambda x: f"{x:.1f}")
        elif c == "skill_gap":
            shown[c] = v.map(lambda x: f"{100 * x:.2f}%")
        elif c in fam.se:
            se = data[fam.se[c]]
            shown[c] = [f"{a:.3g} ± {1.96 * b:.1g}" for a, b in zip(v, se)]
        elif pd.api.types.is_integer_dtype(v):
            shown[c] = v
        else:
            shown[c] = v.map(lambda x: f"{x:.4g}")
    if "tied" in shown.columns:
        shown["tied"] = shown["tied"].map(lambda t: "tied" if t else "")
    shown = shown.rename(columns={**HEADERS, "fairness": fam.fairness_words[1]})
    return Table("top_designs", f"Top {len(data)} designs", shown, data)


#: Column headers in reports.
HEADERS = {"first_player_win": "P1 win", "fairness": "|P1 - 50%|", "fair_komi": "fair komi",
           "expected_actions": "actions", "bust_faces": "bust", "components": "parts",
           "nondealer_advantage": "non-dealer/hand", "skill_vs_noncounting": "vs non-counting",
           "skill_vs_random": "vs random", "net_sd": "sd of net", "busted": "busted",
           "max_raise": "max raise", "bust_shotguns": "bust at", "footprints": "feet",
           "skill_gap": "skill gap"}


def build(spec, rows, status):
    """Build the report of a study from its stored rows and status dict."""
    fam = family_of(spec.family)
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
        summary.append(Text("Recommended: " + fam.sentence(best) + ".", strong=True))
        if "tied" in ranked.columns and bool(best["tied"]):
            n_tied = int((ranked["rank"] == best["rank"]).sum())
            summary.append(Text(f"{n_tied} designs share rank {int(best['rank'])}: their "
                                f"{_words(fam, spec.objectives[0].metric)}"
                                " differ by less than the simulation's uncertainty "
                                "(1.96 combined standard errors); the tie is broken by the "
                                "later objectives."))
        why = ("Chosen by " + ", then ".join(
            f"{'smallest' if o.direction == 'min' else 'largest'} {_words(fam, o.metric)}"
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
    if fam.heatmap:
        x, y, xl, yl = fam.heatmap
        if feasible[x].nunique() > 1 and feasible[y].nunique() > 1:
            png, data = figures.fairness_heatmap(feasible, x, y, xl, yl,
                                                 annotate="komi" if "komi" in fam.plane else None)
            figs.append(Figure("fairness_heatmap", "Fairness over the design space", png, data,
                               "Each cell: the best fairness over the other parameters"
                               + ("; the number is the komi that achieves it."
                                  if "komi" in fam.plane else ".")))
    if fam.heatmap and "skill_gap" in feasible.columns:
        x, y, xl, yl = fam.heatmap
        if feasible[x].nunique() > 1 and feasible[y].nunique() > 1:
            png, data = figures.fairness_heatmap(feasible, x, y, xl, yl, annotate=None,
                                                 color="skill_gap")
            figs.append(Figure("skill_heatmap", "Skill gap over the design space", png, data,
                               "Each cell: the skill gap (optimal player against a max-score "
                               "player, seats averaged, minus 1/2) of the fairest design there."))
    if "komi" in fam.plane:
        keys = list(fam.design_columns) + ["goal"]
        top_designs = ranked.drop_duplicates(keys).head(5)[keys]
        png, data = figures.komi_lines(feasible, top_designs, fam.short_label)
        figs.append(Figure("komi_lines", "First-player win against komi", png, data,
                           "Where a line crosses 50% is that design's fair komi."))
    if fam.length:
        x, group, xl, gl = fam.length
        if feasible[x].nunique() > 1:
            png, data = figures.length_lines(feasible, x, group, xl, gl)
            figs.append(Figure("length", "Game length against the design", png, data,
                               "Feasible designs only, each at its fairest komi."))
    if fam.se:
        png, data = figures.metric_errorbars(ranked.head(15), fam.short_label, fam.se)
        figs.append(Figure("metrics", "Simulated metrics of the top designs", png, data,
                           "Bars: 95% confidence intervals (1.96 standard errors)."))
    if figs:
        sections.append(Section("Fairness and length" if fam.plane else "Metrics", figs))
    policy = POLICY_FIGURES.get(spec.family)
    if policy is not None:
        sections.append(Section("Optimal play of the recommended design",
                                [policy(fam, ranked.iloc[0])]))
    return Report(f"Study {spec.name}", sections)


def _solve_row(fam, row):
    from designer.solve import solve

    unit = {c: (list(map(int, str(row[c]).split(","))) if c in fam.optional else int(row[c]))
            for c in fam.design_columns}
    return solve(fam.game(unit, int(row["goal"])))


def deck_policy_figure(fam, best):
    """The recommended deck's optimal policy, as the Fowl Play paper shows it."""
    sol = _solve_row(fam, best)
    g = sol.game
    goal = g.goal
    states = [("fresh deck", 0, 0), (f"{g.bad - 1} bad drawn (one left)", g.bad - 1, 0),
              (f"{g.good // 2} good drawn", 0, g.good // 2)]
    if g.bad > 1:
        states.append((f"{g.bad // 2} bad, {g.good // 2} good drawn", g.bad // 2, g.good // 2))
    i = np.arange(goal)[:, None]
    # draws to the goal are shown as the points still needed
    panels = [(sub, np.minimum(sol.policy[:, :, w, c].astype(float), goal - i))
              for sub, w, c in states]
    png, data = figures.policy_heatmaps(panels, goal, "good draws before holding",
                                        f"Optimal policy: good draws before holding ({g.name})")
    return Figure("policy", "Optimal policy", png, data,
                  "At each score pair, the number of good items the optimal player draws "
                  "before holding, at several deck states.")


def dice_policy_figure(fam, best):
    """The recommended die's optimal policy: hold-at turn total per score pair."""
    sol = _solve_row(fam, best)
    G = sol.game.goal
    hold = np.array([[sol.hold_at(i, j) for j in range(G)] for i in range(G)], dtype=float)
    png, data = figures.policy_heatmaps([("hold at turn total", hold)], G, "hold at (points)",
                                        f"Optimal policy: turn total at which to hold ({sol.game.name})")
    return Figure("policy", "Optimal policy", png, data,
                  "At each score pair, the smallest turn total at which the optimal player holds.")


#: Families whose recommended design gets a policy figure.
POLICY_FIGURES = {"deck": deck_policy_figure, "dice": dice_policy_figure}
