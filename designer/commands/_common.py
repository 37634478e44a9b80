"""Argument groups and argument types shared by several commands."""

import argparse
import math

from designer.errors import DesignError

#: Seeds are fed to numpy's SeedSequence: any integer from 0 to 2**64 - 1.
SEED_MAX = 2**64 - 1


def int_in(lo=None, hi=None, what="an integer"):
    """An argparse type: an integer within ``[lo, hi]`` (either may be None)."""
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            v = None
        if v is None or (lo is not None and v < lo) or (hi is not None and v > hi):
            rng = (f"from {lo} to {hi}" if lo is not None and hi is not None
                   else f">= {lo}" if lo is not None else f"<= {hi}" if hi is not None else "")
            raise argparse.ArgumentTypeError(f"invalid value {text!r}: allowed {what} {rng}".strip())
        return v
    parse.__name__ = "integer"
    return parse


def float_in(lo=None, hi=None, lo_open=False, hi_open=False):
    """An argparse type: a finite number within the given bounds."""
    def parse(text):
        try:
            v = float(text)
        except ValueError:
            v = math.nan
        bad = (not math.isfinite(v)
               or (lo is not None and (v <= lo if lo_open else v < lo))
               or (hi is not None and (v >= hi if hi_open else v > hi)))
        if bad:
            parts = []
            if lo is not None:
                parts.append(f"{'>' if lo_open else '>='} {lo}")
            if hi is not None:
                parts.append(f"{'<' if hi_open else '<='} {hi}")
            raise argparse.ArgumentTypeError(
                f"invalid value {text!r}: allowed a finite number {' and '.join(parts)}".strip())
        return v
    parse.__name__ = "number"
    return parse


#: ``--seed``: 0 .. 2**64 - 1.
seed_arg = int_in(0, SEED_MAX, "an integer")

GAME_HELP = ("preset (fowl-play, red-light, pig, zombie-yellow, zombie-dice), family (deck, dice, "
             "zombie), a rules file FILE.toml, a Python rules module rules:FILE.py (runs "
             "its code) or a shipped rules example (piglet, two-dice-pig, hog, "
             "great-rolled-ones, farkle; rules:NAME for one that shares a preset's name); "
             "family parameters below override a preset's")
RULES_HELP = ("a rules file FILE.toml, a Python rules module rules:FILE.py (runs its code) or "
              "a shipped example (piglet, two-dice-pig, hog, great-rolled-ones, farkle, pig, "
              "fowl-play, red-light, zombie-dice)")


def add_game_args(p, optional=False, rules_only=False):
    """Add the positional game name and every family parameter
    (``optional``: the name may be left out; ``rules_only``: the command
    takes rules games only, so the family parameters are parsed, and
    refused, but not listed in ``--help``)."""
    what = RULES_HELP if rules_only else GAME_HELP
    if optional:
        p.add_argument("game", nargs="?", help=what)
    else:
        p.add_argument("game", help=what)
    _family_args(p, hide=rules_only)
    _common_args(p, rules_only)


def _family_args(p, hide=False):
    if hide:  # parsed (so that they are refused in one line), not listed
        def group(_title):
            return _Hidden(p)
    else:
        group = p.add_argument_group
    g = group("deck parameters")
    g.add_argument("--bad", type=int, help="bad items (wolves, red chips), 1..60")
    g.add_argument("--good", type=int, help="good items (chickens, green chips), 1..400")
    g = group("dice parameters")
    g.add_argument("--faces", type=int, help="faces of the die, 2..100")
    g.add_argument("--bust-faces", type=_faces, help="comma-separated faces that bust (default 1)")
    g = group("zombie dice parameters")
    g.add_argument("--brains", type=int, help="brain faces per die, 1..20 (all-yellow 2)")
    g.add_argument("--shotguns", type=int, help="shotgun faces per die, 1..20 (all-yellow 2)")
    g.add_argument("--footprints", type=int, help="footprint faces per die, 0..20 (all-yellow 2)")
    g.add_argument("--dice", type=int, help="dice thrown per roll, 1..10 (default 3)")
    g.add_argument("--bust-shotguns", type=int,
                   help="shotguns in one turn that bust it, 1..20 (default 3)")
    g.add_argument("--cap", type=int,
                   help="largest score represented, goal < cap <= 400 (default goal + 50)")
    g = group("full zombie dice parameters (any of these: three colours)")
    for colour, n, faces in (("green", 6, "3,1,2"), ("yellow", 4, "2,2,2"), ("red", 3, "1,3,2")):
        g.add_argument(f"--{colour}", type=int,
                       help=f"{colour} dice in the cup, 0..20 (zombie-dice {n}; 0 if left out)")
        g.add_argument(f"--{colour}-faces",
                       help=f"brain,shotgun,footprint faces of a {colour} die (default {faces})")


class _Hidden:
    """An argument group whose options are left out of ``--help``."""

    def __init__(self, parser):
        self.parser = parser

    def add_argument(self, *flags, **kwargs):
        import argparse

        return self.parser.add_argument(*flags, **{**kwargs, "help": argparse.SUPPRESS})


def _common_args(p, rules_only=False):
    if rules_only:
        g = p.add_argument_group("settings (override the rules file's)")
        g.add_argument("--goal", type=int, help="points needed to win (a multiple of the "
                                                 "rules' unit: 50 in Farkle)")
        g.add_argument("--komi", help="start points: one integer (points for seat 2, "
                                      "negative: for seat 1) or two, seat 1 first (0,50)")
        g.add_argument("--players", type=int, help="number of seats (rules files: 2 so far)")
        g.add_argument("--ending", help="race: the first to the goal wins (rules files: the "
                                        "only ending so far)")
        return
    g = p.add_argument_group("common parameters")
    g.add_argument("--goal", type=int, help="points needed to win")
    g.add_argument("--komi",
                   help="start points: one integer (two players: points for seat 2, negative: "
                        "for seat 1; more players: for every seat after the first) or a "
                        "comma-separated list, one entry per seat, seat 1 first (0,1,2)")
    g.add_argument("--players", type=int, help="number of seats, 2..4 (default 2)")
    g.add_argument("--ending", help="race (first to the goal wins, default) or rounds "
                                    "(equal turns; the highest score after a round wins)")


def _faces(text):
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise DesignError(f"invalid --bust-faces={text!r}: allowed comma-separated integers") from None


def _triple(flag, text):
    """Parse ``brain,shotgun,footprint`` (here, not in argparse, so that a bad
    value is one line on stderr)."""
    if text is None:
        return None
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise DesignError(f"invalid {flag}={text!r}: allowed three comma-separated "
                          "integers brain,shotgun,footprint") from None


def _komi(text):
    """``"2"`` -> 2, ``"-2"`` -> -2, ``"0,1,2"`` -> (0, 1, 2); parsed here and
    not by argparse so that a bad value is one line (DesignError)."""
    if text is None:
        return None
    try:
        parts = [int(x) for x in text.split(",")]
    except ValueError:
        raise DesignError(f"invalid --komi={text!r}: allowed one integer or comma-separated "
                          "integers, one per seat") from None
    return parts[0] if len(parts) == 1 and "," not in text else tuple(parts)


def game_from_args(args, command=None):
    """Build the game named on the command line (validated) and, for
    ``command``, check that the command takes it (one line otherwise, before
    any work; see :mod:`designer.support`)."""
    from designer.support import as_rules, check

    game = _game(args, command)
    if command is not None:
        game = as_rules(command, game)  # a deck or dice game the command plays as rules
        check(command, game)
    elif game.family == "rules":  # play's statistics and page take no rules game
        check("play", game)
    return game


def is_rules_game(name, command=None):
    """Whether ``name`` is solved by the engine: a path ending in ``.toml``,
    or a shipped rules example; for every command but ``rules check`` a
    preset or family of the same name (pig, fowl-play) keeps today's
    solvers."""
    if name is None:
        return False
    import os

    from designer.engine.game import is_rules_name
    from designer.games import preset_names

    if command == "rules check":  # any path is a rules file to check
        return is_rules_name(name) or os.sep in name or os.path.exists(name)
    return is_rules_name(name, preset_names())


def _game(args, command=None):
    from designer.errors import ParameterNamesError

    try:
        if is_rules_game(args.game, command):
            return _load_rules(args)
        return _load(args)
    except ParameterNamesError as exc:  # name the flags, as the user types them
        raise DesignError(exc.for_flags()) from None
    except DesignError as exc:
        if str(exc).startswith("unknown game "):  # say that rules games exist too
            from designer.engine.rulesfile import examples

            raise DesignError(f"{exc}; or a rules file FILE.toml, a Python rules module "
                              f"rules:FILE.py or a rules example ({', '.join(examples())})"
                              ) from None
        raise


#: Family parameters (argparse names), which a rules game does not take.
FAMILY_PARAMS = ("bad", "good", "faces", "bust_faces", "brains", "shotguns", "footprints", "dice",
                 "bust_shotguns", "cap", "green", "yellow", "red", "green_faces",
                 "yellow_faces", "red_faces")


def _load_rules(args):
    """The rules game named on the command line, with its settings; the
    file is read (and refused if malformed) before the flags are checked."""
    from designer.engine.game import SETTINGS, load_rules_game
    from designer.errors import ParameterNamesError

    given = [k for k in FAMILY_PARAMS if getattr(args, k, None) is not None]
    if given:
        game = load_rules_game(args.game)  # the file first: its mistakes come first
        raise ParameterNamesError(f"{game.name} (a rules file)", "does not take", given,
                                  SETTINGS)
    return load_rules_game(args.game, goal=args.goal, komi=_komi(args.komi),
                           players=getattr(args, "players", None),
                           ending=getattr(args, "ending", None))


def _load(args):
    from designer.games import load_game

    return load_game(args.game, bad=args.bad, good=args.good, faces=args.faces,
                     bust_faces=args.bust_faces, brains=args.brains, shotguns=args.shotguns,
                     footprints=args.footprints, dice=args.dice,
                     bust_shotguns=args.bust_shotguns, cap=args.cap, goal=args.goal,
                     komi=_komi(args.komi), players=getattr(args, "players", None),
                     ending=getattr(args, "ending", None), green=args.green, yellow=args.yellow,
                     red=args.red, green_faces=_triple("--green-faces", args.green_faces),
                     yellow_faces=_triple("--yellow-faces", args.yellow_faces),
                     red_faces=_triple("--red-faces", args.red_faces))


class CtrlC:
    """Ctrl-C that cannot be lost during a long run.

    Python raises ``KeyboardInterrupt`` wherever the main thread happens to
    be when SIGINT arrives; inside a finaliser (``__del__``, a weakref
    callback of a pool) it is printed as "Exception ignored" and dropped, and
    the run would go on to the end. This handler also remembers the signal,
    and :meth:`checked` wraps a per-result callback so that the next result
    raises it again.
    """

    def __init__(self):
        self.fired = False
        self._old = None

    def __enter__(self):
        import signal

        def handler(signum, frame):
            self.fired = True
            raise KeyboardInterrupt

        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._old = signal.signal(signal.SIGINT, handler)
        return self

    def __exit__(self, *exc):
        import signal

        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
        return False

    def checked(self, callback):
        """``callback`` that raises ``KeyboardInterrupt`` once SIGINT came."""
        def call(*args, **kwargs):
            out = callback(*args, **kwargs)
            if self.fired:
                raise KeyboardInterrupt
            return out
        return call


class CountingBar:
    """A rich progress bar for work that announces its size late.

    ``with CountingBar("strategy search", disable=...) as bar`` gives
    ``bar.update(advance=None, total=None)``, the ``progress`` callback the
    rule search (:func:`designer.strategy.search.search_rules`) calls: with
    the planned count (again whenever the plan changes), then with each
    batch done. Written to stderr, from the first call on, and removed when
    done, so it never mixes with printed results or with an error line.

    The count never shows above its total: a count that passes the total
    announced makes the total grow with it. The clock runs from the bar's
    first call to its end, whatever the count (it does not stop when the
    count reaches its total). :meth:`stage` names a phase of the work (shown
    after the label, with no count until the phase announces one);
    :meth:`counter` gives a ``progress`` callback that names its phase on
    its first call.
    """

    def __init__(self, label, disable=False):
        from rich.progress import BarColumn, Progress, TextColumn

        from designer.report.terminal import err_console

        self._bar = Progress(TextColumn(label), TextColumn("{task.description}"), BarColumn(),
                             *_count_and_clock(), console=err_console, transient=True,
                             disable=disable)
        self._task = None
        self._since = None
        self.completed, self.total = 0, None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._task is not None:
            return self._bar.__exit__(*exc)
        return False

    def _start(self, description=""):
        """Show the bar (first call) or start a new phase: no count yet."""
        import time

        if self._task is None:  # shown from the first report on: an early error stays one line
            self._bar.__enter__()
            self._since = time.monotonic()
        else:
            self._bar.remove_task(self._task)
        self._task = self._bar.add_task(description, total=None, since=self._since)
        self.completed, self.total = 0, None

    def stage(self, description):
        """Name the phase now running (e.g. ``writing the files``); its count
        starts when it announces a total."""
        self._start(description)

    def counter(self, description):
        """A ``progress(advance=None, total=None)`` callback for a phase
        named ``description`` once it starts counting."""
        started = []

        def progress(advance=None, total=None):
            if not started:
                started.append(True)
                self.stage(description)
            self.update(advance=advance, total=total)
        return progress

    def moved(self, done, total):
        """``progress(done, total)``: the absolute form of :meth:`update`
        (what the solvers call)."""
        if self._task is None:
            self._start()
        self.completed = done
        self.update(total=total)

    def update(self, advance=None, total=None):
        if self._task is None:
            self._start()
        if total is not None:
            self.total = total
        if advance:
            self.completed += advance
        if self.total is not None and self.completed > self.total:
            self.total = self.completed  # more work than announced: the total grows
        self._bar.update(self._task, total=self.total, completed=self.completed)


def _count_and_clock():
    """The columns of a :class:`CountingBar` after its bar: ``done/total``
    of the phase (blank before its total is known), and the time since the
    bar was first shown, which never stops while it is shown (rich's own
    elapsed column stops when a count reaches its total). Built here so that
    rich is imported only when a bar is."""
    import time
    from datetime import timedelta

    from rich.progress import ProgressColumn
    from rich.text import Text

    class Count(ProgressColumn):
        def render(self, task):
            if task.total is None:
                return Text("")
            return Text(f"{int(task.completed)}/{int(task.total)}", style="progress.download")

    class Clock(ProgressColumn):
        def render(self, task):
            since = task.fields.get("since")
            seconds = int(time.monotonic() - since) if since is not None else 0
            return Text(str(timedelta(seconds=seconds)), style="progress.elapsed")

    return Count(), Clock()


#: Kinds of game whose solve reports progress (up to a minute for full
#: Zombie Dice); the others are quick.
REPORTS_PROGRESS = ("zombie", "zombie-dice")


def solve_shown(game):
    """Solve ``game``, with a bar over score positions where the solver
    reports its progress (:data:`REPORTS_PROGRESS`). On stderr, only on a
    terminal, gone when the solve ends."""
    from designer.report.terminal import err_console
    from designer.solve import solve

    with CountingBar(f"solving {game.name}, score positions",
                     disable=not err_console.is_terminal) as bar:
        return solve(game, progress=bar.moved)
