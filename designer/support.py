"""What each command does with each kind of game: one table.

Every command that takes a game checks it here first (:func:`check`), so a
combination it cannot handle is refused in one line before any work; the
commands' ``--help`` (:func:`sentence`) and the README's table
(:func:`markdown_table`) are written from the same table, so the help, the
documentation and the refusals say the same thing.

Kinds of game: ``deck`` (Fowl Play, Red Light), ``dice`` (Pig),
``zombie`` (all-yellow Zombie Dice), ``zombie-dice`` (the three colours),
``wager`` (Persian Monarchs), ``rules`` (a rules file or a shipped
example solved by the engine, :mod:`designer.engine`). Zombie Dice is always played in rounds (equal
turns; a tie plays another round): its only ending is ``rounds``. A
wagering game has neither seats nor an ending to choose.
"""

from dataclasses import dataclass

from designer.errors import DesignError

KINDS = ("deck", "dice", "zombie", "zombie-dice", "wager", "rules")
PLAYERS = (2, 3, 4)
ENDINGS = ("race", "rounds")
#: How a wagering game is described in the table: two sides, no ending.
NO_ENDING = None


#: How a tie for the win under the rounds ending is settled, in words.
TIE_WORDS = {"replay": "a tied round replayed", "earlier-seat": "a tie to the earlier seat"}


@dataclass(frozen=True)
class Reach:
    """The players and endings a command takes for one kind of game."""

    players: tuple
    endings: tuple

    def takes(self, players, ending):
        """Whether it takes ``players`` seats and ``ending``."""
        return players in self.players and ending in self.endings

    def cells(self):
        """Every ``(players, ending)`` taken."""
        return [(p, e) for p in self.players for e in self.endings]

    def words(self):
        p = self.players
        seats = (f"{p[0]} players" if len(p) == 1
                 else f"{p[0]}-{p[-1]} players" if p == tuple(range(p[0], p[-1] + 1))
                 else f"{', '.join(map(str, p))} players")
        if self.endings == (NO_ENDING,):
            return "two sides"
        return f"{seats}, {' or '.join(self.endings)} ending"


@dataclass(frozen=True)
class Reaches:
    """Several :class:`Reach` at once (``2-4 players in the race, 2 in the
    rounds``): takes what any of them takes."""

    parts: tuple

    @property
    def players(self):
        return tuple(sorted({p for r in self.parts for p in r.players}))

    @property
    def endings(self):
        return tuple(e for e in ENDINGS if any(e in r.endings for r in self.parts))

    def takes(self, players, ending):
        return any(r.takes(players, ending) for r in self.parts)

    def cells(self):
        return [c for r in self.parts for c in r.cells()]

    def words(self):
        return ", or ".join(r.words() for r in self.parts)


ALL_RACE_ROUNDS = Reach(PLAYERS, ENDINGS)
ALL_RACE = Reach(PLAYERS, ("race",))
TWO_RACE = Reach((2,), ("race",))
ALL_ROUNDS = Reach(PLAYERS, ("rounds",))
TWO_ROUNDS = Reach((2,), ("rounds",))
MORE_ROUNDS = Reach((3, 4), ("rounds",))
TWO_RACE_ROUNDS = Reach((2,), ENDINGS)
MORE_RACE = Reach((3, 4), ("race",))
MORE_RACE_ALL_ROUNDS = Reaches((MORE_RACE, ALL_ROUNDS))
WAGER = Reach((2,), (NO_ENDING,))

#: command -> kind -> what it takes. A kind that is missing is refused.
SUPPORT = {
    "solve": {"deck": ALL_RACE_ROUNDS, "dice": ALL_RACE_ROUNDS, "zombie": ALL_ROUNDS,
              "zombie-dice": ALL_ROUNDS, "rules": ALL_RACE_ROUNDS},
    "rules check": {"rules": ALL_RACE_ROUNDS},
    "compare": {"deck": ALL_RACE_ROUNDS, "dice": ALL_RACE_ROUNDS, "zombie": ALL_ROUNDS,
                "zombie-dice": ALL_ROUNDS, "rules": ALL_RACE_ROUNDS},
    "play": {"deck": ALL_RACE_ROUNDS, "dice": ALL_RACE_ROUNDS, "zombie": ALL_ROUNDS,
             "zombie-dice": ALL_ROUNDS, "rules": ALL_RACE_ROUNDS},
    "strategy": {"deck": ALL_RACE_ROUNDS, "dice": ALL_RACE_ROUNDS, "zombie": TWO_ROUNDS,
                 "rules": ALL_RACE_ROUNDS},
    "policy train-nn": {"deck": TWO_RACE},
    "simulate": {"wager": WAGER},
    "study run": {"deck": ALL_RACE_ROUNDS, "dice": ALL_RACE_ROUNDS, "zombie": ALL_ROUNDS,
                  "zombie-dice": ALL_ROUNDS, "wager": WAGER, "rules": ALL_RACE_ROUNDS},
}

#: Where a command takes a deck, dice or Zombie Dice game as the same game
#: written as rules (:mod:`designer.engine.family_rules`), solved by the
#: engine: the part of its cell in :data:`SUPPORT` that today's family
#: solvers do not reach.
AS_RULES = {"compare": {"deck": ALL_ROUNDS, "dice": ALL_ROUNDS, "zombie": MORE_ROUNDS,
                        "zombie-dice": MORE_ROUNDS},
            "play": {"deck": ALL_ROUNDS, "dice": ALL_ROUNDS, "zombie": MORE_ROUNDS,
                     "zombie-dice": MORE_ROUNDS},
            "strategy": {"deck": MORE_RACE_ALL_ROUNDS, "dice": MORE_RACE_ALL_ROUNDS}}

#: What to use instead, for a kind a command does not take at all.
INSTEAD = {"wager": "use `designer simulate` for a wagering game",
           "rules": "a rules-file game is solved by `designer solve` so far",
           "rules check": "use `designer solve` for deck, dice and Zombie Dice games",
           "simulate": "use `designer solve` for deck, dice and Zombie Dice games"}


def kind_of(game):
    """The kind of ``game`` (one of :data:`KINDS`)."""
    from designer.games import ZombieDiceGame

    return "zombie-dice" if isinstance(game, ZombieDiceGame) else game.family


def seats_of(game):
    """``(players, ending)`` of ``game`` as the table names them."""
    if kind_of(game) == "wager":
        return 2, NO_ENDING
    return game.players, getattr(game, "ending", "rounds")


def _kinds_words(kinds):
    names = {"deck": "deck", "dice": "dice", "zombie": "all-yellow Zombie Dice",
             "zombie-dice": "Zombie Dice", "wager": "wagering", "rules": "rules-file"}
    words = [names[k] for k in kinds]
    return (" and ".join(words) if len(words) <= 2
            else ", ".join(words[:-1]) + " and " + words[-1]) + " games"


def as_rules(command, game):
    """``game`` as ``command`` plays it: a deck, dice or Zombie Dice game
    that the command takes only as rules (:data:`AS_RULES`) becomes that rules game
    (:func:`designer.engine.family_rules.as_rules_game`); any other game is
    returned as it is."""
    kind = kind_of(game)
    reach = AS_RULES.get(command, {}).get(kind)
    if reach is None or not reach.takes(*seats_of(game)):
        return game
    from designer.engine.family_rules import as_rules_game

    return as_rules_game(game)


def sentence(command):
    """What ``command`` takes, in words (for its ``--help`` and refusals)."""
    groups = {}
    for kind, reach in SUPPORT[command].items():
        groups.setdefault(reach, []).append(kind)
    return "; ".join(f"{_kinds_words(kinds)} with {reach.words()}"
                     for reach, kinds in groups.items())


def check(command, game):
    """Refuse, in one line, a game that ``command`` does not take.

    Raises
    ------
    DesignError
        Naming the game, what it has that the command does not take, and
        what the command takes.
    """
    players, ending = seats_of(game)
    problem = refusal(command, kind_of(game), players, ending, game.name)
    if problem:
        raise DesignError(problem)


def refusal(command, kind, players, ending, what=None, flags=("--players ", "--ending ")):
    """Why ``command`` does not take a ``kind`` game of ``players`` seats
    and this ``ending`` (one line), or None if it does.

    ``what`` names the game in the message (default: the kind); ``flags``
    spell the two settings as the user wrote them (command-line flags, or
    a study file's keys)."""
    reach = SUPPORT[command].get(kind)
    if reach is not None and reach.takes(players, ending):
        return None
    what = what or _kinds_words([kind])
    if reach is None:
        hint = INSTEAD.get(kind) or INSTEAD.get(command)
        return (f"designer {command} does not take {_kinds_words([kind])} ({what}): it takes "
                f"{sentence(command)}" + (f"; {hint}" if hint else ""))
    wanted = (f"{flags[0]}{players}" if players not in reach.players
              else f"{flags[1]}{ending}" if ending not in reach.endings
              else f"{flags[0]}{players} with {flags[1]}{ending}")
    return (f"designer {command} does not take {wanted} for {what}: it takes "
            f"{_kinds_words([kind])} with {reach.words()}")


def markdown_table():
    """The table as Markdown: one row per command, one column per kind."""
    head = "| command | " + " | ".join(KINDS) + " |"
    rule = "|---" * (len(KINDS) + 1) + "|"
    rows = [head, rule]
    for command, kinds in SUPPORT.items():
        cells = [kinds[k].words() if k in kinds else "no" for k in KINDS]
        rows.append(f"| `{command}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)
