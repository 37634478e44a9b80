"""The memory limit of a solve: half the machine's memory by default,
``DESIGNER_MEMORY_LIMIT`` to set another, honoured by the engine and the
family solvers alike, and a bad value refused in one line.

(conftest.py fixes the limit at 2G for the rest of the suite.)"""

import json
import os

import pytest

from cli_runner import cli
from cli_runner import one_line_refusal
from designer.engine import TooLargeError, solve_rules
from designer.engine.rulesfile import example_path, load_rules
from designer.engine.solve import estimate
from designer.errors import DesignError
from designer.games import DeckGame, load_game
from designer.memory import ENV, memory_limit, parse_size, physical_memory
from designer.solve import solve
from designer.solve.race import race_memory
from designer.solve.rounds import rounds_bytes


@pytest.mark.parametrize("text, size", [
    ("4G", 4 * 2**30), ("4g", 4 * 2**30), ("1.5 GiB", 3 * 2**29), ("512M", 2**29),
    ("512mb", 2**29), ("64K", 2**16), ("1T", 2**40), ("1000", 1000), (" 7 ", 7)])
def test_sizes_are_read_in_binary_units(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "0", "0.1", "-1G", "4X", "G", "1.5.2G", "4 G B", "lots", "１G",
                                  "1e9", "nan", "inf"])
def test_a_size_that_is_not_one_is_refused(text):
    with pytest.raises(DesignError, match=rf"^{ENV}='.*' is not allowed: a size of at least 1 "
                                          r"byte, .* e\.g\. 4G$"):
        parse_size(text)


def _meminfo_total():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    pytest.skip("no /proc/meminfo")


def test_the_default_is_half_the_machines_memory(monkeypatch):
    monkeypatch.delenv(ENV)
    # MemTotal is the physical memory less what the kernel keeps for itself
    assert _meminfo_total() <= physical_memory() <= 1.1 * _meminfo_total()
    assert memory_limit() == physical_memory() // 2
    monkeypatch.setenv(ENV, "   ")  # set but blank: the default
    assert memory_limit() == physical_memory() // 2
    monkeypatch.setenv(ENV, "3G")
    assert memory_limit() == 3 * 2**30


def test_the_engine_refuses_over_the_limit_and_solves_under_it(monkeypatch):
    rules = load_rules(example_path("pig"))  # to 100
    need = estimate(rules.model, rules.goal)["memory"]
    monkeypatch.setenv(ENV, str(need - 1))
    with pytest.raises(TooLargeError, match=r"needs [\d.,]+ MB, over the limit of 0 MB"):
        solve_rules(rules)
    monkeypatch.setenv(ENV, str(need))
    assert solve_rules(rules).first_player_win == pytest.approx(0.5306, abs=1e-4)


def test_the_family_solvers_honour_the_variable(monkeypatch):
    game = DeckGame(4, 24, 20, players=3)
    need = race_memory(game)
    monkeypatch.setenv(ENV, str(need - 1))
    with pytest.raises(DesignError, match=rf"the limit is [\d.]+ GiB \(set by {ENV}\): lower the goal"):
        solve(game)
    rounds = load_game("red-light", goal=20, players=3, ending="rounds")
    monkeypatch.setenv(ENV, str(rounds_bytes(rounds) - 1))
    with pytest.raises(DesignError, match=rf"a rounds solve of at most [\d.]+ GiB \(set by {ENV}; this "
                                          r"one needs [\d.]+ GiB\)"):
        solve(rounds)


def test_rules_check_reports_the_limit_in_force(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(ENV, "3G")
    out = json.loads(cli("rules", "check", "rules:fowl-play", "--players", "3", "--ending",
                         "rounds", "--json").stdout)
    assert out["memory_limit_bytes"] == 3 * 2**30
    assert out["fits"] is False and out["memory_bytes"] > 3 * 2**30  # about 4 GB
    text = " ".join(cli("rules", "check", "rules:fowl-play", "--players", "3", "--ending",
                        "rounds").stdout.split())
    assert f"(limit 3,072 MB, set by {ENV}) over the limit: designer solve refuses it ({ENV} " \
           "sets another limit)" in text
    one_line_refusal(cli("solve", "rules:fowl-play", "--players", "3", "--ending", "rounds"),
                     "over the limit of 3,072 MB")
    monkeypatch.setenv(ENV, "5G")
    out = json.loads(cli("rules", "check", "rules:fowl-play", "--players", "3", "--ending",
                         "rounds", "--json").stdout)
    assert out["fits"] is True and out["memory_limit_bytes"] == 5 * 2**30
    assert os.listdir(tmp_path) == []


def test_a_bad_variable_is_one_line_and_status_2(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(ENV, "two gigabytes")
    for args in (("solve", "rules:pig", "--goal", "20"), ("solve", "pig", "--goal", "20"),
                 ("solve", "pig", "--goal", "20", "--players", "3"), ("rules", "check", "piglet"),
                 ("study", "run", "nowhere.toml")):
        one_line_refusal(cli(*args), f"{ENV}='two gigabytes' is not allowed", "e.g. 4G")
    assert os.listdir(tmp_path) == []


def test_a_refusal_says_where_the_limit_comes_from(monkeypatch, tmp_path):
    """Over the limit in force: its size, and how to set another; a limit a
    caller gave is its size alone."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "huge.toml").write_text("goal = 100000\n[deck]\nbad = 60\ngood = 400\n")
    monkeypatch.delenv(ENV)
    half = f"{physical_memory() // 2 / 2**20:,.0f} MB"
    one_line_refusal(cli("solve", "huge.toml"), f"over the limit of {half} (half the memory; "
                                                f"{ENV} sets another)")
    monkeypatch.setenv(ENV, "3G")
    one_line_refusal(cli("solve", "huge.toml"), f"over the limit of 3,072 MB (set by {ENV})")
    rules = load_rules(example_path("pig"))
    with pytest.raises(TooLargeError, match=r"over the limit of 0 MB$"):
        solve_rules(rules, memory_limit=1000)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.toml"]
