"""The terminal game loop of ``designer play``: one game between the human
and the computer (with three or four seats the computer plays every seat but
the human's).

The rules come from :mod:`designer.play.engine`, the computer's moves from
:mod:`designer.play.players`, the end-of-game analysis from
:mod:`designer.play.analysis`, the record from :mod:`designer.play.stats` and
the keys from :mod:`designer.play.keys`; a view object given by the caller
draws (``designer play`` gives :mod:`designer.report.play_view`).

A rules game (a rules file or a shipped example) takes its positions,
actions, chance and exact values from :mod:`designer.play.rules_engine`:
its human picks a way to go on or an option by number
(:meth:`Session.ask_rules_action`).
"""

import errno
import signal
import threading
import time
from collections import deque

import numpy as np

from designer.errors import DesignError
from designer.play import stats
from designer.play.analysis import evaluate, worst_decision
from designer.play.engine import IllegalMove, new_game, random_outcome, step
from designer.play.keys import DRAW_KEYS, HOLD_KEYS, QUIT_KEYS, Keys

#: Seconds the computer waits before each of its actions (``--no-pause``: 0).
PAUSE = 0.9

#: What :meth:`Session.run` returns after a hang-up: 128 + SIGHUP, the status
#: of a program that SIGHUP ended.
HANGUP_STATUS = 129



#: Families whose in-turn values :mod:`designer.play.analysis` (rules games:
#: :mod:`designer.play.rules_engine`) computes (the costliest decision at the
#: end of a game).
ANALYSED = ("deck", "dice", "rules")


def needs_solution(game, level):
    """Whether playing ``game`` at ``level`` needs its exact solve: the hard
    player plays it, and the end-of-game analysis values decisions with it
    (deck, dice and rules games). Zombie Dice at easy and medium needs none."""
    return level == "hard" or game.family in ANALYSED


def check_playable(game, test_mode=False):
    """Refuse, with one clear line, a game the terminal loop cannot play.

    Raises
    ------
    DesignError
        A game, seat count or ending that play does not take
        (:data:`designer.support.SUPPORT`), ``test_mode`` with a die of
        more than 9 faces (a face is typed with one key), or ``test_mode``
        with Zombie Dice (several dice per roll, not typed in).
    """
    from designer.support import check

    check("play", game)  # the kinds, seats and endings play takes
    if test_mode and game.family == "rules":
        raise DesignError(f"--test-mode types one item or face per action: it plays deck and "
                          f"dice games, not {game.name} (a rules game, whose throws the "
                          "program makes)")
    if test_mode and game.family == "zombie":
        raise DesignError("--test-mode types one item or face per action: it plays deck and "
                          "dice games, not Zombie Dice (several dice per roll)")
    if test_mode and game.family == "dice" and game.faces > 9:
        raise DesignError(f"--test-mode types a face with one key: it needs a die of at most 9 "
                          f"faces, not {game.faces}")


class Quit(Exception):
    """The human pressed q."""


class HangUp(Quit):
    """The terminal hung up (closed) during the game: it ends like q."""


def _is_hang_up(exc):
    """Whether an OSError is a read or write of a hung-up terminal (EIO)."""
    return exc.errno == errno.EIO


def seat_names(players, human):
    """Board names of the seats: "You" and "Computer" with two seats,
    "You" and "Computer <seat number>" with more."""
    if players == 2:
        return ("You", "Computer") if human == 0 else ("Computer", "You")
    return tuple("You" if s == human else f"Computer {s + 1}" for s in range(players))


class Session:
    """One game between the human and the computer.

    With three or four seats (``game.players``) the computer plays every
    seat but the human's, each with the same player.

    Parameters
    ----------
    solution : Solution, SeatSolution or None
        The exact solve of the game played (the computer's "hard" level and
        the analysis of the human's decisions); None when neither needs it
        (then ``game`` names the game).
    computer : player
        From :func:`designer.play.make_player` (``decide(state) -> action``).
    view : object
        What draws: ``show_board``, ``describe_event``, ``clear_screen`` and
        ``show_result`` as in :mod:`designer.report.play_view`.
    level : str
        The computer's level, for the title and the statistics.
    first : {"human", "computer", "random"}
        The human's seat: the first (``"human"``), the last (``"computer"``:
        with two seats the computer moves first) or one drawn at random.
        Later seats start with their komi.
    pause : float
        Seconds the computer waits before each of its actions.
    seed : int, optional
        Seeds the shuffles (rolls) and ``first="random"``.
    test_mode : bool
        Every item (face) is typed in from a real deck (die); the game is not
        recorded.
    keys : context manager, optional
        A :class:`~designer.play.keys.Keys` (the default) or anything with
        ``read()`` and ``flush()``.
    game : game, optional
        The game, when ``solution`` is None.
    """

    def __init__(self, solution, computer, view, *, level, first="human", pause=PAUSE,
                 seed=None, test_mode=False, keys=None, game=None):
        game = solution.game if solution is not None else game
        self.game, self.solution, self.computer, self.view = game, solution, computer, view
        self.level = level
        self.test_mode = test_mode
        self.keys = keys
        self.pause = pause
        self.rng = np.random.default_rng(seed)
        n = getattr(game, "players", 2)  # Zombie Dice: two seats
        if first == "random":  # with two seats: human first iff the draw is below 1/2
            self.human = min(int(self.rng.random() * n), n - 1)
        else:
            self.human = 0 if first == "human" else n - 1
        self.names = seat_names(n, self.human)
        mode = ", test mode" if test_mode else ""
        self.title = f"designer play: {game.name} (level {self.level}{mode})"
        self.log = deque(maxlen=8)
        self.last = None
        self.decisions = []
        self.acted = False
        self.playing = self.hung_up = False  # see run and _on_hangup
        self.draw_word = "draw" if game.family == "deck" else "roll"

    # -- drawing -----------------------------------------------------------
    def board(self, state, prompt=None, hint=None):
        self.view.show_board(state, self.names, self.title, list(self.log), self.last, prompt, hint)

    def note(self, state, event):
        self.log.append(self.view.describe_event(event, state, self.names))
        if event.action != "hold":
            self.last = event

    # -- input -------------------------------------------------------------
    def _typed_meanwhile(self, keys):
        """Keys pressed while the computer played: q (or Ctrl-D) quits, any
        other is dropped so that a stray key never moves for the human (a
        hint says so)."""
        pending = getattr(keys, "pending", None)
        if pending is None:  # keys without pending(): forget what was typed
            keys.flush()
            return None
        typed = pending()
        if any(k in typed for k in QUIT_KEYS if k):
            raise Quit
        if typed:
            return (f"{len(typed)} key{'s' if len(typed) > 1 else ''} typed during the "
                    f"computer's turn ignored; press them again now.")
        return None

    def ask_action(self, state, keys):
        word = self.draw_word
        can_hold = "hold" in state.legal()
        prompt = (f"[bold]Your move[/bold] (turn total {state.k}): d or space = {word}"
                  + (", h = hold" if can_hold else "") + ", q = quit")
        hint = None
        if self.pause:
            hint = self._typed_meanwhile(keys)
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
                hint = f"You must {word} at least once each turn: press d or space."
            else:
                hint = (f"Key {key!r} does nothing here: d or space = {word}"
                        + (", h = hold" if can_hold else "") + ", q = quit.")

    def ask_outcome(self, state, keys):
        """Test mode: the item drawn (face rolled) from the real deck (die)."""
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
        """Play the game to its end (or the human's q); returns 0.

        A hang-up (the terminal closed) ends the game like q, so that the game
        so far is recorded as a quit rather than lost; then nothing more is
        written to the dead terminal and the return is :data:`HANGUP_STATUS`.
        The hang-up shows as SIGHUP, whose default action would kill the
        process (hence :meth:`_on_hangup` during the game), or, when SIGHUP is
        ignored (nohup), as EIO from reads (end of input), writes and termios
        calls (which :class:`~designer.play.keys.Keys` ignores).
        """
        catch = (hasattr(signal, "SIGHUP") and threading.current_thread() is threading.main_thread()
                 and signal.getsignal(signal.SIGHUP) is signal.SIG_DFL)  # not if ignored
        if catch:
            signal.signal(signal.SIGHUP, self._on_hangup)
        try:
            return self._run()
        finally:
            if catch:
                signal.signal(signal.SIGHUP, signal.SIG_DFL)

    def _on_hangup(self, signum, frame):
        """SIGHUP: the terminal closed. During the game raise HangUp (from
        whatever the game is doing, most often waiting for a key); once it is
        over (being recorded), only note it."""
        self.hung_up = True
        if self.playing:
            self.playing = False
            raise HangUp

    def _run(self):
        if self.game.family == "rules":
            from designer.play import rules_engine

            state = rules_engine.new_game(self.game)
        else:
            state = new_game(self.game)
        quit = False
        try:
            try:
                self.playing = True  # now SIGHUP raises HangUp (see _on_hangup)
                self.view.clear_screen()
                with (self.keys or Keys()) as keys:
                    while not state.over:
                        state = self._turn(state, keys)
            finally:
                self.playing = False  # from here on SIGHUP only sets hung_up
        except Quit:  # q, end of input, or HangUp (which set hung_up)
            quit = True
        except OSError as exc:  # a board written to a hung-up terminal (SIGHUP ignored)
            if not _is_hang_up(exc):
                raise
            quit = self.hung_up = True
        worst = worst_decision(self.decisions)
        counts, why = None, None
        if self.test_mode:
            why = "Test-mode games are not added to the statistics."
        elif quit and not self.acted:
            why = "You quit before your first move: nothing recorded."
        else:
            try:
                counts = stats.record(self.game, self.level, won=state.winner == self.human,
                                      quit=quit, decisions=self.decisions)
            except DesignError as exc:  # still show the analysis of the game just played
                why = f"[red]Not recorded:[/red] {exc}"
        if not self.hung_up:
            try:
                self.board(state)
                self.view.show_result(state, self.names, self.human, worst, self.decisions,
                                      counts, self.level, quit=quit, not_recorded=why,
                                      analysed=self.game.family in ANALYSED)
            except OSError as exc:  # the terminal hung up after the game (SIGHUP ignored)
                if not _is_hang_up(exc):
                    raise
                self.hung_up = True
        return HANGUP_STATUS if self.hung_up else 0

    def _turn(self, state, keys):
        """One action (the human's or the computer's); the state after it."""
        if state.family == "rules":
            return self._rules_turn(state, keys)
        human = state.mover == self.human
        if human:
            action = self.ask_action(state, keys)
            self.acted = True
            if len(state.legal()) > 1 and self.game.family in ANALYSED:
                self.decisions.append(evaluate(self.solution, state, action))
        else:
            action = self.computer.decide(state)
            verb = {"hold": "holds", "draw": "draws", "roll": "rolls"}[action]
            self.board(state, f"[bold]{self.names[state.mover]} {verb}[/bold]...")
            time.sleep(self.pause)
        if action == "hold":
            outcome = None
        elif self.test_mode:
            outcome = self.ask_outcome(state, keys)
        else:
            outcome = random_outcome(state, self.rng)
        state, event = step(state, action, outcome)
        self.note(state, event)
        return state

    def _rules_turn(self, state, keys):
        """One action of a rules game: a stop, a continuation (its outcome
        drawn with the model's probabilities) or an option of the throw just
        made; every human decision between two or more actions is valued."""
        from designer.play import rules_engine as R

        if state.mover == self.human:
            hint = self._typed_meanwhile(keys) if self.pause else None
            action = self.ask_rules_action(state, keys, hint)
            self.acted = True
            if len(state.legal()) > 1:
                self.decisions.append(R.evaluate(self.solution, state, action))
        else:
            action = self.computer.decide(state)
            self.board(state, f"[bold]{self.names[state.mover]}: "
                              f"{R.action_words(state, action)}[/bold]...")
            time.sleep(self.pause)
        outcome = R.random_outcome(state, action, self.rng) if action[0] == "go" else None
        state, event = R.step(state, action, outcome)
        self.note(state, event)
        return state

    def ask_rules_action(self, state, keys, hint=None):
        """The human's action in a rules game: h stops (banks), a number
        picks a continuation or, after a throw with a choice, an option (d
        or space: the only continuation). With more than 9 numbered
        choices a number of two digits is typed digit by digit (Enter ends
        one that could go on: 1 then Enter is 1, 1 then 0 is 10)."""
        from designer.play.rules_engine import STOP, action_words, why_no_stop

        legal = state.legal()
        choices = [a for a in legal if a != STOP]
        can_stop = STOP in legal
        words = [action_words(state, a) for a in choices]
        numbered = ", ".join(f"{n} = {w}" for n, w in enumerate(words, 1))
        if len(words) > 4 and state.pending is None:  # Hog's 1..10 dice: the ends only
            numbered = f"1 = {words[0]} ... {len(words)} = {words[-1]}"
        if state.pending is not None:
            keys_text = numbered
            prompt = f"[bold]Your choice[/bold] (turn total {state.k}): {numbered}, q = quit"
        else:
            one = len(choices) == 1
            keys_text = (f"d or space = {words[0]}" if one else numbered) + (
                (", h = pass" if state.t == 0 else f", h = stop and bank {state.k}")
                if can_stop else "")
            prompt = f"[bold]Your move[/bold] (turn total {state.k}): {keys_text}, q = quit"
        typed = ""
        while True:
            self.board(state, prompt, hint)
            key = keys.read()
            if key in QUIT_KEYS:
                raise Quit
            if key in DRAW_KEYS and len(choices) == 1 and state.pending is None:
                return choices[0]
            if key in HOLD_KEYS and state.pending is None:
                if can_stop:
                    return STOP
                hint = f"You cannot stop now: {why_no_stop(state)}."
                continue
            if len(key) == 1 and key in "0123456789":
                typed += key
                n = int(typed)
                if n == 0 or len(choices) <= 9 or n * 10 > len(choices):
                    typed = ""
                    if 1 <= n <= len(choices):
                        return choices[n - 1]
                    hint = f"There is no choice {n}: type 1..{len(choices)}."
                else:
                    hint = (f"Typed {n}: Enter = {words[n - 1]}, or type the second digit "
                            "(Backspace clears).")
                continue
            if key in ("\r", "\n") and typed:
                n, typed = int(typed), ""
                return choices[n - 1]
            if key in ("\x7f", "\b"):
                typed, hint = "", "Cleared: type the number again."
                continue
            typed = ""
            hint = f"Key {key!r} does nothing here: {keys_text}, q = quit."
