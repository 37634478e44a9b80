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

Training
--------
* Nguyen-Widrow initialisation of the hidden layer: weights uniform in
  ``[-1/2, 1/2]``, each unit's weight vector rescaled to length
  ``beta = 0.7 * 13 ** (1/7)``, biases uniform in ``[-beta, beta]``; output
  weights and bias uniform in ``[-1/2, 1/2]``.
* Data: the decision states (``k >= 1``, not terminal) visited by optimal
  self-play, simulated from the game's start (komi to the second player),
  with the optimal decision as target (1 = draw). Frequent states are seen
  more often, as they weigh more in the win rate. A visited state is kept
  with probability ``min(1, |D - H| / stake)`` (default ``stake = 0.01``),
  ``|D - H|`` being the win probability at stake between drawing and
  holding there (rebuilt from the solve): near-indifferent states, where a
  wrong decision costs almost nothing, are thinned so that the 13 hidden
  units are spent on decisions that matter (mostly the endgame).
  ``stake = 0`` keeps every visited state. (Two-minute trials on Fowl Play,
  shared machine: best 48.9% keeping every state, 49.25% with stake 0.01,
  both with squared error; 49.36% with stake 0.01 and cross-entropy, against
  49.2% with stake 0.02 and 49.0% with stake 0.003.)
* One epoch: ``games`` fresh self-play games, their kept states in a random
  order, one online backpropagation step per state (learning rate 0.1,
  cross-entropy error of the logistic output, i.e. output delta ``o - t``,
  which learned faster than squared error in trials), then an exact
  evaluation of the network against the optimal player
  (:func:`designer.analysis.compare.match_table`, average over both seats).
  The best network so far is kept.
* Reproducible: a seed fixes the initial weights and every epoch's games and
  order, so a given seed and number of epochs gives the same network bit for
  bit; a time budget only cuts the same sequence of epochs short.
"""

import time
from dataclasses import dataclass, field

import numpy as np

from designer._jit import TIE, kernel
from designer.errors import DesignError
from designer.games import DeckGame
from designer.games.deck_draw import draw_item
from designer.solve.deck_chain import chain_draw_hold
from designer.policies import _kernels as K
from designer.policies.base import Policy

N_INPUTS = 7
N_HIDDEN = 13
#: Names of the seven raw inputs, in order.
FEATURES = ("i", "j", "k", "w_rem", "c_rem", "c_rem/(w_rem+c_rem)", "k*w_rem/(w_rem+c_rem)")
#: Learning rate of online backpropagation.
RATE = 0.1
#: Optimal self-play games per epoch.
DEFAULT_GAMES = 400
#: Default value at stake (win probability) below which visited states are thinned.
DEFAULT_STAKE = 0.01


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


# -- training -----------------------------------------------------------------

def nguyen_widrow(rng, n_in=N_INPUTS, n_hidden=N_HIDDEN):
    """Initial ``(W1, b1, W2, b2)`` (see the module docstring)."""
    beta = 0.7 * n_hidden ** (1.0 / n_in)
    W1 = rng.uniform(-0.5, 0.5, (n_hidden, n_in))
    W1 *= beta / np.linalg.norm(W1, axis=1, keepdims=True)
    b1 = rng.uniform(-beta, beta, n_hidden)
    W2 = rng.uniform(-0.5, 0.5, n_hidden)
    b2 = float(rng.uniform(-0.5, 0.5))
    return W1, b1, W2, b2


@kernel
def _chain_gaps(bad, good, goal, win, i, j, w, c0, gaps, D, H):
    """``gaps[t] = |D - H|`` (value at stake) at each decision ``t >= 1`` of the
    chain from turn start ``(i, j, w, c0)``, rebuilt from the win table."""
    last = chain_draw_hold(bad, good, goal, win, i, j, w, c0, TIE, D, H)
    for t in range(1, last + 1):
        gaps[t] = abs(D[t] - H[t])


@kernel
def _selfplay(bad, good, goal, komi, T, win, stake, n_games, seed, lo, hi, X, Y):
    """Play ``n_games`` of optimal self-play; record each decision state's
    scaled inputs in ``X`` and the optimal decision (1 = draw) in ``Y``.

    With ``stake > 0`` a visited state is kept with probability
    ``min(1, |D - H| / stake)`` (the value at stake, from the win table), so
    near-indifferent states, whose errors cost little, are thinned out.
    Stops when ``X`` is full; returns the number of states recorded."""
    np.random.seed(seed)
    n = 0
    cap = X.shape[0]
    x = np.empty(7)
    gaps = np.zeros(min(good, goal) + 2)
    D = np.empty(min(good, goal) + 1)
    H = np.empty(min(good, goal) + 1)
    for _ in range(n_games):
        s0 = 0
        s1 = komi
        w = 0
        c = 0
        mover = 0
        while True:
            i = s0 if mover == 0 else s1
            j = s1 if mover == 0 else s0
            limit = T[i, j, w, c]
            if stake > 0.0:
                _chain_gaps(bad, good, goal, win, i, j, w, c, gaps, D, H)
            k = 0
            banked = False
            while True:
                was_bad, w, c = draw_item(bad, good, w, c)
                if was_bad:
                    break
                k += 1
                if i + k >= goal:
                    banked = True
                    break
                keep = True
                if stake > 0.0:
                    keep = np.random.random() * stake < gaps[k]
                if keep and n < cap:
                    K.nn_features(i, j, k, w, c, bad, good, lo, hi, x)
                    X[n, :] = x
                    Y[n] = 1.0 if k < limit else 0.0
                    n += 1
                if k >= limit:
                    banked = True
                    break
            if banked:
                if mover == 0:
                    s0 += k
                else:
                    s1 += k
                if i + k >= goal:
                    break
            mover = 1 - mover
        if n >= cap:
            break
    return n


@kernel
def _train_epoch(W1, b1, W2, b2, X, Y, order, rate):
    """Online backpropagation over ``X[order]`` (cross-entropy error of the
    logistic output, so the output delta is ``o - t``); returns the mean
    squared error ``(o - t)^2`` of the epoch, for the record.

    ``b2`` is a one-element array (updated in place).
    """
    nh = W1.shape[0]
    ni = W1.shape[1]
    h = np.empty(nh)
    dh = np.empty(nh)
    sse = 0.0
    for m in range(order.shape[0]):
        s = order[m]
        o = K.nn_forward(W1, b1, W2, b2[0], X[s], h)
        err = o - Y[s]
        sse += err * err
        do = err
        for u in range(nh):
            dh[u] = do * W2[u] * h[u] * (1.0 - h[u])
        for u in range(nh):
            W2[u] -= rate * do * h[u]
            b1[u] -= rate * dh[u]
            for f in range(ni):
                W1[u, f] -= rate * dh[u] * X[s, f]
        b2[0] -= rate * do
    return sse / max(order.shape[0], 1)


@dataclass(frozen=True, eq=False)
class TrainingResult:
    """Outcome of :func:`train_nn`.

    Attributes
    ----------
    network : Network
        The best network found (its ``info`` records how it was trained).
    win_average : float
        Its exact average win probability against the optimal player.
    win_as_first, win_as_second : float
        The two seatings.
    best_epoch : int
        Epoch that produced it (0 = the initial network).
    epochs : int
        Epochs completed.
    seconds : float
        Wall time of the training.
    samples : int
        Training steps taken in all.
    history : list of tuple
        ``(epoch, win_average, mse, seconds)`` per epoch.
    """

    network: Network
    win_average: float
    win_as_first: float
    win_as_second: float
    best_epoch: int
    epochs: int
    seconds: float
    samples: int
    history: list

    def compression(self):
        """Memory of the network against the tables of the policy it replaces.

        Returns
        -------
        dict
            ``weights``, ``weight_bytes`` (float64), ``table_bytes`` (the
            int16 compact table, one entry per turn start),
            ``decision_states`` and ``bitmap_bytes`` (one bit per decision
            state), and the ratios of the two tables to the weights.
        """
        from designer.solve.api import deck_states

        g = self.network.game
        net = self.network
        table_bytes = g.goal * g.goal * g.bad * (g.good + 1) * 2
        decisions = deck_states(g) - g.goal * g.goal * g.bad * (g.good + 1)  # k >= 1
        wb = net.n_weights * 8
        return {"weights": net.n_weights, "weight_bytes": wb, "table_bytes": table_bytes,
                "decision_states": decisions, "bitmap_bytes": (decisions + 7) // 8,
                "table_ratio": table_bytes / wb, "bitmap_ratio": (decisions + 7) // 8 / wb}


def train_nn(game, *, seed=0, epochs=None, minutes=None, games=DEFAULT_GAMES,
             stake=DEFAULT_STAKE, solution=None, callback=None):
    """Train the 118-weight network on ``game``'s optimal play.

    Parameters
    ----------
    game : DeckGame
    seed : int
        Seeds the initial weights, the self-play games and the orders.
    epochs : int, optional
        Stop after this many epochs.
    minutes : float, optional
        Stop before an epoch that would end after this wall time. At least
        one of ``epochs`` and ``minutes`` is required.
    games : int
        Self-play games per epoch.
    stake : float
        Keep a visited decision state with probability
        ``min(1, |D - H| / stake)``, ``|D - H|`` being the optimal player's
        win probability at stake there; 0 keeps every visited state.
    solution : DeckSolution, optional
        The exact solve of ``game`` (solved when omitted; not timed).
    callback : callable, optional
        Called after every epoch as ``callback(epoch, win_average,
        best_win_average, elapsed_seconds)``.

    Returns
    -------
    TrainingResult
    """
    from designer.analysis.compare import match_table
    from designer.games._validate import check_int
    from designer.policies.builtin import OptimalPolicy

    if not isinstance(game, DeckGame):
        raise DesignError("the neural policy is for deck games")
    seed = check_int("seed", seed, 0, 2**31 - 1)
    games = check_int("games", games, 1)
    if not (isinstance(stake, (int, float)) and 0 <= stake < 1):
        raise DesignError(f"invalid stake={stake!r}: allowed 0 <= stake < 1")
    stake = float(stake)
    if epochs is None and minutes is None:
        raise DesignError("train_nn needs epochs or minutes (or both)")
    if epochs is not None:
        epochs = check_int("epochs", epochs, 0)
    if minutes is not None and not minutes > 0:
        raise DesignError(f"invalid minutes={minutes!r}: allowed minutes > 0")
    budget = float("inf") if minutes is None else 60.0 * minutes

    optimal = OptimalPolicy(game, solution)
    T = optimal.table()
    lo, hi = input_ranges(game)
    rng = np.random.default_rng(seed)
    W1, b1, W2, b2 = nguyen_widrow(rng)
    b2 = np.array([b2])
    # Decision states per game are far below this for any deck; a full
    # buffer only ends the epoch's sample early (deterministically).
    cap = games * max(200, 4 * game.goal + 2 * game.good)
    X = np.empty((cap, N_INPUTS))
    Y = np.empty(cap)
    t0 = time.perf_counter()

    def evaluate():
        net = Network(W1.copy(), b1.copy(), W2.copy(), b2[0], lo, hi, game)
        m = match_table(game, NeuralPolicy(game, net).table(), T)
        return net, m.win_as_first(), m.win_as_second()

    best, bf, bs = evaluate()
    best_avg, best_epoch = 0.5 * (bf + bs), 0
    history = [(0, best_avg, float("nan"), time.perf_counter() - t0)]
    if callback:
        callback(0, best_avg, best_avg, history[-1][3])
    epoch = samples = 0
    last = 0.0
    while epochs is None or epoch < epochs:
        start = time.perf_counter()
        if start - t0 + last > budget:
            break
        n = _selfplay(game.bad, game.good, game.goal, game.komi, T, optimal.solution.win, stake, games,
                      int(rng.integers(2**31 - 1)), lo, hi, X, Y)
        order = rng.permutation(n)
        mse = _train_epoch(W1, b1, W2, b2, X, Y, order, RATE)
        samples += n
        epoch += 1
        net, wf, ws = evaluate()
        avg = 0.5 * (wf + ws)
        if avg > best_avg:
            best, bf, bs, best_avg, best_epoch = net, wf, ws, avg, epoch
        now = time.perf_counter()
        last = now - start
        history.append((epoch, avg, float(mse), now - t0))
        if callback:
            callback(epoch, avg, best_avg, now - t0)
    seconds = time.perf_counter() - t0
    info = {"seed": seed, "epochs": epoch, "best_epoch": best_epoch, "games_per_epoch": games,
            "stake": float(stake), "rate": RATE, "win_average": best_avg, "win_as_first": bf, "win_as_second": bs,
            "seconds": seconds}
    best = Network(best.W1, best.b1, best.W2, best.b2, lo, hi, game, info)
    return TrainingResult(best, best_avg, bf, bs, best_epoch, epoch, seconds, samples, history)
