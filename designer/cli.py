"""The ``designer`` command line: argparse in, rich out, no logic of its own.

Sub-commands live in :mod:`designer.commands`. Every user error is a
:class:`designer.errors.DesignError`; it is printed as ONE line on stderr and
the process exits with status 2 (as argparse does for bad usage, whose
messages are shortened to one line too). Nothing is written when a command
fails on its input: commands validate everything before they write.

``DESIGNER_DEBUG=1`` in the environment re-raises instead, so bug reports
carry the traceback. A closed output pipe (``designer solve red-light --json
| head -c 10``) ends the command quietly, as the Python documentation
recommends for SIGPIPE.
"""

import argparse
import importlib
import os
import re
import sys
import textwrap

from designer.commands import COMMANDS
from designer.errors import DesignError, SolverError
from designer.first_run import on_first_compile
from designer.memory import memory_limit


class WholeWords(argparse.HelpFormatter):
    """Help text wrapped between words only: a name such as
    ``great-rolled-ones`` or ``rules-file`` is never split at a hyphen,
    so it can be read, searched and copied as it is typed."""

    def _split_lines(self, text, width):
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.wrap(text, width, break_on_hyphens=False)

    def _fill_text(self, text, width, indent):
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False)


class DesignerParser(argparse.ArgumentParser):
    """argparse with one-line errors (the usage block is left to --help) and
    help wrapped between whole words (:class:`WholeWords`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", WholeWords)
        super().__init__(*args, **kwargs)

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def build_parser():
    parser = DesignerParser(
        prog="designer",
        description="Find the rules that make a push-your-luck game fair: exact optimal play, "
                    "first-player win probability, fair komi, game length, design studies "
                    "and reports.")
    from designer import __version__

    parser.add_argument("--version", action="version", version=f"designer {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"designer.commands.{name}").register(sub)
    _say_what_each_takes(sub)
    return parser


def _say_what_each_takes(sub):
    """End each game-taking command's description with the games it takes,
    from the support table (the same words as its refusals)."""
    from designer.support import SUPPORT, sentence

    for command in SUPPORT:
        p = sub
        for word in command.split():
            p = (p if isinstance(p, argparse._SubParsersAction)
                 else next(a for a in p._actions
                           if isinstance(a, argparse._SubParsersAction))).choices[word]
        p.description = f"{p.description} Takes {sentence(command)}."


def _one_line(text):
    return " ".join(str(text).split())


def _fail(message, status=2):
    print(f"designer: error: {_one_line(message)}", file=sys.stderr)
    return status


def _debug():
    return os.environ.get("DESIGNER_DEBUG", "") not in ("", "0")


_KOMI_LIST = re.compile(r"-\d+(,-?\d+)*|-?\d+(,-?\d+)+")


def _join_komi(argv):
    """``--komi -1,0,0`` as ``--komi=-1,0,0``: argparse takes a value that
    starts with ``-`` and is not a plain number for an option."""
    out, rest = [], list(argv)
    while rest:
        a = rest.pop(0)
        if a == "--komi" and rest and _KOMI_LIST.fullmatch(rest[0]):
            a = f"--komi={rest.pop(0)}"
        out.append(a)
    return out


def _compiling():
    print("designer: compiling the solver for this kind of game: once, on its first run "
          "(up to a minute or two); later runs load it in a second", file=sys.stderr, flush=True)


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(_join_komi(sys.argv[1:] if argv is None else argv))
    # a person at a terminal is told why a first run sits silent
    on_first_compile(_compiling if sys.stderr.isatty() else None)
    try:
        memory_limit()  # a bad DESIGNER_MEMORY_LIMIT is refused before any work, by every command
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe shows up here, not at exit
        return status
    except BrokenPipeError:
        # Python docs, "Note on SIGPIPE": point stdout at devnull so the
        # interpreter's final flush does not raise again, then exit quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print("designer: interrupted", file=sys.stderr)
        return 130
    except DesignError as exc:
        if _debug():
            raise
        return _fail(exc)
    except OSError as exc:  # a file the user named: missing, a directory, unwritable
        if _debug():
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(f"{where}{exc.strerror or exc}")
    except SolverError as exc:  # not the user's doing: say so, and what to report
        if _debug():
            raise
        return _fail(f"{SolverError.LABEL}: {exc}", status=1)
    except MemoryError:
        if _debug():
            raise
        return _fail("out of memory: choose a smaller game or design space")
    except Exception as exc:  # a bug: still one line, the traceback on request
        if _debug():
            raise
        return _fail(f"internal error ({type(exc).__name__}: {exc}); run again with "
                     "DESIGNER_DEBUG=1 for the traceback and report it", status=1)


if __name__ == "__main__":
    sys.exit(main())
