"""`designer play --stats` once a design's card has been searched: with the
rules that search found kept beside the statistics (today), against the
baseline measured in the same process, where only the search's scores are
kept (each call searches again, its scores read from the cache).

Two recorded designs (a deck and a die, as a play-tester's file holds),
three decisions each; the first call of each kind searches from nothing and is
not timed. Prints the median of ``--repeats`` calls of each and the ratio.

    PYTHONPATH=. python benchmarks/play_stats.py [--repeats 5] [--busy]
"""

import argparse
import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

from _timing import Busy, cpu, load, median_time

from designer import DeckGame, DiceGame
from designer.cli import main


def _design(game, moves):
    """A statistics entry of ``game``: two games at level hard, ``moves``
    (the mover's view, then the action) recorded."""
    from designer.play.stats import design_key, params_of

    return design_key(game), {
        "name": game.name, "params": params_of(game),
        "levels": {"hard": {"games": 2, "wins": 1, "quits": 0, "decisions": len(moves),
                            "loss": 0.02, "moves": moves}}}


STATS = {"version": 1, "designs": dict([
    _design(DeckGame(3, 5, 7), [[0, 0, 0, 0, 5, "draw"], [0, 0, 1, 0, 4, "draw"],
                                [2, 3, 2, 1, 3, "hold"]]),
    _design(DiceGame(5, 9), [[0, 0, 0, "roll"], [0, 0, 3, "roll"], [2, 5, 3, "hold"]])])}


def stats(folder):
    """``designer play --stats`` in ``folder`` (the user data directory)."""
    os.environ["DESIGNER_DATA_DIR"] = str(folder)
    with contextlib.redirect_stdout(io.StringIO()) as out, \
            contextlib.redirect_stderr(io.StringIO()):
        status = main(["play", "--stats"])
    assert status == 0 and "agree" in out.getvalue(), out.getvalue()
    return out.getvalue()


def run(repeats):
    folder = Path(tempfile.mkdtemp())
    (folder / "play-stats.json").write_text(json.dumps(STATS))
    first = stats(folder)  # the searches from nothing: not timed
    kept = sorted(p.name for p in folder.glob("strategy-*-closest*.json"))
    assert len(kept) == 2, kept

    def searched_again():
        for name in kept:
            (folder / name).unlink()
        return stats(folder)

    base, out_b = median_time(searched_again, repeats)
    now, out_n = median_time(lambda: stats(folder), repeats)
    assert out_b == out_n == first  # the same table either way
    print(f"  scores kept, search again (baseline): {base:7.3f} s")
    print(f"  rules kept (today):                   {now:7.3f} s   {base / now:6.1f}x")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--busy", action="store_true", help="one CPU-bound process beside")
    args = ap.parse_args()
    print(f"play --stats, two recorded designs; {cpu()}, {os.cpu_count()} CPUs, {load()}")
    if args.busy:
        with Busy():
            run(args.repeats)
    else:
        run(args.repeats)
