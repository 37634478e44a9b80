"""The game loop of designer/play/session.py without a terminal: scripted keys,
a view that records what it is asked to draw, and the rules engine replayed
independently to check every step; plus the structure rule that
``designer play`` and ``designer compare`` do not branch on the game family."""

import ast
import errno
import os
import signal
from pathlib import Path

import numpy as np
import pytest

from designer import DeckGame, DesignError, load_game
from designer.play import make_player, new_game, random_outcome, step
from designer.play.session import HANGUP_STATUS, Session, check_playable
from designer.play.stats import design_key, load
from designer.solve import solve

GAME = DeckGame(2, 4, 5)


class ScriptedKeys:
    """Keys from a list; records flushes."""

    def __init__(self, keys):
        self.keys = list(keys)
        self.flushes = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def flush(self):
        self.flushes += 1

    def read(self):
        return self.keys.pop(0) if self.keys else ""


class RecordingView:
    def __init__(self):
        self.boards, self.events, self.result = [], [], None

    def show_board(self, state, names, title, log, last=None, prompt=None, hint=None):
        self.boards.append((state, prompt, hint))

    def describe_event(self, event, state, names):
        self.events.append((event, state))
        return f"{event.action} {event.outcome}"

    def clear_screen(self):
        pass

    def show_result(self, state, names, human, worst, decisions, counts, level, quit=False,
                    not_recorded=None, analysed=True):
        self.result = dict(state=state, human=human, worst=worst, decisions=decisions,
                           counts=counts, quit=quit, not_recorded=not_recorded,
                           analysed=analysed)


@pytest.fixture(scope="module")
def solution():
    return solve(GAME)


def _session(solution, keys, tmp_path, monkeypatch, **kw):
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    view = RecordingView()
    s = Session(solution, make_player("medium", solution), view, level="medium", pause=0.0,
                seed=3, keys=ScriptedKeys(keys), **kw)
    return s, view


def test_a_scripted_game_follows_the_rules_and_is_recorded(solution, tmp_path, monkeypatch):
    keys = ["x", "h", "d"] * 200  # a bad key, a hold where it is refused or taken, a draw
    s, view = _session(solution, keys, tmp_path, monkeypatch)
    assert s.run() == 0
    r = view.result
    assert r["state"].over and not r["quit"]
    decisions = r["decisions"]
    assert decisions  # the script holds and draws where a choice exists
    assert r["counts"] == {"games": 1, "wins": int(r["state"].winner == 0), "quits": 0,
                           "decisions": len(decisions),
                           "loss": pytest.approx(sum(d.cost for d in decisions), abs=1e-15)}
    moves = load(tmp_path / "play-stats.json")["designs"][design_key(GAME)]["levels"]["medium"]["moves"]
    assert moves == [[*d.state.mover_view(), d.chosen] for d in decisions]
    # replay every event through the engine with the same random stream
    rng = np.random.default_rng(3)
    state = new_game(GAME)
    for event, after in view.events:
        outcome = None if event.action == "hold" else random_outcome(state, rng)
        state, ev = step(state, event.action, outcome)
        assert ev == event and state == after
    assert state == r["state"]
    # the bad key got a hint naming the keys; the human's decisions were valued
    assert any(h and "does nothing here" in h for _, _, h in view.boards)
    assert all(d.chosen in ("draw", "hold") for d in r["decisions"])


def test_quit_before_moving_records_nothing(solution, tmp_path, monkeypatch):
    s, view = _session(solution, ["q"], tmp_path, monkeypatch)
    assert s.run() == 0
    assert view.result["quit"] and view.result["counts"] is None
    assert "nothing recorded" in view.result["not_recorded"]
    assert not (tmp_path / "play-stats.json").exists()


class HangUpKeys(ScriptedKeys):
    """Scripted keys, then the terminal hangs up: SIGHUP to this process
    (``sighup``; only while Session.run catches it), or, with SIGHUP ignored
    (nohup), the end of input; from then on writes fail with EIO."""

    def __init__(self, keys, sighup):
        super().__init__(keys)
        self.sighup, self.hung_up = sighup, False

    def read(self):
        if self.keys:
            return super().read()
        self.hung_up = True
        if not self.sighup:
            return ""
        assert signal.getsignal(signal.SIGHUP) not in (signal.SIG_DFL, signal.SIG_IGN, None)
        os.kill(os.getpid(), signal.SIGHUP)  # its handler raises before kill returns
        raise AssertionError("SIGHUP did not stop the game")


class DeadTerminalView(RecordingView):
    """A view whose writes fail with EIO after the hang-up."""

    def __init__(self, keys):
        super().__init__()
        self.keys = keys

    def show_board(self, *args, **kw):
        if self.keys.hung_up:
            raise OSError(errno.EIO, "Input/output error")
        super().show_board(*args, **kw)

    def show_result(self, *args, **kw):
        raise AssertionError("show_result wrote to the dead terminal")


@pytest.mark.parametrize("sighup", [True, False])
def test_a_hang_up_records_a_quit_and_writes_nothing_more(solution, tmp_path, monkeypatch,
                                                          request, sighup):
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    # a terminal's default disposition, whatever this run inherited (under
    # nohup SIGHUP starts ignored, and the session rightly leaves it so)
    inherited = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    request.addfinalizer(lambda: signal.signal(signal.SIGHUP, inherited))

    def run(keys):
        keys = HangUpKeys(keys, sighup)
        s = Session(solution, make_player("medium", solution), DeadTerminalView(keys),
                    level="medium", pause=0.0, seed=3, keys=keys)
        assert s.run() == HANGUP_STATUS
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_DFL  # restored
        path = tmp_path / "play-stats.json"
        return load(path)["designs"][design_key(GAME)]["levels"]["medium"] if path.exists() else None

    assert run([]) is None  # before the human's first move: nothing recorded
    counts = run(["d", "d"])  # the human draws twice, then the hang-up
    assert (counts["games"], counts["wins"], counts["quits"]) == (1, 0, 1)


def test_test_mode_reads_each_item(solution, tmp_path, monkeypatch):
    # human: draw, the item typed is bad -> the turn passes to the computer
    s, view = _session(solution, ["d", "z", "b", "q"], tmp_path, monkeypatch, test_mode=True)
    assert s.run() == 0
    event, _ = view.events[0]
    assert event.action == "draw" and event.outcome == "bad" and event.bust
    assert any(h and "is not an item" in h for _, _, h in view.boards)
    assert "not added to the statistics" in view.result["not_recorded"]


def test_check_playable():
    check_playable(GAME)
    with pytest.raises(DesignError,
                       match=r"designer play does not take wagering games \(Persian Monarchs\)"):
        check_playable(load_game("persian-monarchs"))
    check_playable(load_game("zombie-yellow"))  # tests/test_play_zombie.py plays it
    with pytest.raises(DesignError, match="at most 9 faces, not 12"):
        check_playable(load_game("dice", faces=12, goal=20), test_mode=True)


def test_commands_do_not_branch_on_the_family():
    """compare and play hand the game to the policy/solve/play layers; any
    family-specific rule lives there."""
    root = Path(__file__).resolve().parents[1] / "designer" / "commands"
    for name in ("compare.py", "play.py"):
        tree = ast.parse((root / name).read_text())
        uses = [n.lineno for n in ast.walk(tree)
                if isinstance(n, ast.Attribute) and n.attr == "family"]
        assert not uses, f"designer/commands/{name} reads .family at lines {uses}"
