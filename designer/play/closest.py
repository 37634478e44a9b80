"""Which strategy-card rule plays most like you (``designer play --stats``).

The card of a design (:func:`designer.strategy.card.strategy_card`)
holds the best rule a person can remember at each size. Given the human's
recorded decisions (:mod:`designer.play.stats`: the mover's view and the
action taken), each distinct rule of the card, and each classic rule it
measures (max-score, hold at 20, ...), is asked what it would have done at
every one of those positions; the rule with the largest share of
agreement is the human's closest rule (ties go to the smaller rule). The
card's scores are cached in the user data directory
(``strategy-<digest>.jsonl``, the search's own cache), and so are the rules
a search found (``strategy-<digest>-closest<size>.json``): only the first
``--stats`` of a design searches, later ones only count agreements.
"""

import hashlib
import json
import math
import os

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
    key = design_key(game)
    digest = hashlib.sha1(key.encode()).hexdigest()[:12]
    cache = data_dir() / f"strategy-{digest}.jsonl"
    cache.parent.mkdir(parents=True, exist_ok=True)
    found = cache.with_name(f"strategy-{digest}-closest{max_size}.json")
    rows = _saved_rows(found, key, game.family)
    if rows is None:
        card = strategy_card(game, max_size=max_size, cache=str(cache), progress=progress)
        rows = _candidates(card)
        _save_rows(found, key, rows)
    from designer.policies.rules import Rule

    best = None
    for row in rows:
        share = agreement(game, Rule.parse(game.family, row.text), moves)
        if best is None or share > best[1]:
            best = (row, share)
    return best


def _candidates(card):
    """The rows a human's moves are compared with: the card's rules first
    (smallest first: a tie goes to the smaller), then the classic rules the
    card measures (max-score: a card whose best short rules are arithmetic
    no longer lists it, and many people play it), each text once."""
    rows, seen = [], set()
    for row in [*card.rows, *(r for _, r in card.references)]:
        if row is not None and row.text not in seen:
            seen.add(row.text)
            rows.append(row)
    return rows


def _saved_rows(path, key, family):
    """The candidate rows an earlier search of design ``key`` (a game of
    ``family``) saved, or None
    when there are none to trust (no file, another design or format, a
    damaged file): the search then runs again (its scores come from its own
    cache) and the file is written afresh."""
    from designer.policies.rules import Rule
    from designer.strategy.card import CardRow

    try:
        data = json.loads(path.read_text())
        if data.get("design") != key or data.get("version") != 1:
            return None
        rows = [CardRow(**{**r, "seat_win": tuple(r["seat_win"])}) for r in data["rows"]]
        if not rows or not all(map(_sound, rows)):
            return None
        for r in rows:  # every rule must still read as one of the game's
            Rule.parse(family, r.text)
    except (OSError, ValueError, TypeError, KeyError, AttributeError, OverflowError,
            RecursionError, DesignError):
        return None
    return rows


def _number(x, lo=-math.inf, hi=math.inf):
    return (isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            and lo <= x <= hi)


def _sound(row):
    """Whether a saved row holds what the statistics table prints: counts,
    texts, win rates in 0..1."""
    return (all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                for v in (row.size, row.rule_size, row.ops))
            and all(isinstance(v, str) for v in (row.rule, row.formula, row.text))
            and len(row.seat_win) >= 2 and all(_number(w, 0.0, 1.0) for w in row.seat_win)
            and all(v is None or _number(v) for v in (row.agreement, row.gap_closed)))


def _save_rows(path, key, rows):
    """Write the candidate rows beside the search's cache (whole or not at
    all: a temporary file renamed over it)."""
    from dataclasses import asdict

    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps({"version": 1, "design": key,
                                   "rows": [{**asdict(r), "seat_win": list(r.seat_win)}
                                            for r in rows]}))
        os.replace(tmp, path)
    except OSError:  # a cache only: the next --stats searches again
        tmp.unlink(missing_ok=True)
