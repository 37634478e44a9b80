"""Which strategy-card rule plays most like you (``designer play --stats``).

The card of a design (:func:`designer.strategy.card.strategy_card`)
holds the best rule a person can remember at each size. Given the human's
recorded decisions (:mod:`designer.play.stats`: the mover's view and the
action taken), each distinct rule of the card, and each classic rule it
measures (max-score, hold at 20, ...), is asked what it would have done at
every one of those positions; the rule with the largest share of
agreement is the human's closest rule (ties go to the smaller rule). The
card's scores are cached in the user data directory, so only the first
``--stats`` of a design searches.
"""

import hashlib

from designer.errors import DesignError


def game_of(params):
    """The game a statistics entry's ``params`` name (None if they no longer
    name a valid game)."""
    from designer.games import load_game

    p = dict(params)
    family = p.pop("family", None)
    try:
        return load_game(family, **p)
    except (DesignError, TypeError):
        return None


def agreement(game, rule, moves):
    """Share of ``moves`` (``[*view, action]``) where ``rule`` takes the same action."""
    from designer.policies.rule import RulePolicy

    policy = RulePolicy(game, rule)
    ask = policy.draws if game.family == "deck" else policy.rolls
    same = sum(bool(ask(*m[:-1])) == (m[-1] != "hold") for m in moves)
    return same / len(moves)


def closest_rule(game, moves, max_size=4, progress=None):
    """The card rule (or classic rule measured on the card) agreeing with
    most of ``moves``.

    Returns
    -------
    (CardRow, float) or None
        The card's row of that rule and its agreement; None for a game
        without a strategy card (Zombie Dice, wagering, more than two
        players, the rounds ending) or without moves.
    """
    from designer.play.stats import data_dir, design_key
    from designer.strategy.card import check_game, strategy_card

    if not moves or game.family not in ("deck", "dice"):
        return None
    try:
        check_game(game)
    except DesignError:
        return None
    digest = hashlib.sha1(design_key(game).encode()).hexdigest()[:12]
    cache = data_dir() / f"strategy-{digest}.jsonl"
    cache.parent.mkdir(parents=True, exist_ok=True)
    card = strategy_card(game, max_size=max_size, cache=str(cache), progress=progress)
    from designer.policies.rules import Rule

    best = None
    seen = set()
    # the card's rules first (smallest first: a tie goes to the smaller), then
    # the classic rules the card measures (max-score: a card whose best
    # short rules are arithmetic no longer lists it, and many people play it)
    for row in [*card.rows, *(r for _, r in card.references)]:
        if row is None or row.text in seen:
            continue
        seen.add(row.text)
        share = agreement(game, Rule.parse(game.family, row.text), moves)
        if best is None or share > best[1]:
            best = (row, share)
    return best
