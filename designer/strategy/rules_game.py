"""The rule search over a rules game: its shapes, its scoring, its classic rule.

A rules game (a rules file, a Python rules module or a shipped example) has
no family kernels: a rule is scored by the engine's exact match
(:func:`designer.engine.match.match_model`, the rule turned into a decision
table by :mod:`designer.engine.policy_tables`) against the engine's optimal
play, solved once. The shapes searched are the dice family's (hold at a
turn total, keep pace with the opponent, roll on near the end of the race)
plus, for each of the game's own turn-state features (``dice_left``,
``w_rem``, ``s``, ...), a threshold that depends on it:
``FEATURE <= x -> below a; below b``; a deck (``w_rem`` and ``c_rem``) also
gets max-score's one-draw comparison, ``while c_rem > w_rem * k`` (with kinds
of items, the points left: ``while pts_rem > w_rem * k``), alone and after an
end-of-race clause. Constants that are points move in
steps of the game's unit (50 in Farkle).

The baseline measured beside the search is ``max-score``, as for deck and
dice games: the most points banked on average this turn at every state
(Pig's "hold at 20"; in Farkle a threshold that depends on the dice left).
It is not itself a rule of the grammar (in general it takes the one-turn
expectations to play), so it has no size on the card.
"""

import hashlib
import json

from designer.engine._match_kernels import MAX_SCORE, OPTIMAL, TABLE
from designer.engine.match import RulesPolicy, match_model, max_score_horizon
from designer.strategy.evaluate import Scoring, scores
from designer.strategy.templates import Template

#: Most turn-state features given a shape of their own (the first ones).
FEATURE_SHAPES = 3


def _threshold_top(game):
    """The largest threshold searched, in units: twice the one-turn optimum
    (at least 10 units), at most the goal."""
    horizon, _ = max_score_horizon(game.rules.model)
    top = 2 * (horizon - 1) if horizon is not None else game.rules.goal
    return max(2, min(game.rules.goal, max(top, 10)))


def _t(game, text, **ranges):
    """A template of ``game``; slots ``a b c e`` are points (in units)."""
    rng = tuple((k, lo, hi) for k, (lo, hi) in ranges.items())
    scaled = tuple(k for k in ranges if k in "abce")
    return Template("rules", text, rng, (), game.rules.model.feature_names, game.unit, scaled)


def rules_templates(game):
    """The shapes searched for a rules game, ranges fitted to it."""
    G = game.rules.goal
    t = _threshold_top(game)
    out = [
        _t(game, "below {a}", a=(1, t)),
        _t(game, "pace {a} {d}", a=(1, t), d=(1, 40)),
        _t(game, "max_ij >= {e} -> roll; below {b}", e=(1, max(1, G - 1)), b=(1, t)),
        _t(game, "opp_need <= {e} -> roll; below {b}", e=(1, G), b=(1, t)),
        _t(game, "max_ij >= {e} -> roll; pace {b} {d}", e=(1, max(1, G - 1)), b=(1, t),
           d=(1, 40)),
    ]
    if game.ending == "rounds":
        # equal turns: the last seat of a final round chases the leader
        # (a fixed seat 2 banks as soon as it leads)
        out += [
            _t(game, "opp_need <= 0 -> roll; below {b}", b=(1, t)),
            _t(game, "opp_need <= 0 -> roll; pace {b} {d}", b=(1, t), d=(1, 40)),
        ]
    model = game.rules.model
    if {"w_rem", "c_rem"} <= set(model.feature_names):
        # a deck: max-score draws while the points left (good items, or the
        # kinds' points) outweigh the bad items left times the turn total (in
        # points: k / unit items)
        u = game.unit
        left = "pts_rem" if "pts_rem" in model.feature_names else "c_rem"
        ratio = f"{left} * {u} > w_rem * k" if u > 1 else f"{left} > w_rem * k"
        out += [
            _t(game, f"while {ratio}"),
            _t(game, f"opp_need <= {{e}} -> roll; while {ratio}", e=(1, G)),
            _t(game, f"max_ij >= {{e}} -> roll; while {ratio}", e=(1, max(1, G - 1))),
        ]
    shaped = 0
    for f, name in enumerate(model.feature_names):
        lo, hi = int(model.features[:, f].min()), int(model.features[:, f].max())
        if lo == hi or shaped >= FEATURE_SHAPES:
            continue
        shaped += 1
        x = dict(x=(lo, hi - 1))
        out += [
            _t(game, f"{name} <= {{x}} -> below {{a}}; below {{b}}", **x, a=(1, t), b=(1, t)),
            _t(game, f"{name} <= {{x}} -> below {{a}}; pace {{b}} {{d}}", **x, a=(1, t),
               b=(1, t), d=(1, 40)),
            _t(game, f"opp_need <= {{e}} -> roll; {name} <= {{x}} -> below {{a}}; below {{b}}",
               e=(1, G), **x, a=(1, t), b=(1, t)),
        ]
    return out


def game_key(game):
    """A stable key of a rules game for the search's cache: its settings and
    a fingerprint of its turn model (an edited rules file is another game)."""
    m = game.rules.model
    h = hashlib.sha1()
    for a in (m.cont_start, m.out_start, m.out_prob, m.out_kind, m.out_points, m.out_next,
              m.out_effect, m.out_penalty, m.opt_start, m.opt_gain, m.opt_next, m.handover,
              m.features):
        h.update(a.tobytes())
    h.update(repr((m.forced_first, m.min_bank, m.floor, m.feature_names)).encode())
    return json.dumps({"family": "rules", **game.describe(), "start": list(game.start),
                       "players": game.players, "ending": game.ending,
                       "model": h.hexdigest()}, sort_keys=True, default=list)


def _seat_rounds_solve(game):
    """The optimal seats' solve of a 3-4 seat rules game under the rounds
    ending at the cap every rule shares, kept between rules
    (:func:`designer.engine.seat_rounds_match.seat_rounds_solve`); refused
    in one line (by the evaluation itself) where a rule at every seat would
    not fit in memory or time."""
    from designer.engine.seat_rounds_match import seat_rounds_solve

    r = game.rules
    return seat_rounds_solve(r.model, r.goal, game.players, RulesPolicy(TABLE, "a rule"),
                             ties=r.ties, cap=game.cap, name=game.name)


def rule_seconds(game):
    """The estimated seconds of scoring one rule of ``game`` where it is
    long (3-4 seats under the rounds ending: one evaluation per seat over
    the kept solve, :func:`designer.analysis.rules_compare.compare_seconds`
    without the solve), else None."""
    if getattr(game, "family", None) != "rules" or not game.seat_rounds:
        return None
    from designer.analysis.rules_compare import compare_seconds

    total = compare_seconds(game, "rule:below 1")  # the solve and one evaluation per seat
    return None if total is None else total * game.players / (game.players + 1)


class RulesEvaluator(Scoring):
    """Scores rules of one rules game exactly against its optimal player
    (the engine's solve, computed once).

    With 3 or 4 players a rule is scored at each seat in turn, the other
    seats playing the N-player optimum (the rule reads ``j`` as the highest
    score of the other seats): in the race by
    :func:`designer.analysis.rules_compare.race_seat_wins`, under the
    rounds ending (either tie rule) by
    :meth:`designer.engine.seat_rounds_match.SeatRoundsSolve.profile` over
    one solve kept between rules; its agreement with optimal play is not
    defined there (optimal play reads every seat's score) and is None.

    Under the rounds ending a rule is matched by both scores up to the score
    cap (:func:`designer.engine.rounds_match.match_rounds_model`, as
    ``designer compare`` matches it: a fixed seat 2 banks a total that
    wins), against the rounds solve at that cap; its agreement counts each
    seat's positions of the open rounds
    (:func:`designer.engine.agreement.rounds_agreement`).

    Scores are computed one at a time (the match runs on every core
    itself)."""

    family = "rules"

    def __init__(self, game, solution=None):
        self.game = game
        r = game.rules
        self._opt = RulesPolicy(OPTIMAL, "optimal")
        self.rounds = game.ending == "rounds"
        self.players = game.players
        if self.players > 2:
            from designer.analysis.rules_compare import seats_race_solution

            if self.rounds:
                self.solution = _seat_rounds_solve(game)
                return
            # refused in one line if the solve, or a rule's table at every
            # seat, would not fit in memory
            self.solution = seats_race_solution(game, RulesPolicy(TABLE, "a rule"), solution)
            return
        if self.rounds:
            from designer.engine.rounds import solve_rounds_model
            from designer.engine.rounds_match import table_cap

            cap = table_cap(r.model, r.goal)
            if solution is not None and solution.cap == cap:
                pass
            elif r.model.falls:  # busts lower a banked score: the iterated solve
                from designer.engine.rounds_falls import solve_rounds_falls

                solution = solve_rounds_falls(r.model, r.goal, ties=r.ties, cap=cap,
                                              lengths=False)
            else:
                solution = solve_rounds_model(r.model, r.goal, ties=r.ties, cap=cap)
        elif solution is None:
            from designer.engine.solve import solve_model

            solution = solve_model(r.model, r.goal, 0)
        self.solution = solution

    def score(self, rule):
        """The scores of ``rule`` against optimal play
        (:func:`~designer.strategy.evaluate.scores`; :class:`ConvergenceError`
        for a rule under which a turn never ends)."""
        return self._against_optimal(RulesPolicy(TABLE, f"rule:{rule.text()}", source=rule))

    def _against_optimal(self, pol):
        r, g = self.game.rules, self.game
        if self.players > 2 and self.rounds:
            if pol.kind == MAX_SCORE:  # its turns need a higher cap: a solve of its own
                from designer.engine.seat_rounds_match import seat_rounds_profile

                prof = seat_rounds_profile(r.model, r.goal, g.players, pol, ties=r.ties,
                                           cap=g.cap, name=g.name, unit=g.unit)
            else:
                prof = self.solution.profile(pol, g.unit)
            return scores(*(float(prof.seat_win(s, g.start)[s]) for s in range(g.players)))
        if self.players > 2:
            from designer.analysis.rules_compare import race_seat_wins

            return scores(*race_seat_wins(g, pol, self.solution)[1])
        if self.rounds:
            from designer.engine.rounds_match import match_rounds_model

            m = match_rounds_model(r.model, r.goal, pol, self._opt, ties=r.ties,
                                   solution=self.solution, bank_wins=True, name=g.name,
                                   unit=g.unit)
        else:
            m = match_model(r.model, r.goal, pol, self._opt, solution=self.solution,
                            name=g.name, unit=g.unit)
        return scores(m.win_as_first(g.start), m.win_as_second(g.start))

    def agreement(self, rule):
        """The share of decision positions where ``rule`` acts as optimal
        play (:mod:`designer.engine.agreement`; under the rounds ending from
        one more match, which records optimal play's decisions); None with
        3 or 4 players."""
        from designer.engine.agreement import agreement, rounds_agreement

        if self.players > 2:
            return None
        r, g = self.game.rules, self.game
        pol = RulesPolicy(TABLE, f"rule:{rule.text()}", source=rule)
        if self.rounds:
            from designer.engine.rounds_match import match_rounds_model

            m = match_rounds_model(r.model, r.goal, pol, self._opt, ties=r.ties,
                                   solution=self.solution, bank_wins=True, record=True,
                                   name=g.name, unit=g.unit)
            return rounds_agreement(r.model, r.goal, pol, self._opt, m, unit=g.unit)[0]
        return agreement(r.model, r.goal, pol, self._opt, unit=g.unit, solution=self.solution)[0]

    def max_score(self):
        """``max-score``'s exact scores against optimal play (module
        docstring), or None for a game where it is not defined."""
        if max_score_horizon(self.game.rules.model)[0] is None:
            return None
        return self._against_optimal(RulesPolicy(MAX_SCORE, "max-score"))


__all__ = ["RulesEvaluator", "game_key", "rule_seconds", "rules_templates"]
