"""Replay deck and dice games under fixed policies by simulation.

Used to check the exact solvers (a simulated match must agree with the exact
win probability within its confidence interval) and to play out policies.
Random numbers: numba's generator seeded once per call with ``seed``.
"""

import numpy as np

from designer._jit import kernel
from designer.games.deck_draw import draw_item


@kernel
def _replay_deck(bad, good, goal, komi, T0, T1, n_games, seed, out):
    np.random.seed(seed)
    wins0 = 0
    actions = 0
    for _ in range(n_games):
        score0 = 0
        score1 = komi
        w = 0
        c = 0
        mover = 0
        while True:
            i = score0 if mover == 0 else score1
            j = score1 if mover == 0 else score0
            T = T0 if mover == 0 else T1
            limit = T[i, j, w, c]
            k = 0
            banked = False
            while True:
                actions += 1  # a draw
                was_bad, w, c = draw_item(bad, good, w, c)
                if was_bad:
                    break
                k += 1
                if i + k >= goal or k >= limit:
                    actions += 1  # the hold
                    banked = True
                    break
            if banked:
                if mover == 0:
                    score0 += k
                else:
                    score1 += k
                if i + k >= goal:
                    if mover == 0:
                        wins0 += 1
                    break
            mover = 1 - mover
    out[0] = wins0
    out[1] = actions


def replay_deck(game, table0, table1, n_games, seed=0):
    """Simulate ``n_games`` of ``game`` (its komi) between two compact policies.

    Returns
    -------
    (float, float)
        Share of games won by the first mover (who plays ``table0``) and the
        mean number of actions per game.
    """
    out = np.zeros(2, dtype=np.int64)
    _replay_deck(game.bad, game.good, game.goal, game.komi, table0, table1, int(n_games),
                 int(seed), out)
    return out[0] / n_games, out[1] / n_games


@kernel
def _replay_dice(faces, bust, goal, komi, R0, R1, n_games, seed, out):
    np.random.seed(seed)
    wins0 = 0
    actions = 0
    for _ in range(n_games):
        score = np.array([0, komi])
        mover = 0
        while True:
            i = score[mover]
            j = score[1 - mover]
            R = R0 if mover == 0 else R1
            k = 0
            while True:
                if i + k >= goal or not R[i, j, k]:
                    actions += 1  # the hold
                    score[mover] += k
                    break
                actions += 1  # a roll
                face = np.random.randint(1, faces + 1)
                if bust[face]:
                    k = 0
                    break
                k += face
            if score[mover] >= goal:
                if mover == 0:
                    wins0 += 1
                break
            mover = 1 - mover
    out[0] = wins0
    out[1] = actions


def replay_dice(game, roll0, roll1, n_games, seed=0):
    """Simulate ``n_games`` of a dice game between two roll tables.

    Returns the first mover's win share and the mean actions per game.
    """
    bust = np.zeros(game.faces + 1, dtype=np.bool_)
    bust[list(game.bust_faces)] = True
    out = np.zeros(2, dtype=np.int64)
    _replay_dice(game.faces, bust, game.goal, game.komi, roll0, roll1, int(n_games), int(seed), out)
    return out[0] / n_games, out[1] / n_games
