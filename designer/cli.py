"""The ``designer`` command line: argparse in, rich out, no logic of its own.

Sub-commands live in :mod:`designer.commands`. Every user error is a
:class:`designer.errors.DesignError`; it is printed as one line and the
process exits with status 2 (as argparse does for bad usage).
"""

import argparse
import importlib
import sys

from designer.commands import COMMANDS
from designer.errors import DesignError


def build_parser():
    parser = argparse.ArgumentParser(
        prog="designer",
        description="Find the rules that make a push-your-luck game fair: exact optimal play, "
                    "first-player win probability, fair komi, game length, design studies "
                    "and reports.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"designer.commands.{name}").register(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except DesignError as exc:
        print(f"designer: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("designer: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
