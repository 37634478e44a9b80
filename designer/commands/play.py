"""``designer play``: play a design against the computer in the terminal.

This module parses the arguments, solves the game and hands over to the game
loop of :mod:`designer.play.session`, which :mod:`designer.report.play_view`
draws.
"""

import os
import sys

from designer.commands._common import add_game_args, game_from_args, seed_arg, REPORTS_PROGRESS, solve_shown
from designer.support import as_rules, kind_of
from designer.errors import DesignError


def register(sub):
    p = sub.add_parser(
        "play", help="play a design against the computer in the terminal, or write it as one web page (--page)",
        description="Play a deck, dice, Zombie Dice or rules game against the computer: easy (holds "
                    "at a turn total of 2; dice: half the max-score threshold; Zombie Dice: the "
                    "slides' fixed_hold_at), medium (max-score; Zombie Dice: neller) or hard "
                    "(the exact optimal policy; the full zombie-dice game takes up to a minute "
                    "to solve first). Keys: d or space draws (rolls), h holds, q quits. "
                    "At the end the program shows your costliest decision against optimal play "
                    "(deck, dice and rules games). "
                    "A rules game (a rules file FILE.toml or a shipped example: piglet, hog, "
                    "farkle, rules:fowl-play, ...; 2-4 players in either ending; a deck or "
                    "dice game under the rounds ending, and Zombie Dice with 3 or 4 players, "
                    "is played as the same game written as rules) is played with "
                    "keys shown on the board: h stops and banks the turn total, a number "
                    "picks a way to go on (hog: how many dice to throw; 10 is typed 1 then "
                    "0, 1 then Enter is 1) and, after a throw that offers a choice "
                    "(farkle), what to keep; easy stops at a turn total of 20% of the "
                    "goal, medium at 35% or earlier once going on is expected to lose "
                    "points (both go on the way of most expected points and keep the "
                    "most points), hard plays the exact optimal policy. "
                    "With --players 3 or 4 (deck, dice, Zombie Dice and rules games, either "
                    "ending; Zombie Dice in rounds) the computer "
                    "plays every other seat: hard plays the N-player (max-n) optimal policy, "
                    "easy and medium the same two-player rules as above (read at your own "
                    "score and the highest opponent score); the board shows every score; in "
                    "the rounds ending hard first solves the game exactly, and a game whose "
                    "solve is estimated over 10 minutes is refused (lower --goal). "
                    "Results are kept per design, level and number of players in the user data "
                    "directory "
                    "($DESIGNER_DATA_DIR, else $XDG_DATA_HOME/designer, else "
                    "~/.local/share/designer).",
        epilog="examples: designer play red-light --level hard | designer play pig --players 3 | "
               "designer play deck --bad 5 --good 30 --goal 40 --level medium | "
               "designer play fowl-play --test-mode | designer play pig | designer play "
               "farkle --goal 2000 | designer play hog | designer play zombie-dice | designer play zombie-yellow --level hard | designer play zombie-yellow --players 3 | designer play --stats")
    add_game_args(p, optional=True)
    p.add_argument("--level", default="medium", metavar="LEVEL",
                   help="the computer's strength: easy, medium (default) or hard; or "
                        "rule:FILE, a rule saved by `designer strategy --out` (deck, dice and "
                        "rules games; a rules game also takes a rule written out, "
                        "'rule:k >= 300 -> hold; roll')")
    p.add_argument("--nn", metavar="FILE",
                   help="with --level hard: play a trained 118-weight network (from "
                        "`designer policy train-nn`) instead of the exact optimal policy")
    p.add_argument("--first", choices=("human", "computer", "random"), default="human",
                   help="your seat: human = the first seat (default), computer = the last seat "
                        "(with two players the computer moves first), random = any seat; "
                        "later seats start with the komi")
    p.add_argument("--no-pause", action="store_true", help="no pauses between the computer's moves")
    p.add_argument("--seed", type=seed_arg, help="seed of the shuffles (and of --first random)")
    p.add_argument("--test-mode", action="store_true",
                   help="draw from a real deck (roll a real die) and type each item for both "
                        "players: g = good, b = bad (dice: the face); not added to statistics; "
                        "deck and dice games only (any number of seats)")
    p.add_argument("--page", metavar="FILE",
                   help="write the game as ONE self-contained web page (FILE.html: no server, "
                        "no network) that plays it against the computer in any browser, a "
                        "phone's included: the three levels, who moves first, the analysis of "
                        "your costliest decision and your results kept in the browser; --level, "
                        "--first and --no-pause set the page's defaults; deck games with 2 "
                        "players, race ending")
    p.add_argument("--stats", action="store_true",
                   help="show your games, wins and win rate per design, level and number of "
                        "players, then exit")
    p.set_defaults(func=run)


def run(args):
    from designer.play import make_player, stats
    from designer.play.players import check_level
    from designer.play.rules_engine import solver_for
    from designer.play.session import (HANGUP_STATUS, PAUSE, Session, check_playable,
                                       needs_solution)
    from designer.report import play_view
    from designer.report.terminal import console
    from designer.solve import solve

    if getattr(args, "page", None) is not None:
        return _write_page(args)  # needs no terminal
    if args.stats:
        rows = stats.rows(stats.load())
        if args.game:
            key = stats.design_key(as_rules("play", game_from_args(args)))  # as play keys it
            rows = [r for r in rows if r["key"] == key]
        _closest_rules(rows)
        play_view.show_stats(rows, stats.stats_path())
        return 0
    if not args.game:
        raise DesignError("name a game to play (e.g. `designer play red-light`), or use --stats")
    game = game_from_args(args, "play")
    check_playable(game, test_mode=args.test_mode)
    check_level(args.level, game, args.nn)  # before the solve
    if not sys.stdin.isatty():
        raise DesignError("designer play is interactive: stdin is not a terminal "
                          "(run it in a terminal; `designer solve` gives the figures)")
    solution = None
    own_solve = solver_for(game)  # a rules game: the engine's solve, for every level
    if own_solve is not None:
        from designer.play.rules_engine import solve_seconds
        from designer.report.terminal import estimated

        with console.status(f"solving {game.name} exactly{estimated(solve_seconds(game))}..."):
            solution = own_solve(game)
    elif needs_solution(game, args.level) and kind_of(game) in REPORTS_PROGRESS:
        solution = solve_shown(game)  # up to a minute: a bar over score positions
    elif needs_solution(game, args.level):
        with console.status(f"solving {game.name} exactly..."):
            solution = solve(game)
    computer = make_player(args.level, solution, nn=args.nn, game=game)
    session = Session(solution, computer, play_view, level=args.level, first=args.first,
                      pause=0.0 if args.no_pause else PAUSE, seed=args.seed,
                      test_mode=args.test_mode, game=game)
    status = session.run()
    if status == HANGUP_STATUS:
        # The terminal hung up: output still buffered for it would make the
        # final flush fail (an error message, or exit status 120). Send it to
        # devnull, as cli.main does after a broken pipe.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return status


def _write_page(args):
    """``--page FILE``: solve the game and write its play page (one line and
    nothing written when the game, a flag or the path is refused)."""
    from designer.paths import output_file
    from designer.play.page import TAKES, check_page_game, write_page
    from designer.play.players import LEVELS
    from designer.report.terminal import console
    from designer.solve import solve

    for flag, given in (("--stats", args.stats), ("--test-mode", args.test_mode),
                        ("--nn", args.nn is not None), ("--seed", args.seed is not None)):
        if given:
            raise DesignError(f"--page writes a page that plays in the browser: it does not take "
                              f"{flag} (the page shuffles in the browser and plays the exact "
                              "optimal policy at hard)")
    if not args.game:
        raise DesignError(f"name a game for --page (e.g. `designer play fowl-play --page "
                          f"fowl-play.html`): {TAKES}")
    game = game_from_args(args)
    check_page_game(game)
    if args.level not in LEVELS:
        raise DesignError(f"invalid --level={args.level!r} with --page: allowed "
                          f"{', '.join(LEVELS)} (the page's default level)")
    path = output_file(args.page, "--page")  # a folder under cwd may be missing yet
    if path.suffix.lower() not in (".html", ".htm"):
        # a page named like a study file or a script would replace it
        raise DesignError(f"invalid --page={args.page!r}: allowed a file name ending in .html")
    with console.status(f"solving {game.name} exactly..."):
        solution = solve(game)
    from designer.paths import make_dirs

    make_dirs(path.parent)
    size = write_page(solution, path, level=args.level, first=args.first,
                      pause=not args.no_pause)
    console.print(f"Wrote the play page of {game.name} to {path.resolve()} ({size / 1e6:.2f} "
                  "MB): one "
                  "file that plays in any browser, a phone's included; send it to "
                  "play-testers.", highlight=False, soft_wrap=True)
    return 0


def _closest_rules(rows):
    """Add to each row with recorded decisions the strategy-card rule that
    agrees most with them (``closest``: (card row, agreement) or None)."""
    from designer.commands._common import CountingBar
    from designer.play.closest import closest_rule, game_of

    for r in rows:
        r["closest"] = None
        game = game_of(r["params"]) if r["moves"] else None
        if game is not None:
            try:
                with CountingBar(f"strategy card of {r['design']}") as bar:
                    r["closest"] = closest_rule(game, r["moves"], progress=bar.update)
            except DesignError as exc:  # a recorded move that is not a state of the game
                from designer.play.stats import stats_path

                raise DesignError(f"cannot read play statistics {stats_path()}: design "
                                  f"{r['key']!r}: {exc}; move the file aside to start "
                                  "afresh") from None
