"""Win statistics of ``designer play``, per design and level, as JSON.

Location: ``$DESIGNER_DATA_DIR/play-stats.json`` if that variable is set,
else ``$XDG_DATA_HOME/designer/play-stats.json`` (when ``XDG_DATA_HOME`` is
an absolute path), else ``~/.local/share/designer/play-stats.json``
(``%LOCALAPPDATA%\\designer`` on Windows).

Format (version 1)::

    {"version": 1,
     "designs": {"deck:bad=4,good=24,goal=50,komi=1": {
         "name": "Red Light",
         "params": {"family": "deck", "bad": 4, "good": 24, "goal": 50, "komi": 1},
         "levels": {"hard": {"games": 3, "wins": 1, "quits": 1,
                             "decisions": 41, "loss": 0.0312,
                             "moves": [[12, 30, 3, 1, 7, "draw"], ...]}}}}}

``games`` counts every recorded game, ``wins`` the human's wins; a game the
human quit after making a move is recorded as a loss and also counted in
``quits``. ``decisions`` counts the human's draw-or-hold decisions that the
end-of-game analysis valued (deck and dice games), ``loss`` sums the exact
win probability they lost against the optimal player, and ``moves`` keeps
(deck and dice games) the last :data:`MAX_MOVES` of them as the mover's view (``i, j, k, w, c``
for decks, ``i, j, k`` for dice) and the action taken, to find the
strategy-card rule that plays most like the human. Files written before
these keys existed read as zero decisions.

Player count: a game with three or four seats is its own design (its key
and ``params`` carry ``players`` and ``ending``, e.g.
``"dice:faces=6,bust_faces=1,goal=100,komi=0,players=3,ending=race"``), so
results are kept per design, level and player count; two-player keys keep
their old form and older files read unchanged. Its ``moves`` hold the
N-seat view (the scores from the human on, then ``k, w, c`` or ``k``), and
:func:`rows` gives each row's ``players``. Writes go to a temporary file in the same directory, flushed and
renamed over the old file, so a crash never leaves half a file.

Rules games (a rules file or a shipped example) are keyed by the file or
example as named on the command line, the goal and the komi in points
(``"rules:rules=farkle,goal=2000,komi=0"``; with three or four seats also
``players`` and ``ending``); their decisions are valued
and counted, and no ``moves`` are kept (no strategy card is made for them).
"""

import json
import os
import sys
import tempfile
from pathlib import Path

from designer.errors import DesignError

FILENAME = "play-stats.json"
VERSION = 1

#: Decisions kept per design and level for the closest-rule search.
MAX_MOVES = 2000


def data_dir():
    """The directory holding designer's user data (not created here)."""
    override = os.environ.get("DESIGNER_DATA_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "designer"
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "designer"
    return Path.home() / ".local" / "share" / "designer"


def stats_path():
    """Full path of the statistics file."""
    return data_dir() / FILENAME


def params_of(game):
    """A design's parameters: ``game.params``; for a rules game its file or
    example as named (``rules``), goal and komi in points."""
    if game.family == "rules":
        komi = game.komi if isinstance(game.komi, int) else list(game.komi)
        out = {"family": "rules", "rules": game.source, "goal": game.goal, "komi": komi}
        if game.players > 2:  # its own design; two-player keys keep their form
            out.update(players=game.players, ending=game.ending)
        return out
    return dict(game.params)


def design_key(game):
    """A stable key naming a design by its parameters."""
    p = params_of(game)
    family = p.pop("family")
    parts = ",".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, list) else v}"
                     for k, v in p.items())
    return f"{family}:{parts}"


def load(path=None):
    """Read the statistics (an empty record if the file does not exist).

    Raises
    ------
    DesignError
        The file exists but is not a statistics file this version reads.
    """
    path = Path(path) if path else stats_path()
    try:
        text = path.read_bytes().decode("utf-8")
        data = json.loads(text)
        _check_shape(data)
    except FileNotFoundError:
        return {"version": VERSION, "designs": {}}
    except OSError as exc:
        raise DesignError(f"cannot read play statistics {path}: {exc.strerror}") from exc
    except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON (or nested past
        # what the parser follows), or not the shape below
        raise DesignError(f"cannot read play statistics {path}: {_one_line(exc)}; move the "
                          "file aside to start afresh") from exc
    return data


def _one_line(exc, limit=200):
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_shape(data):
    """Raise ValueError unless ``data`` is a version-1 statistics record:
    ``{"version": 1, "designs": {KEY: {"name": str, "params": {...},
    "levels": {LEVEL: {"games": n, "wins": n, "quits": n, ...}}}}}`` with
    counts that are whole numbers of at least 0 (and ``loss`` a number,
    ``moves`` a list of moves, where present), and ``params`` (where
    present) that name a game."""
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(version, bool) or version != VERSION:
        raise ValueError("not a version-1 statistics file")
    designs = data.get("designs")
    if not isinstance(designs, dict):
        raise ValueError("'designs' is not an object")
    for key, entry in designs.items():
        if (not isinstance(entry, dict) or not isinstance(entry.get("name"), str)
                or not isinstance(entry.get("params", {}), dict)
                or not isinstance(entry.get("levels"), dict)):
            raise ValueError(f"design {key!r} is not an object with a name and levels")
        for level, c in entry["levels"].items():
            if not isinstance(c, dict):
                raise ValueError(f"design {key!r}, level {level!r} is not an object")
            for field in ("games", "wins", "quits", "decisions"):
                v = c.get(field, 0)
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    raise ValueError(f"design {key!r}, level {level!r}: {field} is not a "
                                     f"count")
            loss = c.get("loss", 0.0)
            if (isinstance(loss, bool) or not isinstance(loss, (int, float))
                    or not 0 <= loss < float("inf")):
                raise ValueError(f"design {key!r}, level {level!r}: loss is not a number "
                                 f"of at least 0")
            moves = c.get("moves", [])
            if not isinstance(moves, list) or not all(_is_move(m) for m in moves):
                raise ValueError(f"design {key!r}, level {level!r}: moves is not a list of "
                                 f"moves (whole numbers, then draw, hold or roll)")
        params = entry.get("params", {})
        if not all(_is_param(v) for v in params.values()) or (params and _game(params) is None):
            raise ValueError(f"design {key!r}: its params do not name a game")


def _is_param(v):
    """A design parameter: text, a whole number or a list of whole numbers."""
    def whole(x):
        return isinstance(x, int) and not isinstance(x, bool)

    return isinstance(v, str) or whole(v) or (isinstance(v, list) and all(map(whole, v)))


def _is_move(m):
    """``[view..., action]``: whole numbers of at least 0, then an action."""
    return (isinstance(m, list) and len(m) >= 2 and m[-1] in ("draw", "hold", "roll")
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**31
                    for v in m[:-1]))


def _game(params):
    from designer.play.closest import game_of

    if params.get("family") == "rules":  # a rules game: its file may have moved since
        return params if isinstance(params.get("rules"), str) else None
    return game_of(params)


def save(data, path=None):
    """Write the statistics atomically (temporary file + rename)."""
    path = Path(path) if path else stats_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".play-stats-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2, sort_keys=True)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise DesignError(f"cannot write play statistics {path}: {exc.strerror or exc}") from exc


class _Lock:
    """An exclusive ``flock`` on ``<file>.lock`` around a read-modify-write,
    so two games ending at once do not lose a result (no-op without fcntl)."""

    def __init__(self, path):
        self.path = path.with_name(path.name + ".lock")
        self.fh = None

    def __enter__(self):
        try:
            import fcntl
        except ImportError:  # Windows: the rename is still atomic
            return self
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(self.path, "a")
        fcntl.flock(self.fh, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        if self.fh is not None:
            self.fh.close()  # closing releases the lock
        return False


def record(game, level, won, quit=False, path=None, decisions=()):
    """Add one game to the statistics and return that design/level's entry.

    ``decisions`` are the game's valued human decisions
    (:class:`designer.play.analysis.Decision`): their number, the win
    probability they lost and the moves themselves are added."""
    path = Path(path) if path else stats_path()
    try:
        lock = _Lock(path).__enter__()
    except OSError as exc:
        raise DesignError(f"cannot write play statistics {path}: {exc.strerror or exc}") from exc
    try:
        data = load(path)
        entry = data["designs"].setdefault(design_key(game), {
            "name": game.name, "params": params_of(game), "levels": {}})
        counts = entry["levels"].setdefault(level, {"games": 0, "wins": 0, "quits": 0})
        counts["games"] += 1
        counts["wins"] += int(bool(won))
        counts["quits"] += int(bool(quit))
        if decisions:
            counts["decisions"] = int(counts.get("decisions", 0)) + len(decisions)
            counts["loss"] = float(counts.get("loss", 0.0)) + sum(d.cost for d in decisions)
            if game.family != "rules":  # the closest strategy-card rule: deck and dice
                moves = list(counts.get("moves", []))
                moves += [[*map(int, d.state.mover_view()), d.chosen] for d in decisions]
                counts["moves"] = moves[-MAX_MOVES:]
        save(data, path)
    finally:
        lock.__exit__()
    return {k: v for k, v in counts.items() if k != "moves"}


def rows(data):
    """One row per design and level: name, key, params, players, level,
    games, wins, quits, win rate, decisions, loss per decision and per game,
    moves."""
    out = []
    for key, entry in sorted(data["designs"].items(), key=lambda kv: (kv[1]["name"], kv[0])):
        for level in sorted(entry["levels"], key=lambda lv: ("easy", "medium", "hard").index(lv)
                            if lv in ("easy", "medium", "hard") else 9):
            c = entry["levels"][level]
            games = int(c.get("games", 0))
            wins = int(c.get("wins", 0))
            n, loss = int(c.get("decisions", 0)), float(c.get("loss", 0.0))
            params = entry.get("params", {})
            out.append({"design": entry["name"], "key": key, "params": params,
                        "players": int(params.get("players", 2)), "level": level, "games": games, "wins": wins,
                        "quits": int(c.get("quits", 0)),
                        "win_rate": wins / games if games else 0.0, "decisions": n,
                        "loss_per_decision": loss / n if n else None,
                        "loss_per_game": loss / games if n and games else None,
                        "moves": c.get("moves", [])})
    return out
