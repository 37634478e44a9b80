"""Monte Carlo evaluation of Persian Monarchs and its variants.

Rules as simulated
------------------
A game between a *player* and an *opponent* is ``2 * rounds`` hands; the
player is the non-dealer of the first hand and the deal alternates every hand
(so each side is non-dealer in exactly half the hands of a full game). Every
game starts from a fresh, full pack of cards with strengths ``1..pack``.

One hand, with ``A = ante``, ``stake = 2A``:

1. If either side holds fewer than ``A`` counters the game ends here (see
   *Counters that run short* below). Otherwise, if fewer than two cards
   remain, the whole pack returns.
2. The non-dealer, then the dealer, take one card each, uniformly from the
   remaining pack.
3. ``extra`` is drawn uniformly from ``1..max_raise`` (always, whether or not
   the non-dealer raises, as the rules say).
4. The non-dealer decides whether to raise (strategies below). Unraised, the
   higher card wins ``A`` from the other side.
5. Raised, the dealer covers or declines. Covered, the higher card wins
   ``A + extra`` from the other side (the pot is ``T = stake + 2 extra``).
   Declined, the non-dealer wins ``A`` (takes the stake at once).
6. Both cards are set aside.

Strategies (taken literally)
--------------------------------------
Let ``c`` be one's own card and ``n`` the number of cards in the pack at the
start of the hand, before either side draws (both cards still in it).

* ``counting``: ``q = b / (n - 1)`` where ``b`` is the number of those ``n``
  cards with strength below ``c``. The dealer uses the same formula with its
  own card: the denominator excludes only its own card, and the non-dealer's
  card (unseen) is still counted, which makes ``q`` exactly the probability
  that the other side's card is lower, given what each side has seen. The
  dealer does not update ``q`` on the fact that the non-dealer raised (the
  rules do not ask it to).
* ``non_counting``: the same with a full fresh pack, ``q = (c - 1) / (pack - 1)``.
* ``random``: raise with probability ``u``, ``u ~ U(0, 1)`` drawn afresh each
  hand (so 1/2 overall); cover with probability 1/2.

Raise rule (counting, non_counting): raise with probability ``q``.
Cover rule (counting, non_counting): cover iff ``q T - (1 - q) T > -stake``
with ``T = stake + 2 extra`` and ``stake = 2A``, the pot before the raise.
That is "the expected pot won minus the pot lost beats giving up the stake".
It is evaluated in exact integer arithmetic, ``(2b - (n-1)) T + stake (n-1) > 0``
(with ``b, n - 1`` replaced by ``c - 1, pack - 1`` for non_counting), so a tie
(equality) declines. With ``stake > 0`` a dealer with ``q >= 1/2`` always
covers.

Counters that run short
-----------------------
The rules do not say; we play table stakes, which is what a table with
physical counters does and what makes ``start`` a real design parameter:

* a raise is limited to what both sides still hold after the ante:
  ``extra = min(extra, min(counters) - A)``; if that is 0 the hand is played
  unraised (the raise size used in ``T`` is the limited one);
* a side that cannot pay the ante ends the game: the remaining hands are not
  played and the final counters stand. The share of such games is reported
  (``busted``); with the preset (100 counters, 52 hands, raises up to 10) it
  is small but not zero: about 0.9% of games of counting vs random and
  0.04% of counting vs counting or non_counting (10**6 games, seed 1).

Counters are conserved, so the opponent's net is minus the player's.

Random numbers
--------------
Games ``[k * CHUNK, (k + 1) * CHUNK)`` form chunk ``k``. Chunk ``k`` is played
sequentially from a xoshiro256** generator whose 256-bit state is
``SeedSequence(seed, spawn_key=(k,)).generate_state(4, uint64)`` (the ``k``-th
child of ``SeedSequence(seed).spawn``). Uniforms are ``(x >> 11) * 2**-53``
and an integer in ``0..m-1`` is ``floor(u * m)`` (bias below ``m * 2**-53``).
Each hand draws exactly six uniforms, in this order: the non-dealer's card,
the dealer's card, ``extra``, the random strategy's propensity ``u``, the raise
draw, the cover draw, whichever strategies play. So a game's numbers depend
only on ``seed``, ``CHUNK`` and the game's index, never on ``n_jobs`` or the
order in which chunks finish: results are identical for any number of
workers. Chunks run in threads (the kernel releases the GIL), results are
placed by game index, and every statistic is computed from the full arrays.

Statistics
----------
For ``N`` games with player nets ``x_g``: ``mean_net = mean(x)``,
``se = sd(x) / sqrt(N)`` (sample sd, ``ddof=1``), 95% interval
``mean_net +- 1.959964 se``. The non-dealer advantage per hand is the mean
over games of ``d_g`` = (sum of the non-dealer's gains over the game's
hands) / (hands played), with the standard error of that mean; hands within
a game share a pack and so are not treated as independent. The standard
error of ``net_sd`` is the delta-method ``sqrt((m4 - s**4) / N) / (2 s)``.
"""

import math
import time
from dataclasses import dataclass, fields

import numpy as np
from joblib import Parallel, delayed

from designer._jit import first_call, kernel
from designer.errors import DesignError
from designer.games._validate import check_int
from designer.games.wager import WagerGame

#: Strategy names, in the order of their codes in the kernel.
STRATEGIES = ("counting", "non_counting", "random")
COUNTING, NON_COUNTING, RANDOM = 0, 1, 2

#: Games per chunk of the random-number scheme. Changing it changes results.
CHUNK = 2000

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054

_MUL5 = np.uint64(5)
_MUL9 = np.uint64(9)
_S7 = np.uint64(7)
_S57 = np.uint64(57)
_S17 = np.uint64(17)
_S45 = np.uint64(45)
_S19 = np.uint64(19)
_S11 = np.uint64(11)
_TO_UNIT = 2.0 ** -53


@kernel
def _uniform(s):
    """Next xoshiro256** output of state ``s`` (4 uint64) as a double in [0, 1)."""
    x = s[1] * _MUL5
    result = ((x << _S7) | (x >> _S57)) * _MUL9
    t = s[1] << _S17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = (s[3] << _S45) | (s[3] >> _S19)
    return float(result >> _S11) * _TO_UNIT


@kernel
def _count_below(tree, c):
    """Cards still in the Fenwick ``tree`` with strength below ``c``."""
    total = 0
    i = c - 1
    while i > 0:
        total += tree[i]
        i -= i & -i
    return total


@kernel
def _remove(tree, c, pack):
    i = c
    while i <= pack:
        tree[i] -= 1
        i += i & -i


@kernel
def _play(strat_a, strat_b, max_raise, ante, start, hands, pack, state, net, nd_gain, played):
    """Play ``len(net)`` games from the generator ``state`` (updated in place).

    Side a (strategy code ``strat_a``) is the non-dealer of the first hand.
    Writes, per game, side a's final counters minus ``start`` into ``net``,
    the sum of the non-dealer's gains into ``nd_gain`` and the number of hands
    played into ``played``.
    """
    stake = 2 * ante
    cards = np.empty(pack, dtype=np.int64)
    tree = np.zeros(pack + 1, dtype=np.int64)
    for g in range(net.shape[0]):
        money_a = start
        money_b = start
        n = 0  # cards left; 0 forces a fresh pack at the first hand
        nd_total = 0
        h = 0
        while h < hands:
            if money_a < ante or money_b < ante:
                break  # a side cannot pay the ante: the game ends
            if n < 2:
                for i in range(pack):
                    cards[i] = i + 1
                for i in range(1, pack + 1):
                    tree[i] = i & -i  # Fenwick tree of a full pack (all ones)
                n = pack
            a_deals = h % 2 == 1
            # six uniforms per hand, always, in the documented order
            i = int(_uniform(state) * n)
            c_nd = cards[i]
            cards[i] = cards[n - 1]
            j = int(_uniform(state) * (n - 1))
            c_d = cards[j]
            cards[j] = cards[n - 2]
            extra = 1 + int(_uniform(state) * max_raise)
            u_prop = _uniform(state)
            u_raise = _uniform(state)
            u_cover = _uniform(state)
            # counts against the pack at the start of the hand (both cards in it)
            b_nd = _count_below(tree, c_nd)
            b_d = _count_below(tree, c_d)
            den = n - 1
            _remove(tree, c_nd, pack)
            _remove(tree, c_d, pack)
            n -= 2

            if a_deals:
                s_nd = strat_b
                s_d = strat_a
            else:
                s_nd = strat_a
                s_d = strat_b
            room = min(money_a, money_b) - ante  # table stakes
            if extra > room:
                extra = room

            if s_nd == RANDOM:
                raises = u_raise < u_prop
            elif s_nd == COUNTING:
                raises = u_raise * den < b_nd
            else:
                raises = u_raise * (pack - 1) < c_nd - 1
            if raises and extra > 0:
                T = stake + 2 * extra
                if s_d == RANDOM:
                    covers = u_cover < 0.5
                elif s_d == COUNTING:
                    covers = (2 * b_d - den) * T + stake * den > 0
                else:
                    covers = (2 * (c_d - 1) - (pack - 1)) * T + stake * (pack - 1) > 0
                if covers:
                    gain = ante + extra if c_nd > c_d else -(ante + extra)
                else:
                    gain = ante
            else:
                gain = ante if c_nd > c_d else -ante

            if a_deals:
                money_b += gain
                money_a -= gain
            else:
                money_a += gain
                money_b -= gain
            nd_total += gain
            h += 1
        net[g] = money_a - start
        nd_gain[g] = nd_total
        played[g] = h


def _chunk_state(seed, k):
    """xoshiro256** state of chunk ``k``: the ``k``-th child of ``SeedSequence(seed)``."""
    state = np.random.SeedSequence(seed, spawn_key=(k,)).generate_state(4, np.uint64)
    if not state.any():  # the all-zero state is a fixed point of xoshiro
        state[0] = 1
    return state


def _strategy(name, what):
    key = str(name).replace("-", "_")
    if key not in STRATEGIES:
        raise DesignError(f"unknown {what} strategy {name!r}: choose one of {', '.join(STRATEGIES)}")
    return key


def _check_game(game):
    if not isinstance(game, WagerGame):
        raise DesignError(f"{getattr(game, 'name', game)!r} is not a wagering game: simulate takes "
                          "persian-monarchs or the wager family")
    return game


def _check_jobs(n_jobs):
    if n_jobs == -1:
        return -1
    return check_int("n_jobs", n_jobs, 1, 64)


def _run_chunk(codes, game, hands, k, count, seed):
    net = np.empty(count, dtype=np.int64)
    nd_gain = np.empty(count, dtype=np.int64)
    played = np.empty(count, dtype=np.int64)
    _play(codes[0], codes[1], game.max_raise, game.ante, game.start, hands, game.pack,
          _chunk_state(seed, k), net, nd_gain, played)
    return k, net, nd_gain, played


def _warm():
    """Compile (or load from cache) the kernel once, before timing and threads."""
    out = np.empty(1, dtype=np.int64)
    with first_call():
        _play(0, 2, 2, 1, 5, 2, 4, _chunk_state(0, 0), out, out.copy(), out.copy())


def play_games(game, player, opponent, games, seed=0, n_jobs=1, progress=None, hands=None):
    """Play ``games`` games and return the per-game arrays.

    Returns
    -------
    net, nd_gain, played : ndarray of int64
        The player's final counters minus ``start``; the sum of the
        non-dealer's gains; hands played (fewer than ``hands`` if a side could
        not pay an ante). Game ``g`` sits at index ``g`` whatever ``n_jobs``.
    """
    game = _check_game(game)
    codes = (STRATEGIES.index(_strategy(player, "player")),
             STRATEGIES.index(_strategy(opponent, "opponent")))
    games = check_int("games", games, 1, 10**9)
    seed = check_int("seed", seed, 0)
    n_jobs = _check_jobs(n_jobs)
    hands = game.hands if hands is None else check_int("hands", hands, 1, 2 * game.rounds)
    _warm()
    net = np.empty(games, dtype=np.int64)
    nd_gain = np.empty(games, dtype=np.int64)
    played = np.empty(games, dtype=np.int64)
    chunks = [(k, min(CHUNK, games - k * CHUNK)) for k in range((games + CHUNK - 1) // CHUNK)]
    if n_jobs == 1 or len(chunks) == 1:
        results = (_run_chunk(codes, game, hands, k, count, seed) for k, count in chunks)
    else:
        # threads: the kernel runs without the GIL, so threads share one
        # compiled kernel and no arrays are pickled
        results = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator_unordered")(
            delayed(_run_chunk)(codes, game, hands, k, count, seed) for k, count in chunks)
    done = 0
    for k, a, b, c in results:
        lo = k * CHUNK
        net[lo:lo + len(a)] = a
        nd_gain[lo:lo + len(a)] = b
        played[lo:lo + len(a)] = c
        done += len(a)
        if progress is not None:
            progress(done, games)
    return net, nd_gain, played


@dataclass(frozen=True)
class PairingResult:
    """Outcome of many games between two strategies.

    Attributes
    ----------
    player, opponent : str
        Strategies; the player is the non-dealer of each game's first hand.
    games : int
        Games played. ``hands`` is the hands per game (fewer if a side ran out).
    seed : int
    mean_player, mean_opponent : float
        Mean final counters of each side.
    mean_net : float
        ``mean_player - start``; ``se`` its standard error, ``ci_low`` and
        ``ci_high`` its 95% interval.
    net_sd, net_sd_se : float
        Standard deviation of the player's net over games, with its standard
        error.
    nondealer_advantage, nondealer_advantage_se : float
        Mean gain of the non-dealer per hand, with its standard error.
    busted : float
        Share of games that ended early because a side could not pay an ante.
    seconds : float
        Wall time of the simulation (kernel loading excluded).
    game : WagerGame
        The rules simulated (``to_dict`` gives its design parameters as
        ``params``).
    """

    player: str
    opponent: str
    games: int
    hands: int
    seed: int
    mean_player: float
    mean_opponent: float
    mean_net: float
    se: float
    ci_low: float
    ci_high: float
    net_sd: float
    net_sd_se: float
    nondealer_advantage: float
    nondealer_advantage_se: float
    busted: float
    seconds: float
    game: WagerGame

    @property
    def difference(self):
        """Mean final counters of the player minus the opponent's: ``2 * mean_net``
        (counters are conserved); its 95% interval is twice ``mean_net``'s."""
        return self.mean_player - self.mean_opponent

    def to_dict(self):
        """Plain dict (JSON-ready), with ``difference`` and its 95% interval."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "game"}
        out.update(params=self.game.params, difference=self.difference,
                   difference_ci_low=2 * self.ci_low, difference_ci_high=2 * self.ci_high)
        return out

    def to_frame(self):
        """One-row pandas DataFrame (params flattened)."""
        import pandas as pd

        row = self.to_dict()
        row.update(row.pop("params"))
        return pd.DataFrame([row])


def _mean_se(x):
    n = len(x)
    mean = float(np.mean(x))
    sd = float(np.std(x, ddof=1)) if n > 1 else 0.0
    return mean, sd, sd / math.sqrt(n)


def _sd_se(x, sd):
    if len(x) < 2 or sd == 0.0:
        return 0.0
    d = x - np.mean(x)
    m4 = float(np.mean(d ** 4))
    return math.sqrt(max(m4 - sd ** 4, 0.0) / len(x)) / (2 * sd)


def simulate_pairing(game, player, opponent, games, seed=0, n_jobs=1, progress=None, *,
                     hands=None):
    """Simulate ``games`` games of ``game`` between two strategies.

    Parameters
    ----------
    game : WagerGame
    player, opponent : {"counting", "non_counting", "random"}
        The player is the non-dealer of the first hand ("non-counting" is
        accepted too).
    games : int
        Number of games, ``1 <= games <= 10**9``.
    seed : int
        Non-negative seed of the random-number scheme (module docstring).
    n_jobs : int
        Worker threads (``-1``: all cores); results do not depend on it.
    progress : callable, optional
        Called as ``progress(games_done, games)`` after each chunk.
    hands : int, optional
        Hands per game, default ``2 * game.rounds``; ``hands=1`` plays single
        hands from a full pack (the player is the non-dealer).

    Returns
    -------
    PairingResult

    Raises
    ------
    DesignError
        Not a wagering game, unknown strategy.
    ParameterError
        ``games``, ``seed``, ``n_jobs`` or ``hands`` out of range.
    """
    player = _strategy(player, "player")
    opponent = _strategy(opponent, "opponent")
    game = _check_game(game)
    _warm()  # load or compile the kernel before the clock starts
    t0 = time.perf_counter()
    net, nd_gain, played = play_games(game, player, opponent, games, seed, n_jobs, progress,
                                      hands)
    mean_net, sd, se = _mean_se(net.astype(np.float64))
    adv, _, adv_se = _mean_se(nd_gain / played)
    hands_per_game = game.hands if hands is None else int(hands)
    seconds = time.perf_counter() - t0
    return PairingResult(
        player=player, opponent=opponent, games=int(games), hands=hands_per_game, seed=int(seed),
        mean_player=game.start + mean_net, mean_opponent=game.start - mean_net,
        mean_net=mean_net, se=se, ci_low=mean_net - Z95 * se, ci_high=mean_net + Z95 * se,
        net_sd=sd, net_sd_se=_sd_se(net.astype(np.float64), sd),
        nondealer_advantage=adv, nondealer_advantage_se=adv_se,
        busted=float(np.mean(played < hands_per_game)), seconds=seconds, game=game)


def design_metrics(game, games, seed=0, n_jobs=1, progress=None):
    """Study metrics of one design, each with its standard error.

    Three pairings of ``games`` games each, all from the same ``seed``:
    counting vs counting (fairness and spread: both sides play the
    skilled strategy, so what is left is the seat and luck), counting vs
    non_counting and counting vs random (skill margins).

    Returns
    -------
    dict
        ``nondealer_advantage`` (mean gain of the non-dealer per hand, counting
        vs counting; ``dealer_advantage`` is its negative), ``skill_vs_noncounting``
        and ``skill_vs_random`` (``mean_net`` of counting against each),
        ``net_sd`` (sd of the net of a game, counting vs counting), each with
        a ``*_se`` standard error; plus ``busted`` (largest share of games
        ended early over the three pairings), ``games`` and ``seconds``.
    """
    t0 = time.perf_counter()
    total = 3 * check_int("games", games, 1, 10**9)
    offset = [0]

    def step(done, _):
        if progress is not None:
            progress(offset[0] + done, total)

    runs = {}
    for opp in STRATEGIES:
        runs[opp] = simulate_pairing(game, "counting", opp, games, seed, n_jobs, step)
        offset[0] += games
    same = runs["counting"]
    return {
        "nondealer_advantage": same.nondealer_advantage,
        "nondealer_advantage_se": same.nondealer_advantage_se,
        "dealer_advantage": -same.nondealer_advantage,
        "dealer_advantage_se": same.nondealer_advantage_se,
        "skill_vs_noncounting": runs["non_counting"].mean_net,
        "skill_vs_noncounting_se": runs["non_counting"].se,
        "skill_vs_random": runs["random"].mean_net,
        "skill_vs_random_se": runs["random"].se,
        "net_sd": same.net_sd,
        "net_sd_se": same.net_sd_se,
        "busted": max(r.busted for r in runs.values()),
        "games": int(games),
        "seconds": time.perf_counter() - t0,
    }
