"""Keys typed while the computer plays: q quits at once, other keys are
dropped with a hint (a stray key never moves for the human)."""

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: A deck where the computer's first turn takes several draws (each 0.9 s).
GAME = ["deck", "--bad", "4", "--good", "24", "--goal", "30", "--seed", "3", "--first", "computer"]


def _spawn(tmp_path):
    env = {**os.environ, "DESIGNER_DATA_DIR": str(tmp_path), "COLUMNS": "100", "LINES": "50"}
    return pexpect.spawn(sys.executable, ["-m", "designer", "play", *GAME], cwd=str(ROOT), env=env,
                         encoding="utf-8", timeout=60, dimensions=(50, 100))


def test_q_during_the_computers_turn_quits(tmp_path):
    child = _spawn(tmp_path)
    child.expect(r"Computer (draws|holds)")
    child.send("q")
    child.expect("You quit before your first move")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_other_keys_during_the_computers_turn_are_dropped_with_a_hint(tmp_path):
    child = _spawn(tmp_path)
    child.expect(r"Computer (draws|holds)")
    child.send("dd")
    child.expect(r"Your move")
    child.expect("2 keys typed during the computer's turn ignored")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
