"""Time left in a study (designer/search/eta.py): the work model of each
family, its calibration from stored designs, the start-up of a run, the
estimate from a real store, and the progress bar's time-left column.
The end-to-end check on the flagship study (status after an interruption
against the measured resume) is in test_study_run.py."""

import itertools

import pytest

from designer import DeckGame
from designer.search import load_study, open_store
from designer.search.eta import (calibrate, estimate, note_end, note_run, startup,
                                 weighted_median, work_of)
from designer.search.families import PAIR_OVERHEAD, STATE_OVERHEAD, family, unit_key, units
from designer.solve.api import deck_states
from study_helpers import SMALL_DECK, write_study

DECK = family("deck")


def _deck_work(bad, good, goal):
    return DECK.work({"bad": bad, "good": good}, {"goals": (goal,), "komis": (0,)})


def test_deck_work_counts_the_states_of_spec_1_1():
    """Work = the non-terminal states (i, j, k, w, c) of a deck game (k <= c,
    i + k < goal, w < bad, c <= good), counted one by one here, plus the
    per-score-pair overhead."""
    for bad, good, goal in ((1, 1, 3), (2, 3, 5), (3, 5, 4), (1, 7, 6)):
        states = sum(1 for i, j, w, c in itertools.product(range(goal), range(goal), range(bad),
                                                            range(good + 1))
                     for k in range(c + 1) if i + k < goal)
        assert _deck_work(bad, good, goal) == states + PAIR_OVERHEAD * goal * goal
        assert deck_states(DeckGame(bad, good, goal)) == states  # the solver's own count
    # the flagship's sizes: the largest and smallest compositions to 50
    assert _deck_work(10, 39, 50) - PAIR_OVERHEAD * 2500 == deck_states(DeckGame(10, 39, 50))
    assert _deck_work(1, 1, 50) - PAIR_OVERHEAD * 2500 == deck_states(DeckGame(1, 1, 50)) == 7450


def test_dice_work_counts_states_times_outcomes():
    fam = family("dice")
    goal = 7
    states = sum(1 for i, j, k in itertools.product(range(goal), repeat=3) if i + k < goal)
    for faces, bust in ((6, [1]), (8, [1, 2])):
        w = fam.work({"faces": faces, "bust_faces": bust}, {"goals": (goal,), "komis": (0,)})
        scoring = faces - len(bust)
        assert w == states * (scoring + STATE_OVERHEAD) + PAIR_OVERHEAD * goal * goal


def test_bigger_designs_cost_more():
    # decks: more items, or a longer goal, is more work; Red Light (4/24)
    # lies between the smallest and the largest flagship compositions
    assert _deck_work(1, 3, 50) < _deck_work(1, 4, 50) < _deck_work(2, 4, 50)
    assert _deck_work(4, 24, 30) < _deck_work(4, 24, 50)
    assert _deck_work(1, 3, 50) * 20 < _deck_work(4, 24, 50) < _deck_work(10, 39, 50)
    dice = family("dice")
    args = {"goals": (20, 100), "komis": (0,)}
    assert (dice.work({"faces": 4, "bust_faces": [1]}, args)
            < dice.work({"faces": 12, "bust_faces": [1]}, args))
    zombie = family("zombie")
    args = {"goals": (13,), "komis": (0,)}
    z = {"brains": 2, "shotguns": 2, "dice": 3, "bust_shotguns": 3}
    # a die without footprints has fewer roll outcomes to sum over
    assert zombie.work({**z, "footprints": 0}, args) < zombie.work({**z, "footprints": 2}, args)
    assert zombie.work({**z, "footprints": 2}, args) < zombie.work(
        {**z, "footprints": 2}, {"goals": (20,), "komis": (0,)})
    wager = family("wager")
    w = {"max_raise": 5, "ante": 1, "start": 100, "pack": 52}
    assert (wager.work({**w, "rounds": 10}, {"games": 100, "seed": 0})
            < wager.work({**w, "rounds": 26}, {"games": 100, "seed": 0}))


def test_grid_starts_with_the_largest_designs(tmp_path):
    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="o", workers=1)))
    work = work_of(spec)
    order = [work[unit_key(u)] for u in units(spec)]
    assert len(order) == 14 and order == sorted(order, reverse=True)


def test_weighted_median():
    assert weighted_median([5.0, 1.0, 3.0], [1, 1, 10]) == 3.0
    assert weighted_median([1.0, 2.0], [1, 1]) == 1.0  # the smallest reaching half
    assert weighted_median([4.0, 2.0, 9.0], [1, 1, 1]) == 4.0
    with pytest.raises(ValueError):
        weighted_median([], [])


def test_calibration_leaves_out_a_worker_loading_its_kernels():
    r = 3e-8
    work = [1e6, 2e6, 5e6, 4e6, 1e4]
    seconds = [r * w for w in work]
    assert calibrate(work, seconds) == pytest.approx(r, rel=1e-12)
    # the smallest design took 0.5 s (its worker loaded the kernels first):
    # left out, where a plain ratio of sums would more than double
    seconds[-1] = 0.5
    assert calibrate(work, seconds) == pytest.approx(r, rel=1e-12)
    assert sum(seconds) / sum(work) > 2 * r
    # a machine twice as slow for the 2e6 and 4e6 designs: those spells
    # recur, so they count, weighted by work: (2 * 6e6 + 6e6) / 12e6 = 1.5 r
    slow = [s * (2 if k % 2 else 1) for k, s in enumerate(seconds[:4])]
    assert calibrate(work[:4], slow) == pytest.approx(1.5 * r, rel=1e-12)
    assert calibrate([], []) is None
    assert calibrate([0.0], [1.0]) is None  # nothing to calibrate with


def test_startup_of_a_run():
    # run started at 100; a design of an older run (finished at 99) does not
    # count; the design finished at 104 started at 104 - min(3, 1) = 103
    assert startup(100.0, [99.0, 104.0, 106.0], [1.0, 3.0, 1.0], [1.0, 1.0, 1.0]) == 3.0
    # measured faster than predicted: its true start (finished - seconds) counts
    assert startup(100.0, [104.0], [0.5], [2.0]) == 3.5
    assert startup(100.0, [100.5], [2.0], [2.0]) == 0.0  # never below 0
    assert startup(100.0, [90.0], [1.0], [1.0]) == 0.0  # nothing stored by the run


def _fake_result(key, seconds):
    return {"key": key, "rows": [], "seconds": seconds, "residual": 0.0, "error": None}


def test_estimate_from_a_store(tmp_path):
    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="e", workers=2)))
    store = open_store(spec)
    work = work_of(spec)
    keys = [unit_key(u) for u in units(spec)]
    e = estimate(spec, store)
    assert e.seconds is None and e.designs_left == 14  # nothing to calibrate from
    assert e.work_left == pytest.approx(sum(work.values()))
    r = 2e-7
    for k in keys[:4]:
        store.commit_unit(_fake_result(k, r * work[k]))
    store.mark_failed({"key": keys[4], "seconds": 0.1, "error": "MemoryError: injected"})
    left = keys[5:]
    w_left = sum(work[k] for k in left)
    e = estimate(spec, store)
    assert (e.designs_left, e.workers, e.startup_seconds) == (9, 2, 0.0)
    assert e.seconds_per_work == pytest.approx(r, rel=1e-12)
    assert e.work_left == pytest.approx(w_left)
    assert e.seconds == pytest.approx(r * w_left / 2, rel=1e-12)
    assert estimate(spec, store, workers=1).seconds == pytest.approx(r * w_left, rel=1e-12)
    e = estimate(spec, store, retry_failed=True)
    assert e.designs_left == 10
    assert e.seconds == pytest.approx(r * (w_left + work[keys[4]]) / 2, rel=1e-12)
    # a run that began 2.5 s before its first design started solving
    st = store.unit_stats().set_index("key")
    began = min(st.finished[k] - r * work[k] for k in keys[:4])
    note_run(store, began - 2.5)
    e = estimate(spec, store)
    assert e.startup_seconds == pytest.approx(2.5, abs=1e-6)
    assert e.seconds == pytest.approx(2.5 + r * w_left / 2, abs=1e-6)
    assert estimate(spec, store, running=True).seconds == pytest.approx(r * w_left / 2)
    # a completed run ended 1.5 s after its last design (ranking, listing)
    note_end(store, st.finished.max() + 1.5)
    e = estimate(spec, store)
    assert e.tail_seconds == pytest.approx(1.5, abs=1e-6)
    assert e.seconds == pytest.approx(2.5 + r * w_left / 2 + 1.5, abs=1e-6)
    assert estimate(spec, store, running=True).seconds == pytest.approx(r * w_left / 2 + 1.5,
                                                                        abs=1e-6)
    store.set_note("tail_seconds", "0.0")
    # the last designs: no more processes than designs
    for k in left[:-1]:
        store.commit_unit(_fake_result(k, r * work[k]))
    e = estimate(spec, store, running=True)
    assert e.designs_left == 1 and e.seconds == pytest.approx(r * work[left[-1]], rel=1e-9)
    store.commit_unit(_fake_result(left[-1], 0.0))
    assert estimate(spec, store).seconds == 0.0


def test_notes_survive_reopening(tmp_path):
    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="n", workers=1)))
    store = open_store(spec)
    assert store.notes() == {}
    note_end(store, 20.0)  # nothing stored: no tail to measure
    assert store.notes() == {}
    note_run(store, 12.5)
    note_run(store, 14.0)  # the last run replaces the one before
    store.close()
    assert open_store(spec).notes() == {"run_started": "14.0"}


def test_progress_bar_moves_by_work():
    from designer.report.terminal import _TimeLeft, unit_progress

    # 3 designs, 1 stored (work 600); 2 left of work 100 and 300; calibrated
    # 0.1 s per unit of work in each of 2 processes: 20 units of work per second
    bar = unit_progress("x", 3, 1, 2, "loky", work={"a": 100.0, "b": 300.0}, work_done=600.0,
                        seconds_per_work=0.1)
    col = _TimeLeft()
    with bar as advance:
        task = bar.progress.tasks[0]
        assert (task.total, task.completed) == (1000.0, 600.0)
        assert col.render(task).plain == "about 20 s left"
        advance({"key": "b"})  # the large one: 300 of the 400 left
        assert task.completed == 900.0 and task.fields["count"] == 2
        assert col.render(task).plain == "about 5 s left"  # 100 / 20, still the prior speed
        advance({"key": "a"})
        assert col.render(task).plain == "done"
    # before the first design, what is left of the start-up counts too
    bar = unit_progress("x", 3, 1, 2, "loky", work={"a": 100.0, "b": 300.0}, work_done=600.0,
                        seconds_per_work=0.1, startup_seconds=30.0)
    with bar:
        left = col.render(bar.progress.tasks[0]).plain
        assert left in ("about 50 s left", "about 49 s left")  # 30 + 400 / 20
    no_prior = unit_progress("x", 2, 0, 1, "loky", work={"a": 1.0, "b": 1.0})
    with no_prior:
        assert _TimeLeft().render(no_prior.progress.tasks[0]).plain == "estimating time left"


@pytest.mark.parametrize("budget, solves", [(1e-9, 2), (60.0, None)])
def test_a_trial_of_slow_designs_times_one_solve(tmp_path, monkeypatch, budget, solves):
    """Where even the study's smallest design takes longer than the trial's
    rounds (twice ``budget``) and one solve runs at a time, the trial's
    second solve is its measure: two solves in all (the first loads the
    kernels), not a third of the same design. With time to spare it makes
    rounds as before (more than two solves)."""
    from designer.search import eta, families

    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="t", workers=1)))
    calls = []
    real = families.evaluate_unit

    def counted(family_name, unit, args):
        calls.append(unit_key(unit))
        return real(family_name, unit, args)

    monkeypatch.setattr(families, "evaluate_unit", counted)
    found = eta.trial(spec, workers=1, budget=budget)
    assert found is not None and found.seconds_per_work > 0
    if solves is not None:
        assert len(calls) == solves and len(set(calls)) == 1
    else:
        assert len(calls) > 2
