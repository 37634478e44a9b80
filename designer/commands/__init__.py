"""Sub-commands of the ``designer`` CLI, one module each.

Each module defines ``register(subparsers)`` that adds its parser and sets
``func`` to a function taking the parsed arguments and returning an exit
status. Commands parse, call the library, and hand results to
``designer.report.terminal``; they hold no logic of their own.
"""

#: Modules registered by ``designer.cli``, in the order ``--help`` lists them.
COMMANDS = ["solve", "rules", "compare", "policy", "study", "report", "simulate", "play", "strategy"]
