"""Strategy cards of rules games (designer.strategy.rules_game).

Each rule on a card is scored again by the engine's compare (the rule read
back from its text and from its saved file); the card's front never falls
with size and starts no lower than the best single threshold, found here by
scanning every threshold through compare; a resumed search reads every
score back; an edited rules file is another game for the cache; the shapes
use the game's own turn-state features and count points in its unit."""

import json

import pytest
from cli_runner import cli

from designer.analysis.rules_compare import compare_rules
from designer.engine.game import load_rules_game
from designer.strategy.card import strategy_card
from designer.strategy.rules_game import game_key, rules_templates
from designer.strategy.search import search_rules


@pytest.fixture(scope="module")
def piglet_card():
    game = load_rules_game("piglet", goal=8)
    return game, strategy_card(game, max_size=4, trials=8, jobs=1)


def _rows_are_compared(game, card):
    """Every row of ``card`` is its rule compared again by ``designer
    compare`` (1e-12, the agreement too), and the front never falls."""
    rows = [r for r in card.rows if r is not None]
    assert rows
    for r in rows:
        c = compare_rules(game, f"rule:{r.text}", "optimal")
        assert abs(c.win_as_first - r.win_as_first) < 1e-12
        assert abs(c.win_as_second - r.win_as_second) < 1e-12
        assert r.agreement == c.agreement
    aves = [r.win_average for r in rows]
    assert aves == sorted(aves) and aves[-1] < 0.5
    return rows


def test_every_row_is_its_rule_compared_exactly(piglet_card):
    _rows_are_compared(*piglet_card)


def test_the_front_starts_at_the_best_threshold(piglet_card):
    game, card = piglet_card
    best = max(compare_rules(game, f"hold-at:{n}", "optimal").win_average for n in range(1, 9))
    size1 = card.rows[1]
    assert size1 is not None and abs(size1.win_average - best) < 1e-12


def test_the_baseline_is_max_score(piglet_card):
    game, card = piglet_card
    (name, row), = card.references
    c = compare_rules(game, "max-score", "optimal")
    assert name == card.baseline == "max-score"
    assert abs(row.win_as_first - c.win_as_first) < 1e-12
    assert abs(row.win_as_second - c.win_as_second) < 1e-12
    for r in card.rows:
        if r is not None:  # the share of max-score's gap closed
            want = (r.win_average - c.win_average) / (0.5 - c.win_average)
            assert abs(r.gap_closed - want) < 1e-12


def test_shapes_use_the_game_features_and_unit():
    game = load_rules_game("farkle", goal=1000)
    texts = [t.text for t in rules_templates(game)]
    assert any("dice_left <= {x}" in t for t in texts)
    for t in rules_templates(game):
        rule = t.rule({s: lo for s, lo, _ in t.ranges})
        for cl in rule.clauses:  # points are multiples of 50
            if cl.action.kind == "below":
                assert cl.action.args[0] % 50 == 0
    deck = load_rules_game("red-light", goal=20)
    texts = [t.text for t in rules_templates(deck)]
    assert any(t.startswith("w_rem <= {x}") for t in texts)
    assert any(t.startswith("c_rem <= {x}") for t in texts)


def test_a_resumed_search_reads_every_score_back(tmp_path):
    game = load_rules_game("piglet", goal=6)
    cache = tmp_path / "scores.jsonl"
    a, sa = search_rules(game, max_size=3, trials=4, jobs=1, cache=cache)
    b, sb = search_rules(game, max_size=3, trials=4, jobs=1, cache=cache)
    assert sa["evaluated"] > 0 and sb["evaluated"] == 0 and sb["resumed"] == sa["evaluated"]
    assert [(f.rule.text(), f.win_average) for f in a] == [(f.rule.text(), f.win_average)
                                                            for f in b]


def test_an_edited_rules_file_is_another_game(tmp_path):
    text = "goal = 6\n[dice]\nsides = 3\nface.1 = { bust = true }\n"
    (tmp_path / "a.toml").write_text(text)
    (tmp_path / "b.toml").write_text(text.replace("sides = 3", "sides = 4"))
    ka = game_key(load_rules_game(str(tmp_path / "a.toml")))
    kb = game_key(load_rules_game(str(tmp_path / "b.toml")))
    assert ka != kb and ka == game_key(load_rules_game(str(tmp_path / "a.toml")))


def test_the_command_line_saves_rules_that_compare_reads(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("strategy", "farkle", "--goal", "500", "--max-size", "4", "--trials", "4", "--json",
            "--out", "cards")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    best = rows[-1]
    saved = sorted((tmp_path / "cards").glob("size-*.toml"))
    assert saved and (tmp_path / "cards" / "front.csv").exists()
    last = saved[-1] if len(saved) < 10 else max(saved, key=lambda p: int(p.stem[5:]))
    assert 'family = "rules"' in last.read_text()
    c = cli("compare", "farkle", "--goal", "500", "--policy", f"rule:{last}", "--json")
    assert c.returncode == 0, c.stderr
    assert abs(json.loads(c.stdout)["win_average"] - best["win_average"]) < 1e-12
    assert json.loads(c.stdout)["agreement"] == pytest.approx(best["agreement"], abs=1e-15)


@pytest.fixture(scope="module")
def rounds_card():
    game = load_rules_game("piglet", goal=6, ending="rounds")
    return game, strategy_card(game, max_size=3, trials=6, jobs=1)


def test_a_card_under_the_rounds_ending_is_compared_exactly(rounds_card):
    """Piglet to 6 with equal turns (replayed ties): every row is its rule
    compared again by ``designer compare``'s rounds match, the front never
    falls, the chase of the last seat is among the shapes, and the words
    say what ``roll`` does when no goal ends a turn."""
    game, card = rounds_card
    rows = _rows_are_compared(game, card)  # the agreement too, counted per seat
    assert all(0.0 < r.agreement <= 1.0 for r in rows)
    best = max(compare_rules(game, f"hold-at:{n}", "optimal").win_average for n in range(1, 7))
    assert card.rows[1] is not None and card.rows[1].win_average >= best - 1e-12
    (name, ms), = card.references
    c = compare_rules(game, "max-score", "optimal")
    assert name == "max-score" and abs(ms.win_average - c.win_average) < 1e-12
    texts = [t.text for t in rules_templates(game)]
    assert "opp_need <= 0 -> roll; below {b}" in texts
    from designer.policies.rules import Rule

    rule = Rule.parse("rules", "opp_need <= 0 -> roll; below 3")
    assert "roll on, holding once holding wins the game" in rule.sentence("rounds")
    assert "roll on to the goal" in rule.sentence()
    # and in the comment of a saved rule (designer strategy --out)
    assert rule.dumps("rounds").startswith("# If the opponent needs 0 points or fewer, roll "
                                           "on, holding once holding wins the game;")


def test_a_rounds_card_saves_rules_that_compare_reads(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("strategy", "great-rolled-ones", "--goal", "20", "--max-size", "2", "--trials", "2",
            "--json", "--out", "cards")
    assert r.returncode == 0, r.stderr
    best = json.loads(r.stdout)[-1]
    assert 0.0 < best["agreement"] < 1.0
    saved = max((tmp_path / "cards").glob("size-*.toml"), key=lambda p: int(p.stem[5:]))
    c = cli("compare", "great-rolled-ones", "--goal", "20", "--policy", f"rule:{saved}",
            "--json")
    assert c.returncode == 0, c.stderr
    assert abs(json.loads(c.stdout)["win_average"] - best["win_average"]) < 1e-12
    assert json.loads(c.stdout)["agreement"] == pytest.approx(best["agreement"], abs=1e-15)


@pytest.mark.parametrize("args, words", [
    (["rules:pig", "--players", "5", "--ending", "rounds"], "--players 5"),
    (["farkle", "--players", "3", "--ending", "rounds"], "needs 3,222 MB, over the limit"),
])
def test_refused_in_one_line(args, words):
    r = cli("strategy", *args, "--max-size", "1")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr


def test_a_deck_gets_max_scores_comparison_at_size_zero():
    game = load_rules_game("rules:red-light", goal=8)
    card = strategy_card(game, max_size=0, trials=2, jobs=1)
    (name, ms), = card.references
    assert card.rows[0].text == "while c_rem > w_rem * k"
    assert abs(card.rows[0].win_average - ms.win_average) < 1e-12


@pytest.mark.parametrize("name, goal, pairs", [
    ("pig", 30, [("below 20", "below 20"), ("pace 21 8", "pace 21 8"),
                 ("max_ij >= 21 -> roll; pace 12 8", "max_ij >= 21 -> roll; pace 12 8"),
                 ("opp_need <= 6 -> roll; below 15", "opp_need <= 6 -> roll; below 15"),
                 ("maxscore", "while k < 20")]),
    ("fowl-play", 20, [("maxscore", "while c_rem > w_rem * k"), ("below 3", "below 3"),
                       ("opp_need <= w_rem -> roll; maxscore",
                        "opp_need <= w_rem -> roll; while c_rem > w_rem * k")]),
])
def test_the_engine_scores_rules_as_the_family_does(name, goal, pairs):
    """The same rule scored by the family's evaluator (its own kernels) and
    by the rules game's (the engine's match), on the same game."""
    from designer import load_game
    from designer.policies.rules import Rule
    from designer.strategy.evaluate import Evaluator
    from designer.strategy.rules_game import RulesEvaluator

    family = Evaluator(load_game(name, goal=goal))
    rules = load_rules_game(f"rules:{name}", goal=goal)
    engine = RulesEvaluator(rules)
    for fam_text, rules_text in pairs:
        a = family.score(Rule.parse(family.family, fam_text))
        b = engine.score(Rule.parse("rules", rules_text, rules.rules.model.feature_names))
        for key in ("win_as_first", "win_as_second"):
            assert abs(a[key] - b[key]) < 1e-12, (fam_text, key, a[key], b[key])
