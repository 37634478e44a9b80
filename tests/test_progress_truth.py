"""Progress that tells the truth: no count above its total, a time left from
the first second of a fresh study, and ``study status`` before any result."""

import json
import time

import pytest

from cli_runner import cli
from designer.commands._common import CountingBar
from designer.games import load_game
from designer.search import load_study, open_store
from designer.search.eta import PRIOR, estimate, run_estimate, trial
from designer.search.grid import run_grid
from designer.strategy.search import search_rules
from study_helpers import SMALL_DECK, write_study


def _listing(folder):
    """Every path under ``folder`` (folders too) with its size and mtime."""
    return {str(p): (p.is_dir(), p.stat().st_size if p.is_file() else 0, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def shown(monkeypatch):
    """Every state a CountingBar shows: (phase, completed, total) as the
    rich task holds them after each call."""
    states = []
    update, stage = CountingBar.update, CountingBar.stage

    def record(bar):
        task = bar._bar.tasks[-1]
        states.append((task.description, task.completed, task.total))

    def recorded_update(self, advance=None, total=None):
        update(self, advance=advance, total=total)
        record(self)

    def recorded_stage(self, description):
        stage(self, description)
        record(self)

    monkeypatch.setattr(CountingBar, "update", recorded_update)
    monkeypatch.setattr(CountingBar, "stage", recorded_stage)
    return states


def _check_counts(states):
    """No count above its total, at any step; every counted phase ends full."""
    assert states
    for phase, done, total in states:
        assert total is not None or done == 0, (phase, done, total)
        assert total is None or done <= total, (phase, done, total)
    ends = {}
    for phase, done, total in states:
        ends[phase] = (done, total)
    for phase, (done, total) in ends.items():
        if total is not None:
            assert done == total, (phase, done, total)


# -- the bar itself -------------------------------------------------------------

def test_counting_bar_total_grows_with_a_count_that_passes_it():
    with CountingBar("x", disable=True) as bar:
        bar.update(total=5)
        bar.update(advance=3)
        task = bar._bar.tasks[-1]
        assert (task.completed, task.total) == (3, 5)
        bar.update(advance=4)  # more work than announced: the total follows
        task = bar._bar.tasks[-1]
        assert (task.completed, task.total) == (7, 7)
        bar.moved(9, 8)
        task = bar._bar.tasks[-1]
        assert (task.completed, task.total) == (9, 9)
        bar.stage("writing")  # a new phase: no count until it says its size
        task = bar._bar.tasks[-1]
        assert (task.description, task.completed, task.total) == ("writing", 0, None)
        count = bar.counter("card")
        count(total=2)
        count(advance=2)
        task = bar._bar.tasks[-1]
        assert (task.description, task.completed, task.total) == ("card", 2, 2)


def test_counting_bar_clock_runs_after_the_count_is_full():
    """rich's elapsed column stops when the count reaches its total; the
    bar's clock goes on while work continues (e.g. a report's last phase)."""
    from designer.commands._common import _count_and_clock

    count, clock = _count_and_clock()
    with CountingBar("x", disable=True) as bar:
        bar.update(total=1, advance=1)
        task = bar._bar.tasks[-1]
        assert task.finished and count.render(task).plain == "1/1"
        task.fields["since"] = time.monotonic() - 65  # as if shown 65 s ago
        assert clock.render(task).plain == "0:01:05"
        bar.stage("writing")
        assert count.render(bar._bar.tasks[-1]).plain == ""


# -- the strategy search ----------------------------------------------------------

@pytest.mark.parametrize("name, goal", [("pig", 20), ("zombie-yellow", 6)])
def test_search_progress_never_passes_its_total(name, goal):
    """Every candidate scored, polish rounds included, is inside the total
    announced before it was scored; the count ends equal to the total."""
    game = load_game(name, goal=goal)
    calls, state = [], {"done": 0, "total": None}

    def progress(advance=None, total=None):
        if total is not None:
            state["total"] = total
        if advance:
            state["done"] += advance
        calls.append((state["done"], state["total"]))

    from designer.strategy.evaluate import known_rules

    search_rules(game, max_size=3, trials=10, jobs=2, progress=progress,
                 extra=list(known_rules(game.family).values()))
    assert calls[0] == (0, calls[0][1]) and calls[0][1] > 0  # the size comes first
    for done, total in calls:
        assert done <= total
    assert calls[-1][0] == calls[-1][1] > 0
    # polish rounds are planned, so the first total is not far from the end
    assert 0.5 < calls[0][1] / calls[-1][1] < 2


def test_strategy_cli_bar_never_shows_a_count_above_its_total(shown):
    r = cli("strategy", "pig", "--goal", "20", "--max-size", "3", "--trials", "10")
    assert r.returncode == 0, r.stderr
    _check_counts(shown)
    done = [d for _, d, _ in shown]
    assert done[-1] > 0 and done == sorted(done)


# -- the report ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def small_study(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("truth")
    path = write_study(tmp, SMALL_DECK.format(name="truth", workers=1))
    spec = load_study(path)
    run_grid(spec, open_store(spec))
    return path


def test_report_bar_counts_truly_and_names_its_phases(small_study, shown, tmp_path):
    r = cli("report", small_study, "--out", tmp_path / "rep", "--policies", "1",
            "--card-size", "2")
    assert r.returncode == 0, r.stderr
    _check_counts(shown)
    phases = [p for p, _, _ in shown]
    assert phases[0].startswith("solving the best designs' policies")
    assert "strategy card, rules scored" in phases
    assert phases[-1] == "writing the files"  # the bar says what it does to the end


# -- time left before the first result ---------------------------------------------

def test_time_left_is_a_number_before_the_first_result(tmp_path):
    from designer.report.terminal import _TimeLeft, unit_progress

    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="fresh", workers=2)))
    assert estimate(spec, None).seconds is None  # nothing to go on without a trial
    found = trial(spec, started=time.time() - 1.0)
    assert found is not None and found.seconds_per_work > 0
    assert found.startup_seconds >= 2.0  # this process's start, twice (run, then workers)
    assert found.seconds < 10
    e = estimate(spec, None, prior=found)
    assert e.from_trial and e.seconds > 0 and e.designs_left == 14
    assert e.seconds == pytest.approx(
        e.startup_seconds + e.seconds_per_work * e.work_left / 2, rel=1e-9)
    assert not (tmp_path / "fresh.results").exists()  # a trial writes nothing
    # a run that begins with an empty store measures before its bar starts
    store = open_store(spec)
    e = run_estimate(spec, store, workers=2, started=time.time())
    assert e.from_trial and e.seconds > 0 and e.seconds_per_work > 0
    assert float(store.notes()[PRIOR]) == pytest.approx(e.seconds_per_work)
    # status while that run has stored nothing yet reads the noted speed
    running = estimate(spec, store, running=True)
    assert running.from_trial and running.seconds > 0
    bar = unit_progress("fresh", 14, 0, 2, "loky", work={"a": 1.0}, work_done=0.0,
                        seconds_per_work=e.seconds_per_work, startup_seconds=e.startup_seconds)
    with bar:
        assert _TimeLeft().render(bar.progress.tasks[0]).plain.startswith("about ")
    # once designs are stored they calibrate the speed, not the trial
    run_grid(spec, store)
    e = estimate(spec, store)
    assert not e.from_trial and e.seconds == 0.0


# -- status before the first result --------------------------------------------------

def test_status_of_a_study_never_run_answers_and_creates_nothing(tmp_path):
    path = write_study(tmp_path, SMALL_DECK.format(name="never", workers=2))
    before = _listing(tmp_path)
    r = cli("study", "status", path)
    assert r.returncode == 0, r.stderr
    assert "compositions: 0 done, 14 to compute, 0 failed, of 14" in r.stdout
    assert "time left: about" in r.stdout and "not started yet" in r.stdout
    r = cli("study", "status", path, "--verbose")
    assert r.returncode == 0 and "measured on a trial solve" in r.stdout
    st = json.loads(cli("study", "status", path, "--json").stdout)
    assert st["done"] == 0 and st["pending"] == st["units"] == 14 and st["rows"] == 0
    assert isinstance(st["eta_seconds"], float) and st["eta_seconds"] > 0
    assert _listing(tmp_path) == before  # no folder, no store file
    # reading results that do not exist still refuses, in one line, creating nothing
    for args in (("study", "top", path), ("study", "export", path),
                 ("report", path, "--out", tmp_path / "rep")):
        r = cli(*args)
        assert r.returncode == 2 and "no results yet" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
    assert _listing(tmp_path) == before


def test_a_composition_refused_for_memory_carries_no_work():
    """A 4-player rounds deck too large for memory is refused before any
    work: it must not weigh in the time left (it carried 78% of the
    predicted work of the seats study), nor be what a trial times."""
    from pathlib import Path

    from designer.search import load_study
    from designer.search.families import family
    from designer.memory import memory_limit
    from designer.solve.rounds import rounds_bytes

    spec = load_study(Path(__file__).resolve().parents[1] / "studies" / "seats_and_endings.toml")
    fam = family(spec.family)
    args = fam.unit_args(spec)
    big = {"bad": 6, "good": 42, "players": 4, "ending": "rounds"}
    assert rounds_bytes(fam.game(big, max(args["goals"]))) > memory_limit()
    assert fam.work(big, args) == 0.0
    assert fam.work({**big, "ending": "race"}, args) > 0
    assert fam.work({**big, "players": 3}, args) > 0
