"""The strategy card of a study's recommended design, as a report section.

The card (:func:`designer.strategy.card.strategy_card`) lists the
best rule a person can remember at each size, each measured exactly against
the optimal player. The report searches it for the recommended design at its
komi; every score is kept in a JSON-lines file beside the study's results
store (``strategy-<design>.jsonl``), so writing the report again, or after
an interruption, evaluates nothing twice.
"""

import hashlib

import pandas as pd

from designer.report.content import Figure, Section, Table, Text, row_game
from designer.report.terminal import game_words

#: Families whose designs have a strategy search (deck, dice and all-yellow
#: zombie games; :func:`designer.strategy.card.check_game` says why not).
CARD_FAMILIES = ("deck", "dice", "zombie")

#: Default largest rule size on the report's card: the sizes people carry in
#: their head (Fowl Play's size-4 rule already closes most of max-score's gap).
DEFAULT_SIZE = 4


def _pct(x, digits=2):
    return f"{100 * x:.{digits}f}%"


def cache_path(spec, game):
    """The score cache of ``game``'s search, beside the study's store: one
    file per design and komi (the scores depend on nothing else)."""
    from designer.play.stats import design_key

    digest = hashlib.sha1(design_key(game).encode()).hexdigest()[:12]
    return spec.store_path.parent / f"strategy-{digest}.jsonl"


def card_section(spec, fam, best, max_size=DEFAULT_SIZE, progress=None):
    """The report section "Strategy card" for the recommended row ``best``.

    Returns
    -------
    Section or None
        None for a family without rule search (wagering games) or a game
        the search does not cover (:func:`~designer.strategy.card.check_game`).
    """
    from designer.errors import DesignError
    from designer.strategy.card import check_game, front_png, strategy_card

    if spec.family not in CARD_FAMILIES:
        return None
    game = row_game(fam, best, int(best.get("komi", 0)))
    try:
        check_game(game)
    except DesignError:
        return None
    card = strategy_card(game, max_size=max_size, cache=str(cache_path(spec, game)),
                         progress=progress)
    rows, seen = [], set()
    for r in card.rows:
        if r is None or r.text in seen:
            continue
        seen.add(r.text)
        rows.append(r)
    data = pd.DataFrame([r.to_dict() for r in rows])
    shown = pd.DataFrame({
        "Size": [r.rule_size for r in rows],
        "Operations": [r.ops for r in rows],
        "Rule": [r.rule for r in rows],
        "Wins moving first": [_pct(r.win_as_first) for r in rows],
        "Wins moving second": [_pct(r.win_as_second) for r in rows],
        "Wins on average": [_pct(r.win_average) for r in rows],
        "Same move as optimal": [_pct(r.agreement, 1) for r in rows],
        f"Closes {card.baseline}'s gap": [_pct(r.gap_closed, 0) for r in rows]})
    refs = pd.DataFrame([dict(r.to_dict(), name=n) for n, r in card.references])
    refs_shown = pd.DataFrame({
        "Rule": [n for n, _ in card.references],
        "Size": [r.rule_size for _, r in card.references],
        "In words": [r.rule for _, r in card.references],
        "Wins on average": [_pct(r.win_average) for _, r in card.references]})
    base = dict(card.references)[card.baseline]
    best_rule = rows[-1]
    blocks = [
        Text(f"Rules a player can remember for the recommended design ({game_words(game)}), "
             f"each the best found of its size (constants plus conditions, up to "
             f"{max_size}; the operations a player does to decide are counted apart), "
             f"with its exact chance of beating a perfect player, seats "
             "alternated. A perfect player wins 50% against itself."),
        Text(f"Best rule on the card (size {best_rule.rule_size}): {best_rule.rule} It wins "
             f"{_pct(best_rule.win_average)} against a perfect player, against "
             f"{_pct(base.win_average)} for {card.baseline}.", strong=True,
             id="strategy-card-best"),
        Table("strategy_card", "Strategy card", shown, data),
        Table("strategy_references", "Classic rules, measured the same way", refs_shown, refs),
        Figure("strategy_front", "Rule size against exact win rate", front_png(card),
               data[["size", "rule_size", "win_average"]],
               "The best rule found at each size (its win rate against a perfect player, "
               "seats alternated), and the classic rules as squares."),
    ]
    return Section("Strategy card", blocks)
