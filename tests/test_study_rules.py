"""Studies over a rules file's keys: rows against direct solves and the slow
reference, resume, the commands, and every refusal of the study file."""

import json
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from cli_runner import cli
from designer.engine.game import load_rules_game, solve_game
from designer.engine.rulesfile import example_path, examples
from designer.search import load_study, open_store
from designer.search.families import family_of, units
from designer.search.grid import run_grid
from designer.search.rules_family import toml_text
from designer.search.spec import StudyError
from engine_reference import Die, reference_win
from study_helpers import assert_refused, write_study

ROOT = Path(__file__).resolve().parents[1]

#: A coin-like die: face 1 busts, every other face scores 1 (Piglet at
#: two sides).
TINY_RULES = """
name = "Tiny"
goal = 10
[dice]
sides = 2
other_faces = 1
face.1 = { bust = true }
"""

TINY_STUDY = """
[study]
name = "tiny"
family = "rules"
rules = "tiny.toml"
method = "grid"
workers = 1

[space]
"dice.sides" = {min = 2, max = 4}
goal = {min = 2, max = 6}
komi = {min = 0, max = 2}
"""


def _tiny(tmp_path, body=TINY_STUDY):
    (tmp_path / "tiny.toml").write_text(TINY_RULES)
    return write_study(tmp_path, body, name="study")


def _variant(tmp_path, **keys):
    """The tiny rules with ``keys`` (dotted) set, as a file of its own."""
    doc = tomllib.loads(TINY_RULES)
    for key, v in keys.items():
        table, _, leaf = key.rpartition(".")
        (doc[table] if table else doc)[leaf] = v
    path = tmp_path / ("v_" + "_".join(f"{k}{v}" for k, v in keys.items()) + ".toml")
    path.write_text(toml_text(doc))
    return path


def test_rows_equal_direct_solves_and_the_reference(tmp_path):
    spec = load_study(_tiny(tmp_path))
    store = open_store(spec)
    assert run_grid(spec, store) == {"computed": 3, "failed": 0}
    df = store.rows()
    # every die, goal and komi below the goal
    assert len(df) == sum(1 for s in (2, 3, 4) for g in range(2, 7) for k in range(3) if k < g)
    assert list(df.columns[:3]) == ["dice_sides", "goal", "komi"]
    for r in df.itertuples():
        game = load_rules_game(_variant(tmp_path, **{"dice.sides": r.dice_sides}),
                               goal=r.goal, komi=r.komi)
        direct = solve_game(game)
        assert abs(r.first_player_win - direct["first_player_win"]) <= 1e-12
        ref = reference_win(Die(["bust"] + [1] * (r.dice_sides - 1)), r.goal, r.komi)[0]
        assert abs(r.first_player_win - ref) <= 1e-12
        assert r.fairness == pytest.approx(abs(r.first_player_win - 0.5), abs=1e-15)
        assert r.fair_komi == direct["fair_komi"]
        assert r.fair_first_player_win == direct["fair_komi_first_player_win"]
        assert r.states == direct["states"] and r.components == 1
        assert r.expected_actions == pytest.approx(direct["expected_actions"], rel=1e-12)
    piglet = df[(df.dice_sides == 2) & (df.goal == 2) & (df.komi == 0)]
    assert abs(piglet.first_player_win.iloc[0] - 4 / 7) < 1e-12  # Piglet to 2: 4/7
    assert run_grid(spec, store) == {"computed": 0, "failed": 0}


def test_an_ending_swept_and_a_shipped_example(tmp_path):
    """``ending`` is a design column; each ending's rows are the engine's
    solve of that ending. The example is found by name."""
    body = TINY_STUDY.replace('"tiny.toml"', '"piglet"').replace(
        '"dice.sides" = {min = 2, max = 4}', 'ending = ["race", "rounds"]\n"turn.min_bank" = [0, 1]')
    spec = load_study(write_study(tmp_path, body, name="piglet_endings"))
    assert family_of(spec).design_columns == ("turn_min_bank", "ending")
    store = open_store(spec)
    run_grid(spec, store)
    df = store.rows()
    assert set(df.ending) == {"race", "rounds"} and set(df.turn_min_bank) == {0, 1}
    for r in df.itertuples():
        doc = tomllib.loads(example_path("piglet").read_text())
        doc.setdefault("turn", {})["min_bank"] = r.turn_min_bank
        path = tmp_path / f"p{r.turn_min_bank}.toml"
        path.write_text(toml_text(doc))
        direct = solve_game(load_rules_game(path, goal=r.goal, komi=r.komi, ending=r.ending))
        assert abs(r.first_player_win - direct["first_player_win"]) <= 1e-12, r


def test_interrupted_and_resumed_equals_one_run(tmp_path):
    class Stop(Exception):
        pass

    (tmp_path / "ref").mkdir()
    (tmp_path / "cut").mkdir()
    ref = load_study(_tiny(tmp_path / "ref"))
    whole = open_store(ref)
    run_grid(ref, whole, workers=2)  # worker processes: the family travels as "rules"
    spec = load_study(_tiny(tmp_path / "cut"))
    store = open_store(spec)
    seen = []

    def stop_after_two(result):
        seen.append(result["key"])
        if len(seen) == 2:
            raise Stop

    with pytest.raises(Stop):
        run_grid(spec, store, workers=1, on_result=stop_after_two)
    assert len(store.done()) == 2
    assert run_grid(spec, store, workers=1) == {"computed": 1, "failed": 0}
    pd.testing.assert_frame_equal(store.rows(), whole.rows(), check_exact=True)


def test_commands_run_status_top_and_report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _tiny(tmp_path)
    r = cli("study", "run", path, "--workers", "2")
    assert r.returncode == 0, r.stderr
    assert "3 of 3 variants done, 0 failed" in " ".join(r.stdout.split())
    st = json.loads(cli("study", "status", path, "--json").stdout)
    assert (st["units"], st["done"], st["failed"], st["rows"]) == (3, 3, 0, 42)
    (best,) = json.loads(cli("study", "top", path, "--n", "1", "--json").stdout)
    assert best["fairness"] == min(open_store(load_study(path)).rows().fairness)
    assert best["expected_actions"] > 1.0 and best["dice_sides"] in (2, 3, 4)
    r = cli("report", path, "--out", tmp_path / "rep")
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Ranked designs" in md and "Recommended: tiny.toml with dice.sides = " in md
    assert "expected game length" in md.lower()
    assert (tmp_path / "rep" / "figures" / "komi_lines.png").is_file()


def test_the_shipped_study(tmp_path, monkeypatch):
    spec = load_study(ROOT / "studies" / "hog_variants.toml")
    assert len(units(spec)) == 6 and family_of(spec).design_columns == (
        "dice_sides", "dice_bust_points")
    assert spec.results_dir.parent == ROOT / "studies"


def test_every_example_writes_back_to_the_same_document():
    for name in examples():
        doc = tomllib.loads(example_path(name).read_text(encoding="utf-8"))
        assert tomllib.loads(toml_text(doc)) == doc, name
    odd = {"a b": {"x.y": ["q\"\\\x7f\n", 1.5, float("inf"), True]}}
    assert tomllib.loads(toml_text(odd)) == odd


def _edit(body, old, new):
    assert old in body
    return body.replace(old, new)


KOMI = "komi = {min = 0, max = 2}"
REFUSALS = [
    ("unknown key", ('"dice.sides"', '"dice.size"'),
     "invalid dice.size = 2: tiny.toml: dice.size: unknown key; allowed here: count, sides"),
    ("value out of range", ("min = 2, max = 4", "min = 1, max = 4"),
     "invalid dice.sides = 1: tiny.toml: dice.sides: 1 is not allowed: an integer 2..100"),
    ("highest value out of range", ("min = 2, max = 4", "min = 2, max = 101"),
     "invalid dice.sides = 101: tiny.toml: dice.sides: 101 is not allowed: an integer 2..100"),
    ("a string key", ('"dice.sides" = {min = 2, max = 4}', "name = 3"),
     "invalid key name: not an integer key of the rules (name = 'Tiny' in tiny.toml): "
     "allowed goal, komi, ending or an integer key, such as dice.sides, dice.other_faces"),
    ("a table key", ('"dice.sides" = {min = 2, max = 4}', '"dice.face.1" = 3'),
     "invalid key dice.face.1: not an integer key of the rules"),
    ("a key under a number", ('"dice.sides"', '"goal.x"'),
     "invalid key goal.x: goal is 10 in the rules, not a table"),
    ("a boolean key absent from the file", ('"dice.sides" = {min = 2, max = 4}',
                                            '"dice.refill" = 1'),
     "invalid dice.refill = 1: tiny.toml: dice.refill: 1 is not allowed: true or false"),
    ("rules file missing", ('"tiny.toml"', '"gone.toml"'),
     "[study]: invalid rules = 'gone.toml': there is no file"),
    ("no such example", ('"tiny.toml"', '"chess"'),
     "[study]: invalid rules = 'chess': no such example: allowed a shipped example (farkle"),
    ("family rules without rules", ('rules = "tiny.toml"\n', ""),
     '[study]: family = "rules" needs rules = NAME: a shipped example'),
    ("rules for another family", ('family = "rules"', 'family = "dice"'),
     "[study]: invalid rules = 'tiny.toml': allowed only with family = \"rules\""),
    ("five players", ("komi = {min = 0, max = 2}", "komi = {min = 0, max = 2}\nplayers = 5"),
     "[space]: designer study run does not take players = 5 for rules studies: it takes "
     "rules-file games with 2-4 players"),
    ("an ending the engine does not take", ("komi = {min = 0, max = 2}",
                                            'komi = {min = 0, max = 2}\nending = "sudden"'),
     "invalid ending = 'sudden': allowed \"race\", \"rounds\" or a list of them"),
    ("missing komi", ("komi = {min = 0, max = 2}", ""), "[space]: missing komi (in points)"),
    ("komi at the largest goal", ("komi = {min = 0, max = 2}", "komi = 6"),
     "invalid komi = '6': allowed komi below the largest goal (6)"),
    ("ranking by skill", (KOMI, KOMI + '\n\n[objectives]\nrank = ["fairness", '
                                 '"skill_gap"]'),
     "[objectives]: invalid rank = 'skill_gap': allowed one of fairness, first_player_win, "
     "expected_actions, components, states (a rules-file game has no max-score player"),
]


@pytest.mark.parametrize("edit, words", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refusals_are_one_line_exit_2_and_write_nothing(tmp_path, monkeypatch, edit, words):
    monkeypatch.chdir(tmp_path)
    path = _tiny(tmp_path, _edit(TINY_STUDY, *edit))
    line = assert_refused(tmp_path, path)
    assert words in line, line


def test_farkle_goal_and_komi_are_points_in_units(tmp_path):
    body = ('[study]\nname = "f"\nfamily = "rules"\nrules = "farkle"\n\n[space]\n'
            '"scoring_dice.three_pairs" = [500, 750]\ngoal = [500, 1000]\nkomi = [0, 50]\n')
    spec = load_study(write_study(tmp_path, body))
    assert len(units(spec)) == 2
    with pytest.raises(StudyError, match=r"\[space\]: invalid goal = 520: farkle: goal: 520 is "
                                         r"not allowed: a multiple of scoring_dice.unit = 50"):
        load_study(write_study(tmp_path, body.replace("[500, 1000]", "[520, 1000]")))
    with pytest.raises(StudyError, match=r"\[space\]: invalid komi = 25: allowed multiples of "
                                         r"50 \(the rules of farkle count points in units of 50\)"):
        load_study(write_study(tmp_path, body.replace("[0, 50]", "[0, 25]")))
    with pytest.raises(StudyError, match=r"scoring_dice.three_pairs = 510: farkle: "
                                         r"scoring_dice.three_pairs: 510 is not allowed"):
        load_study(write_study(tmp_path, body.replace("[500, 750]", "[500, 510]")))


def test_the_rows_name_the_metrics_a_rules_study_has(tmp_path):
    spec = load_study(_tiny(tmp_path))
    fam = family_of(spec)
    assert "expected_actions" in fam.stored and "expected_actions" in fam.metrics
    assert fam.default_rank == ("fairness", "expected_actions", "components")
    assert spec.family == "rules" and json.dumps(spec.family) == '"rules"'
    assert "skill_gap" not in fam.stored and "skill_gap" not in fam.metrics


def test_a_study_ranks_and_constrains_by_the_game_length(tmp_path):
    from designer.search.ranking import rank

    body = TINY_STUDY + ('\n[objectives]\nrank = ["expected_actions"]\n\n[constraints]\n'
                         'expected_actions = {max = 12}\n')
    spec = load_study(_tiny(tmp_path, body))
    store = open_store(spec)
    run_grid(spec, store, workers=1)
    rows = store.rows()
    ranked = rank(rows, spec)
    assert len(ranked) == int((rows.expected_actions <= 12).sum()) > 0
    assert ranked.expected_actions.is_monotonic_increasing


def test_the_report_page_in_a_real_browser(tmp_path, monkeypatch):
    """The page of a rules study draws, says
    the Python recommendation and keeps the console clean."""
    from browser import headless_chromium, wait_for
    from designer.report.study_report import write_report
    from designer.search.ranking import rank

    path = _tiny(tmp_path)
    spec = load_study(path)
    run_grid(spec, open_store(spec))
    index, _ = write_report(path, tmp_path / "rep", policies=1)
    browser = headless_chromium()
    if isinstance(browser, str):
        pytest.skip(browser)
    try:
        browser.get(index.resolve().as_uri())
        assert wait_for(browser, "return document.documentElement.getAttribute('data-drawn')") \
            == "yes"
        best = rank(open_store(spec).rows(), spec).iloc[0]
        shown = browser.find_element("id", "recommendation").text
        assert family_of(spec).sentence(best) in shown
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        browser.quit()
