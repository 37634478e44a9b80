"""Slow, obviously correct references for Persian Monarchs.

* :func:`hand_value` — exact expected gain of the non-dealer in one hand from a
  full pack, by enumerating every ordered card pair and every raise size.
* :func:`game_value` — exact expected net of the player over a whole game on a
  small pack, by enumerating every pack state (memoised on the set of cards
  left); valid when counters never run short (``start >= hands * (ante +
  max_raise)``), since then a hand's value depends only on the pack.
* :class:`Xoshiro` and :func:`play_games` — the documented random-number
  scheme and the rules (table stakes included) in plain Python, used to check
  the kernel game by game and as the benchmark's baseline.

Strategies as in the game's rules: raise with probability q (random: with probability
u ~ U(0,1), i.e. 1/2); cover iff q*T - (1-q)*T > -stake with T = stake +
2*extra (random: with probability 1/2).
"""

from fractions import Fraction
from functools import lru_cache

import numpy as np

STRATEGIES = ("counting", "non_counting", "random")
MASK = (1 << 64) - 1


def _q(strategy, card, below, n, pack):
    """(numerator, denominator) of q; ``below`` = cards below ``card`` in the
    ``n`` cards of the pack at the start of the hand."""
    if strategy == "counting":
        return below, n - 1
    return card - 1, pack - 1


def _raise_prob(strategy, card, below, n, pack):
    if strategy == "random":
        return Fraction(1, 2)
    num, den = _q(strategy, card, below, n, pack)
    return Fraction(num, den)


def _cover_prob(strategy, card, below, n, pack, extra, ante):
    if strategy == "random":
        return Fraction(1, 2)
    q = Fraction(*_q(strategy, card, below, n, pack))
    stake = 2 * ante
    T = stake + 2 * extra
    return Fraction(1) if q * T - (1 - q) * T > -stake else Fraction(0)


def _hand_ev(nondealer, dealer, cards, pack, max_raise, ante):
    """Exact expected gain of the non-dealer from the pack ``cards``.

    Sums, over every ordered pair (a, d) of distinct cards and every raise
    size e (all equally likely), the gain
    (1 - pr) * s * ante + pr * (pc * s * (ante + e) + (1 - pc) * ante),
    with s = +1 if a > d else -1, pr the raise and pc the cover probability.
    """
    cards = sorted(cards)
    n = len(cards)
    rank = {c: i for i, c in enumerate(cards)}  # cards below c in the pack
    # per dealer card: sum over e of pc * (ante + e), and of (1 - pc)
    covered, declined = {}, {}
    for d in cards:
        pcs = [(_cover_prob(dealer, d, rank[d], n, pack, e, ante), e)
               for e in range(1, max_raise + 1)]
        covered[d] = sum(pc * (ante + e) for pc, e in pcs)
        declined[d] = sum(1 - pc for pc, _ in pcs)
    total = Fraction(0)
    for a in cards:
        pr = _raise_prob(nondealer, a, rank[a], n, pack)
        for d in cards:
            if a == d:
                continue
            s = 1 if a > d else -1
            total += (1 - pr) * s * ante * max_raise + pr * (s * covered[d] + declined[d] * ante)
    return total / (n * (n - 1) * max_raise)


def hand_value(nondealer, dealer, pack=52, max_raise=10, ante=1):
    """Exact expected gain of the non-dealer in one hand from a full pack."""
    return _hand_ev(nondealer, dealer, range(1, pack + 1), pack, max_raise, ante)


def game_value(player, opponent, pack, hands, max_raise, ante):
    """Exact (expected player net, expected sum of non-dealer gains) of a game.

    The player is the non-dealer of hands 0, 2, 4, ...; the pack returns when
    fewer than two cards are left.
    """
    full = frozenset(range(1, pack + 1))

    @lru_cache(maxsize=None)
    def hand(left, nondealer, dealer):
        return _hand_ev(nondealer, dealer, left, pack, max_raise, ante)

    @lru_cache(maxsize=None)
    def rest(left, h):
        """(player net, non-dealer total) expected from hand h on, pack ``left``."""
        if h == hands:
            return Fraction(0), Fraction(0)
        if len(left) < 2:
            left = full
        player_deals = h % 2 == 1
        nd, dl = (opponent, player) if player_deals else (player, opponent)
        ev = hand(left, nd, dl)
        net = -ev if player_deals else ev
        n = len(left)
        fut_net = Fraction(0)
        fut_nd = Fraction(0)
        for a in left:
            for d in left:
                if a != d:
                    x, y = rest(left - {a, d}, h + 1)
                    fut_net += x
                    fut_nd += y
        pairs = n * (n - 1)
        return net + fut_net / pairs, ev + fut_nd / pairs

    return rest(full, 0)


class Xoshiro:
    """xoshiro256** in plain Python, seeded as the package seeds a chunk."""

    def __init__(self, seed, chunk):
        state = np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(4, np.uint64)
        self.s = [int(x) for x in state]
        if not any(self.s):
            self.s[0] = 1

    @staticmethod
    def _rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK

    def next(self):
        s = self.s
        result = (self._rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self._rotl(s[3], 45)
        return result

    def uniform(self):
        return (self.next() >> 11) * 2.0 ** -53


def play_games(player, opponent, games, seed, chunk_size, max_raise=10, ante=1, start=100,
               hands=52, pack=52):
    """Play games exactly as the kernel documents, in plain Python.

    Returns lists (net, nd_gain, played), one entry per game.
    """
    net, nd_gain, played = [], [], []
    rng = None
    for g in range(games):
        if g % chunk_size == 0:
            rng = Xoshiro(seed, g // chunk_size)
        money = {"a": start, "b": start}
        left = []
        total = 0
        h = 0
        while h < hands:
            if min(money.values()) < ante:
                break
            if len(left) < 2:
                left = list(range(1, pack + 1))
            a_deals = h % 2 == 1
            nd_side, d_side = ("b", "a") if a_deals else ("a", "b")
            strat = {"a": player, "b": opponent}
            n = len(left)
            start_pack = sorted(left)
            # draw without replacement: the kernel's swap-with-last scheme
            i = int(rng.uniform() * n)
            c_nd = left[i]
            left[i] = left[n - 1]
            j = int(rng.uniform() * (n - 1))
            c_d = left[j]
            left[j] = left[n - 2]
            left = left[:n - 2]
            extra = 1 + int(rng.uniform() * max_raise)
            u_prop, u_raise, u_cover = rng.uniform(), rng.uniform(), rng.uniform()
            below_nd = sum(1 for c in start_pack if c < c_nd)
            below_d = sum(1 for c in start_pack if c < c_d)
            extra = min(extra, min(money.values()) - ante)
            s_nd, s_d = strat[nd_side], strat[d_side]
            if s_nd == "random":
                raises = u_raise < u_prop
            else:
                num, den = _q(s_nd, c_nd, below_nd, n, pack)
                raises = u_raise * den < num
            if raises and extra > 0:
                if s_d == "random":
                    covers = u_cover < 0.5
                else:
                    covers = _cover_prob(s_d, c_d, below_d, n, pack, extra, ante) == 1
                gain = (ante + extra) * (1 if c_nd > c_d else -1) if covers else ante
            else:
                gain = ante if c_nd > c_d else -ante
            money[nd_side] += gain
            money[d_side] -= gain
            total += gain
            h += 1
        net.append(money["a"] - start)
        nd_gain.append(total)
        played.append(h)
    return net, nd_gain, played
