"""Rich rendering of ``designer play``: the board, the log, the end of game
and the statistics table. Pure output: the loop lives in
:mod:`designer.commands.play`."""

from dataclasses import replace

import numpy as np

from rich.control import Control
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from designer.report.terminal import console, pct

#: Containers up to this size are drawn item by item.
MAX_DRAWN = 50


def _items(left, total, style, symbol):
    t = Text(f"{left:>3} of {total} left  ", no_wrap=True, overflow="crop")
    if total <= MAX_DRAWN:
        t.append(symbol * left, style=style)
        t.append("·" * (total - left), style="dim")
    return t


#: Seat order words for the board labels.
ORDINALS = ("first", "second", "third", "fourth")


def seat_label(names, seat):
    """A seat's board label: its name and place in the order ("You (first)")."""
    return f"{names[seat]} ({ORDINALS[seat]})"


#: Rich styles of the Zombie Dice colours and faces (the words are always
#: written too: colour is never the only cue).
COLOUR_STYLE = {"green": "green", "yellow": "yellow", "red": "red", "die": ""}
FACE_STYLE = {"brain": "bold", "shotgun": "bold red", "footprint": "dim"}


def _dice_words(dice):
    """``[(colour, face), ...]`` as rich markup: "green brain, red shotgun"."""
    out = []
    for colour, face in dice:
        c = f"[{COLOUR_STYLE[colour]}]{colour}[/{COLOUR_STYLE[colour]}] " if \
            COLOUR_STYLE[colour] else ""
        out.append(f"{c}[{FACE_STYLE[face]}]{face}[/{FACE_STYLE[face]}]")
    return ", ".join(out)


def _by_colour(state, counts):
    """Dice counts by colour in words ("2 green, 1 red"), "none" if none."""
    words = [f"{n} {c}" if c != "die" else f"{n}" for c, n in zip(state.colours, counts,
                                                                   strict=True) if n]
    return ", ".join(words) if words else "none"


def _zombie_event(event, state, names):
    who = names[event.seat]
    line = f"{who} rolled {_dice_words(event.outcome)}"
    if event.reshuffled:
        line = "The brains set aside went back into the cup. " + line
    if event.won:
        return f"{line} and reached {state.scores[event.seat]}: {who} wins"
    if event.bust:
        return f"{line}: [red]{state.game.bust_shotguns} shotguns[/red], the turn scores nothing"
    return f"{line} (turn total {state.b}, shotguns {state.s})"


def _outcome_words(state, event):
    """What a rules game's throw or draw did, as markup; ``state`` is the
    position after it (the model's outcome: a bust, points that end the
    turn, points and the state the turn goes on from, or a choice)."""
    from designer.engine.model import BUST, END, PENALTY, ZERO
    from designer.play.rules_engine import option_words

    m, unit, o = state.model, state.game.unit, event.outcome
    kind = int(m.out_kind[o])
    if kind == BUST:
        text = "[red]bust[/red]: the turn total is lost"
        if m.out_effect[o] == ZERO:
            text += " and the score falls to 0"
        elif m.out_effect[o] == PENALTY:
            text += f" and the score loses {int(m.out_penalty[o]) * unit} points"
        return text
    if kind == END:
        return f"[green]+{int(m.out_points[o]) * unit}[/green], the turn ends"
    lo, hi = int(m.opt_start[o]), int(m.opt_start[o + 1])
    if hi - lo == 1:  # the state it goes on from, where that changes
        c = int(np.searchsorted(m.out_start, o, side="right") - 1)
        same = int(m.opt_next[lo]) == _state_of(state, c)
        return f"[green]{option_words(state.game, lo, points=True, state=not same)}[/green]"
    return "a choice: " + ", ".join(f"{n} = {option_words(state.game, r)}"
                                    for n, r in enumerate(range(lo, hi), 1))


def _rules_event(event, state, names):
    from designer.play.rules_engine import action_words, option_words

    who = names[event.seat]
    score = state.scores[event.seat]
    if event.action == "hold":
        return (f"{who} passed" if not event.gained else
                f"{who} stopped: +{event.gained}, score {score}")
    if event.action == "pick":
        line = f"{who} took {option_words(state.game, event.index)}"
    else:
        before = replace(state, s=_state_of(state, event.index))
        line = f"{who}: {action_words(before, ('go', event.index))}: {_outcome_words(state, event)}"
    if event.won:
        return f"{line}; {who} reached {score}: {who} win{'' if who == 'You' else 's'}"
    if event.gained:
        return f"{line}; banked {event.gained}, score {score}"
    if not event.bust and not event.choice:
        line += f" (turn total {state.k})"
    return line


def _state_of(state, c):
    """The turn state continuation ``c`` belongs to."""
    return int(np.searchsorted(state.model.cont_start, c, side="right") - 1)


def describe_event(event, state, names):
    """One log line for an :class:`~designer.play.engine.Event` (a rules
    game: :class:`~designer.play.rules_engine.RulesEvent`); ``state`` is the
    position after it."""
    if state.family == "rules":
        return _rules_event(event, state, names)
    who = names[event.seat]
    score = state.scores[event.seat]
    if event.action == "hold":
        return f"{who} held: +{event.gained}, score {score}"
    if state.family == "zombie":
        return _zombie_event(event, state, names)
    if event.action == "draw":
        if event.won:
            return f"{who} drew good and reached {score}: {who} wins"
        if event.outcome == "good":
            return f"{who} drew [green]good[/green] (turn total {state.k})"
        line = f"{who} drew [red]bad[/red]: the turn scores nothing"
        if event.reshuffled:
            line += "; that was the last bad item, everything is returned and shuffled"
        return line
    if event.won:
        return f"{who} rolled {event.outcome} and reached {score}: {who} wins"
    if event.bust:
        return f"{who} rolled [red]{event.outcome}[/red]: bust, the turn scores nothing"
    return f"{who} rolled [green]{event.outcome}[/green] (turn total {state.k})"


def _last(event, state=None):
    if event is None:
        return Text("none yet", style="dim")
    if state is not None and state.family == "rules":
        if event.action == "hold":
            return Text(f"stopped +{event.gained}" if event.gained else "passed")
        if event.action == "pick":
            from designer.play.rules_engine import option_words

            return Text(f"took {option_words(state.game, event.index)}")
        return Text.from_markup(_outcome_words(state, event))
    if event.action == "hold":
        return Text(f"held +{event.gained}")
    if isinstance(event.outcome, tuple):  # Zombie Dice: every die thrown
        return Text.from_markup(_dice_words(event.outcome) + (": bust" if event.bust else ""))
    if event.action == "draw":
        if event.outcome == "good":
            return Text("good (+1)", style="bold green")
        return Text("bad: turn lost" + (" (reshuffled)" if event.reshuffled else ""),
                    style="bold red")
    if event.bust:
        return Text(f"{event.outcome}: bust", style="bold red")
    return Text(f"{event.outcome} (+{event.outcome})", style="bold green")


def show_board(state, names, title, log, last=None, prompt=None, hint=None):
    """Clear the screen (on a terminal) and draw the position.

    Parameters
    ----------
    state : DeckState or DiceState
    names : tuple of str
        Names of the seats, seat 0 first ("You", "Computer"; with more
        seats "You", "Computer 2", ...).
    title : str
        Design and level.
    log : sequence of str
        Recent events, oldest first (rich markup allowed).
    last : Event or None
        The last draw or roll.
    prompt, hint : str or None
        What the program waits for, and a short correction after a bad key.
    """
    g = state.game
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    if state.family == "rules":
        grid.add_row("game", Text(f"{g.part}, first to {g.goal}"
                                  + ("; the first throw or draw of a turn is forced"
                                     if state.model.forced_first else "")))
    elif state.family == "deck":
        grid.add_row("bad", _items(state.bad_left, g.bad, "red", "●"))
        grid.add_row("good", _items(state.good_left, g.good, "green", "●"))
    elif state.family == "zombie":
        _zombie_rows(grid, state)
    else:
        busts = ",".join(map(str, g.bust_faces))
        grid.add_row("die", Text(f"{g.faces} faces, bust on {busts}"))
    grid.add_row("", "")
    for seat in range(len(state.scores)):
        marker = "▶ " if seat == state.mover and not state.over else "  "
        grid.add_row(f"{marker}{seat_label(names, seat)}",
                     Text(f"{state.scores[seat]:>4} / {g.goal}", style="bold"))
    grid.add_row("", "")
    if state.family == "zombie":
        grid.add_row("ending", Text(f"rounds to {g.goal}" + (
            f"; tie round (tied at {state.tie})" if state.tie is not None else "")))
    if state.family == "rules" and state.ending_words:
        grid.add_row("round", Text(state.ending_words))
    if not state.over:
        grid.add_row("turn", Text(f"{names[state.mover]}, turn total {state.k}", style="bold"))
    if state.family == "rules" and not state.over:
        grid.add_row("now", Text(state.model.describe(state.s)))
    grid.add_row("last", _last(last, state))
    body = Table.grid()
    body.add_row(grid)
    if log:
        body.add_row("")
        for n, line in enumerate(log):
            body.add_row(Text.from_markup(line, style="" if n == len(log) - 1 else "dim"))
    if prompt:
        body.add_row("")
        body.add_row(Text.from_markup(prompt))
    if hint:
        body.add_row(Text.from_markup(f"[yellow]{hint}[/yellow]"))
    panel = Panel(body, title=title, title_align="left", width=min(console.width, 92))
    if not console.is_terminal:
        console.print(panel)
        return
    # Redraw in place (cursor home, draw, erase below) rather than clearing
    # first, so the board does not flicker between frames.
    console.control(Control.home())
    console.print(panel)
    console.file.write("\x1b[J")
    console.file.flush()


def _zombie_rows(grid, state):
    """The dice of a Zombie Dice position: the cup, the footprint dice in
    hand, the brains and shotguns set aside, by colour."""
    g = state.game
    if state.unlimited:
        grid.add_row("dice", Text(f"{g.dice} per roll, each {g.brains} brain / {g.shotguns} "
                                  f"shotgun / {g.footprints} footprint faces"))
    else:
        grid.add_row("cup", Text.from_markup(_counts_markup(state, state.cup())))
        grid.add_row("in hand", Text.from_markup(
            _counts_markup(state, state.hand) + " (footprints: rolled again)"))
    aside = _counts_markup(state, state.brains)
    returned = state.b - sum(state.brains)
    grid.add_row("brains", Text.from_markup(
        f"{state.b} this turn" + ("" if state.unlimited else f"; set aside: {aside}")
        + (f" ({returned} back in the cup)" if returned and not state.unlimited else "")))
    grid.add_row("shotguns", Text.from_markup(
        f"{state.s} of {g.bust_shotguns}" + ("" if state.unlimited else
                                             f"; set aside: {_counts_markup(state, state.shotguns)}")))


def _counts_markup(state, counts):
    words = _by_colour(state, counts)
    for c in state.colours:
        if COLOUR_STYLE[c]:
            words = words.replace(f" {c}", f" [{COLOUR_STYLE[c]}]{c}[/{COLOUR_STYLE[c]}]")
    return words


def clear_screen():
    """Start the game on an empty screen (terminals only)."""
    if console.is_terminal:
        console.clear()


def show_message(text):
    """One line under the board."""
    console.print(text)


def _position(decision, names):
    st = decision.state
    if st.family == "rules":
        me, opp = st.scores[st.mover], st.scores[1 - st.mover]
        return (f"with {me} (you) to {opp} (computer), a turn total of {st.k} and "
                f"{st.model.describe(st.s)}")
    if len(st.scores) == 2:
        me, opp = st.mover_view()[:2]
        pos = f"with {me} (you) to {opp} (computer) and a turn total of {st.k}"
    else:
        scores = ", ".join(f"{v} ({'you' if s == st.mover else names[s]})"
                           for s, v in enumerate(st.scores))
        pos = f"with scores {scores} and a turn total of {st.k}"
    if st.family == "deck":
        pos += f" ({st.bad_left} bad and {st.good_left} good left)"
    return pos


def show_result(state, names, human_seat, worst, decisions, counts, level, quit=False,
                not_recorded=None, analysed=True):
    """The verdict, the human's costliest decision and the updated record
    (``counts``), or why the game was not recorded (``not_recorded``);
    ``analysed`` False: the game's decisions are not valued. With three or
    four seats the verdict names the winner and lists every seat's score."""
    if quit:
        console.print("[bold]You quit.[/bold]" + (" Recorded as a loss." if counts else ""))
    elif len(state.scores) > 2:
        who = ("[bold green]You win[/bold green]" if state.winner == human_seat else
               f"[bold red]{names[state.winner]} wins[/bold red]")
        scores = ", ".join(f"{names[s]} {v}" for s, v in enumerate(state.scores))
        console.print(f"{who}. Final scores: {scores}.")
    elif state.winner == human_seat:
        console.print(f"[bold green]You win[/bold green] {state.scores[human_seat]} to "
                      f"{state.scores[1 - human_seat]}.")
    else:
        console.print(f"[bold red]The computer wins[/bold red] {state.scores[1 - human_seat]} to "
                      f"{state.scores[human_seat]}.")
    if not analysed:
        console.print("The analysis of your decisions covers deck and dice games.")
    elif not decisions:
        console.print("You made no draw-or-hold decision to analyse.")
    elif worst is None:
        console.print(f"No mistake: all {len(decisions)} of your decisions matched the optimal "
                      "player (or tied with it).")
    else:
        word = str
        if worst.state.family == "rules":
            from designer.play.rules_engine import action_words

            def word(a):  # an option is taken: "take +300: 3 dice to throw"
                return ("take " if a[0] == "pick" else "") + action_words(worst.state, a)
        values = ", ".join(f"{word(a)} {pct(v, 2)}" for a, v in worst.values.items())
        console.print(
            f"Your costliest decision: {_position(worst, names)} you chose to "
            f"[bold]{word(worst.chosen)}[/bold]; the optimal player would "
            f"[bold]{word(worst.best)}[/bold]. "
            f"Win probability after each action: {values}. It cost "
            f"[bold]{100 * worst.cost:.2f}[/bold] percentage points of win probability.")
    if counts is not None:
        g, w = counts["games"], counts["wins"]
        seats = f" with {len(state.scores)} players" if len(state.scores) > 2 else ""
        console.print(f"Your record at level {level} on this design{seats}: "
                      f"{g} game{'s' if g != 1 else ''}, "
                      f"{w} win{'s' if w != 1 else ''} ({pct(w / g, 1)}).")
    elif not_recorded:
        console.print(not_recorded)


def _points(x):
    """A win-probability loss in percentage points, or a dash."""
    return "-" if x is None else f"{100 * x:.2f}"


def show_stats(rows, path):
    """The statistics table of :func:`designer.play.stats.rows`, then for
    each design and level with valued decisions the strategy-card rule that
    plays most like you (``row["closest"]``, when present)."""
    if not rows:
        console.print(f"No games recorded yet ({path}).")
        return
    import pandas as pd

    from designer.report.terminal import frame_table

    frame = pd.DataFrame([{
        "design": r["design"], "parameters": r["key"].split(":", 1)[1].replace(",", " "),
        "level": r["level"], "games": str(r["games"]), "wins": str(r["wins"]),
        "win rate": pct(r["win_rate"], 1), "decisions": str(r["decisions"]),
        "loss per decision (pts)": _points(r["loss_per_decision"]),
        "loss per game (pts)": _points(r["loss_per_game"])} for r in rows])
    # fits the terminal, never cutting a value (a wide table is split in two)
    console.print(frame_table(frame, title=f"designer play: your results ({path})", formats={}))
    console.print("Loss: the exact win probability your decisions gave away against the "
                  "optimal player, in percentage points (deck, dice and rules games).")
    for r in rows:
        closest = r.get("closest")
        if closest:
            card, share = closest
            console.print(f"{r['design']} ({r['level']}): your decisions agree "
                          f"{pct(share, 1)} with the size-{card.rule_size} card rule "
                          f"(wins {pct(card.win_average, 1)} against a perfect player): "
                          f"{card.rule}", highlight=False)
