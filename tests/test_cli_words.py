"""Words of the command line: the version, and parameters named as flags."""

import importlib.metadata

import pytest

from cli_runner import cli


def test_version_is_the_installed_one():
    r = cli("--version")
    assert r.returncode == 0
    assert r.stdout.strip() == f"designer {importlib.metadata.version('designer')}"


@pytest.mark.parametrize("args, line", [
    (["solve", "deck", "--bad", "2", "--good", "3"], "deck needs --goal"),
    (["solve", "deck"], "deck needs --bad, --goal, --good"),
    (["solve", "pig", "--bad", "3"],
     "pig does not take --bad: its parameters are --bust-faces, --ending, --faces, --goal, "
     "--komi, --players"),
    (["compare", "deck", "--bad", "3", "--policy", "max-score"], "deck needs --goal, --good"),
])
def test_missing_and_unknown_parameters_are_flags(args, line):
    r = cli(*args)
    assert r.returncode == 2 and r.stderr == f"designer: error: {line}\n"


def test_the_library_keeps_its_own_names():
    from designer.errors import DesignError
    from designer.games import load_game

    with pytest.raises(DesignError, match="^deck needs goal$"):
        load_game("deck", bad=2, good=3)


def test_compare_gives_the_gap_in_points_like_the_rows_above():
    import json

    args = ["compare", "pig", "--goal", "20", "--policy", "max-score"]
    gap = json.loads(cli(*args, "--json").stdout)["gap"]
    text = cli(*args).stdout
    assert f"{100 * gap:+.4f} points" in text and "%" in text


def test_unsettled_positions_say_whether_to_worry():
    from designer.report.terminal import UNSETTLED_HARMLESS, unsettled_note

    calm = " ".join(unsettled_note(228, UNSETTLED_HARMLESS / 10).split())
    assert "At 228 positions no best reply settles" in calm
    assert "nothing to worry about" in calm
    worry = " ".join(unsettled_note(1764, 1.2e-2).split())
    assert "up to 1.2e-02 between sweeps" in worry and "read them with care" in worry


def test_every_n_seat_table_has_the_largest_gap_column():
    for ending in ("race", "rounds"):
        r = cli("solve", "pig", "--players", "3", "--ending", ending, "--goal", "12",
                "--max-komi", "1")
        assert r.returncode == 0
        assert "largest gap from equal" in r.stdout, (ending, r.stdout)
