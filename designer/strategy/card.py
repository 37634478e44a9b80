"""The strategy card of a game: the best rule of each size, measured exactly.

:func:`strategy_card` runs the search (:mod:`designer.strategy.search`),
keeps for each size ``0..max_size`` the best rule of at most that size (the
Pareto front of size against exact average win rate, read size by size),
and measures each kept rule: exact win rate against the optimal player at
each seat (as first, as second, ...) and on average, agreement with the
optimal policy (two players), and the share of the baseline's gap to
optimal play that it closes:

.. math::

    \\text{closed} = \\frac{w_{rule} - w_{base}}{1/N - w_{base}}

(optimal play at every one of the ``N`` seats averages ``1/N``). The baseline is max-score for
deck and dice games (for a rules game the engine's ``max-score``, which is
not a rule of the grammar) and the slides' ``fixed_hold_at`` for Zombie Dice.
"""

from dataclasses import asdict, dataclass

from designer.errors import ParameterError
from designer.strategy.evaluate import SeatWins, known_rules, make_evaluator
from designer.strategy.search import best_by_size, search_rules

#: Largest size the command searches.
MAX_SIZE = 80
#: Largest --max-ops (operations per decision) taken.
MAX_OPS = 1000


@dataclass(frozen=True)
class CardRow(SeatWins):
    """One size of the card (see the module docstring)."""

    size: int
    rule_size: int
    ops: int
    rule: str
    formula: str
    text: str
    seat_win: tuple
    agreement: float
    gap_closed: float

    def to_dict(self):
        return {**asdict(self), "seat_win": list(self.seat_win),
                "win_as_first": self.win_as_first, "win_as_second": self.win_as_second,
                "win_average": self.win_average}


@dataclass(frozen=True)
class Card:
    """The card of one game: ``rows`` by size, the ``references`` (classic
    rules measured the same way) and the search statistics."""

    game: object
    rows: tuple
    references: tuple
    baseline: str
    stats: dict

    def rules(self):
        """The distinct rules of the front (smallest first), as Rule objects."""
        from designer.policies.rules import Rule

        seen, out = set(), []
        for r in self.rows:
            if r is not None and r.text not in seen:
                seen.add(r.text)
                out.append(Rule.parse(self.game.family, r.text, _extra(self.game)))
        return out


def _extra(game):
    """A rules game's own feature names (none for the families)."""
    rules = getattr(game, "rules", None)
    return rules.model.feature_names if rules is not None else ()


def closed(win_average, base, players):
    """The share of the baseline's gap to optimal play (an average of
    ``1 / players``) that a rule averaging ``win_average`` closes."""
    fair = 1.0 / players
    return (win_average - base) / (fair - base) if base < fair else 0.0


def _row(size, found, ev, base):
    sentence = found.rule.sentence(getattr(ev.game, "ending", "race"), len(found.seat_win))
    return CardRow(size, found.size, found.rule.ops, sentence, found.rule.formula(),
                   found.rule.text(), found.seat_win, ev.agreement(found.rule),
                   closed(found.win_average, base, len(found.seat_win)))


def check_game(game):
    """Refuse, in one line, a game the rule search cannot score exactly.

    Raises
    ------
    DesignError
        A game the strategy search does not take (see
        :data:`designer.support.SUPPORT`): wagering games, full three-colour
        Zombie Dice, or more than two players under the rounds ending.
    """
    from designer.support import check

    check("strategy", game)


def strategy_card(game, *, max_size=8, trials=60, jobs=2, seed=0, cache=None, progress=None,
                  evaluator=None, induce=True, arith=True, max_ops=None):
    """Search and measure the best rules of ``game`` up to ``max_size``.

    Parameters are those of :func:`~designer.strategy.search.search_rules`.

    Returns
    -------
    Card

    Raises
    ------
    DesignError
        A game with no exact solver (wagering games), or ``max_size`` out of
        ``0..MAX_SIZE``.
    """
    check_game(game)
    if isinstance(max_size, bool) or not isinstance(max_size, int) or not (
            0 <= max_size <= MAX_SIZE):
        raise ParameterError("--max-size", max_size, f"an integer 0..{MAX_SIZE}")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ParameterError("--trials", trials, "an integer >= 1")
    if max_ops is not None and (isinstance(max_ops, bool) or not isinstance(max_ops, int)
                                or not 0 <= max_ops <= MAX_OPS):
        raise ParameterError("--max-ops", max_ops, f"an integer 0..{MAX_OPS}")
    ev = evaluator or make_evaluator(game)
    refs = known_rules(game.family) if game.family != "rules" else {}
    found, stats = search_rules(game, max_size=max_size, trials=trials, jobs=jobs, seed=seed,
                                cache=cache, evaluator=ev, progress=progress,
                                extra=list(refs.values()), induce=induce, arith=arith,
                                max_ops=max_ops)
    by_text = {f.rule.text(): f for f in found}
    references = {name: by_text[r.text()] for name, r in refs.items()}
    baseline = "fixed_hold_at" if game.family == "zombie" else "max-score"
    if game.family == "rules":  # max-score is the engine's policy, not a rule
        ms = ev.max_score()
        base = ms["win_average"] if ms is not None else 1.0 / game.players
    else:
        base = references[baseline].win_average
    rows, memo = [], {}
    for s, f in enumerate(best_by_size(found, max_size)):
        if f is None:
            rows.append(None)
            continue
        key = f.rule.text()
        if key not in memo:
            memo[key] = _row(s, f, ev, base)
        rows.append(CardRow(**{**asdict(memo[key]), "size": s}))
    ref_rows = tuple((name, _row(f.size, f, ev, base)) for name, f in references.items())
    if game.family == "rules" and ms is not None:
        ref_rows = (("max-score", CardRow(0, 0, 0, "Bank the most points on average this turn.",
                                          "max-score", "max-score", tuple(ms["seat_win"]),
                                          None, 0.0)),)
    return Card(game, tuple(rows), ref_rows, baseline, stats)


def front_png(card):
    """The Pareto front (size against exact average win rate) as PNG bytes."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in card.rows if r is not None]
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=120)
    ax.step([r.size for r in rows], [100 * r.win_average for r in rows], where="post",
            marker="o", label="best rule found (size <= x)")
    for name, r in card.references:
        ax.plot([r.rule_size], [100 * r.win_average], "s", label=name)
    players = getattr(card.game, "players", 2)
    ax.axhline(100 / players, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("rule size (constants + conditions)")
    ax.set_ylabel("exact win % against optimal " + ("(both seats)" if players == 2
                                                    else f"(mean of {players} seats)"))
    ax.set_title(f"{card.game.name}: human-playable rules")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def front_figure(card, path):
    """Save the Pareto front (:func:`front_png`) to ``path``."""
    from pathlib import Path

    Path(path).write_bytes(front_png(card))
