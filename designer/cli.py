"""The ``designer`` command line: argparse in, rich out, no logic of its own.

Every user error is a :class:`designer.errors.DesignError`; it is printed as
one line and the process exits with status 2 (as argparse does for bad usage).
"""

import argparse
import sys

from designer.errors import DesignError

GAME_HELP = ("preset (fowl-play, red-light, pig) or family (deck, dice); family "
             "parameters below override a preset's")


def _add_game_args(p):
    p.add_argument("game", help=GAME_HELP)
    g = p.add_argument_group("deck parameters")
    g.add_argument("--bad", type=int, help="bad items (wolves, red chips), 1..60")
    g.add_argument("--good", type=int, help="good items (chickens, green chips), 1..400")
    g = p.add_argument_group("dice parameters")
    g.add_argument("--faces", type=int, help="faces of the die, 2..100")
    g.add_argument("--bust-faces", type=lambda s: tuple(int(x) for x in s.split(",")),
                   help="comma-separated faces that bust (default 1)")
    g = p.add_argument_group("common parameters")
    g.add_argument("--goal", type=int, help="points needed to win")
    g.add_argument("--komi", type=int, help="points the second player starts with (0 <= komi < goal)")


def _game_from_args(args):
    from designer.games import load_game

    return load_game(args.game, bad=args.bad, good=args.good, faces=args.faces,
                     bust_faces=args.bust_faces, goal=args.goal, komi=args.komi)


def cmd_solve(args):
    from designer.report.terminal import print_json, show_solution
    from designer.solve import solve

    game = _game_from_args(args)
    if args.max_komi < 0:
        raise DesignError(f"invalid --max-komi={args.max_komi}: allowed 0 <= max-komi")
    summary = solve(game).summary(max_komi=args.max_komi)
    if args.json:
        print_json(summary)
    else:
        show_solution(summary, args.max_komi)
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="designer",
        description="Find the rules that make a push-your-luck game fair: exact optimal play, "
                    "first-player win probability, fair komi and game length.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser(
        "solve", help="solve a game exactly under optimal play",
        description="Solve a deck or dice game exactly. Prints the first-player win "
                    "probability at the requested komi, the expected game length in actions "
                    "(every draw/roll and every hold), the fair komi, a komi table, the number "
                    "of states, the convergence residual and the solve time.",
        epilog="examples: designer solve fowl-play | designer solve red-light --json | "
               "designer solve deck --bad 5 --good 30 --goal 40 --komi 2 | "
               "designer solve dice --faces 8 --goal 60")
    _add_game_args(p)
    p.add_argument("--max-komi", type=int, default=10, help="last komi of the table (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.set_defaults(func=cmd_solve)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except DesignError as exc:
        print(f"designer: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("designer: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
