"""Doubling Pig: Pig in which a 6 doubles the rest of the turn.

Source: this project's own variant of Pig, made up to show a game no
rules file can describe (the points of a face depend on what the turn
rolled before it).
Rules assumed: two players, one six-sided die. A turn carries a
multiplier, 1 when the turn starts. A 1 loses the turn total and ends the
turn. Any other face adds its pips times the multiplier to the turn total;
a 6 then doubles the multiplier, up to 8. After each roll the mover rolls
again or banks the turn total (banking at 0 passes). The first to 100
banked points wins.

    designer rules check rules:doubling_pig.py
    designer solve rules:doubling_pig.py
"""

from fractions import Fraction

from designer.engine.pyrules import bust, go

name = "Doubling Pig"
goal = 100

SIXTH = Fraction(1, 6)


def start():
    return 1            # the turn state: the multiplier


def choices(m):
    roll = [(SIXTH, bust())]
    roll += [(SIXTH, go(face * m, m)) for face in (2, 3, 4, 5)]
    roll.append((SIXTH, go(6 * m, min(2 * m, 8))))
    return {"roll": roll}


def describe(m):
    return f"multiplier {m}"


def features(m):
    return {"multiplier": m}   # what a rule:/py: policy can read of the state
