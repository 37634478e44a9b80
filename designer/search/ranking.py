r"""Filtering stored rows by the study's constraints and ranking them by its
objectives (lexicographic: the first objective decides, later ones break
ties).

Simulated metrics carry standard errors. For them the rank is honest about
the uncertainty: a design's rank is one plus the number of designs that are
better by more than ``Z`` combined standard errors
(:math:`|a - b| > Z \sqrt{se_a^2 + se_b^2}`), so designs whose difference is
within the noise share a rank and ``tied`` says so.
"""

import numpy as np
import pandas as pd

from designer.search.families import family, family_of

#: Standard errors that make a difference significant (two-sided 95%).
Z = 1.96


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


def _uncertain_rank(values, se, direction):
    """1 + number of rows significantly better than each row."""
    v = values.to_numpy(dtype=float)
    e = se.to_numpy(dtype=float)
    diff = (v[None, :] - v[:, None]) if direction == "min" else (v[:, None] - v[None, :])
    # diff[r, o] > 0 when o is better than r
    better = diff < -Z * np.sqrt(e[:, None] ** 2 + e[None, :] ** 2)
    return 1 + better.sum(axis=1)


def rank(df, spec):
    """Feasible rows sorted by the objectives, with a 1-based ``rank`` column.

    For exact metrics the rank is the position. When the first objective
    has a standard error, rows within the uncertainty of each other share a
    rank and the boolean column ``tied`` marks them.
    """
    fam = family_of(spec)
    df = apply_constraints(df, spec)
    by = [o.metric for o in spec.objectives]
    asc = [o.direction == "min" for o in spec.objectives]
    keys = [c for c in fam.design_columns + fam.plane if c not in by]
    first = spec.objectives[0]
    se_col = fam.se.get(first.metric)
    if se_col and len(df):
        df = df.assign(_srank=_uncertain_rank(df[first.metric], df[se_col], first.direction))
        # within a tie the later objectives decide, then the first one's estimate
        order = ["_srank"] + by[1:] + by[:1] + keys
        ascending = [True] + asc[1:] + asc[:1] + [True] * len(keys)
        out = df.sort_values(order, ascending=ascending, kind="mergesort").reset_index(drop=True)
        ranks = out.pop("_srank")
        out.insert(0, "rank", ranks.to_numpy())
        out.insert(1, "tied", ranks.duplicated(keep=False).to_numpy())
        return out
    out = df.sort_values(by + keys, ascending=asc + [True] * len(keys), kind="mergesort")
    out = out.reset_index(drop=True)
    out.insert(0, "rank", range(1, len(out) + 1))
    return out


def top(df, spec, n=10):
    """The ``n`` best designs with the columns a person reads first."""
    fam = family_of(spec)
    ranked = rank(df, spec).head(n)
    if fam.plane:
        # the two-player plane's headline figures, where the rows have them
        # (a players/ending study has per-seat wins and start vectors instead)
        lead_metrics = ("first_player_win", "fairness", "fair_komi", "expected_actions",
                        "components")
        metrics = ([c for c in lead_metrics if c in ranked.columns] if "first_player_win"
                   in ranked.columns else [c for c in fam.stored if c in ranked.columns])
    else:
        metrics = list(fam.stored)
    extra = [c for c in ranked.columns if c not in metrics and c not in fam.stored
             and c not in fam.design_columns + fam.plane + ("rank", "tied")]
    lead = ["rank"] + (["tied"] if "tied" in ranked.columns else [])
    return ranked[lead + list(fam.design_columns + fam.plane) + metrics + extra]


def sentence(row, family_name):
    """One design in words, e.g. for the report summary."""
    return family(family_name).sentence(row)
