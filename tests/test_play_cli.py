"""``designer play`` driven through a pseudo-terminal with pexpect: whole
games, test mode, bad keys, quitting, statistics and the refusal to run
without a terminal. Timeouts are generous and nothing asserts on time."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TIMEOUT = 60
SMALL = ["deck", "--bad", "2", "--good", "4", "--goal", "5"]
#: The human's prompt: the turn total and whether holding is offered.
MOVE = r"\(turn total (\d+)\): d or space = (?:draw|roll)(, h = hold)?"


def spawn(args, data_dir, stderr=None, preexec_fn=None):
    """``designer play ARGS`` in a pseudo-terminal; ``stderr``: a file that
    takes its standard error instead of the terminal."""
    env = {**os.environ, "DESIGNER_DATA_DIR": str(data_dir), "COLUMNS": "100", "LINES": "50"}
    env.pop("NO_COLOR", None)
    env.pop("PYTHONUNBUFFERED", None)  # stdout buffered, as users run it
    command, argv = sys.executable, ["-m", "designer", "play", *args]
    if stderr is not None:  # exec: play keeps the pid (and the session) sh had
        command, argv = "sh", ["-c", 'exec "$0" "$@" 2>"$PLAY_STDERR"', command, *argv]
        env["PLAY_STDERR"] = str(stderr)
    child = pexpect.spawn(command, argv, cwd=str(ROOT), env=env, encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(50, 100), preexec_fn=preexec_fn)
    return child


def finish(child):
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def hang_up(child):
    """Close the terminal as a terminal window closing does: the kernel hangs
    up the pseudo-terminal (SIGHUP to play, unless it ignores it; EIO on its
    reads and writes). Wait for play to end; returns (exit status, signal)."""
    child.ptyproc.fileobj.close()  # the pty master; close() would also signal play
    deadline = time.monotonic() + TIMEOUT
    while child.isalive():  # reaps play once it has ended
        if time.monotonic() > deadline:
            child.kill(signal.SIGKILL)
            raise AssertionError("designer play did not end after the hang-up")
        time.sleep(0.05)
    child.close()
    return child.exitstatus, child.signalstatus


def ignore_sighup():
    """preexec_fn: play starts with SIGHUP ignored, as under nohup."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def clean(text):
    return ANSI.sub("", text)


def read_stats(data_dir):
    return json.loads((data_dir / "play-stats.json").read_text())


def test_full_small_game_is_played_to_the_end_and_recorded(tmp_path):
    child = spawn([*SMALL, "--seed", "1", "--no-pause", "--first", "human"], tmp_path)
    child.expect("level medium")
    for _ in range(200):
        i = child.expect([MOVE, "You win", "The computer wins"])
        if i > 0:
            verdict = child.after
            break
        k, can_hold = int(child.match.group(1)), bool(child.match.group(2))
        child.send("h" if can_hold and k >= 2 else "d")
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    tail = clean(child.before)
    assert "Your costliest decision" in tail or "No mistake" in tail
    assert "Your record at level medium on this design: 1 game" in tail
    child.close()
    assert child.exitstatus == 0
    counts = read_stats(tmp_path)["designs"]["deck:bad=2,good=4,goal=5,komi=0"]["levels"]["medium"]
    assert {k: counts[k] for k in ("games", "wins", "quits")} == {
        "games": 1, "wins": int(verdict == "You win"), "quits": 0}
    # every valued decision is kept: a deck view (i, j, k, w, c) and the action
    assert counts["decisions"] == len(counts["moves"]) > 0 and counts["loss"] >= 0
    assert all(len(m) == 6 and m[-1] in ("draw", "hold") and m[2] > 0 for m in counts["moves"])

    # the same seed and the same keys replay the same game
    child = spawn([*SMALL, "--seed", "1", "--no-pause", "--first", "human"], tmp_path)
    for _ in range(200):
        i = child.expect([MOVE, "You win", "The computer wins"])
        if i > 0:
            assert child.after == verdict
            break
        k, can_hold = int(child.match.group(1)), bool(child.match.group(2))
        child.send("h" if can_hold and k >= 2 else "d")
    assert finish(child) == 0
    levels = read_stats(tmp_path)["designs"]["deck:bad=2,good=4,goal=5,komi=0"]["levels"]
    assert levels["medium"]["games"] == 2

    # --stats shows the table (no terminal needed)
    out = subprocess.run([sys.executable, "-m", "designer", "play", "--stats"], cwd=ROOT,
                         env={**os.environ, "DESIGNER_DATA_DIR": str(tmp_path), "COLUMNS": "120"},
                         capture_output=True, text=True, timeout=TIMEOUT)
    assert out.returncode == 0, out.stderr
    assert "deck 2 bad / 4 good" in out.stdout and "medium" in out.stdout
    row = next(line for line in out.stdout.splitlines() if "medium" in line)
    wins = levels["medium"]["wins"]
    assert re.search(rf"\b2\b.*\b{wins}\b.*{100 * wins / 2:.1f}%", row)
    n, loss = levels["medium"]["decisions"], levels["medium"]["loss"]
    assert re.search(rf"{100 * wins / 2:.1f}%.*\b{n}\b.*{100 * loss / n:.2f}.*"
                     rf"{100 * loss / 2:.2f}", row), row
    # the strategy-card rule closest to the recorded moves, with its agreement
    text = " ".join(out.stdout.split())
    m = re.search(r"your decisions agree (\d+\.\d)% with the size-(\d+) card rule", text)
    assert m and 0 <= float(m.group(1)) <= 100, text


def test_bad_keys_are_ignored_with_a_hint_and_quit_records_a_loss(tmp_path):
    child = spawn([*SMALL, "--seed", "4", "--no-pause", "--level", "easy"], tmp_path)
    child.expect(MOVE)
    child.send("x")
    child.expect("Key 'x' does nothing here")
    child.send("h")                                # holding before the first draw
    child.expect("must draw at least once")
    child.send("d")
    child.expect(MOVE)                             # after a good draw or the computer's turn
    child.send("q")
    child.expect("You quit")
    child.expect("Recorded as a loss")
    assert finish(child) == 0
    levels = read_stats(tmp_path)["designs"]["deck:bad=2,good=4,goal=5,komi=0"]["levels"]
    assert levels["easy"] == {"games": 1, "wins": 0, "quits": 1}

    # quitting before any move records nothing
    child = spawn([*SMALL, "--no-pause", "--level", "hard"], tmp_path)
    child.expect(MOVE)
    child.send("q")
    child.expect("nothing recorded")
    assert finish(child) == 0
    assert "hard" not in read_stats(tmp_path)["designs"]["deck:bad=2,good=4,goal=5,komi=0"]["levels"]


@pytest.mark.parametrize("sighup", ["delivered", "ignored"])
def test_a_hang_up_mid_game_records_a_quit_and_exits_129(tmp_path, sighup):
    """The terminal closes after the human's first move: SIGHUP delivered (the
    usual case) or ignored (nohup: only EIO on reads, writes and termios calls).
    The game is recorded as a quit, play exits with 128 + SIGHUP, and nothing
    goes to stderr (no internal error, no traceback)."""
    err = tmp_path / "stderr.txt"
    child = spawn([*SMALL, "--seed", "4", "--no-pause", "--level", "easy"], tmp_path,
                  stderr=err, preexec_fn=ignore_sighup if sighup == "ignored" else None)
    child.expect(MOVE)
    child.send("d")
    child.expect(MOVE)                             # as in the quit test above
    assert hang_up(child) == (129, None)
    assert err.read_text() == ""
    levels = read_stats(tmp_path)["designs"]["deck:bad=2,good=4,goal=5,komi=0"]["levels"]
    assert levels["easy"] == {"games": 1, "wins": 0, "quits": 1}


@pytest.mark.parametrize("sighup", ["delivered", "ignored"])
def test_a_hang_up_before_the_first_move_records_nothing(tmp_path, sighup):
    err = tmp_path / "stderr.txt"
    child = spawn([*SMALL, "--no-pause", "--first", "human"], tmp_path, stderr=err,
                  preexec_fn=ignore_sighup if sighup == "ignored" else None)
    child.expect(MOVE)
    assert hang_up(child) == (129, None)
    assert err.read_text() == ""
    assert not (tmp_path / "play-stats.json").exists()


ITEM = r"take a real item and type it: g = good, b = bad"


def test_test_mode_takes_every_draw_from_the_keyboard(tmp_path):
    """Both players' items are typed; the easy computer holds at 2; an
    impossible item is refused; the human wins; nothing is recorded."""
    child = spawn(["deck", "--bad", "2", "--good", "4", "--goal", "3", "--level", "easy",
                   "--test-mode", "--no-pause", "--first", "human"], tmp_path)
    keys = [
        (MOVE, "d"), (ITEM, "g"),                  # you: k = 1
        (MOVE, "d"), (ITEM, "g"),                  # you: k = 2
        (MOVE, "h"),                               # you hold: 2
        ("Computer draws", None), (ITEM, "g"),     # computer: k = 1
        ("Computer draws", None), (ITEM, "g"),     # computer: k = 2, then holds: 2
        (MOVE, "d"), (ITEM, "x"),                  # the hint comes under the prompt
        ("is not an item", "g"),                   # all 4 good items are out:
        ("no good item is left", "b"),             # you: bad, 1 of 2
        ("Computer draws", None), (ITEM, "b"),     # last bad item: reshuffle
        ("returned and shuffled", None),
        (MOVE, "d"), (ITEM, "g"),                  # you reach 3
    ]
    for pattern, key in keys:
        child.expect(pattern)
        if key:
            child.send(key)
    child.expect("You win")
    child.expect("Test-mode games are not added")
    assert finish(child) == 0
    assert not (tmp_path / "play-stats.json").exists()


def test_computer_first_and_a_dice_game(tmp_path):
    child = spawn(["pig", "--goal", "12", "--seed", "2", "--no-pause", "--first", "computer",
                   "--level", "hard"], tmp_path)
    child.expect("Computer \\(first\\)")
    for _ in range(300):
        i = child.expect([MOVE, "You win", "The computer wins"])
        if i > 0:
            break
        child.send("h" if int(child.match.group(1)) >= 6 else " ")
    else:
        raise AssertionError("the game did not end")
    assert finish(child) == 0
    assert read_stats(tmp_path)["designs"]["dice:faces=6,bust_faces=1,goal=12,komi=0"]


@pytest.mark.parametrize("args,message", [
    (["red-light"], "stdin is not a terminal"),
    ([], "name a game to play"),
    (["persian-monarchs"], "designer play does not take wagering games (Persian Monarchs)"),
    (["red-light", "--level", "expert"], "invalid --level='expert'"),
    (["zombie-yellow", "--level", "rule:x.toml"], "rule:FILE plays deck, dice and rules games"),
    (["red-light", "--level", "rule:missing.toml"], "missing.toml"),
    (["deck", "--bad", "0", "--good", "3", "--goal", "5"], "invalid bad=0"),
])
def test_refusals_are_one_line(tmp_path, args, message):
    out = subprocess.run([sys.executable, "-m", "designer", "play", *args], cwd=ROOT,
                         env={**os.environ, "DESIGNER_DATA_DIR": str(tmp_path)},
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT)
    assert out.returncode == 2
    assert out.stderr.startswith("designer: error: ") and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_an_unreadable_stats_file_does_not_hide_the_game(tmp_path):
    (tmp_path / "play-stats.json").write_text("{broken")
    child = spawn([*SMALL, "--seed", "4", "--no-pause"], tmp_path)
    child.expect(MOVE)
    child.send("d")
    child.expect(MOVE)
    child.send("q")
    child.expect("You quit")
    child.expect("Not recorded")
    child.expect("move the file aside")
    assert finish(child) == 0
    assert (tmp_path / "play-stats.json").read_text() == "{broken"
