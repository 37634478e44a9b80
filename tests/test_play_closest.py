"""The strategy-card rule closest to a human's recorded decisions."""

import re

import numpy as np
import pytest

from designer import DeckGame
from designer.play.closest import agreement, closest_rule, game_of
from designer.policies.rules import Rule

GAME = DeckGame(2, 4, 5)


def _deck_states(game, rng, n):
    """Random non-terminal deck views ``(i, j, k, w, c)`` with ``k > 0``."""
    out = []
    while len(out) < n:
        i, j = rng.integers(game.goal, size=2)
        w = rng.integers(game.bad)
        c = rng.integers(1, game.good + 1)
        k = rng.integers(1, c + 1)
        if i + k < game.goal:
            out.append([int(i), int(j), int(k), int(w), int(c)])
    return out


def test_agreement_counts_the_positions_where_the_rule_acts_alike():
    """Written from the rules: max-score draws iff ``c_rem > w_rem * k``;
    "below 2" holds iff ``k >= 2``."""
    rng = np.random.default_rng(0)
    views = _deck_states(GAME, rng, 300)
    maxscore = [[*v, "draw" if GAME.good - v[4] > (GAME.bad - v[3]) * v[2] else "hold"]
                for v in views]
    assert agreement(GAME, Rule.parse("deck", "maxscore"), maxscore) == 1.0
    expected = np.mean([(m[2] < 2) == (m[-1] == "draw") for m in maxscore])
    assert agreement(GAME, Rule.parse("deck", "below 2"), maxscore) == pytest.approx(expected)
    assert 0 < expected < 1  # the two rules differ somewhere on these positions


def test_closest_rule_of_a_max_score_player(tmp_path, monkeypatch):
    """A player who always plays max-score agrees 100% with some card rule
    (max-score is on every deck card at size 0); its scores are cached in
    the user data directory."""
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    rng = np.random.default_rng(1)
    moves = [[*v, "draw" if GAME.good - v[4] > (GAME.bad - v[3]) * v[2] else "hold"]
             for v in _deck_states(GAME, rng, 200)]
    row, share = closest_rule(GAME, moves, max_size=2)
    assert share == 1.0 and row.rule_size <= 2
    assert list(tmp_path.glob("strategy-*.jsonl"))
    assert closest_rule(GAME, [], max_size=2) is None


def _max_score_moves():
    rng = np.random.default_rng(1)
    return [[*v, "draw" if GAME.good - v[4] > (GAME.bad - v[3]) * v[2] else "hold"]
            for v in _deck_states(GAME, rng, 200)]


def test_a_second_look_does_not_search_again(tmp_path, monkeypatch):
    """The rules a search found are kept beside its scores: the next call
    compares the moves with them without a search, with the same answer."""
    import designer.strategy.card as card
    from designer.play.closest import _saved_rows
    from designer.play.stats import design_key

    key = design_key(GAME)

    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    moves = _max_score_moves()
    first = closest_rule(GAME, moves, max_size=2)
    [saved] = tmp_path.glob("strategy-*-closest2.json")
    good = saved.read_text()
    assert first[0] in _saved_rows(saved, key, "deck")
    # a damaged file, one of another design, format or game, or one with a
    # value the table cannot print or a rule the game does not read, is not
    # trusted
    assert _saved_rows(saved, design_key(DeckGame(2, 4, 6)), "deck") is None
    for bad in [good[:40], "[]", "null", "{}", good.replace('"design": "', '"design": "x'),
                good.replace('"version": 1', '"version": 2'),
                good.replace('"seat_win": [', '"seat_win": ["0.5", '),
                good.replace('"seat_win": [', '"seat_win": [1.5, '),
                good.replace('"rule_size": ', '"rule_size": -'),
                re.sub(r'"size": \d+', '"size": true', good),
                good.replace('"size": ', '"x": 1, "size": '),
                good.replace('"text": "', '"text": "not a rule '),
                good.replace('"seat_win": [', '"seat_win": [1' + "0" * 400 + ', '),
                "[" * 100_000 + "]" * 100_000]:
        assert bad != good
        saved.write_text(bad)
        assert _saved_rows(saved, key, "deck") is None, bad[:80]

    def no_search(*a, **k):
        raise AssertionError("searched again")

    saved.write_text(good)
    with monkeypatch.context() as m:
        m.setattr(card, "strategy_card", no_search)
        assert closest_rule(GAME, moves, max_size=2) == first
        with pytest.raises(AssertionError, match="searched again"):  # another size
            closest_rule(GAME, moves, max_size=1)
    # an untrusted file: the search runs again and writes it afresh
    saved.write_text(good.replace('"version": 1', '"version": 2'))
    assert closest_rule(GAME, moves, max_size=2) == first
    assert saved.read_text() == good


def test_game_of_reads_stored_params():
    assert game_of(GAME.params) == GAME
    assert game_of({"family": "deck", "bad": 0, "good": 3, "goal": 5, "komi": 0}) is None
    assert game_of({"family": "nope"}) is None


def test_a_saved_rule_is_a_play_level(tmp_path):
    """``--level rule:FILE``: the computer plays the saved rule, decision
    for decision (checked against the rule written from its text)."""
    from designer.play import make_player
    from designer.play.engine import DeckState

    path = tmp_path / "r.toml"
    Rule.parse("deck", "below 2").save(path)
    player = make_player(f"rule:{path}", None, game=GAME)
    for i, j, k, w, c in _deck_states(GAME, np.random.default_rng(2), 100):
        state = DeckState(GAME, (i, j), 0, k, w, c)
        assert player.decide(state) == ("draw" if k < 2 else "hold")
