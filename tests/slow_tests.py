"""The slow tier: tests left out of the default run (``python -m pytest -q``,
the line CI runs) and run with ``python -m pytest -q -m slow`` (only them)
or ``python -m pytest -q -m ""`` (everything).

A test is listed here only where a cheaper test of the default run goes
through the same code: the larger cases of a grid checked against a slow
reference (more seats, a larger game, the second tie rule), whose smaller
cases stay in the default run, and whole tests whose path another default
test covers (named in the comment). Every entry must match a collected test
when the whole suite is collected (conftest.py refuses a stale entry).

An entry is ``FILE::TEST`` (every case of the test) or ``FILE::TEST[PATTERN]``
(the cases whose parameter id matches PATTERN, ``*`` for any text; ``[`` in
an id is matched literally). The comments' times are seconds on the 2-core
development machine (busy), warm numba cache, when the entry was added.
"""

import fnmatch


def matches(entry, nodeid):
    """Whether the test ``nodeid`` is a case of ``entry`` (see above)."""
    name, _, pattern = entry.partition("[")
    base, _, case = nodeid.partition("[")
    if base != name:
        return False
    # fnmatch reads "[...]" as a set of characters; an id's brackets are text
    return not pattern or fnmatch.fnmatchcase(case[:-1], pattern[:-1].replace("[", "[[]"))


SLOW = [
    # a whole strategy card where scores fall in equal turns: a rule's score
    # and agreement stay (test_strategy_cards_score_a_rule_as_compare_does)
    "tests/test_engine_rounds_falls_match.py::test_a_strategy_card_where_scores_fall_in_rounds",  # 34
    # reference grids: the smaller games, seats and tie rules stay
    "tests/test_engine.py::test_farkle_matches_reference[300-6-0]",  # 29; 400-3-* stay
    "tests/test_engine.py::test_engine_matches_reference[items-penalty-floor]",  # 9; d3-penalty-floor
    "tests/test_engine.py::test_engine_matches_reference[items-second-busts]",  # 9; ...-every-turn
    "tests/test_engine_seat_match.py::test_every_placement_matches_the_reference[choose-carry-4]",  # 26
    "tests/test_engine_seat_match.py::test_every_placement_matches_the_reference[deck-2-3-3]",  # 13
    "tests/test_engine_seat_match.py::test_every_placement_matches_the_reference[aside-forced-3]",  # 7
    "tests/test_engine_seat_match.py::test_where_scores_fall[penalty-3-4]",  # 16; snake-eyes stays
    # three seats in rounds, a rule at one seat: the 2-sided die's 3-3 and
    # 2-4 cases with replayed ties and the deck's start 2 (the same texts at
    # other starts and tie rules stay)
    "tests/test_engine_seat_rounds_match.py::test_a_rule_reading_the_scores_matches_the_reference"
    "[*sides = 2*-3-3-starts0-*]",  # 21 + 11
    "tests/test_engine_seat_rounds_match.py::test_a_rule_reading_the_scores_matches_the_reference"
    "[*bad = 2*-3-3-starts2-replay]",  # 19
    "tests/test_engine_seat_rounds_match.py::test_a_rule_reading_the_scores_matches_the_reference"
    "[*sides = 2*-2-4-starts3-replay]",  # 15
    "tests/test_engine_seat_rounds_match.py::test_profile_matches_reference"
    "[*sides = 2*-True-replay]",  # 11 + 7
    "tests/test_engine_seat_rounds_match.py::test_profile_matches_reference"
    "[*sides = 2*-3-3-starts0-True-earlier-seat]",  # 7
    "tests/test_engine_seat_rounds_match.py::test_profile_matches_reference"
    "[*bad = 2*-3-3-starts3-True-replay]",  # 9
    "tests/test_engine_seats.py::test_engine_matches_reference[deck-2-3-4]",  # 12; deck-2-3-3
    "tests/test_engine_seats.py::test_scores_that_fall_match_reference[penalty-4-4]",  # 16
    "tests/test_engine_seats.py::test_falling_scores_with_two_start_states_solve_the_equations"
    "[4-4]",  # 6-8; 3-5 stays
    "tests/test_engine_length.py::test_lengths_match_the_reference[deck-2-3]",  # 11
    "tests/test_engine_length.py::test_lengths_where_scores_fall[start1]",  # 20; start0 stays
    "tests/test_engine_length.py::test_a_blank_face_is_thrown_though_folded_away[9]",  # 18
    "tests/test_engine_seat_length.py::test_lengths_match_reference[aside-forced-4]",  # 9
    "tests/test_engine_match.py::test_matches_reference[deck-2-3]",  # 11; d3-8, odd, ... stay
    "tests/test_engine_parts.py::test_all_yellow_zombie_rounds_match_reference[replay]",  # 21
    "tests/test_zombie_dice.py::test_matches_reference[counts1-3-3-2-4]",  # 21; counts0 stays
    "tests/test_zombie_seats.py::test_matches_the_reference[3-2-3-6]",  # 7; 3-1-2-4 stays
    "tests/test_rule_expressions.py::test_zombie_decisions_follow_the_formula"
    "[p == 2, j >= 8*]",  # 26; the other formula stays
    "tests/test_play_rules_seat_rounds.py::test_the_hard_level_at_every_seat_wins_what_the_solve_says"
    "[gro-3]",  # 16
    "tests/test_play_rules_seat_rounds.py::test_the_hard_level_at_every_seat_wins_what_the_solve_says"
    "[*-3-replay]",  # 8 + 6; the earlier-seat cases and 4 seats stay
    # 23: the choice of dice in rounds with replayed ties; earlier-seat stays, and
    # replayed ties' recorded decisions are test_recorded_optimal_decisions_...
    "tests/test_engine_rounds_agreement.py::test_a_choice_of_ways_to_go_on_is_a_decision_in_rounds"
    "[replay]",
    "tests/test_progress_truth.py::test_search_progress_never_passes_its_total[zombie-yellow-6]",
    # 13; pig-20 stays
    # whole tests whose path a default test covers
    # 30: the race's table (test_the_play_level_decides_as_the_table) and the
    # rounds table against the reference (test_engine_rounds_match_tables) stay
    "tests/test_engine_policy_tables.py::test_the_play_level_decides_as_the_rounds_table",
    # 30 and 23: full Zombie Dice in seat studies; the support matrix's study
    # cell of Zombie Dice with 3 seats equals a direct solve
    "tests/test_study_seats.py::test_zombie_dice_rows_over_players_equal_direct_solves",
    "tests/test_study_seats.py::test_a_zombie_dice_mix_too_long_for_its_seats_fails_as_a_unit",
    # the support matrix's 4-seat rounds cells that solve large games (the
    # same commands with 3 seats stay): 38, 31, 13, 11
    "tests/test_support_matrix.py::test_cell[study-run-zombie-dice-4-rounds]",
    "tests/test_support_matrix.py::test_cell[strategy-dice-4-rounds]",
    "tests/test_support_matrix.py::test_cell[strategy-deck-4-rounds]",
    "tests/test_support_matrix.py::test_cell[strategy-rules-4-rounds]",
    "tests/test_80_columns.py::test_fits_80_columns[solve pig --players 4 --ending rounds *]",  # 10
]
