"""``designer solve``: exact optimal play of one game."""

from designer.commands._common import add_game_args, game_from_args, int_in, solve_shown
from designer.errors import DesignError


def register(sub):
    p = sub.add_parser(
        "solve", help="solve a game exactly under optimal play",
        description="Solve a deck, dice or Zombie Dice game exactly. Prints the first-player win "
                    "probability at the requested komi, the expected game length in actions "
                    "(every draw/roll and every hold), the fair komi (the start points for the "
                    "second player that bring the first player's win closest to 50%), a komi "
                    "table, the number of states and the solve time; --verbose adds the "
                    "convergence figures.",
        epilog="examples: designer solve fowl-play | designer solve red-light --json | "
               "designer solve deck --bad 5 --good 30 --goal 40 --komi 2 | "
               "designer solve dice --faces 8 --goal 60 | designer solve zombie-yellow --json | "
               "designer solve zombie --footprints 1 --goal 15")
    add_game_args(p)
    p.add_argument("--max-komi", type=int_in(0, 1000), default=10, help="last komi of the table (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.add_argument("--verbose", action="store_true",
                   help="also print how the solver converged (largest residual of the "
                        "optimality equations, sweeps)")
    p.set_defaults(func=run)


def run(args):
    from designer.report.terminal import print_json, show_solution

    game = game_from_args(args, "solve")
    if args.max_komi < 0:
        raise DesignError(f"invalid --max-komi={args.max_komi}: allowed 0 <= max-komi")
    summary = solve_shown(game).summary(max_komi=args.max_komi)
    if args.json:
        print_json(summary)
    else:
        show_solution(summary, verbose=args.verbose)
    return 0
