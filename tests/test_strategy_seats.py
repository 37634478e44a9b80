"""Strategy cards with three or four players (the race ending, and the
rounds ending under both tie rules).

A rule is scored at each seat in turn against the N-player optimum at the
others: checked against the slow references written from the rules
(tests/engine_seats_reference.py, a threshold rule being hold-at, and
tests/engine_seat_rounds_reference.py in rounds); every row
of a card is its rule compared again by ``designer compare``'s seat path;
the front never falls and stays at or below the optimum's 1/N; the gap
closed is measured from 1/N; a resumed search reads every seat's score back
and a cache line of another seat count is refused in one line; the command
shows a column per seat, and a deck or dice game with 3 or 4 players is
searched as the same game written as rules."""

import dataclasses
import json

import pytest
from cli_runner import cli, one_line_refusal
from engine_reference import Die
from engine_seat_rounds_reference import Reference, hold_at
from engine_seats_reference import reference_profile

from designer.analysis.rules_compare import compare_rules_seats, race_seat_wins
from designer.engine.game import load_rules_game
from designer.engine.match import parse_rules_policy
from designer.errors import DesignError
from designer.policies.rules import Rule
from designer.strategy.card import closed, strategy_card
from designer.strategy.rules_game import RulesEvaluator
from designer.strategy.search import search_rules

D3 = "goal = {goal}\nplayers = {players}\n[dice]\nsides = 3\nface.1 = {{ bust = true }}\n"


def _d3(tmp_path, players, goal=5):
    path = tmp_path / f"d3-{players}-{goal}.toml"
    path.write_text(D3.format(goal=goal, players=players))
    return load_rules_game(str(path))


@pytest.mark.parametrize("players, goal, holds", [(3, 5, (2, 4)), (4, 3, (2,))])
def test_a_threshold_at_each_seat_matches_the_reference(tmp_path, players, goal, holds):
    """``below N`` (roll while the turn total is under N) is hold-at:N: at
    each seat, its win against optimal play at the others is the
    reference's, to 1e-9; the average and the gap follow."""
    game = _d3(tmp_path, players, goal)
    ev = RulesEvaluator(game)
    for hold in holds:
        s = ev.score(Rule.parse("rules", f"below {hold}", game.rules.model.feature_names))
        assert len(s["seat_win"]) == players
        for seat in range(players):
            want = reference_profile(Die(["bust", 2, 3]), goal, players, seat, hold)
            assert abs(s["seat_win"][seat] - want[((0,) * players, "roll")][seat]) < 1e-9
        assert s["win_average"] == pytest.approx(sum(s["seat_win"]) / players, abs=1e-15)
        assert s["gap"] == pytest.approx(sum(s["seat_win"]) - 1, abs=1e-15)
        assert s["win_as_first"] == s["seat_win"][0]
    assert ev.agreement(Rule.parse("rules", "below 2")) is None


@pytest.fixture(scope="module")
def card3():
    game = load_rules_game("piglet", goal=6, players=3)
    return game, strategy_card(game, max_size=3, trials=4, jobs=1)


def test_every_row_is_its_rule_compared_at_every_seat(card3):
    game, card = card3
    rows = [r for r in card.rows if r is not None]
    assert rows
    for r in rows:
        _, wins, _ = race_seat_wins(game, parse_rules_policy(f"rule:{r.text}", game))
        assert len(r.seat_win) == 3
        assert max(abs(a - b) for a, b in zip(r.seat_win, wins)) < 1e-12
        assert r.win_average == pytest.approx(sum(wins) / 3, abs=1e-15)
        assert (r.win_as_first, r.win_as_second) == r.seat_win[:2]
        assert r.agreement is None
    aves = [r.win_average for r in rows]
    # no rule at one seat beats the optimum there, which sums to 1 over the seats
    assert aves == sorted(aves) and aves[-1] <= 1 / 3 + 1e-12


def test_the_baseline_is_max_score_at_every_seat(card3):
    game, card = card3
    (name, ms), = card.references
    _, wins, _ = race_seat_wins(game, parse_rules_policy("max-score", game))
    assert name == "max-score" and max(abs(a - b) for a, b in zip(ms.seat_win, wins)) < 1e-12
    for r in card.rows:
        if r is not None:
            assert r.gap_closed == pytest.approx((r.win_average - ms.win_average)
                                                 / (1 / 3 - ms.win_average), abs=1e-12)
    assert closed(0.3, 0.2, 3) == pytest.approx(0.1 / (1 / 3 - 0.2))
    assert closed(0.4, 0.3, 2) == pytest.approx(0.5)


def test_a_resumed_search_reads_every_seat_back(tmp_path):
    game = load_rules_game("piglet", goal=5, players=3)
    cache = tmp_path / "scores.jsonl"
    a, sa = search_rules(game, max_size=2, trials=3, jobs=1, cache=cache)
    b, sb = search_rules(game, max_size=2, trials=3, jobs=1, cache=cache)
    assert sa["evaluated"] > 0 and sb["evaluated"] == 0 and sb["resumed"] == sa["evaluated"]
    assert [(f.rule.text(), f.seat_win) for f in a] == [(f.rule.text(), f.seat_win) for f in b]
    rows = [json.loads(line) for line in cache.read_text().splitlines()]
    assert all(len(r["seat_win"]) == 3 and "win_as_first" not in r for r in rows)
    # a line of this game with two seats' wins is not this game's
    bad = {**rows[0], "seat_win": rows[0]["seat_win"][:2]}
    cache.write_text(json.dumps(bad) + "\n")
    with pytest.raises(DesignError, match=r"^invalid strategy cache '.*': line 1: 2 seats' "
                                          r"wins, not 3$"):
        search_rules(game, max_size=2, trials=3, jobs=1, cache=cache)


def test_the_command_shows_a_column_per_seat(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("strategy", "piglet", "--goal", "5", "--players", "4", "--max-size", "1",
            "--trials", "2", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert rows and all(len(x["seat_win"]) == 4 and x["agreement"] is None for x in rows)
    text = cli("strategy", "piglet", "--goal", "5", "--players", "3", "--max-size", "1",
               "--trials", "2", "--quiet")
    assert text.returncode == 0 and "seat 3" in text.stdout and "as second" not in text.stdout
    # the game in words, not the JSON's mapping; no agreement column with 3 seats
    assert text.stdout.startswith("Piglet (piglet): goal 5, 3 players, race ending\n")
    assert "agrees" not in text.stdout and "{" not in text.stdout
    card = cli("strategy", "piglet", "--goal", "5", "--players", "3", "--max-size", "1",
               "--trials", "2", "--card")
    assert "against 2 perfect players" in card.stdout
    assert card.stdout.startswith("Strategy card: Piglet (piglet): goal 5, 3 players, race "
                                  "ending\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_dice_game_with_three_players_is_searched_as_rules(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("strategy", "dice", "--faces", "3", "--goal", "5", "--players", "3",
            "--max-size", "1", "--trials", "2", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    game = _d3(tmp_path, 3)
    assert rows
    for x in rows:
        _, wins, _ = race_seat_wins(game, parse_rules_policy(f"rule:{x['text']}", game))
        assert max(abs(a - b) for a, b in zip(x["seat_win"], wins)) < 1e-12


def test_a_dice_game_with_three_players_in_rounds_is_searched_as_rules(tmp_path, monkeypatch):
    """Under the rounds ending (a tied round replayed, as in every dice
    game) each row of the card is its rule compared at every seat of the
    same game written as rules."""
    monkeypatch.chdir(tmp_path)
    r = cli("strategy", "dice", "--faces", "3", "--goal", "5", "--players", "3", "--ending",
            "rounds", "--max-size", "1", "--trials", "2", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    path = tmp_path / "d3-rounds.toml"
    path.write_text(D3.format(goal=5, players=3).replace("[dice]", "ending = \"rounds\"\n[dice]"))
    game = load_rules_game(str(path))
    assert rows and game.rules.ties == "replay"
    for x in rows:
        got = compare_rules_seats(game, f"rule:{x['text']}").seats
        assert max(abs(a["win"] - b) for a, b in zip(got, x["seat_win"])) < 1e-12
    path.unlink()
    assert list(tmp_path.iterdir()) == []


# -- the rounds ending, both tie rules ------------------------------------------

COINS = ("goal = {goal}\nplayers = {players}\nending = \"rounds\"\nties = \"{ties}\"\n"
         "[dice]\nsides = 2\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n")


def _coins(tmp_path, players, goal=3, ties="earlier-seat"):
    path = tmp_path / f"coins-{players}-{goal}-{ties}.toml"
    path.write_text(COINS.format(goal=goal, players=players, ties=ties))
    return dataclasses.replace(load_rules_game(str(path)), cap=goal + 2)


def _threshold(low, high, bar, reads=1):
    """The reference's decisions of ``x >= bar -> below high; below low``,
    written from the rules, ``x`` the highest other score (``reads`` 1) or
    the mover's own (0), as the reference reads them (in a replayed round:
    its level plus the round's points): hold at ``high`` once ``x`` is at
    least ``bar``, else at ``low``."""
    def policy(ref, key):
        return hold_at(high if ref.scores(key)[reads] >= bar else low)(ref, key)
    return policy


@pytest.mark.parametrize("players, goal, start, ties", [
    (3, 3, (0, 0, 0), "earlier-seat"), (4, 2, (0, 0, 0, 0), "earlier-seat"),
    (3, 3, (0, 0, 0), "replay"),  # four seats with replayed rounds: test_engine_seat_rounds_match
])
def test_a_rule_at_each_seat_in_rounds_matches_the_reference(tmp_path, players, goal, start,
                                                              ties, monkeypatch):
    """Under the rounds ending (either tie rule) a rule at each seat
    against the N-player optimum at the others is the reference's, to
    1e-9 (where ties are replayed, a rule reading its own score past the
    goal plays by a replayed round's level); the optimal seats' solve is
    made once for every rule scored."""
    import designer.engine.seat_rounds_match as srm

    game = _coins(tmp_path, players, goal, ties)
    solves = []
    real = srm.solve_seat_rounds_model
    monkeypatch.setattr(srm, "solve_seat_rounds_model",  # counted for this game, not a warm-up
                        lambda m, *a, **k: solves.append(m is game.rules.model) or real(m, *a, **k))
    ev = RulesEvaluator(game)
    ref = Reference(game.rules.model, goal, players, ties=ties, cap=goal + 2,
                    levels=ties == "replay")
    ref.solve(start)
    for text, decide in [("below 2", hold_at(2)), ("j >= 1 -> below 3; below 1",
                                                     _threshold(1, 3, 1)),
                         (f"i > {goal} -> below 3; below 1", _threshold(1, 3, goal + 1, 0))]:
        s = ev.score(Rule.parse("rules", text, game.rules.model.feature_names))
        for seat in range(players):
            want = ref.evaluate(start, seat, decide)[seat]
            assert abs(s["seat_win"][seat] - want) < 1e-9, (text, seat)
        assert s["win_average"] == pytest.approx(sum(s["seat_win"]) / players, abs=1e-15)
    assert sum(solves) == 1
    assert ev.agreement(Rule.parse("rules", "below 2")) is None


def test_a_card_of_three_seats_in_rounds_is_its_rules_compared(tmp_path, monkeypatch):
    """Every row of the card of The Great Rolled Ones with three players is
    its rule compared by ``designer compare`` at every seat (1e-12), and so
    is the max-score row; the front never falls below 1/3."""
    monkeypatch.chdir(tmp_path)
    r = cli("strategy", "great-rolled-ones", "--goal", "8", "--players", "3", "--max-size",
            "1", "--trials", "2", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert rows and all(len(x["seat_win"]) == 3 and x["agreement"] is None for x in rows)
    game = load_rules_game("great-rolled-ones", goal=8, players=3)
    for x in rows:
        got = compare_rules_seats(game, f"rule:{x['text']}")
        assert max(abs(a["win"] - b) for a, b in zip(got.seats, x["seat_win"])) < 1e-12
        assert all(a["win"] <= a["optimal_win"] + 1e-12 for a in got.seats)
    aves = [x["win_average"] for x in rows]
    assert aves == sorted(aves) and aves[-1] <= 1 / 3 + 1e-12
    text = cli("strategy", "great-rolled-ones", "--goal", "8", "--players", "3",
               "--max-size", "0", "--quiet")
    assert text.returncode == 0, text.stderr
    assert " ".join(text.stdout.split()).startswith(  # wrapped at 80 columns
        "The Great Rolled Ones (great-rolled-ones): goal 8, 3 players, rounds ending (a tie to "
        "the earlier seat) best rule")
    ms = compare_rules_seats(game, "max-score").seats
    line = next(ln for ln in text.stdout.splitlines() if ln.strip().startswith("max-score"))
    assert f"{ms[0]['win']:.3%}" in line and f"{ms[2]['win']:.3%}" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, words", [
    (["zombie-yellow", "--players", "3"], "--players 3"),
])
def test_refused_in_one_line(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_refusal(cli("strategy", *args, "--max-size", "1"), words)


@pytest.mark.parametrize("text, two, many", [
    ("max_ij >= 1 -> roll; below 20", "If either score is 1 or more",
     "If any score is 1 or more"),
    ("diff >= 10 -> roll; pace 21 8", "plus the opponent's lead divided by 8",
     "plus the leading opponent's lead divided by 8"),
    ("opp_need <= 5 -> roll; below 20", "If the opponent needs 5 points or fewer",
     "If the leading opponent needs 5 points or fewer"),
    ("j > i -> below 30; below 20", "If the opponent leads, hold", "If an opponent leads, hold"),
])
def test_with_more_seats_the_opponent_is_the_leader_in_words(text, two, many):
    rule = Rule.parse("rules", text)
    assert rule.sentence().startswith(two) or two in rule.sentence()
    assert many in rule.sentence(players=3) and "the opponent" not in rule.sentence(players=4)
    assert many in rule.dumps(players=3).splitlines()[0]


def test_the_seconds_of_a_rule_are_estimated_where_they_are_long():
    """3-4 seats in equal turns: a rule's evaluations at every seat (the
    comparison's estimate without its solve); elsewhere nothing to say."""
    from designer.analysis.rules_compare import compare_seconds
    from designer.strategy.rules_game import rule_seconds

    game = load_rules_game("great-rolled-ones", goal=30, players=3)
    total = compare_seconds(game, "rule:below 1")
    assert rule_seconds(game) == pytest.approx(total * 3 / 4)
    # more seats and a higher goal cost more
    assert rule_seconds(load_rules_game("great-rolled-ones", goal=30, players=4)) > total
    assert rule_seconds(load_rules_game("great-rolled-ones", goal=40, players=3)) > total
    for other in (load_rules_game("great-rolled-ones", goal=30),
                  load_rules_game("pig", goal=30, players=3)):
        assert rule_seconds(other) is None
