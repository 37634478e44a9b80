"""Single key presses from the terminal, for :mod:`designer.play.session`.

The terminal is put in cbreak mode (one key at a time, no echo, Ctrl-C still
interrupts) and restored on exit; keys are read straight from the file
descriptor so that an escape sequence or a multi-byte character comes back as
one (bad) key rather than several. After a hang-up (the terminal closed) its
termios calls fail with EIO: there is nothing left to restore or flush, so
those failures are ignored.
"""

import os
import sys

#: Keys that draw (roll), hold and quit; "" is end of input.
DRAW_KEYS = ("d", "D", " ")
HOLD_KEYS = ("h", "H")
QUIT_KEYS = ("q", "Q", "\x04", "")  # q, Ctrl-D, end of input


class Keys:
    """Single key presses from the terminal (cbreak mode: Ctrl-C still works)."""

    def __enter__(self):
        import termios
        import tty

        self.fd = sys.stdin.fileno()
        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc):
        import termios

        try:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
        except termios.error:  # the terminal hung up: nothing to restore
            pass
        return False

    def flush(self):
        """Forget keys pressed while the computer was playing."""
        import termios

        try:
            termios.tcflush(self.fd, termios.TCIFLUSH)
        except termios.error:  # the terminal hung up: the next read ends the game
            pass

    def pending(self):
        """The keys pressed and not read yet (without waiting), consumed."""
        import select

        got = b""
        try:
            while select.select([self.fd], [], [], 0)[0]:
                more = os.read(self.fd, 64)
                if not more:
                    return got.decode("utf-8", errors="replace") + "\x04"  # end of input
                got += more
        except OSError:  # the terminal went away: as end of input
            return got.decode("utf-8", errors="replace") + "\x04"
        return got.decode("utf-8", errors="replace")

    def read(self):
        """One key as a string; an escape sequence or a multi-byte
        character comes back whole (and is then a bad key); "" at end of input."""
        import select

        try:
            b = os.read(self.fd, 1)
        except OSError:  # the terminal went away (hang-up): treat as end of input
            return ""
        if b and (b == b"\x1b" or b[0] >= 0x80):
            while select.select([self.fd], [], [], 0.02)[0]:
                more = os.read(self.fd, 16)
                if not more:
                    break
                b += more
        return b.decode("utf-8", errors="replace")
