"""``designer solve``: exact optimal play of one game."""

from designer.commands._common import add_game_args, game_from_args, int_in, solve_shown
from designer.errors import DesignError


def register(sub):
    p = sub.add_parser(
        "solve", help="solve a game exactly under optimal play",
        description="Solve a deck, dice or Zombie Dice game, or any game written as a rules "
                    "file, exactly. Prints the first-player win "
                    "probability at the requested komi, the expected game length in actions "
                    "(every draw/roll and every hold), the fair komi (the start points for the "
                    "second player that bring the first player's win closest to 50%), a komi "
                    "table, the number of states and the solve time; --verbose adds the "
                    "convergence figures. A rules file (FILE.toml), a Python rules module "
                    "(rules:FILE.py, whose code runs) or a shipped rules example (piglet, "
                    "two-dice-pig, hog, great-rolled-ones, farkle; rules:pig, rules:fowl-play, "
                    "rules:red-light, rules:zombie-dice) is solved by the engine, which also "
                    "prints the residual of its solve (the game length for 2 players, and "
                    "for 3-4 players in the race ending; --no-length skips it); its komi and "
                    "--max-komi count points in steps of the rules' unit (50 in Farkle).",
        epilog="examples: designer solve fowl-play | designer solve red-light --json | "
               "designer solve deck --bad 5 --good 30 --goal 40 --komi 2 | "
               "designer solve dice --faces 8 --goal 60 | designer solve zombie-yellow --json | "
               "designer solve zombie --footprints 1 --goal 15 | designer solve farkle --json | "
               "designer solve my_game.toml --komi 2")
    add_game_args(p)
    p.add_argument("--max-komi", type=int_in(0, 1000), default=10, help="last komi of the table (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    length = p.add_mutually_exclusive_group()
    length.add_argument("--length", dest="length", action="store_true", default=None,
                        help="rules games: compute the expected game length even where it "
                             "takes long (by default it is left out, with an estimate of its "
                             "time, where it would take over 10 s: the rounds ending of a "
                             "large game)")
    length.add_argument("--no-length", dest="length", action="store_false", default=None,
                        help="rules games: skip the expected game length, an exact evaluation "
                             "of optimal play that takes about as long as the solve in the "
                             "race and one to three times as long in the rounds ending (up to "
                             "twenty where turns may start over from several states after a "
                             "bust)")
    p.add_argument("--verbose", action="store_true",
                   help="also print how the solver converged (largest residual of the "
                        "optimality equations, sweeps)")
    p.set_defaults(func=run)


def run(args):
    from designer.report.terminal import print_json, show_solution

    game = game_from_args(args, "solve")
    if args.max_komi < 0:
        raise DesignError(f"invalid --max-komi={args.max_komi}: allowed 0 <= max-komi")
    if game.family == "rules":
        return _run_rules(game, args)
    if args.length is not None:
        flag = "--length" if args.length else "--no-length"
        raise DesignError(f"invalid {flag} for {game.name}: allowed only for rules games "
                          "(the solvers of the other games give the length with the solve)")
    summary = solve_shown(game).summary(max_komi=args.max_komi)
    if args.json:
        print_json(summary)
    else:
        show_solution(summary, verbose=args.verbose)
    return 0


#: What a pass of each stage is part of (:func:`passes_said`).
STAGES = {"solve": "solving {name} exactly", "length": "game length of {name}",
          "match": "evaluating the policies on {name}"}


def passes_said(name, passes, change, what="solve", left=None):
    """The status line of an iterated solve after ``passes`` passes whose
    last moved a win (``what = "length"``: a game length, relatively) by
    ``change``, with the seconds ``left`` if known (``what``: a key of
    :data:`STAGES`).

    >>> passes_said("Two-Dice Pig", 3, 0.0124)
    'solving Two-Dice Pig exactly: pass 3, largest change 1.2e-02 (stops at 1e-12)'
    >>> passes_said("Pig", 40, 3e-7, "length", 95)
    'game length of Pig: pass 40, largest change 3.0e-07 (stops at 1e-12), about 1 min 35 s left'
    """
    from designer._jit import TOL
    from designer.report.terminal import duration

    head = STAGES[what].format(name=name)
    tail = "" if left is None else f", {duration(left)} left"
    return (f"{head}: pass {passes:,}, largest change {change:.1e} (stops at {TOL:g})"
            + tail)


#: Passes over which :class:`PassesStatus` measures how fast the change falls.
RATE_WINDOW = 5


class PassesStatus:
    """``progress(passes, change, what)`` for a terminal status line: each
    pass in words (:func:`passes_said`) and, where the change fell over
    the last :data:`RATE_WINDOW` passes, the time left at that rate:
    falling by ``rho`` a pass, the change reaches the tolerance in
    ``log(TOL / change) / log(rho)`` more passes, each as long as those
    (a change that did not fall, as where best replies cycle, gives no
    time left)."""

    def __init__(self, status, name, clock=None):
        import time

        self.status, self.name = status, name
        self.clock = clock or time.perf_counter
        self.what, self.seen = None, []

    def __call__(self, passes, change, what="solve"):
        import math

        from designer._jit import TOL

        now = self.clock()
        if what != self.what:  # a new stage starts its own count
            self.what, self.seen = what, []
        self.seen.append((now, change))
        left = None
        if len(self.seen) > RATE_WINDOW and TOL < change:
            (t0, c0), (t1, c1) = self.seen[-1 - RATE_WINDOW], self.seen[-1]
            if 0.0 < c1 < c0:
                rho = (c1 / c0) ** (1.0 / RATE_WINDOW)
                more = math.log(TOL / c1) / math.log(rho)
                left = more * (t1 - t0) / RATE_WINDOW
        self.status.update(passes_said(self.name, passes, change, what, left))


def _run_rules(game, args):
    """A rules game, solved by the engine (:func:`designer.engine.game.solve_game`)."""
    from designer.engine.game import solve_game
    from designer.report.terminal import err_console, print_json

    if err_console.is_terminal and not args.json:
        with err_console.status(f"solving {game.name} exactly...") as status:
            summary = solve_game(game, max_komi=args.max_komi, length=args.length,
                                 progress=PassesStatus(status, game.name))
    else:
        summary = solve_game(game, max_komi=args.max_komi, length=args.length)
    if args.json:
        print_json(summary)
    else:
        show_rules_solution(summary, verbose=args.verbose)
    return 0


def show_rules_solution(summary, verbose=False):
    """The engine's figures for people: the win at the komi asked, the fair
    komi, a komi table, the states, the residual and the time."""
    import pandas as pd

    from designer.report.terminal import console, edge, frame_table, pct, start_points

    g = summary["game"]
    if summary["players"] > 2:
        return _show_rules_seats(summary, verbose)
    console.print(f"[bold]{g['name']}[/bold]  (rules: {g['source']}, goal {g['goal']:,}, "
                  f"2 players, {summary['ending']})")
    if summary["ending"] == "rounds":
        console.print(f"  ties: {summary['ties']} (a tie at the end of a round)")
    p1 = summary["first_player_win"]
    console.print(f"  komi {g['komi']}: {start_points(g['komi'])}")
    console.print(f"  first player wins [bold]{pct(p1, 4)}[/bold] (first-player edge {edge(p1)})")
    if "expected_actions" in summary:
        console.print(f"  expected game length: {summary['expected_actions']:.3f} actions")
    elif "length_skipped_seconds" in summary:
        console.print(f"  expected game length: left out (about "
                      f"{summary['length_skipped_seconds']:.0f} s to compute; add --length)")
    elif "length_error" in summary:
        console.print(f"  expected game length: not given: {summary['length_error']}")
    console.print(f"  fair komi: {start_points(summary['fair_komi'])} "
                  f"(first-player edge {edge(summary['fair_komi_first_player_win'])})")
    rows = pd.DataFrame([{"komi": r["komi"], "first-player win": r["first_player_win"],
                          "first-player edge": r["first_player_win"]}
                         | ({"game length (actions)": r["expected_actions"]}
                            if "expected_actions" in r else {})
                         for r in summary["komi_table"]])
    lo, hi = int(rows["komi"].min()), int(rows["komi"].max())
    console.print(frame_table(rows, title=f"komi {lo}..{hi}: points for the second player",
                              formats={"first-player win": lambda v: pct(v, 4),
                                       "first-player edge": edge,
                                       "game length (actions)": lambda v: f"{v:.2f}"}))
    line = (f"  states: {summary['states']:,}   residual: {summary['residual']:.1e}   "
            f"solve time: {summary['seconds']:.3f} s")
    if verbose:
        if "length_seconds" in summary:
            line += f"   game length time: {summary['length_seconds']:.3f} s"
        line += (f"   turn states: {summary['turn_states']:,}   passes: {summary['passes']:,}"
                 f"   sweeps: {summary['sweeps']:,}")
    console.print(line)


def _show_rules_seats(summary, verbose=False):
    """:func:`show_rules_solution` for three or four seats: every seat's
    win, the largest gap from an equal share, the fair komi vector and the
    komi table (every seat after the first starting with the same points)."""
    import pandas as pd

    from designer.report.terminal import (console, frame_table, pct, start_points,
                                          unsettled_note)

    g, n = summary["game"], summary["players"]
    console.print(f"[bold]{g['name']}[/bold]  (rules: {g['source']}, goal {g['goal']:,}, "
                  f"{n} players, {summary['ending']})")
    if summary["ending"] == "rounds":
        console.print(f"  ties: {summary['ties']} (a tie at the end of a round)")
    console.print(f"  komi {g['komi']}: {start_points(g['komi'], n)}")
    seats = ", ".join(f"seat {a + 1} {pct(p, 3)}" for a, p in enumerate(summary["seat_win"]))
    console.print(f"  wins: [bold]{seats}[/bold]")
    console.print(f"  largest gap from an equal share ({pct(1 / n, 1)}): "
                  f"{pct(summary['fairness'], 3)}")
    if "expected_actions" in summary:
        console.print(f"  expected game length: {summary['expected_actions']:.3f} actions")
    elif "length_error" in summary:
        console.print(f"  expected game length: not given: {summary['length_error']}")
    console.print(f"  fair komi: {start_points(summary['fair_komi'], n)}")
    console.print(f"    (seats win {', '.join(pct(p, 3) for p in summary['fair_komi_seat_win'])})")
    rows = pd.DataFrame([{"komi": r["komi"], "largest gap from equal": r["fairness"]}
                         | ({"game length (actions)": r["expected_actions"]}
                            if "expected_actions" in r else {})
                         | {f"seat {a + 1}": p for a, p in enumerate(r["seat_win"])}
                         for r in summary["komi_table"]])
    lo, hi = int(rows["komi"].min()), int(rows["komi"].max())
    console.print(frame_table(rows, title=f"komi {lo}..{hi}: points for every seat after the "
                                          "first",
                              formats={"largest gap from equal": lambda v: pct(v, 3),
                                       "game length (actions)": lambda v: f"{v:.2f}",
                                       **{f"seat {a + 1}": (lambda v: pct(v, 3))
                                          for a in range(n)}}))
    if summary["unsettled_positions"]:
        console.print(unsettled_note(summary["unsettled_positions"],
                                     summary["unsettled_residual"]))
    line = (f"  states: {summary['states']:,}   residual: {summary['residual']:.1e}   "
            f"solve time: {summary['seconds']:.3f} s")
    if verbose:
        if "length_seconds" in summary:
            line += f"   game length time: {summary['length_seconds']:.3f} s"
        line += (f"   turn states: {summary['turn_states']:,}   passes: {summary['passes']:,}"
                 f"   sweeps: {summary['sweeps']:,}")
    console.print(line)
