"""The four human Zombie Dice policies, re-derived from the game's rules for the tests.

Each policy is restated as a target: "keep rolling while the turn total
(or the banked total ``i2 = i + b``) is below this", chosen by the situation
the rules describe (an endgame once a score reaches 13, a trailing player 2
chasing a leader, a tie at 13 or more, the number of shotguns ``s``). It is
written from the rules' meaning, not copied from the package's code (which
transcribes the policies' pseudocode line by line), so the two can be compared.
True = roll.
"""

GOAL = 13                  # the all-yellow goal the rules are written for
BRAINS_BY_SHOTGUNS = {0: 6, 1: 3, 2: 1}   # h[s]: the tie-round targets on b
SAFE_BRAINS = {1: 4, 2: 1}  # with s shotguns (s >= 1), stop at this many brains


def _chase(i2, j, s):
    """Player 2 behind a leader at 13+: roll to pass the leader; with one
    shotgun left to lose (s == 2) only strictly below a tie, else up to a tie
    (so that a tie is passed too)."""
    return i2 < j + (1 if s < 2 else 0)


def fixed_hold_at(p, i, j, b, s):
    """Roll while no shotgun is showing; with one, stop at 4 brains; with two,
    stop at 1. Player 2 whose opponent has 13 or more rolls while behind."""
    if p == 2 and j >= GOAL and i + b < j:
        return True
    return s == 0 or b < SAFE_BRAINS[s]


def minh(p, i, j, b, s):
    """fixed_hold_at, but with one shotgun once the opponent has 8 or more,
    roll on to 13 banked or 3 past the opponent, whichever is more."""
    if s == 1 and j >= 8:
        return i + b < max(GOAL, j + 3)
    return fixed_hold_at(p, i, j, b, s)


def llano(p, i, j, b, s):
    """Llano: an endgame rule once either score is 13+, else targets by seat."""
    i2 = i + b
    if max(i, j) >= GOAL:                                  # endgame
        if i == j:                                          # tied at 13+
            return b < (BRAINS_BY_SHOTGUNS[s] if p == 1 else 1)
        if p == 2 and i < j:                                # trailing player 2
            return _chase(i2, j, s)
        return False                                        # ahead (or p1 behind): hold
    if s == 0:
        target = max(GOAL, j + 9) if p == 1 else GOAL
        return i2 < target
    if s == 1:
        near_end = max(i, j) >= 10
        return i2 < GOAL if near_end else b < SAFE_BRAINS[1]
    return b < SAFE_BRAINS[2]


def neller(p, i, j, b, s):
    """Neller: per seat, then a shared rule for one or two shotguns in which
    "near the end" means a score of 8+ (player 1) or 10+ (player 2)."""
    i2 = i + b
    if p == 1:
        if i >= GOAL and i == j:                            # tie round
            return b < BRAINS_BY_SHOTGUNS[s]
        if s == 0:
            return i2 < max(GOAL, j + 8)
        near = 8
    else:
        if j >= GOAL:                                       # last chance against a 13+
            return _chase(i2, j, s)
        if i >= GOAL and i > j:
            return False
        if s == 0:
            return True
        near = 10
    if s == 1:
        return i2 < GOAL if max(i, j) >= near else b < SAFE_BRAINS[1]
    return b < SAFE_BRAINS[2]


POLICIES = {"fixed_hold_at": fixed_hold_at, "minh": minh, "llano": llano, "neller": neller}
