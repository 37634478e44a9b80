"""Argument groups shared by several commands."""

from designer.errors import DesignError

GAME_HELP = ("preset (fowl-play, red-light, pig) or family (deck, dice); family "
             "parameters below override a preset's")


def add_game_args(p):
    """Add the positional game name and every family parameter."""
    p.add_argument("game", help=GAME_HELP)
    g = p.add_argument_group("deck parameters")
    g.add_argument("--bad", type=int, help="bad items (wolves, red chips), 1..60")
    g.add_argument("--good", type=int, help="good items (chickens, green chips), 1..400")
    g = p.add_argument_group("dice parameters")
    g.add_argument("--faces", type=int, help="faces of the die, 2..100")
    g.add_argument("--bust-faces", type=_faces, help="comma-separated faces that bust (default 1)")
    g = p.add_argument_group("common parameters")
    g.add_argument("--goal", type=int, help="points needed to win")
    g.add_argument("--komi", type=int,
                   help="points the second player starts with (0 <= komi < goal)")


def _faces(text):
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise DesignError(f"invalid --bust-faces={text!r}: allowed comma-separated integers") from None


def game_from_args(args):
    """Build the game named on the command line (validated)."""
    from designer.games import load_game

    return load_game(args.game, bad=args.bad, good=args.good, faces=args.faces,
                     bust_faces=args.bust_faces, goal=args.goal, komi=args.komi)
