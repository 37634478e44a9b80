"""``designer play GAME --page FILE.html``: the game as one web page.

The page plays a two-player deck game (race ending) against the computer in
any browser, a phone's included, with no server and no network: the script,
the styles and the data are all inside the one file (the template is
``page.html`` next to this module). It follows the terminal play
(:mod:`designer.play.session`): the same rules (:mod:`designer.play.engine`),
the same three levels (:mod:`designer.play.players`), the same words on the
board and at the end, and the same analysis of the human's costliest decision
(:mod:`designer.play.analysis`); the statistics are kept in the browser
(``localStorage``), per design and level.

What the page carries
    ``policy``: the optimal policy in its compact form
    (:class:`~designer.solve.compact.CompactPolicy`, ``table[i, j, w, c0]`` =
    good draws after which the optimal mover holds), one byte per entry (two
    when an entry exceeds 255). ``win``: the solved turn-start win table
    ``win[i, j, w, c]`` as 24-bit fixed point (``round(p * (2**24 - 1))``),
    differenced along ``j`` (modulo ``2**24``), its three bytes stored as
    three planes. Both are zlib-compressed and base64-encoded; the page
    inflates them with the browser's ``DecompressionStream('deflate')``, or
    with its own small inflater where the browser has none.

Precision
    An embedded turn-start value is within :data:`WIN_ERROR` (``2**-25``,
    about 3.0e-8) of the solve's. The page rebuilds the draw and hold values
    along a turn as :func:`designer.solve.deck_chain.chain_draw_hold` does;
    each is a convex combination of embedded values (or of 0 and 1) and the
    maximum of two such, so it is within the same bound, and a decision's
    cost (a difference of two of them) within ``2 * WIN_ERROR``, about
    6.0e-6 percentage points. The hard computer player reads the compact
    policy itself, so it plays exactly the optimal policy; only at states
    past the optimal hold point (which the computer never reaches) does it
    fall back on the rebuilt values, where a tie within ``2 * WIN_ERROR``
    could be resolved the other way.
"""

import base64
import json
import zlib
from importlib import resources

import numpy as np

from designer.errors import DesignError

#: Bits of the fixed-point turn-start win probabilities in the page.
WIN_BITS = 24
#: The fixed-point scale: ``p`` travels as ``round(p * WIN_SCALE)``.
WIN_SCALE = (1 << WIN_BITS) - 1
#: Largest error of an embedded turn-start win probability (and of the draw
#: and hold values the page rebuilds from them).
WIN_ERROR = 0.5 / WIN_SCALE

#: What ``--page`` takes, in the words of :mod:`designer.support`.
TAKES = "--page writes deck games with 2 players, race ending"

#: The file names the page's template.
TEMPLATE = "page.html"

#: Where the template takes the data.
DATA_MARK = "/*__PLAY_DATA__*/"


def check_page_game(game):
    """Refuse, in one line, a game the page does not play.

    Raises
    ------
    DesignError
        Not a deck game, more than two players, or the rounds ending.
    """
    kinds = {"dice": "dice games", "zombie": "all-yellow Zombie Dice games",
             "wager": "wagering games"}
    if game.family != "deck":
        from designer.support import kind_of

        kind = kind_of(game)
        what = "Zombie Dice games" if kind == "zombie-dice" else kinds.get(kind, f"{kind} games")
        raise DesignError(f"designer play --page does not take {what} ({game.name}): {TAKES}")
    if game.players != 2:
        raise DesignError(f"designer play --page does not take --players {game.players} for "
                          f"{game.name}: {TAKES}")
    if game.ending != "race":
        raise DesignError(f"designer play --page does not take --ending {game.ending} for "
                          f"{game.name}: {TAKES}")


def _pack(raw):
    """Bytes as the page carries them: zlib (level 9), then base64."""
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def encode_win(win):
    """The turn-start win table as the page carries it (see the module
    docstring): ``{"bits", "bytes", "zlib"}``."""
    win = np.asarray(win, dtype=np.float64)
    q = np.rint(np.clip(win, 0.0, 1.0) * WIN_SCALE).astype(np.int64)
    d = (np.diff(q, axis=1, prepend=0) & WIN_SCALE).astype("<u4")
    planes = np.ascontiguousarray(d.reshape(-1).view(np.uint8).reshape(-1, 4)[:, :3].T)
    raw = planes.tobytes()
    return {"bits": WIN_BITS, "bytes": len(raw), "zlib": _pack(raw)}


def decode_win(packed, shape):
    """The table :func:`encode_win` packed, as the page reads it back
    (for tests)."""
    raw = np.frombuffer(zlib.decompress(base64.b64decode(packed["zlib"])), dtype=np.uint8)
    planes = raw.reshape(3, -1).astype(np.int64)
    d = (planes[0] | planes[1] << 8 | planes[2] << 16).reshape(shape)
    q = np.cumsum(d, axis=1) & WIN_SCALE
    return q / WIN_SCALE


def encode_policy(table):
    """The compact policy table as the page carries it: one byte per entry
    (two, little-endian, when an entry exceeds 255)."""
    table = np.asarray(table)
    dtype = "u1" if table.max(initial=0) <= 255 else "<u2"
    raw = np.ascontiguousarray(table.astype(dtype)).tobytes()
    return {"dtype": "u8" if dtype == "u1" else "u16", "bytes": len(raw), "zlib": _pack(raw)}


def page_data(solution, level="medium", first="human", pause=True):
    """Everything the page needs, as a JSON-able dict."""
    from designer._jit import TIE
    from designer.play.players import TIMID_HOLD_AT
    from designer.play.session import PAUSE
    from designer.play.stats import design_key

    game = solution.game
    check_page_game(game)
    policy = solution.compact_policy()
    return {
        "version": 1,
        "name": game.name,
        "describe": game.describe(),
        "key": design_key(game),
        "params": dict(game.params),
        "bad": int(game.bad), "good": int(game.good), "goal": int(game.goal),
        "start": [int(s) for s in game.start_scores],
        "defaults": {"level": level, "first": first, "pause": bool(pause)},
        "pause": PAUSE,
        "timidHoldAt": TIMID_HOLD_AT,
        "tie": TIE,
        "tol": 1e-12,
        "winError": WIN_ERROR,
        "policy": encode_policy(policy.table),
        "win": encode_win(solution.win),
    }


def _json_for_script(obj):
    """JSON that is safe inside a ``<script>`` element."""
    text = json.dumps(obj, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def build_page(solution, level="medium", first="human", pause=True):
    """The page's HTML text for a solved two-player race deck game."""
    template = resources.files("designer.play").joinpath(TEMPLATE).read_text(encoding="utf-8")
    if template.count(DATA_MARK) != 1:
        raise DesignError(f"the play page template has no single data mark {DATA_MARK}")
    data = _json_for_script(page_data(solution, level, first, pause))
    return template.replace(DATA_MARK, data)


def write_page(solution, path, level="medium", first="human", pause=True):
    """Write the page to ``path`` (already checked by
    :func:`designer.paths.output_file`); returns its size in bytes.

    The whole page is built before the file is opened, so an error leaves
    nothing behind.
    """
    text = build_page(solution, level, first, pause).encode("utf-8")
    with open(path, "wb") as f:
        f.write(text)
    return len(text)
