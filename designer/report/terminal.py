"""Rich renderings for the terminal; the CLI calls these and nothing else
writes to the terminal."""

import json

from rich.console import Console
from rich.table import Table

console = Console()
err_console = Console(stderr=True)


def pct(x, digits=3):
    """A probability as a percentage string with ``digits`` decimals."""
    return f"{100 * x:.{digits}f}%"


def print_json(obj):
    """Print one JSON object (plain, machine-readable)."""
    print(json.dumps(obj, indent=2))


def frame_table(df, title=None, formats=None):
    """A rich Table built from a pandas DataFrame's columns.

    ``formats`` maps a column to a callable turning a value into text.
    """
    formats = formats or {}
    table = Table(title=title, show_lines=False)
    for col in df.columns:
        table.add_column(str(col), justify="right")
    for row in df.itertuples(index=False):
        table.add_row(*[formats.get(c, _default)(v) for c, v in zip(df.columns, row)])
    return table


def _default(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def show_solution(summary):
    """Print the headline figures of :meth:`Solution.summary`."""
    g = summary["game"]
    params = ", ".join(f"{k}={v}" for k, v in g.items() if k not in ("name", "family"))
    console.print(f"[bold]{g['name']}[/bold]  ({g['family']}: {params})")
    console.print(f"  first-player win (komi {g['komi']}): [bold]{pct(summary['first_player_win'], 4)}[/bold]")
    console.print(f"  expected game length: {summary['expected_actions']:.3f} actions")
    console.print(f"  fair komi: {summary['fair_komi']} "
                  f"(first-player win {pct(summary['fair_komi_first_player_win'], 4)})")
    import pandas as pd

    table = pd.DataFrame(summary["komi_table"])
    console.print(frame_table(
        table, title=f"komi 0..{len(table) - 1}",
        formats={"first_player_win": lambda v: pct(v, 4),
                 "expected_actions": lambda v: f"{v:.2f}"}))
    console.print(f"  states: {summary['states']:,}   residual: {summary['residual']:.2e}   "
                  f"sweeps: {summary['sweeps']:,}   solve time: {summary['seconds']:.3f} s")


def show_comparison(result):
    """Print a :class:`designer.analysis.compare.Comparison`."""
    r = result
    console.print(f"[bold]{r.game}[/bold]  goal {r.goal}, komi {r.komi} (to the second mover)")
    console.print(f"  policy A: [bold]{r.policy}[/bold]   against B: [bold]{r.against}[/bold]")
    table = Table(show_header=True)
    table.add_column("A's exact win probability")
    table.add_column("", justify="right")
    table.add_row("A moves first", pct(r.win_as_first, 4))
    table.add_row("A moves second", pct(r.win_as_second, 4))
    table.add_row("[bold]average[/bold]", f"[bold]{pct(r.win_average, 4)}[/bold]")
    if r.agreement is not None:
        table.add_row("agreement", f"{pct(r.agreement, 3)} of {r.states:,} decision states")
    console.print(table)
    console.print(f"  expected game length: {r.actions_as_first:.2f} actions (A first), "
                  f"{r.actions_as_second:.2f} (B first)")
    extra = f", agreement {r.agreement_seconds:.3f} s" if r.agreement is not None else ""
    console.print(f"  exact evaluation: {r.seconds:.3f} s{extra}")


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
