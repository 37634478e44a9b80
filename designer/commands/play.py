"""``designer play``: play a design against the computer in the terminal.

The loop: the rules come from :mod:`designer.play.engine`, the computer's
moves from :mod:`designer.play.players`, the end-of-game analysis from
:mod:`designer.play.analysis`, the record from :mod:`designer.play.stats`;
this module reads single keys and :mod:`designer.report.play_view` draws.
"""

import os
import sys
import time
from collections import deque

from designer.commands._common import add_game_args, game_from_args, seed_arg
from designer.errors import DesignError

#: Seconds the computer waits before each of its actions (``--no-pause``: 0).
PAUSE = 0.9

DRAW_KEYS = ("d", "D", " ")
HOLD_KEYS = ("h", "H")
QUIT_KEYS = ("q", "Q", "\x04", "")  # q, Ctrl-D, end of input


def register(sub):
    p = sub.add_parser(
        "play", help="play a design against the computer in the terminal",
        description="Play a deck or dice game against the computer: easy (holds at a turn "
                    "total of 2; dice: half the max-score threshold), medium (max-score) or hard "
                    "(the exact optimal policy). Keys: d or space draws (rolls), h holds, q quits. "
                    "At the end the program shows your costliest decision against optimal play. "
                    "Results are kept per design and level in the user data directory "
                    "($DESIGNER_DATA_DIR, else $XDG_DATA_HOME/designer, else "
                    "~/.local/share/designer).",
        epilog="examples: designer play red-light --level hard | "
               "designer play deck --bad 5 --good 30 --goal 40 --level medium | "
               "designer play fowl-play --test-mode | designer play pig | designer play --stats")
    add_game_args(p, optional=True)
    p.add_argument("--level", choices=("easy", "medium", "hard"), default="medium",
                   help="the computer's strength (default medium)")
    p.add_argument("--nn", metavar="FILE",
                   help="with --level hard: play a trained 118-weight network (from "
                        "`designer policy train-nn`) instead of the exact optimal policy")
    p.add_argument("--first", choices=("human", "computer", "random"), default="human",
                   help="who moves first; the second player starts with the komi (default human)")
    p.add_argument("--no-pause", action="store_true", help="no pauses between the computer's moves")
    p.add_argument("--seed", type=seed_arg, help="seed of the shuffles (and of --first random)")
    p.add_argument("--test-mode", action="store_true",
                   help="draw from a real deck (roll a real die) and type each item for both "
                        "players: g = good, b = bad (dice: the face); not added to statistics")
    p.add_argument("--stats", action="store_true",
                   help="show your games, wins and win rate per design and level, then exit")
    p.set_defaults(func=run)


def run(args):
    from designer.play import stats

    if args.stats:
        from designer.report.play_view import show_stats

        rows = stats.rows(stats.load())
        if args.game:
            key = stats.design_key(game_from_args(args))
            rows = [r for r in rows if r["key"] == key]
        show_stats(rows, stats.stats_path())
        return 0
    if not args.game:
        raise DesignError("name a game to play (e.g. `designer play red-light`), or use --stats")
    game = game_from_args(args)
    if game.family not in ("deck", "dice"):
        raise DesignError(f"cannot play {game.name}: designer play supports deck and dice games "
                          "(fowl-play, red-light, deck, pig, dice)")
    if args.test_mode and game.family == "dice" and game.faces > 9:
        raise DesignError(f"--test-mode types a face with one key: it needs a die of at most 9 "
                          f"faces, not {game.faces}")
    if not sys.stdin.isatty():
        raise DesignError("designer play is interactive: stdin is not a terminal "
                          "(run it in a terminal; `designer solve` gives the figures)")
    return Session(game, args).run()


class Keys:
    """Single key presses from the terminal (cbreak mode: Ctrl-C still works)."""

    def __enter__(self):
        import termios
        import tty

        self.fd = sys.stdin.fileno()
        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc):
        import termios

        termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
        return False

    def flush(self):
        """Forget keys pressed while the computer was playing."""
        import termios

        termios.tcflush(self.fd, termios.TCIFLUSH)

    def read(self):
        """One key as a string; an escape sequence or a multi-byte
        character comes back whole (and is then a bad key); "" at end of input."""
        import select

        try:
            b = os.read(self.fd, 1)
        except OSError:  # the terminal went away (hang-up): treat as end of input
            return ""
        if b and (b == b"\x1b" or b[0] >= 0x80):
            while select.select([self.fd], [], [], 0.02)[0]:
                more = os.read(self.fd, 16)
                if not more:
                    break
                b += more
        return b.decode("utf-8", errors="replace")


class Quit(Exception):
    """The human pressed q."""


class Session:
    """One game between the human and the computer."""

    def __init__(self, game, args):
        import numpy as np

        from designer.play import make_player
        from designer.report.terminal import console
        from designer.solve import solve

        self.game, self.args = game, args
        self.level = args.level
        self.pause = 0.0 if args.no_pause else PAUSE
        self.rng = np.random.default_rng(args.seed)
        with console.status(f"solving {game.name} exactly..."):
            self.solution = solve(game)
        self.computer = make_player(self.level, self.solution, nn=args.nn)
        first = args.first
        if first == "random":
            first = "human" if self.rng.random() < 0.5 else "computer"
        self.human = 0 if first == "human" else 1
        self.names = ("You", "Computer") if self.human == 0 else ("Computer", "You")
        mode = ", test mode" if args.test_mode else ""
        self.title = f"designer play: {game.name} (level {self.level}{mode})"
        self.log = deque(maxlen=8)
        self.last = None
        self.decisions = []
        self.acted = False
        self.draw_word = "draw" if game.family == "deck" else "roll"

    # -- drawing -----------------------------------------------------------
    def board(self, state, prompt=None, hint=None):
        from designer.report.play_view import show_board

        show_board(state, self.names, self.title, list(self.log), self.last, prompt, hint)

    def note(self, state, event):
        from designer.report.play_view import describe_event

        self.log.append(describe_event(event, state, self.names))
        if event.action != "hold":
            self.last = event

    # -- input -------------------------------------------------------------
    def ask_action(self, state, keys):
        word = self.draw_word
        can_hold = "hold" in state.legal()
        prompt = (f"[bold]Your move[/bold] (turn total {state.k}): d or space = {word}"
                  + (", h = hold" if can_hold else "") + ", q = quit")
        hint = None
        if self.pause:
            keys.flush()
        while True:
            self.board(state, prompt, hint)
            key = keys.read()
            if key in QUIT_KEYS:
                raise Quit
            if key in DRAW_KEYS:
                return word
            if key in HOLD_KEYS:
                if can_hold:
                    return "hold"
                hint = "You must draw at least once each turn: press d or space."
            else:
                hint = (f"Key {key!r} does nothing here: d or space = {word}"
                        + (", h = hold" if can_hold else "") + ", q = quit.")

    def ask_outcome(self, state, keys):
        """Test mode: the item drawn (face rolled) from the real deck (die)."""
        from designer.play import IllegalMove, step

        who = self.names[state.mover]
        if state.family == "deck":
            prompt = (f"[bold]{who} draw{'s' if who != 'You' else ''}[/bold]: take a real item "
                      f"and type it: g = good, b = bad (q = quit)")
            table = {"g": "good", "G": "good", "b": "bad", "B": "bad"}
        else:
            prompt = (f"[bold]{who} roll{'s' if who != 'You' else ''}[/bold]: roll the real die "
                      f"and type the face 1..{state.game.faces} (q = quit)")
            table = {str(f): f for f in range(1, state.game.faces + 1)}
        hint = None
        while True:
            self.board(state, prompt, hint)
            key = keys.read()
            if key in QUIT_KEYS:
                raise Quit
            if key not in table:
                hint = (f"Key {key!r} is not an item: g = good, b = bad." if state.family == "deck"
                        else f"Key {key!r} is not a face: type 1..{state.game.faces}.")
                continue
            try:
                step(state, self.draw_word, table[key])
            except IllegalMove as exc:
                hint = f"Impossible: {exc}. Check the deck and type the item again."
                continue
            return table[key]

    # -- the game ----------------------------------------------------------
    def run(self):
        from designer.play import evaluate, new_game, random_outcome, step, worst_decision
        from designer.play import stats
        from designer.report.play_view import clear_screen, show_result

        state = new_game(self.game)
        quit = False
        clear_screen()
        with Keys() as keys:
            try:
                while not state.over:
                    human = state.mover == self.human
                    if human:
                        action = self.ask_action(state, keys)
                        self.acted = True
                        if len(state.legal()) > 1:
                            self.decisions.append(evaluate(self.solution, state, action))
                    else:
                        action = self.computer.decide(state)
                        verb = {"hold": "holds", "draw": "draws", "roll": "rolls"}[action]
                        self.board(state, f"[bold]Computer {verb}[/bold]...")
                        time.sleep(self.pause)
                    if action == "hold":
                        outcome = None
                    elif self.args.test_mode:
                        outcome = self.ask_outcome(state, keys)
                    else:
                        outcome = random_outcome(state, self.rng)
                    state, event = step(state, action, outcome)
                    self.note(state, event)
            except Quit:
                quit = True
        self.board(state)
        worst = worst_decision(self.decisions)
        counts, why = None, None
        if self.args.test_mode:
            why = "Test-mode games are not added to the statistics."
        elif quit and not self.acted:
            why = "You quit before your first move: nothing recorded."
        else:
            try:
                counts = stats.record(self.game, self.level, won=state.winner == self.human,
                                      quit=quit)
            except DesignError as exc:  # still show the analysis of the game just played
                why = f"[red]Not recorded:[/red] {exc}"
        show_result(state, self.names, self.human, worst, self.decisions, counts, self.level,
                    quit=quit, not_recorded=why)
        return 0
