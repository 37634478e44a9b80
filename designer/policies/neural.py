"""A compact neural policy for deck games: 7 inputs, 13 logistic hidden units,
one logistic output, 118 weights with biases.

Network
-------
Inputs at state ``(i, j, k, w, c)`` with ``w_rem = bad - w``,
``c_rem = good - c``, ``n = w_rem + c_rem``:

    i, j, k, w_rem, c_rem, c_rem / n, k * w_rem / n

each mapped linearly from its exact range ``[lo, hi]`` over the game's
decision states to ``[-1, 1]`` (the ranges are saved with the weights). Hidden
``h = sigma(W1 x + b1)`` (13 units), output ``o = sigma(W2 . h + b2)``, with
``sigma(z) = 1 / (1 + e^-z)``; the policy draws iff ``o > 1/2`` (and always at
``k = 0``). Weights: ``13 * 7 + 13 + 13 + 1 = 118``.

Training lives in :mod:`designer.training.neural` (``designer policy train-nn``).
"""

from dataclasses import dataclass, field

import numpy as np

from designer.errors import DesignError
from designer.games import DeckGame
from designer.policies import _kernels as K
from designer.policies.base import Policy

N_INPUTS = 7
N_HIDDEN = 13
#: Names of the seven raw inputs, in order.
FEATURES = ("i", "j", "k", "w_rem", "c_rem", "c_rem/(w_rem+c_rem)", "k*w_rem/(w_rem+c_rem)")


def input_ranges(game):
    """The exact range ``[lo, hi]`` of each raw input over the game's decision
    states (``1 <= k <= c``, ``i + k < goal``)."""
    G, bad, good = game.goal, game.bad, game.good
    kmax = min(good, G - 1)
    # i + k < goal with k >= 1; c >= k >= 1 so c_rem <= good - 1; c_rem / n
    # is largest at w_rem = 1, c_rem = good - 1; k * w_rem / n smallest at
    # k = w_rem = 1, c_rem = good - 1 and largest at c_rem = 0, k = kmax.
    lo = np.array([0, 0, 1, 1, 0, 0.0, 1.0 / good], dtype=np.float64)
    hi = np.array([max(G - 2, 0), G - 1, kmax, bad, good - 1, (good - 1) / good, kmax],
                  dtype=np.float64)
    return lo, np.maximum(hi, lo)


@dataclass(frozen=True, eq=False)
class Network:
    """The weights of a 7-13-1 logistic network and its input scaling.

    Attributes
    ----------
    W1 : ndarray (13, 7)
    b1 : ndarray (13,)
    W2 : ndarray (13,)
    b2 : float
    lo, hi : ndarray (7,)
        Input ranges mapped to ``[-1, 1]``.
    game : DeckGame
        The game the network was trained for.
    info : dict
        Training record (seed, epochs, win_average, ...), saved with it.
    """

    W1: np.ndarray
    b1: np.ndarray
    W2: np.ndarray
    b2: float
    lo: np.ndarray
    hi: np.ndarray
    game: DeckGame
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        shapes = {"W1": (N_HIDDEN, N_INPUTS), "b1": (N_HIDDEN,), "W2": (N_HIDDEN,),
                  "lo": (N_INPUTS,), "hi": (N_INPUTS,)}
        for name, shape in shapes.items():
            arr = np.ascontiguousarray(getattr(self, name), dtype=np.float64)
            if arr.shape != shape:
                raise DesignError(f"network {name} has shape {arr.shape}, expected {shape}")
            if not np.all(np.isfinite(arr)):
                raise DesignError(f"network {name} has non-finite values")
            object.__setattr__(self, name, arr)
        b2 = float(self.b2)
        if not np.isfinite(b2):
            raise DesignError("network b2 is not finite")
        object.__setattr__(self, "b2", b2)

    @property
    def n_weights(self):
        """Number of weights and biases: 118."""
        return self.W1.size + self.b1.size + self.W2.size + 1

    def output(self, i, j, k, w, c, game=None):
        """The network's output (probability of "draw") at one state."""
        g = game or self.game
        x = np.empty(N_INPUTS)
        h = np.empty(N_HIDDEN)
        K.nn_features(i, j, k, w, c, g.bad, g.good, self.lo, self.hi, x)
        return float(K.nn_forward(self.W1, self.b1, self.W2, self.b2, x, h))

    def save(self, path):
        """Write the weights, the input scaling and the game to ``path`` (npz)."""
        g = self.game
        info = {f"info_{k}": v for k, v in self.info.items()}
        np.savez(path, W1=self.W1, b1=self.b1, W2=self.W2, b2=self.b2, lo=self.lo, hi=self.hi,
                 features=np.array(FEATURES), bad=g.bad, good=g.good, goal=g.goal, komi=g.komi,
                 game_name=g.name, kind="designer-nn-7-13-1", **info)

    @classmethod
    def load(cls, path):
        """Read a network written by :meth:`save`.

        Raises
        ------
        DesignError
            Missing or unreadable file, or not a designer network.
        """
        try:
            with np.load(path, allow_pickle=False) as z:
                if "kind" not in z or str(z["kind"]) != "designer-nn-7-13-1":
                    raise DesignError(f"{path} is not a network saved by designer "
                                      f"(designer policy train-nn)")
                game = DeckGame(int(z["bad"]), int(z["good"]), int(z["goal"]), int(z["komi"]),
                                str(z["game_name"]))
                info = {k[5:]: z[k].item() for k in z.files if k.startswith("info_")}
                return cls(z["W1"], z["b1"], z["W2"], float(z["b2"]), z["lo"], z["hi"], game,
                           info)
        except DesignError as exc:
            raise DesignError(f"cannot use the network {path}: {exc}") from None
        except IsADirectoryError:
            raise DesignError(f"cannot read a network from {path}: it is a folder") from None
        except Exception as exc:  # noqa: BLE001 - truncated zip, bad member, wrong dtype ...
            # np.load raises whatever its zip and format readers raise on a
            # damaged file (BadZipFile, EOFError, ValueError, TypeError ...)
            raise DesignError(f"cannot read a network from {path}: not an intact network "
                              f"file ({type(exc).__name__}: {exc})") from None


class NeuralPolicy(Policy):
    """The network's policy on a deck game (draw iff output > 1/2).

    The inputs are scaled with the network's own ranges, so a network can
    play a deck other than the one it was trained on (extrapolating).
    """

    families = ("deck",)

    def __init__(self, game, network, name="nn"):
        super().__init__(game, name)
        self.network = network

    @classmethod
    def load(cls, path, game):
        """``nn:FILE``: the network in ``path`` playing ``game``."""
        return cls(game, Network.load(path), name=f"nn:{path}")

    def _args(self):
        n = self.network
        return n.W1, n.b1, n.W2, n.b2, n.lo, n.hi

    def _deck_table(self):
        g = self.game
        out = np.empty((g.goal, g.goal, g.bad, g.good + 1), dtype=np.int16)
        K.nn_table(*self._args(), g.bad, g.good, g.goal, out)
        return out

    def _deck_block(self, i, out):
        g = self.game
        K.nn_block(*self._args(), i, g.bad, g.good, g.goal, out)
