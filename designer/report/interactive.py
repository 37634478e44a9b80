"""The interactive part of ``index.html``: the data its script draws from.

The page (``page.js``, with Plotly inlined: no network) re-does in the
browser what :mod:`designer.search.ranking` does in Python, on the stored
rows embedded as JSON:

* **filter**: a row passes when every filtered metric lies within the
  chosen bounds (the study's constraints are the initial bounds);
* **rank**: the passing rows sorted by the study's objectives, in the
  store's canonical row order on ties (a stable sort, as pandas' mergesort),
  then by the design columns; for simulated metrics a row's rank is
  ``1 +`` the number of rows better by more than ``1.96`` combined standard
  errors;
* **map**: for each cell ``(x, y)`` of the family's heatmap axes, the
  passing row with the smallest ``fairness`` (first in store order on ties),
  drawn on a log scale with the fairest cells brightest.

Nothing is solved here except the optimal policies of the best few designs
(see :func:`designer.report.content.build`, ``policies``).
"""

import json
import math
from importlib import resources

import numpy as np
import pandas as pd

from designer.search.families import family_of

#: Most thresholds a slider steps through (quantiles of the metric's values).
SLIDER_STEPS = 200

#: How filters and hover texts name and write each metric.
METRIC_LABELS = {
    "expected_actions": ("game length (expected actions)", "f1"),
    "skill_gap": ("skill gap", "pct2"),
    "components": ("components", "int"),
    "fairness": ("first-player edge, either sign", "pct4"),
    "first_player_win": ("first-player win", "pct3"),
    "skill_vs_noncounting": ("counting over non-counting (counters per game)", "g4"),
    "skill_vs_random": ("counting over random (counters per game)", "g4"),
    "net_sd": ("spread of outcomes", "g4"),
}


def policy_key(fam, row):
    """The text key of a design's policy picture: design columns and goal."""
    vals = [row[c] for c in fam.design_columns] + [row["goal"]]
    return "|".join(str(int(v)) if isinstance(v, (int, np.integer, float, np.floating))
                    else str(v) for v in vals)


def _column(values):
    """A column as a JSON-ready list (NaN becomes null)."""
    if pd.api.types.is_integer_dtype(values):
        return [int(v) for v in values]
    if pd.api.types.is_numeric_dtype(values):
        return [None if math.isnan(v) else float(v) for v in values.astype(float)]
    return [str(v) for v in values]


def _thresholds(values, bounds):
    """The values a slider steps through: quantiles of ``values`` plus the
    study's own bounds (so the initial filter is the constraint exactly)."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    uniq = np.unique(v)
    if len(uniq) > SLIDER_STEPS + 1:
        uniq = np.unique(np.quantile(v, np.linspace(0, 1, SLIDER_STEPS + 1),
                                     method="inverted_cdf"))
    extra = [b for b in bounds.values()]
    out = np.unique(np.concatenate([uniq, np.asarray(extra, dtype=float)]))
    return [float(x) for x in out]


def _filters(spec, rows):
    fam = family_of(spec)
    metrics = list(spec.constraints)
    for m in ("expected_actions", "skill_gap", "skill_vs_noncounting", "components"):
        if m in fam.stored and m not in metrics:
            metrics.append(m)
    out = []
    for m in metrics:
        if m not in rows.columns or not pd.api.types.is_numeric_dtype(rows[m]):
            continue
        bounds = spec.constraints.get(m, {})
        values = _thresholds(rows[m], bounds)
        if len(values) < 2:
            continue
        label, fmt = METRIC_LABELS.get(m, (m.replace("_", " "), "g4"))
        if m == "fairness" and fam.name == "wager":
            label, fmt = "non-dealer gain per hand, either sign", "g4"
        lo = values.index(float(bounds["min"])) if "min" in bounds else 0
        hi = values.index(float(bounds["max"])) if "max" in bounds else len(values) - 1
        out.append({"metric": m, "label": label, "fmt": fmt, "values": values,
                    "lo": lo, "hi": hi, "constraint": m in spec.constraints})
    return out


def _picture(pic):
    sub, arr = pic.panels[0]
    z = np.nan_to_num(np.asarray(arr, dtype=float)).round().astype(int)
    return {"title": pic.title, "panel": sub, "label": pic.value_label, "goal": pic.goal,
            "z": z.T.tolist()}  # rows: opponent score, columns: own score


def explorer(spec, rows, ranked, columns, pictures):
    """The :class:`~designer.report.content.Explorer` block of a study.

    Parameters
    ----------
    spec : StudySpec
    rows : pandas.DataFrame
        Every stored row (the page filters them itself).
    ranked : pandas.DataFrame
        The rows ranked under the study's own constraints (for the policy
        hint: how many pictures a design needs to be embedded).
    columns : list
        The ranked table's columns, from
        :func:`designer.report.content.table_columns`.
    pictures : dict
        :func:`policy_key` -> :class:`~designer.report.content.PolicyPicture`.
    """
    from designer.report.content import (COMPOSITION_WORDS, Explorer, _words)

    fam = family_of(spec)
    rows = rows.reset_index(drop=True)
    design_cols = list(fam.design_columns)
    codes, uniques = pd.factorize(pd.MultiIndex.from_frame(rows[design_cols]))
    designs = [fam.describe_design(dict(zip(design_cols, u if isinstance(u, tuple) else (u,))))
               for u in uniques]
    data = {
        "family": fam.name,
        "n": len(rows),
        "cols": {c: _column(rows[c]) for c in rows.columns},
        "design": [int(c) for c in codes],
        "designs": designs,
        "design_columns": design_cols,
        "plane": list(fam.plane),
        "tiekeys": [c for c in fam.design_columns + fam.plane
                    if c not in [o.metric for o in spec.objectives]],
        "objectives": [{"metric": o.metric, "direction": o.direction} for o in spec.objectives],
        "se": dict(fam.se),
        "table": [{"head": h, "col": c, "fmt": f, "se": s} for h, c, f, s in columns],
        "n_table": 10,
        "filters": _filters(spec, rows),
        "why": "Chosen by " + ", then ".join(
            f"{'smallest' if o.direction == 'min' else 'largest'} {_words(fam, o.metric)}"
            for o in spec.objectives),
        "space": spec.describe_space(),
        "axes": None,
        "policies": {k: _picture(p) for k, p in pictures.items()},
        "policy_order": [],
        "study_file": str(spec.path),
        "composition_words": COMPOSITION_WORDS.get(fam.name, "designs"),
    }
    if "komi" not in fam.plane or "expected_actions" not in fam.stored or fam.name == "rules":
        # simulated, seats and rules families (a rules row also says its
        # fair komi): their own sentences (the page writes the others'
        # from the komi and the expected length)
        data["sentences"] = [fam.sentence(r) for _, r in rows.iterrows()]
    if fam.heatmap:
        x, y, xl, yl = fam.heatmap
        if rows[x].nunique() > 1 and rows[y].nunique() > 1:
            data["axes"] = {"x": x, "y": y, "xlabel": xl, "ylabel": yl}
    if fam.name in ("deck", "dice"):
        order = ranked.drop_duplicates(design_cols + ["goal"])
        data["policy_order"] = [policy_key(fam, r) for _, r in order.iterrows()]
    return Explorer(data)


def page_script():
    """The page's own script (``page.js``)."""
    return resources.files("designer.report").joinpath("page.js").read_text()


def plotly_script():
    """plotly.js, minified, to inline once (about 4.8 MB: no network)."""
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def embed_json(data):
    """``data`` as JSON safe inside a ``<script>`` element."""
    return (json.dumps(data, separators=(",", ":"), allow_nan=False)
            .replace("</", "<\\/").replace("<!--", "<\\!--"))
