"""Report figures (matplotlib, Agg backend).

Every figure is readable in greyscale and by red/green colour-blind readers:
sequential data use ``cividis`` (monotonic lightness, no red-green axis) and
lines differ by marker and dash as well as colour. Each function returns
the PNG bytes and the DataFrame drawn, which the report saves beside it.
"""

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

CMAP = "cividis"
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">"]
DASHES = ["-", "--", "-.", ":"]


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _style(i, n):
    """Line ``i`` of ``n``: colours spread over viridis (light to dark, so
    greyscale still separates them) plus a distinct marker and dash."""
    return dict(marker=MARKERS[i % len(MARKERS)], linestyle=DASHES[i % len(DASHES)],
                color=plt.get_cmap("viridis")(0.9 * i / max(1, n - 1)))


#: The fairness colour scale spans first-player edges from 10% (or more:
#: darkest) to 0.001% (or less: brightest), in decades.
EDGE_DECADES = (1.0, 5.0)


def _fairness_scale(fairness, probability):
    """``-log10`` of the fairness (bigger is fairer) and its colour limits.

    For win probabilities the limits are fixed (:data:`EDGE_DECADES`) so
    that every report's colours mean the same; otherwise they follow the
    data.
    """
    z = -np.log10(np.maximum(fairness, 1e-12))
    finite = z[np.isfinite(z)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if probability:
        lo, hi = EDGE_DECADES
    return z, lo, max(hi, lo + 1e-9)


def fairness_heatmap(rows, x, y, xlabel, ylabel, annotate="komi", color="fairness"):
    """The fairest design of every (x, y) cell, coloured by ``color``.

    ``rows`` are the feasible study rows; for each (x, y) the fairest row
    over the other parameters (goal, komi, ...) is drawn, with ``annotate``
    written in. Fairness is drawn on a log scale with the fairest cells
    brightest (``cividis``: lightness grows monotonically, so greyscale
    keeps the order) and the fairest cell outlined; other metrics are drawn
    linearly, brighter for larger values.
    """
    best = rows.loc[rows.groupby([x, y])["fairness"].idxmin()]
    cols = list(dict.fromkeys([x, y] + [c for c in ("goal", "komi", "first_player_win")
                                        if c in rows.columns] + ["fairness", color]))
    data = best[cols].reset_index(drop=True)
    grid = data.pivot(index=y, columns=x, values=color)
    komi = data.pivot(index=y, columns=x, values=annotate) if annotate else grid * np.nan
    xs, ys = list(grid.columns), list(grid.index)
    probability = "first_player_win" in rows.columns
    if color == "fairness":
        z, vmin, vmax = _fairness_scale(grid.to_numpy(dtype=float), probability)
    else:
        z = 100 * grid.to_numpy(dtype=float) if color == "skill_gap" else grid.to_numpy(dtype=float)
        vmin, vmax = float(np.nanmin(z)), float(np.nanmax(z))
    fig, ax = plt.subplots(figsize=(max(5.5, 1.6 + 0.6 * len(xs)),
                                    max(3.5, 0.8 + 0.27 * len(ys))))
    cmap = plt.get_cmap(CMAP).with_extremes(bad="white")
    im = ax.imshow(np.ma.masked_invalid(z), origin="lower", aspect="auto", cmap=cmap,
                   vmin=vmin, vmax=vmax, extent=(-0.5, len(xs) - 0.5, -0.5, len(ys) - 0.5))
    if len(xs) * len(ys) <= 900:
        size = 9 if len(ys) <= 60 else 7
        for iy in range(len(ys)):
            for ix in range(len(xs)):
                k = komi.iat[iy, ix]
                if not np.isnan(k):
                    # cividis is light above ~55% of its range: dark text there
                    light = (z[iy, ix] - vmin) / (vmax - vmin) > 0.55
                    ax.text(ix, iy, f"{int(k)}", ha="center", va="center", fontsize=size,
                            color="black" if light else "white")
    if color == "fairness" and np.isfinite(z).any():
        iy, ix = np.unravel_index(np.nanargmax(np.where(np.isfinite(z), z, -np.inf)), z.shape)
        for lw, c in ((3.2, "black"), (1.4, "white")):  # visible on any colour
            ax.add_patch(plt.Rectangle((ix - 0.5, iy - 0.5), 1, 1, fill=False, linewidth=lw,
                                       edgecolor=c))
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    step = max(1, len(ys) // 24)
    ax.set_yticks(range(0, len(ys), step), [str(v) for v in ys[::step]])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    cb = fig.colorbar(im, ax=ax, shrink=min(1.0, 0.5 + 0.01 * len(ys)))
    if color == "fairness":
        ax.set_title("Fairest design in each cell: bright is fairer"
                     + ("\n(numbers: komi, points given to the second player)" if annotate
                        else ""), fontsize=10)
        ticks = np.arange(np.ceil(vmin), np.floor(vmax) + 1)
        what = "first-player edge" if probability else "non-dealer gain per hand"
        labels = [(f"{100 * 10 ** -t:g}%" if probability else f"{10 ** -t:g}") for t in ticks]
        if len(ticks) > 1:
            labels[0] = f"\u2265{labels[0]}\nless fair" if probability else f"{labels[0]}\nless fair"
            labels[-1] = f"\u2264{labels[-1]}\nfairer" if probability else f"{labels[-1]}\nfairer"
        cb.set_ticks(ticks, labels=labels)
        cb.set_label(f"{what} (either sign)")
    else:
        ax.set_title(f"{color.replace('_', ' ')} of the fairest design in each cell: "
                     "bright is more", fontsize=10)
        if color == "skill_gap":
            cb.set_label("skill gap (%): higher means skill matters more")
        else:
            cb.set_label(color.replace("_", " "))
    return _png(fig), data


def metric_errorbars(ranked, label, se):
    """Simulated metrics of ranked designs with 95% intervals, one panel each."""
    metrics = list(se)
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.2 * len(metrics), 0.5 + 0.32 * len(ranked)),
                             squeeze=False, sharey=True)
    names = [label(r) for _, r in ranked.iterrows()]
    ypos = np.arange(len(ranked))[::-1]
    for ax, m in zip(axes[0], metrics):
        ax.errorbar(ranked[m], ypos, xerr=1.96 * ranked[se[m]], fmt="o", color="black",
                    ecolor="0.4", capsize=2, markersize=3)
        ax.set_xlabel(m.replace("_", " "))
        ax.grid(alpha=0.3)
    axes[0][0].set_yticks(ypos, names, fontsize=7)
    data = ranked[[c for c in ranked.columns if c in metrics or c in se.values()
                   or c == "rank"]].assign(design=names)
    return _png(fig), data.reset_index(drop=True)


def komi_lines(rows, designs, label):
    """First-player win against komi for the given designs.

    ``designs`` is a DataFrame of design keys (the columns to match) and
    ``label`` turns one of its rows into a legend entry.
    """
    fig, ax = plt.subplots(figsize=(6.4, 4))
    frames = []
    keys = list(designs.columns)
    for i, d in enumerate(designs.itertuples(index=False)):
        sel = rows
        for k, v in zip(keys, d):
            sel = sel[sel[k] == v]
        sel = sel.sort_values("komi")
        name = label(pd.Series(dict(zip(keys, d))))
        ax.plot(sel["komi"], 100 * sel["first_player_win"], label=name, **_style(i, len(designs)))
        frames.append(sel.assign(design=name))
    ax.axhline(50, color="black", linewidth=0.8)
    ax.set_xlabel("komi (points given to the second player)")
    ax.set_ylabel("first-player win (%)")
    ax.set_title("First-player win against komi for the top designs")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    data = pd.concat(frames, ignore_index=True) if frames else rows.head(0)
    return _png(fig), data


def length_lines(rows, x, group, xlabel, group_label):
    """Expected game length at each design's fairest komi, against ``x``,
    one line per value of ``group``."""
    keys = list(dict.fromkeys([group, x, "goal"]))
    best = rows.loc[rows.groupby(keys)["fairness"].idxmin()]
    if x != "goal" and best["goal"].nunique() > 1:  # one goal per line: the largest
        best = best[best["goal"] == best["goal"].max()]
    data = best[keys + ["komi", "expected_actions"]].sort_values([group, x])
    fig, ax = plt.subplots(figsize=(6.4, 4))
    groups = list(data.groupby(group))
    for i, (g, part) in enumerate(groups):
        ax.plot(part[x], part["expected_actions"], label=f"{group_label} {g}", markersize=3,
                **_style(i, len(groups)))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("expected game length (actions)")
    ax.set_title("Game length at the fairest komi" + (
        "" if x == "goal" else f" (goal {int(data['goal'].max())})"))
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    return _png(fig), data.reset_index(drop=True)


def policy_heatmaps(panels, goal, value_label, title):
    """Heatmaps of a policy over (own score, opponent score).

    ``panels`` is a list of ``(subtitle, 2-D array [i, j])``.
    """
    n = len(panels)
    fig, axes = plt.subplots(1, n, figsize=(3.4 * n + 1, 3.6), squeeze=False, sharey=True)
    vmax = max(float(np.nanmax(a)) for _, a in panels)
    frames = []
    for ax, (sub, arr) in zip(axes[0], panels):
        im = ax.imshow(arr.T, origin="lower", cmap=CMAP, vmin=0, vmax=vmax,
                       extent=(-0.5, goal - 0.5, -0.5, goal - 0.5))
        ax.set_title(sub, fontsize=9)
        ax.set_xlabel("own score (points)")
    axes[0][0].set_ylabel("opponent score (points)")
    for ax, (sub, arr) in zip(axes[0], panels):
        i, j = np.meshgrid(np.arange(arr.shape[0]), np.arange(arr.shape[1]), indexing="ij")
        frames.append(pd.DataFrame({"panel": sub, "own_score": i.ravel(), "opponent_score": j.ravel(),
                                    "value": arr.ravel()}))
    cb = fig.colorbar(im, ax=axes[0].tolist(), shrink=0.85)
    cb.set_label(value_label)
    fig.suptitle(title, fontsize=10)
    return _png(fig), pd.concat(frames, ignore_index=True)


def seat_bars(rows, label):
    """How far every seat's win probability is from an equal share, for a
    few designs, as grouped bars around 0.

    Bars from 0% would make 33.46% and 33.10% look the same; the distance
    from ``1/N`` (percentage points, above or below) is what fairness is
    about. ``rows`` holds ``players`` and ``seat_1_win`` .. ``seat_4_win``
    (NaN for seats a design does not have); ``label`` turns a row into its
    name. Only the seats some design has get a bar and a legend entry;
    seats are told apart by hatching as well as colour (greyscale-safe).
    """
    n = len(rows)
    seats = int(rows["players"].max())
    fig, ax = plt.subplots(figsize=(max(6.4, 1.1 * n + 2), 4))
    width = 0.8 / seats
    hatches = ["", "//", "..", "xx"]
    share = 100 / rows["players"].to_numpy(dtype=float)
    for s in range(seats):
        vals = 100 * rows[f"seat_{s + 1}_win"].to_numpy(dtype=float) - share
        xs = np.arange(n) + (s - (seats - 1) / 2) * width
        ok = np.isfinite(vals)
        ax.bar(xs[ok], vals[ok], width, label=f"seat {s + 1}", hatch=hatches[s],
               color=plt.get_cmap("viridis")(0.25 * s), edgecolor="black", linewidth=0.5)
    ax.axhline(0, color="black", linewidth=1)
    frames = [{"design": label(r), "players": int(r["players"]),
               **{f"seat_{s + 1}_win": r[f"seat_{s + 1}_win"] for s in range(seats)},
               "equal_share": 1 / int(r["players"])} for _, r in rows.iterrows()]
    ax.set_xticks(np.arange(n))
    ax.set_xticklabels([label(r) for _, r in rows.iterrows()], fontsize=7, rotation=20, ha="right")
    ax.set_ylabel("win minus an equal share (percentage points)")
    ax.set_title("Each seat's chance of winning, above or below an equal share (100% / players)",
                 fontsize=9)
    ax.legend(fontsize=7, ncol=seats)
    ax.grid(alpha=0.3, axis="y")
    return _png(fig), pd.DataFrame(frames)
