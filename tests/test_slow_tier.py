"""The slow tier's list (tests/slow_tests.py): what an entry matches."""

from slow_tests import SLOW, matches

F = "tests/test_x.py::test_y"


def test_a_bare_entry_takes_every_case_of_its_test_only():
    assert matches(F, F)
    assert matches(F, F + "[a-1]")
    assert not matches(F, F + "z")  # another test whose name starts alike
    assert not matches(F, F + "z[a-1]")
    assert not matches(F, "tests/test_x.py::test_w[a-1]")


def test_a_pattern_takes_the_cases_whose_id_it_matches():
    assert matches(F + "[a-*]", F + "[a-1]")
    assert not matches(F + "[a-*]", F + "[b-1]")
    assert not matches(F + "[a-*]", F)  # a pattern never takes the bare test
    assert matches(F + "[*-replay]", F + "[deck-3-replay]")
    assert not matches(F + "[*-3-replay]", F + "[d3-4-replay]")


def test_brackets_and_newlines_in_an_id_are_text():
    assert matches(F + "[x[1]-*]", F + "[x[1]-y]")
    assert not matches(F + "[x[12]-*]", F + "[x1-y]")  # not a set of characters
    assert matches(F + "[*sides = 2*-3-3-*]", F + "[goal = {goal}\\n[dice]\\nsides = 2\\n-3-3-r]")


def test_every_entry_names_a_test_function():
    for entry in SLOW:
        path, _, name = entry.partition("[")[0].partition("::")
        assert path.startswith("tests/test_") and name.startswith("test_"), entry
