"""Rich renderings for the terminal; the CLI calls these and nothing else
writes to the terminal."""

import json

from rich import box
from rich.console import Console
from rich.progress import ProgressColumn
from rich.table import Table
from rich.text import Text

console = Console()
err_console = Console(stderr=True)


def pct(x, digits=3):
    """A probability as a percentage string with ``digits`` decimals."""
    return f"{100 * x:.{digits}f}%"


def game_words(game):
    """The game in words for a title line: a family game's description; for
    a rules game (whose ``describe()`` is the JSON's mapping) ``The Great
    Rolled Ones (great-rolled-ones): goal 50, 3 players, rounds ending (a
    tie to the earlier seat)``, and the start points where there are."""
    text = game.describe()
    if isinstance(text, str):
        return text
    from designer.support import TIE_WORDS

    text = (f"{game.name} ({game.source}): goal {game.goal:,}, {game.players} players, "
            f"{game.ending} ending")
    if game.ending == "rounds":
        text += f" ({TIE_WORDS[game.rules.ties]})"
    if any(game.start):
        text += ", start points " + ", ".join(f"{s * game.unit:,}" for s in game.start)
    return text


def print_json(obj):
    """Print one JSON object (plain, machine-readable)."""
    print(json.dumps(obj, indent=2))


def frame_table(df, title=None, formats=None, width=None):
    """A DataFrame as rich tables that fit the terminal, never cutting a value.

    ``formats`` maps a column to a callable turning a value into text. Every
    column is at least as wide as its longest cell and its longest header
    word, so numbers stay whole and headers wrap between words, never inside
    one. When the columns do not fit ``width`` (default: the console's), the
    table is split into several, each repeating the first column (the key,
    e.g. the rank), one under the other.

    Returns
    -------
    rich renderable
        One ``Table``, or a ``Group`` of them.
    """
    from rich.console import Group

    formats = formats or {}
    width = width or console.width
    cols = [str(c) for c in df.columns]
    cells = [[formats.get(c, _default)(v) for c, v in zip(df.columns, row)]
             for row in df.itertuples(index=False)]
    need = [max([len(r[k]) for r in cells] + [len(w) for w in cols[k].split()] + [1])
            for k in range(len(cols))]
    # every column costs its width and two spaces of padding
    groups, current, used = [], [], need[0] + 2
    for k in range(1, len(cols)):
        if current and used + 2 + need[k] > width:
            groups.append(current)
            current, used = [], need[0] + 2
        current.append(k)
        used += 2 + need[k]
    groups.append(current)
    tables = []
    for g, ks in enumerate(groups):
        shown = [0, *ks]
        fixed = _spread(need, cols, shown, width)
        # no vertical rules: ten numeric columns fit an 80-column terminal
        table = Table(title=title if g == 0 else None, show_lines=False, box=box.SIMPLE_HEAD,
                      pad_edge=False, collapse_padding=True)
        for k in shown:  # fixed widths: rich neither cuts nor squeezes a column
            table.add_column(cols[k], justify="right", no_wrap=False, width=fixed[k])
        for r in cells:
            table.add_row(*[r[k] for k in shown])
        tables.append(table)
    return tables[0] if len(tables) == 1 else Group(*tables)


def _spread(need, cols, shown, width):
    """Column widths: each column's need, then the room left given to the
    columns whose headers would wrap, a character at a time, widest wish
    first (fewer header lines)."""
    out = {k: need[k] for k in shown}
    room = width - sum(out.values()) - 2 * len(shown)
    wish = {k: len(cols[k]) - out[k] for k in shown if len(cols[k]) > out[k]}
    while room > 0 and wish:
        k = max(wish, key=wish.get)
        out[k] += 1
        room -= 1
        wish[k] -= 1
        if wish[k] == 0:
            del wish[k]
    return out


def _default(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def points(n):
    """``1 point``, ``3 points``."""
    return f"{n} point" + ("" if abs(n) == 1 else "s")


def start_points(komi, players=2):
    """A komi in words: who starts with how many points.

    Two players: ``m >= 0`` points for the second player, ``m < 0`` for the
    first; more players: one integer for every seat after the first, or a
    list, seat 1 first."""
    if isinstance(komi, (list, tuple)):
        given = [f"seat {s + 1}: {points(k)}" for s, k in enumerate(komi) if k]
        return ", ".join(given) if given else "no start points"
    if komi == 0:
        return "no start points"
    if komi < 0:
        return f"{points(-komi)} for the first player"
    return f"{points(komi)} for " + ("the second player" if players == 2
                                      else "every seat after the first")


def edge(p):
    """The first-player edge ``p - 1/2`` with its sign, in percentage points
    (``+2.078%``: the first player wins 52.078% of games)."""
    return f"{100 * (p - 0.5):+.4f}%"


def show_solution(summary, verbose=False):
    """Print the headline figures of :meth:`Solution.summary`; the
    convergence figures (residual, sweeps) only when ``verbose``."""
    g = summary["game"]
    params = ", ".join(f"{k}={v}" for k, v in g.items() if k not in ("name", "family"))
    console.print(f"[bold]{g['name']}[/bold]  ({g['family']}: {params})")
    import pandas as pd

    n = summary.get("players", 2)
    if n == 2:
        p1 = summary["first_player_win"]
        console.print(f"  komi {g['komi']}: {start_points(g['komi'])}")
        console.print(f"  first player wins [bold]{pct(p1, 4)}[/bold] "
                      f"(first-player edge {edge(p1)})")
    else:
        seats = ", ".join(f"seat {a + 1} {pct(p, 3)}" for a, p in enumerate(summary["seat_win"]))
        console.print(f"  {n} players, {summary['ending']} ending; {start_points(g['komi'], n)}")
        console.print(f"  wins: [bold]{seats}[/bold]")
        console.print(f"  largest gap from an equal share ({pct(1 / n, 1)}): "
                      f"{pct(summary['fairness'], 3)}")
    console.print(f"  expected game length: {summary['expected_actions']:.3f} actions")
    if n == 2:
        fk = summary["fair_komi"]
        console.print(f"  fair komi: {start_points(fk)} "
                      f"(first-player edge {edge(summary['fair_komi_first_player_win'])})")
    else:
        seats = ", ".join(pct(p, 3) for p in summary["fair_komi_seat_win"])
        console.print(f"  fair komi: {start_points(summary['fair_komi'], n)}")
        console.print(f"    (seats win {seats})")
    rows = [{k: v for k, v in r.items() if k != "seat_win"}
            | {f"seat {a + 1}": p for a, p in enumerate(r.get("seat_win", [])) if n > 2}
            for r in summary["komi_table"]]
    if n > 2:  # every N-seat table shows its largest gap from an equal share
        rows = [{"komi": r["komi"],
                 "fairness": r.get("fairness",
                                   max(abs(p - 1 / n) for p in summary_row["seat_win"]))}
                | {k: v for k, v in r.items() if k not in ("first_player_win", "komi",
                                                             "fairness")}
                for r, summary_row in zip(rows, summary["komi_table"], strict=True)]
    else:
        rows = [{"komi": r["komi"], "first-player win": r["first_player_win"],
                 "first-player edge": r["first_player_win"],
                 "game length (actions)": r["expected_actions"]} for r in rows]
    table = pd.DataFrame(rows).rename(columns={
        "fairness": "largest gap from equal", "expected_actions": "game length (actions)"})
    whom = "the second player" if n == 2 else "every seat after the first"
    lo, hi = int(table["komi"].min()), int(table["komi"].max())
    title = f"komi {lo}..{hi}: points for {whom}" + (" (below 0: for the first)" if lo < 0 else "")
    console.print(frame_table(
        table, title=title,
        formats={"first-player win": lambda v: pct(v, 4), "first-player edge": edge,
                 "largest gap from equal": lambda v: pct(v, 3),
                 "game length (actions)": lambda v: f"{v:.2f}",
                 **{f"seat {a + 1}": (lambda v: pct(v, 3)) for a in range(n)}}))
    if summary.get("unsettled_positions"):
        console.print(unsettled_note(summary["unsettled_positions"],
                                     summary.get("unsettled_residual", 0.0)))
    # the rounds ending counts its score tuples (one per komi vector and goal)
    what = "score tuples" if summary.get("ending") == "rounds" else "states"
    line = f"  {what}: {summary['states']:,}   solve time: {summary['seconds']:.3f} s"
    if verbose:
        line += f"   residual: {summary['residual']:.2e}   sweeps: {summary['sweeps']:,}"
    console.print(line)


def show_top(table, title):
    """Print a formatted ranked table (see :func:`designer.report.content.ranked_table`)."""
    console.print(frame_table(table.astype(str), title=title, formats={}))


def estimated(seconds):
    """`` (about 2 h 18 min, by its estimate)`` for a wait of ``seconds``
    worth announcing (5 s or more), else ``""`` (also for None: no
    estimate)."""
    return f" ({duration(seconds)}, by its estimate)" if seconds and seconds >= 5 else ""


def duration(seconds):
    """Seconds in words a person reads at a glance: ``about 45 s``,
    ``about 3 min 20 s``, ``about 2 h 05 min``."""
    s = int(round(seconds))
    if s < 60:
        return f"about {max(s, 1)} s"
    if s < 3600:
        return f"about {s // 60} min {s % 60:02d} s"
    return f"about {s // 3600} h {(s % 3600) // 60:02d} min"


def processes(workers, backend="loky"):
    """How the designs are computed, in words."""
    if backend == "dask":
        return "on the dask cluster"
    return f"{workers} parallel process" + ("" if workers == 1 else "es")


def show_status(st, estimate=None, verbose=False):
    """Print a study's progress from :func:`designer.search.status`;
    ``estimate`` (:class:`designer.search.eta.Estimate`) details the time
    left when ``verbose``."""
    eta = st.get("eta_seconds")
    words = st.get("units_word", "designs")  # what one unit of work is called
    state = ("running now" if st["running"] else "not started yet"
             if not (st["done"] or st["failed"] or st["rows"]) else "not running")
    console.print(f"[bold]{st['name']}[/bold] ({st['method']}, {state})")
    if "trials" in st:
        console.print(f"  optuna trials: {st['trials']} of {st['trials_target']} done, "
                      f"{st['pending_trials']} pending")
        console.print(f"  {words} solved: {st['done']} of {st['units']} in the space, "
                      f"{st['failed']} failed")
        console.print(f"  time left: unknown (trials that propose one of the {words} already "
                      "solved take no time)")
    else:
        console.print(f"  {words}: {st['done']} done, {st['pending']} to compute, "
                      f"{st['failed']} failed, of {st['units']}")
        if eta is None:
            left = f"unknown until the first of the {words} is stored"
        elif eta == 0:
            left = "none, the study is complete" if not st["pending"] else "none"
        else:
            workers = estimate.workers if estimate is not None else None
            left = duration(eta) + (f" with {processes(workers)}" if workers else "")
            if estimate is not None and estimate.from_trial:
                left += (f" (from a trial solve on this machine, until the first of the "
                         f"{words} is stored)")
        console.print(f"  time left: {left}")
    if verbose:
        console.print(f"  rows stored: {st['rows']:,}")
        if estimate is not None and estimate.seconds_per_work is not None:
            e = estimate
            share = e.work_left / e.work_total if e.work_total else 0.0
            where = "on a trial solve" if e.from_trial else "on the stored ones"
            console.print(f"  work left: {pct(share, 1)} ({words} sized by the states they "
                          f"solve); {1e9 * e.seconds_per_work:.1f} ns per state measured "
                          f"{where}")
            start = ("already behind it (running now)" if st["running"]
                     else f"{e.startup_seconds:.1f} s")
            how = ("measured" if not e.from_trial or st["running"]
                   else "estimated from this command's own start" if e.startup_seconds
                   else "not measured yet")
            tail = (f"{e.tail_seconds:.1f} s (measured)" if e.tail_seconds or not e.from_trial
                    else "not measured yet")
            console.print(f"  a run's start-up: {start} ({how}); after the last one stored: "
                          f"{tail}")
    if st.get("solver_errors"):
        from designer.errors import SolverError

        console.print(f"  {SolverError.LABEL}: {st['solver_errors']} of the failed {words} "
                      f"(the solver should solve every well-posed game)")
    for key, err in st.get("failures", {}).items():
        console.print(f"  failed: {key}: {err}")


class unit_progress:
    """A rich progress bar over designs (or optuna trials) with the time
    spent and the time left.

    Used as ``with unit_progress(...) as advance: ... advance(result)``.
    The bar moves by WORK (``work[result["key"]]``, see
    :mod:`designer.search.eta`), not by designs, so that the time left is
    right although the designs left are smaller than those done: it is the
    work left divided by the speed measured in this run, or, until this run
    has measured one, by the speed calibrated from the stored designs
    (``seconds_per_work``). Without ``work`` every step weighs 1.
    """

    def __init__(self, name, total, done, workers, backend, noun="designs", work=None,
                 work_done=0.0, seconds_per_work=None, startup_seconds=0.0):
        from rich.progress import (BarColumn, Progress, TextColumn, TimeElapsedColumn)

        self.work = work
        self.noun = noun
        how = ("optuna search, " + processes(workers) if backend == "optuna"
               else processes(workers, backend))
        left = total - done
        self.header = (f"[bold]{name}[/bold]: {left} of {total} {noun} to compute, {how}"
                       if backend != "optuna" else f"[bold]{name}[/bold]: {left} {noun} to run, {how}")
        self.progress = Progress(
            TextColumn(f"[bold]{name}[/bold]"), BarColumn(bar_width=24),
            TextColumn("{task.fields[count]}/{task.fields[of]} " + noun), TimeElapsedColumn(),
            _TimeLeft(),
            console=err_console, transient=False, speed_estimate_period=120)
        self.total, self.done = total, done
        if work is None:
            self.work_total, self.work_done = float(total), float(done)
        else:
            self.work_total = float(work_done + sum(work.values()))
            self.work_done = float(work_done)
        parallel = 1 if backend == "dask" else max(1, workers)
        # prior speed in work per second of wall time, all processes together
        self.prior = (parallel / seconds_per_work) if seconds_per_work else None
        self.startup = startup_seconds

    def __enter__(self):
        import time

        err_console.print(self.header)
        self.progress.start()
        self.task = self.progress.add_task("", total=self.work_total, completed=self.work_done,
                                           count=self.done, of=self.total, prior=self.prior,
                                           startup=self.startup, t0=time.perf_counter(),
                                           first=None)
        self.t0, self.n, self.first = time.perf_counter(), 0, None
        return self.advance

    def advance(self, result=None):
        import time

        self.n += 1
        now = time.perf_counter()
        step = 1.0 if self.work is None or result is None else self.work.get(result["key"], 0.0)
        self.first = self.first or now
        count, grow = self.done + self.n, {}
        if count > self.total:  # more than announced (optuna's retried trials): say so
            self.total, self.work_total = count, self.work_total + step
            grow = {"total": self.work_total}
        self.progress.update(self.task, advance=step, count=count, of=self.total,
                             first=self.first, **grow)

    def __exit__(self, *exc):
        self.progress.stop()
        return False


class _TimeLeft(ProgressColumn):
    """``about 1 min 05 s left``: the work left over the speed measured in
    this run (rich's, once the results span 2 s: the first two designs
    finish together), else over the calibrated prior speed plus what is
    left of the measured start-up; ``estimating time left`` with neither."""

    max_refresh = 0.5

    def render(self, task):
        import time

        if task.finished:
            return Text("done", style="progress.remaining")
        now = time.perf_counter()
        first = task.fields.get("first")
        speed = task.speed if first is not None and now - first >= 2.0 else None
        waiting = 0.0
        if not speed:
            speed = task.fields.get("prior")
            if not speed:
                return Text("estimating time left", style="progress.remaining")
            t0 = task.fields.get("t0")
            waiting = max(0.0, task.fields.get("startup", 0.0) - (now - t0)) if t0 else 0.0
        left = waiting + max(0.0, task.total - task.completed) / speed
        return Text(f"{duration(left)} left", style="progress.remaining")


class _NoProgress:
    def __enter__(self):
        return lambda done: None

    def __exit__(self, *exc):
        return False


class _Progress:
    """A rich progress bar on stderr; entering yields ``advance(done)``."""

    def __init__(self, total, description):
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self.total = total
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=err_console, transient=True)
        self.description = description

    def __enter__(self):
        self.progress.__enter__()
        task = self.progress.add_task(self.description, total=self.total)
        # never a count above the total announced (it grows instead)
        return lambda done: self.progress.update(task, completed=done,
                                                 total=max(done, self.total))

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)


def pairing_progress(total, enabled=True, description="games"):
    """Context manager yielding ``advance(games_done)``; a bar only when
    ``enabled`` and stderr is a terminal (so pipes and ``--json`` stay clean)."""
    if enabled and err_console.is_terminal:
        return _Progress(total, description)
    return _NoProgress()


def show_pairings(game, results):
    """Print a block per :class:`~designer.simulate.wager.PairingResult`."""
    params = ", ".join(f"{k}={v}" for k, v in game.params.items() if k != "family")
    console.print(f"[bold]{game.name}[/bold]  (wager: {params})")
    for r in results:
        console.print(f"[bold]{r.player}[/bold] vs [bold]{r.opponent}[/bold]  "
                      f"({r.games:,} games of {r.hands} hands, seed {r.seed})")
        console.print(f"  mean final counters  player {r.mean_player:.3f}   "
                      f"opponent {r.mean_opponent:.3f}")
        console.print(f"  difference           {r.difference:+.3f}  95% CI "
                      f"[{2 * r.ci_low:+.3f}, {2 * r.ci_high:+.3f}]")
        console.print(f"  player net           [bold]{r.mean_net:+.3f}[/bold]  95% CI "
                      f"[{r.ci_low:+.3f}, {r.ci_high:+.3f}]  (sd {r.net_sd:.2f})")
        console.print(f"  non-dealer per hand  {r.nondealer_advantage:+.4f} "
                      f"± {r.nondealer_advantage_se:.4f} (se)")
        console.print(f"  busted {pct(r.busted, 2)}   time {r.seconds:.2f} s")
    console.print("net = the player's final counters minus its start, i.e. counters won from "
                  "the opponent per game; difference = player minus opponent = 2 x net. The "
                  "player is the non-dealer of the first hand. busted = games ended because a "
                  "side could not pay the ante.")


#: Values that move less than this between sweeps cannot change a figure
#: shown to 3 decimals of a percent.
UNSETTLED_HARMLESS = 5e-6


def unsettled_note(positions, residual):
    """Say in words what unsettled max-n positions mean and whether to worry.

    With three or more players a seat's best reply can depend on another's in
    a cycle, so at a few positions the solve keeps two answers in turn; their
    values still move by ``residual`` between sweeps, which bounds their
    effect on the figures shown."""
    text = (f"  At {positions:,} positions no best reply settles (with three or more players "
            f"each seat's best answer can keep changing in a cycle); the values there still move "
            f"by up to {residual:.1e} between sweeps, ")
    if residual < UNSETTLED_HARMLESS:
        return text + "too little to change any figure shown: nothing to worry about."
    return text + "enough to change the last digits shown: read them with care."


def gap_points(gap):
    """A's first + second win minus 1, in percentage points like the rows
    above it (``-0.07984`` -> ``-7.9840 points``)."""
    return f"{100 * gap:+.4f} points"


def show_comparison(result):
    """Print a :class:`designer.analysis.compare.Comparison` (or a
    :class:`designer.analysis.seat_compare.SeatComparison`)."""
    if hasattr(result, "seats"):
        return show_seat_comparison(result)
    r = result
    whom = start_points(r.komi).replace("the second player", "whoever moves second")
    console.print(f"[bold]{r.game}[/bold]  goal {r.goal}, komi {r.komi} ({whom})")
    console.print(f"  policy A: [bold]{r.policy}[/bold]   against B: [bold]{r.against}[/bold]")
    table = Table(show_header=True)
    table.add_column("A's exact win probability")
    table.add_column("", justify="right")
    table.add_row("A moves first", pct(r.win_as_first, 4))
    table.add_row("A moves second", pct(r.win_as_second, 4))
    table.add_row("[bold]average[/bold]", f"[bold]{pct(r.win_average, 4)}[/bold]")
    table.add_row("gap: first + second - 100%", gap_points(r.gap))
    if r.agreement is not None:
        table.add_row("agreement", f"{pct(r.agreement, 3)} of {r.states:,} decision states")
    console.print(table)
    console.print(f"  expected game length: {r.actions_as_first:.2f} actions (A first), "
                  f"{r.actions_as_second:.2f} (B first)")
    extra = f", agreement {r.agreement_seconds:.3f} s" if r.agreement is not None else ""
    if getattr(r, "passes", 1) > 1:  # a rules game whose scores can fall: iterated
        extra += f", {r.passes} passes, last change {r.residual:.1e}"
    console.print(f"  exact evaluation: {r.seconds:.3f} s{extra}")


def show_seat_comparison(r):
    """Print a :class:`designer.analysis.seat_compare.SeatComparison`."""
    starts = ", ".join(str(k) for k in r.komi)
    rounds = getattr(r, "ending", "race") == "rounds"
    ending = ", rounds ending" if rounds else ""
    console.print(f"[bold]{r.game}[/bold]  {r.players} players{ending}, goal {r.goal}, start "
                  f"points {starts} (seat 1 first)")
    how = ("a seat last in its round stops as soon as stopping wins" if rounds
           else "reading its own score and the highest opponent score")
    console.print(f"  one seat at a time plays [bold]{r.policy}[/bold] ({how}); the others play "
                  f"the {r.players}-player optimum")
    table = Table(show_header=True)
    table.add_column("seat")
    table.add_column(f"win playing {r.policy}", justify="right")
    table.add_column("win playing optimally", justify="right")
    table.add_column("difference (points)", justify="right")
    for row in r.seats:
        table.add_row(str(row["seat"]), pct(row["win"], 4), pct(row["optimal_win"], 4),
                      f"{100 * row['difference']:+.3f}")
    table.add_row("[bold]average[/bold]", "", "", f"[bold]{100 * r.average_difference:+.3f}[/bold]")
    console.print(table)
    if r.unsettled_positions:
        console.print(unsettled_note(r.unsettled_positions, r.unsettled_residual))
    cap = f"; score cap {r.cap}" if getattr(r, "cap", None) is not None else ""
    passes = (f"{r.passes} passes in all, last change {r.residual:.1e}; "
              if getattr(r, "passes", 0) else "")
    console.print(f"  exact evaluation: {r.seconds:.2f} s ({passes}the {r.players}-player solve "
                  f"excluded{cap})")


def show_zombie_comparison(r):
    """Print the dict of :func:`designer.analysis.zombie.compare_zombie`."""
    console.print(f"[bold]{r['game']['name']}[/bold]  goal {r['game']['goal']}, "
                  f"komi {r['game']['komi']} ({start_points(r['game']['komi'])})")
    console.print(f"  policy A: [bold]{r['policy']}[/bold]   against B: [bold]{r['against']}[/bold]")
    table = Table(show_header=True)
    table.add_column("A's exact win probability")
    table.add_column("", justify="right")
    table.add_row("A is player 1", pct(r["win_as_first"], 4))
    table.add_row("A is player 2", pct(r["win_as_second"], 4))
    table.add_row("[bold]average[/bold]", f"[bold]{pct(r['win_average'], 4)}[/bold]")
    table.add_row("gap: first + second - 100%", gap_points(r["gap"]))
    table.add_row("agreement", f"{pct(r['agreement'], 3)} of {r['states_compared']:,} decision states")
    console.print(table)
    console.print(f"  exact evaluation: {r['seconds']:.3f} s")


class training_progress:
    """Context manager giving a ``train_nn`` callback that drives a rich
    progress bar (by time when there is a time budget, else by epochs)."""

    def __init__(self, minutes, epochs, quiet=False):
        self.minutes, self.epochs, self.quiet = minutes, epochs, quiet

    def __enter__(self):
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        if self.quiet:
            return lambda *a: None
        self.progress = Progress(TextColumn("[bold]training[/bold]"), BarColumn(),
                                 TextColumn("{task.description}"), TimeElapsedColumn(),
                                 console=err_console, transient=False)
        self.progress.start()
        total = 60.0 * self.minutes if self.minutes is not None else float(self.epochs)
        self.by_time = self.minutes is not None
        self.task = self.progress.add_task("", total=total)

        def callback(epoch, win, best, elapsed):
            done = elapsed if self.by_time else epoch
            if self.by_time and self.epochs is not None:
                done = max(elapsed / total, epoch / self.epochs) * total
            self.progress.update(self.task, completed=min(done, total),
                                 description=f"epoch {epoch}  win vs optimal {pct(win, 3)}  "
                                             f"best {pct(best, 3)}")
        return callback

    def __exit__(self, *exc):
        if not self.quiet:
            self.progress.stop()
        return False


def show_training(report):
    """Print the report of ``designer policy train-nn``."""
    r = report
    console.print(f"[bold]{r['game']}[/bold]: 118-weight network saved to {r['out']}")
    console.print(f"  {r['epochs']} epochs, {r['samples']:,} training steps in "
                  f"{r['seconds']:.1f} s (seed {r['seed']}); best network from epoch "
                  f"{r['best_epoch']}")
    table = Table(title="exact win probability against the optimal player")
    table.add_column("network moves")
    table.add_column("win", justify="right")
    table.add_row("first", pct(r["win_as_first"], 4))
    table.add_row("second", pct(r["win_as_second"], 4))
    table.add_row("[bold]average[/bold]", f"[bold]{pct(r['win_average'], 4)}[/bold]")
    console.print(table)
    table = Table(title="memory")
    table.add_column("representation")
    table.add_column("bytes", justify="right")
    table.add_column("vs network", justify="right")
    table.add_row(f"network: {r['weights']} float64 weights", f"{r['weight_bytes']:,}", "1x")
    table.add_row("compact policy table (int16 per turn start)", f"{r['table_bytes']:,}",
                  f"{r['table_ratio']:,.1f}x")
    table.add_row(f"one bit per decision state ({r['decision_states']:,})",
                  f"{r['bitmap_bytes']:,}", f"{r['bitmap_ratio']:,.1f}x")
    console.print(table)
