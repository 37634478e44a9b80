"""Filtering stored rows by the study's constraints and ranking them by its
objectives (lexicographic: the first objective decides, later ones break
ties)."""

import pandas as pd

from designer.search.families import DESIGN_COLUMNS


def apply_constraints(df, spec):
    """Rows that satisfy every row-level constraint of the study."""
    keep = pd.Series(True, index=df.index)
    for metric, bounds in spec.constraints.items():
        if metric not in df.columns:
            continue
        if "min" in bounds:
            keep &= df[metric] >= bounds["min"]
        if "max" in bounds:
            keep &= df[metric] <= bounds["max"]
    return df[keep]


def rank(df, spec):
    """Feasible rows sorted by the objectives, with a 1-based ``rank`` column."""
    df = apply_constraints(df, spec)
    by = [o.metric for o in spec.objectives]
    asc = [o.direction == "min" for o in spec.objectives]
    tie = [c for c in DESIGN_COLUMNS[spec.family] + ("goal", "komi") if c not in by]
    out = df.sort_values(by + tie, ascending=asc + [True] * len(tie), kind="mergesort")
    out = out.reset_index(drop=True)
    out.insert(0, "rank", range(1, len(out) + 1))
    return out


def top(df, spec, n=10):
    """The ``n`` best designs with the columns a person reads first."""
    ranked = rank(df, spec).head(n)
    cols = (["rank"] + list(DESIGN_COLUMNS[spec.family]) +
            ["goal", "komi", "first_player_win", "fairness", "fair_komi", "expected_actions",
             "components"])
    return ranked[cols]


def sentence(row, family):
    """One design in words, e.g. for the report summary."""
    row = {k: (int(v) if k in ("bad", "good", "faces", "goal", "komi") else v)
           for k, v in dict(row).items()}
    pts = "point" if row["komi"] == 1 else "points"
    if family == "deck":
        head = f"{row['bad']} bad and {row['good']} good items"
    else:
        head = f"a {row['faces']}-sided die busting on {row['bust_faces']}"
    return (f"{head}, goal {row['goal']}, second player starts with {row['komi']} {pts}: "
            f"first player wins {100 * row['first_player_win']:.3f}%, games last "
            f"{row['expected_actions']:.1f} actions")
