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
