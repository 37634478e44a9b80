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
from designer.search.families import family_of
from designer.search.ranking import apply_constraints, rank


@dataclass
class Text:
    """A paragraph; ``strong`` paragraphs are emphasised. ``id`` names a
    paragraph the interactive page rewrites when a filter changes; ``term``
    marks a glossary entry (the word it defines); ``page_only`` keeps a
    paragraph that changes from run to run (a wall-clock time) out of
    ``report.md``, so that the Markdown report of the same results is the
    same file."""

    text: str
    strong: bool = False
    id: str = ""
    term: str = ""
    page_only: bool = False


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
class Explorer:
    """The interactive part of ``index.html``: the data the page's script
    draws from (see :mod:`designer.report.interactive`). Markdown says
    where to find it."""

    data: dict = field(repr=False)


@dataclass
class Section:
    title: str
    blocks: list


@dataclass
class Report:
    title: str
    sections: list


#: How the summary names each metric (plain words: a designer reads them).
METRIC_WORDS = {"fairness": "first-player edge (either sign)",
                "expected_actions": "expected game length",
                "components": "number of components", "first_player_win": "first-player win",
                "skill_vs_noncounting": "margin of counting over non-counting",
                "skill_vs_random": "margin of counting over random",
                "net_sd": "spread of outcomes",
                "skill_gap": "skill gap (how much more often an optimal player beats a "
                             "max-score player than a coin flip would)"}

#: Families whose fairness is not the first player's edge (besides the
#: seats variants: :data:`SEATS_FAIRNESS`).
FAIRNESS_WORDS = {"wager": "non-dealer gain per hand (either sign)"}
#: The fairness of a study over players (a family with ``seat_params``).
SEATS_FAIRNESS = "largest distance of a seat's win from an equal share"

#: What one unit of work is called in each family (a design for the
#: simulated ones; a composition, answered at every goal and komi, otherwise).
COMPOSITION_WORDS = {"deck": "deck compositions", "dice": "dice",
                     "zombie": "sets of zombie dice", "zombie-dice": "colour mixes of zombie dice",
                     "rules": "variants of the rules", "rules-seats": "variants of the rules"}


def _words(fam, metric):
    if metric == "fairness":
        if getattr(fam, "seat_params", None):
            return SEATS_FAIRNESS
        return FAIRNESS_WORDS.get(fam.name, METRIC_WORDS["fairness"])
    if metric == "skill_gap":
        return (f"skill gap (how much more often an optimal player beats a {fam.skill_rival[0]} "
                "player than a coin flip would)")
    return METRIC_WORDS.get(metric, metric)


def _points(k):
    return f"{int(k)} point" + ("" if int(k) == 1 else "s")


def _pct(x):
    return f"{100 * x:.3f}%"


def edge_words(first_player_win):
    """The first-player edge in percentage points, signed, in words."""
    e = 100 * (first_player_win - 0.5)
    who = ("the first player wins more often" if e > 0 else
           "the second player wins more often" if e < 0 else "neither seat is favoured")
    return f"{e:+.3f} percentage points ({who})"


def format_value(fmt, value, se=None):
    """One ranked-table cell as text, by format name (see :data:`FORMATS`).

    The page's script (``page.js``, ``fmt``) writes the same formats when a
    filter re-ranks the table; the browser test checks that both agree.
    """
    if value is None or (isinstance(value, float) and value != value):
        return ""  # a seat the design does not have (NULL in the store, NaN in a frame)
    if fmt == "pct3":
        return f"{100 * value:.3f}%"
    if fmt == "edge":  # from the first-player win, in percentage points
        return f"{100 * (value - 0.5):+.3f}"
    if fmt == "pct4":
        return f"{100 * value:.4f}%"
    if fmt == "f1":
        return f"{value:.1f}"
    if fmt == "pct2":
        return f"{100 * value:.2f}%"
    if fmt == "se":
        return f"{value:.3g} ± {1.96 * se:.1g}"
    if fmt == "int":
        return str(int(value))
    if fmt == "tied":
        return "tied" if value else ""
    if fmt == "g4":
        return f"{value:.4g}"
    return str(value)


#: The format names of :func:`format_value`.
FORMATS = ("pct3", "edge", "pct4", "f1", "pct2", "se", "int", "tied", "g4", "text")


def table_columns(ranked, spec):
    """The ranked table's columns: ``(header, data column, format, se column)``.

    Parameters the study holds fixed are said once in the summary, not per
    row; simulated metrics are shown as ``value ± 1.96 se``; every numeric
    column beyond the basic ones (metrics added by later features) is shown
    too.
    """
    fam = family_of(spec)
    out = [("rank", "rank", "int", None)]
    if "tied" in ranked.columns:
        out.append(("tied", "tied", "tied", None))
    for c in fam.design_columns + fam.plane:
        if (c in spec.space and len(spec.space[c].values) == 1) or c in spec.fixed:
            continue
        fmt = "int" if pd.api.types.is_integer_dtype(ranked[c]) else "text"
        out.append((HEADERS.get(c, c.replace("_", " ")), c, fmt, None))
    se_cols = set(fam.se.values())
    metrics = [c for c in fam.stored if c not in se_cols and c not in (
        "fair_first_player_win", "games", "nondealer_advantage", "nondealer_advantage_se")]
    extra = [c for c in ranked.columns
             if c not in ["rank", "tied"] + list(fam.design_columns + fam.plane) + list(fam.stored)
             and pd.api.types.is_numeric_dtype(ranked[c])]
    for c in metrics + extra:
        if c == "first_player_win":
            out.append((HEADERS[c], c, "pct3", None))
            out.append((HEADERS["edge"], c, "edge", None))
        elif c == "fairness" and "first_player_win" in fam.stored:
            continue  # the signed edge above says it, with its sign
        elif c == "fairness" and not fam.se:
            out.append((fam.fairness_words[1], c, "pct4", None))
        elif c in fam.se:
            head = fam.fairness_words[1] if c == "fairness" else HEADERS.get(c, c)
            out.append((head, c, "se", fam.se[c]))
        elif c == "expected_actions":
            out.append((HEADERS[c], c, "f1", None))
        elif c == "skill_gap":
            out.append((HEADERS[c], c, "pct2", None))
        elif c.startswith("seat_") and c.endswith("_win"):
            if "players" in ranked and int(c[5:-4]) > ranked["players"].max():
                continue  # a seat no design of the study has
            out.append((f"seat {c[5:-4]} wins", c, "pct2", None))
        elif c == "fair_fairness":
            out.append((f"{fam.fairness_words[1]} at the fairest start points", c, "pct4", None))
        elif not pd.api.types.is_numeric_dtype(ranked[c]):
            out.append((HEADERS.get(c, c.replace("_", " ")), c, "text", None))
        elif pd.api.types.is_integer_dtype(ranked[c]):
            out.append((HEADERS.get(c, c.replace("_", " ")), c, "int", None))
        else:
            out.append((HEADERS.get(c, c.replace("_", " ")), c, "g4", None))
    return out


def ranked_table(ranked, spec, n=10):
    """The top ``n`` ranked rows, formatted for people (see :func:`table_columns`)."""
    cols = table_columns(ranked, spec)
    fam = family_of(spec)
    keep = list(dict.fromkeys(
        [c for _, c, _, _ in cols] + [s for *_, s in cols if s]
        + [c for c in fam.design_columns + fam.plane + ("fairness",) if c in ranked.columns]))
    data = ranked.head(n)[keep]
    shown = pd.DataFrame({head: [format_value(fmt, v, se) for v, se in zip(
        data[c], data[se_col] if se_col else [None] * len(data))]
        for head, c, fmt, se_col in cols}, index=data.index)
    return Table("top_designs", f"Top {len(data)} designs", shown, data)


#: Column headers in reports (plain words).
HEADERS = {"first_player_win": "first-player win", "edge": "first-player edge (points of %)",
           "fair_komi": "fair komi (points to 2nd player)",
           "expected_actions": "length (actions)", "bust_faces": "busting faces",
           "components": "components", "nondealer_advantage": "non-dealer/hand",
           "skill_vs_noncounting": "vs non-counting", "skill_vs_random": "vs random",
           "net_sd": "sd of net", "busted": "busted", "max_raise": "max raise",
           "bust_shotguns": "shotguns to bust", "footprints": "footprints", "goal": "goal",
           "komi": "komi (points to 2nd player)", "skill_gap": "skill gap", "bad": "bad",
           "good": "good", "starts": "start points (seat 1 first)",
           "fair_starts": "fairest start points", "players": "players", "ending": "ending"}


def _progress(fam, status, n_rows):
    done, total = status["done"], status["units"]
    what = COMPOSITION_WORDS.get(fam.name, "compositions") if fam.plane else "designs"
    text = f"{done} of {total} {what} computed"
    if status["failed"]:
        text += f", {status['failed']} failed"
    if fam.plane:
        text += (f", {n_rows:,} designs in all (each composition at every goal and komi of "
                 "the study)")
    if done == total:
        return text + "; the study is complete."
    return (text + f" - the study is NOT complete; this report covers "
            f"{100 * done / max(1, total):.0f}% of the space.")


def _constraint_words(spec):
    fam = family_of(spec)
    edge = "first_player_win" in fam.stored

    def name(k):
        if k == "fairness":
            return "first-player edge (either sign)" if edge else _words(fam, k)
        return METRIC_WORDS.get(k, k.replace("_", " "))

    def value(k, v):
        if edge and k in ("fairness", "first_player_win", "skill_gap"):
            return f"{100 * v:g} percentage points" if k != "first_player_win" else f"{100 * v:g}%"
        return f"{v:g}"

    return "; ".join(
        f"{name(k)} " + " and ".join(f"{'at least' if b == 'min' else 'at most'} {value(k, v)}"
                                     for b, v in bounds.items())
        for k, bounds in spec.constraints.items())


def build(spec, rows, status, unit_stats=None, policies=3, card=None, card_progress=None):
    """Build the report of a study from its stored rows and status dict.

    Parameters
    ----------
    spec : StudySpec
    rows : pandas.DataFrame
        Every stored row of the study.
    status : dict
        From :func:`designer.search.status` (``done``, ``units``, ``failed``).
    unit_stats : pandas.DataFrame, optional
        The store's per-unit statistics (seconds, residual), for the
        technical details at the end.
    policies : int or "all"
        How many of the best designs (distinct compositions and goals) get
        their optimal-policy picture in the interactive page; each costs one
        solve (about half a second for a deck at goal 50). The recommended
        design's picture is always drawn; ``"all"`` draws every design's.
    card : int, optional
        Largest rule size of the recommended design's strategy card
        (:mod:`designer.report.card_section`); None: no card.
    card_progress : callable, optional
        The rule search's progress callback.
    """
    from designer.report import interactive

    fam = family_of(spec)
    sections = []
    feasible = apply_constraints(rows, spec)
    ranked = rank(rows, spec)
    summary = [Text(spec.description or f"Study {spec.name}."),
               Text(_progress(fam, status, len(rows)))]
    if len(ranked):
        best = ranked.iloc[0]
        summary.append(Text("Recommended: " + fam.sentence(best) + ".", strong=True,
                            id="recommendation"))
        if "first_player_win" in ranked.columns:
            summary.append(Text(
                f"First-player edge: {edge_words(best['first_player_win'])}. The second player "
                f"starts with {_points(best['komi'])} (komi); the fair komi of this design "
                f"at goal {int(best['goal'])} is {_points(best['fair_komi'])} for the second "
                "player.", id="recommendation-edge"))
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
        summary.append(Text(why, id="recommendation-why"))
        if spec.constraints:
            summary.append(Text("Constraints: " + _constraint_words(spec) + "."))
    else:
        summary.append(Text("No feasible design has been computed yet.", strong=True))
    sections.append(Section("Summary", summary))
    if not len(ranked):
        sections += appendix(spec, rows, status, unit_stats)
        return Report(f"Study {spec.name}", sections)

    policy = POLICIES.get(spec.family)
    pictures = {}
    if policy is not None:
        keys = list(fam.design_columns) + ["goal"]
        if policies == "all":  # every design, the ranked ones first
            chosen = pd.concat([ranked, rows]).drop_duplicates(keys)
        else:
            chosen = ranked.drop_duplicates(keys).head(max(1, int(policies)))
        for _, row in chosen.iterrows():
            pictures[interactive.policy_key(fam, row)] = policy(fam, row)
    sections.append(Section("Explore the designs", [
        interactive.explorer(spec, rows, ranked, table_columns(ranked, spec), pictures)]))
    sections.append(Section("Ranked designs", [ranked_table(ranked, spec)]))
    if getattr(fam, "seat_params", None):
        from designer.report.seats_section import seats_section

        seats = seats_section(fam, feasible)
        if seats is not None:
            sections.append(seats)

    figs = []
    if fam.heatmap:
        x, y, xl, yl = fam.heatmap
        if feasible[x].nunique() > 1 and feasible[y].nunique() > 1:
            png, data = figures.fairness_heatmap(feasible, x, y, xl, yl,
                                                 annotate="komi" if "komi" in fam.plane else None)
            figs.append(Figure("fairness_heatmap", "Fairness over the design space", png, data,
                               "Each cell: the fairest design over the other parameters; "
                               "bright cells are fairer, the fairest one is outlined"
                               + ("; the number is the komi (points given to the second "
                                  "player) that achieves it." if "komi" in fam.plane else ".")))
    if fam.heatmap and "skill_gap" in feasible.columns:
        x, y, xl, yl = fam.heatmap
        if feasible[x].nunique() > 1 and feasible[y].nunique() > 1:
            png, data = figures.fairness_heatmap(feasible, x, y, xl, yl, annotate=None,
                                                 color="skill_gap")
            figs.append(Figure("skill_heatmap", "Skill gap over the design space", png, data,
                               "Each cell: the skill gap of the fairest design there (how much "
                               f"more often an optimal player beats a {fam.skill_rival[0]} "
                               "player than a coin flip would, seats averaged); bright cells "
                               "reward skill more."))
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
    if policy is not None:
        best_key = interactive.policy_key(fam, ranked.iloc[0])
        sections.append(Section("Optimal play of the recommended design",
                                [policy_figure(fam, ranked.iloc[0], pictures[best_key])]))
    if card is not None:
        from designer.report.card_section import card_section

        section = card_section(spec, fam, ranked.iloc[0], card, card_progress)
        if section is not None:
            sections.append(section)
    sections += appendix(spec, rows, status, unit_stats)
    return Report(f"Study {spec.name}", sections)


def appendix(spec, rows, status, unit_stats):
    """Technical details (how the numbers were computed) and the glossary."""
    fam = family_of(spec)
    tech = []
    if fam.plane:
        tech.append(Text(getattr(fam, "exact_words", None) or (
            "Every number is exact (no simulation): each composition is solved once by value "
            "iteration over every position of the game, and every goal and komi of the study "
            "is read off that solve.")))
    else:
        tech.append(Text(
            f"Every number is estimated by simulating {spec.games:,} games per design; "
            "standard errors are stored beside each metric, and designs whose difference "
            "is within 1.96 combined standard errors share a rank."))
    if unit_stats is not None and len(unit_stats):
        done = unit_stats[unit_stats["status"] == "done"]
        res = done["residual"].dropna()
        if len(res):
            tech.append(Text(
                f"Convergence: the largest remaining error of a solve (the residual, the "
                f"largest change of a win probability in the last sweep) is {res.max():.1e} "
                f"over {len(done):,} solves."))
        if len(done):
            tech.append(Text(f"Compute time: {done['seconds'].sum():,.0f} s in all "
                             f"(median {done['seconds'].median():.2f} s per "
                             f"{'composition' if fam.plane else 'design'}).",
                             page_only=True))
    tech.append(Text(f"Rows stored: {len(rows):,}; study file: {spec.path}."))
    return [Section("Technical details", tech), Section("Glossary", glossary(fam))]


def glossary(fam):
    """Plain definitions of the words the report uses."""
    words = [
        ("design", "one complete set of rules you could print: "
         + ("the composition, the goal and the komi." if fam.plane else "every parameter "
            "of the game.")),
    ]
    if fam.plane:
        words += [
            ("composition", "what is in the box: "
             + {"deck": "how many bad and good items the deck holds.",
                "dice": "the die (its faces and which faces bust).",
                "zombie": "the dice and their faces.",
                "zombie-dice": "how many green, yellow and red dice the cup holds.",
                "rules": "the values the study gives the rules file's keys.",
                }.get(fam.name.removesuffix("-seats"), "the components.")),  # as its family
            ("goal", "the points a player needs to win."),
        ]
        if getattr(fam, "seat_params", None):
            words += [
                ("start points", "the points each seat starts with (seat 1 first), to make "
                 "up for the order of play; the komi is the same thing written as one number "
                 "per seat after the first."),
                ("fairest start points", "the start points that bring every seat closest to "
                 "an equal share of the wins (a third with three players, a quarter with "
                 "four)."),
                ("largest gap from equal", "how far the seat furthest from an equal share "
                 "of the wins is from it, in percentage points: 0 is perfectly fair."),
            ]
        else:
            words += [
                ("komi", "points the second player starts with, to make up for moving "
                 "second."),
                ("fair komi", "the komi (points for the second player) that brings the first "
                 "player's chance of winning closest to 50%."),
            ]
        if "first_player_win" in fam.stored:  # two seats (a study over players has none)
            words += [
                ("first-player win", "the chance that the player who moves first wins, when "
                 "both play as well as possible."),
                ("first-player edge", "first-player win minus 50%, in percentage points. "
                 "Positive: the first player wins more often; negative: the second player "
                 "does; 0: a perfectly fair game. The report ranks by its size, ignoring the "
                 "sign."),
            ]
        if "expected_actions" in fam.stored:
            words.append(("expected length", "the average number of actions (draws, rolls, "
                          "holds) in a game between optimal players."))
        words += [
            ("optimal policy", "the play that maximises the chance of winning, found exactly."),
        ]
        if "skill_gap" in fam.stored:
            words.append(("skill gap", "how much more often an optimal player beats a "
                          f"{fam.skill_rival[0]} player ({fam.skill_rival[1]}) than a coin "
                          "flip would, averaged over both seats: 0% means skill does not "
                          "matter."))
    else:
        words += [
            ("non-dealer gain per hand", "how many counters the non-dealer wins per hand on "
             "average; 0 is a fair game."),
            ("standard error", "the uncertainty of a simulated number; ± 1.96 standard "
             "errors is a 95% interval."),
        ]
    words += [("feasible", "meets every constraint of the study."),
              ("constraint", "a limit the study puts on a design (e.g. at most 49 components).")]
    return [Text(d, term=w) for w, d in words]


def row_game(fam, row, komi=0):
    """The rules object of a stored row's design at its goal and ``komi``."""
    unit = {c: (list(map(int, str(row[c]).split(","))) if c in fam.optional else int(row[c]))
            for c in fam.design_columns}
    return fam.game(unit, int(row["goal"]), komi)


def _solve_row(fam, row):
    from designer.solve import solve

    return solve(row_game(fam, row))


@dataclass
class PolicyPicture:
    """A design's optimal policy over (own score, opponent score): one or
    more panels ``(subtitle, array[i, j])`` and how to label them."""

    title: str
    panels: list = field(repr=False)
    goal: int
    value_label: str
    caption: str


def deck_policy(fam, row):
    """A deck's optimal policy, as the Fowl Play paper shows it: good draws
    before holding at each score pair, at several deck states."""
    sol = _solve_row(fam, row)
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
    return PolicyPicture(f"Optimal policy: good draws before holding ({g.name})", panels, goal,
                         "good draws before holding",
                         "At each score pair, the number of good items the optimal player "
                         "draws before holding, at several deck states.")


def dice_policy(fam, row):
    """A die's optimal policy: the hold-at turn total at each score pair."""
    sol = _solve_row(fam, row)
    G = sol.game.goal
    hold = np.array([[sol.hold_at(i, j) for j in range(G)] for i in range(G)], dtype=float)
    return PolicyPicture(f"Optimal policy: turn total at which to hold ({sol.game.name})",
                         [("hold at turn total", hold)], G, "hold at (points)",
                         "At each score pair, the smallest turn total at which the optimal "
                         "player holds.")


def policy_figure(fam, best, picture=None):
    """The recommended design's optimal policy as a PNG figure."""
    pic = picture or POLICIES[fam.name](fam, best)
    png, data = figures.policy_heatmaps(pic.panels, pic.goal, pic.value_label, pic.title)
    return Figure("policy", "Optimal policy", png, data, pic.caption)


#: Families whose designs get a policy picture: family -> function(fam, row).
POLICIES = {"deck": deck_policy, "dice": dice_policy}
