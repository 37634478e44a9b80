"""``designer strategy``: the best human-playable rules, measured exactly."""

from pathlib import Path

from designer.commands._common import CountingBar, add_game_args, game_from_args, int_in
from designer.errors import DesignError


#: Threads a search may score candidates on: more than a machine has cores
#: only costs memory (each thread holds its own tables).
MAX_JOBS = 64


def register(sub):
    p = sub.add_parser(
        "strategy", help="the best human-playable rule of each size, with exact win rates",
        description="Search rules a person can apply at the table (thresholds on the "
                    "turn total, on points needed, on items left, on the score difference, end "
                    "race clauses, and short arithmetic on what a player sees, such as 'draw "
                    "while c_rem * (need + opp_need) > 2 * w_rem * k * opp_need') and print, for each size 0..--max-size (numeric constants "
                    "plus conditions; arithmetic on what a player sees is free, and is counted "
                    "apart as operations per decision), the best rule of at most that size "
                    "found: one English sentence, a formula, its exact win probability against the optimal player "
                    "moving first, second and on average, its agreement with the optimal "
                    "policy and the share of max-score's gap to optimal it closes (Zombie "
                    "Dice: fixed_hold_at's). With 3 or 4 players (race or rounds ending) a rule is "
                    "measured at each seat in turn against optimal play at the others, and "
                    "reads j as the highest score of the other seats (no agreement is given "
                    "there). A rules game (2-4 players, race or rounds ending) is "
                    "searched over thresholds on the turn total, the race and its own turn "
                    "state (dice_left, w_rem, ...), measured against max-score (under the "
                    "rounds ending a player also holds once holding wins the game, as in "
                    "designer compare); so is a deck or dice game under the rounds ending or "
                    "with 3 or 4 players, as the same game written as rules. Every candidate "
                    "is scored "
                    "exactly (no simulation).",
        epilog="examples: designer strategy pig --max-size 4 --json | designer strategy "
               "fowl-play --card | designer strategy zombie-yellow --out rules/ | "
               "designer strategy farkle --goal 2000 --card | "
               "designer compare fowl-play --policy rule:rules/size-4.toml --against optimal")
    add_game_args(p)
    p.add_argument("--max-size", type=int, default=8, metavar="N",
                   help="largest rule size, 0..80 (default 8)")
    p.add_argument("--max-ops", type=int_in(0, 1000), default=None, metavar="N",
                   help="keep only rules a player decides with at most N operations (each "
                        "+ - * /, rounding, min, max, square and comparison on the longest way "
                        "to a decision), 0..1000 (default: no bound)")
    p.add_argument("--trials", type=int_in(1, 10**6), default=60, metavar="N",
                   help="TPE candidates per rule template (default 60; small templates are "
                        "searched exhaustively)")
    p.add_argument("--jobs", type=int_in(1, MAX_JOBS), default=2, metavar="N",
                   help=f"threads scoring candidates, 1..{MAX_JOBS} (default 2; a rules game "
                        f"scores one at a time, each match on every core)")
    p.add_argument("--seed", type=int_in(0, 2**32 - 1), default=0,
                   help="seed of the search, 0..2**32-1 (default 0)")
    p.add_argument("--cache", metavar="FILE",
                   help="JSON-lines file of scores: an interrupted search run again with the "
                        "same file resumes without re-evaluating anything")
    p.add_argument("--no-induce", action="store_true",
                   help="skip the rules induced from the optimal policy (a shallow tree "
                        "fitted to the optimal decisions; deck and dice games)")
    p.add_argument("--no-arithmetic", action="store_true",
                   help="skip the arithmetic rules (max-score's comparison tilted by the "
                        "points each player needs, e.g. 'draw while c_rem * (need + opp_need) "
                        "> 2 * w_rem * k * opp_need', constants tuned exactly)")
    p.add_argument("--json", action="store_true",
                   help="print a list of objects (size, rule, formula, win_as_first, "
                        "win_as_second, win_average, agreement, ...)")
    p.add_argument("--card", action="store_true",
                   help="print a printable card: one sentence per rule")
    p.add_argument("--out", metavar="PATH",
                   help="a .toml file: save the best rule found (usable as rule:FILE); a "
                        "directory: save every rule of the front (size-N.toml), the front "
                        "as front.csv and the figure front.png")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args):
    from designer.report.terminal import print_json
    from designer.paths import output_dir, output_file
    from designer.strategy.card import MAX_SIZE, check_game, strategy_card

    if not 0 <= args.max_size <= MAX_SIZE:
        raise DesignError(f"invalid --max-size={args.max_size}: allowed 0..{MAX_SIZE}")
    if args.out is not None and not args.out.strip():
        raise DesignError(f"invalid --out={args.out!r}: allowed a .toml file or a directory")
    game = game_from_args(args, "strategy")
    check_game(game)  # before the progress bar, so a refusal is one line
    out = Path(args.out) if args.out is not None else None
    if out is not None and out.suffix != ".toml" and out.exists() and not out.is_dir():
        raise DesignError(f"invalid --out={args.out!r}: a .toml file or a directory")
    # every path is checked before the search, not after minutes of work
    if out is not None:
        (output_file if out.suffix == ".toml" else output_dir)(args.out)
    if args.cache:
        output_file(args.cache, "--cache")
    label = "strategy search"
    # a rule at every seat of 3-4 in equal turns takes seconds: say how many
    from designer.report.terminal import duration
    from designer.strategy.rules_game import rule_seconds

    each = rule_seconds(game)
    if each is not None and each >= 1:
        label += f" ({duration(each)} a rule, by its estimate)"
    with CountingBar(label, disable=args.quiet or args.json) as bar:
        card = strategy_card(game, max_size=args.max_size, trials=args.trials, jobs=args.jobs,
                             seed=args.seed, cache=args.cache, progress=bar.update,
                             induce=not args.no_induce, arith=not args.no_arithmetic,
                             max_ops=args.max_ops)
    if out is not None:
        _save(card, out)
    if args.json:
        print_json([{"size": r.size, "rule": r.rule, "formula": r.formula,
                     "seat_win": list(r.seat_win),
                     "win_as_first": r.win_as_first, "win_as_second": r.win_as_second,
                     "win_average": r.win_average, "agreement": r.agreement,
                     "gap_closed": r.gap_closed, "rule_size": r.rule_size, "ops": r.ops,
                     "text": r.text}
                    for r in card.rows if r is not None])
    elif args.card:
        _show_card(card)
    else:
        _show(card)
    return 0


def _save(card, out):
    import pandas as pd

    from designer.strategy.card import front_figure

    rules = card.rules()
    ending = getattr(card.game, "ending", "race")  # what `roll` means in the comment
    players = getattr(card.game, "players", 2)  # who "the opponent" is there
    if out.suffix == ".toml":
        out.parent.mkdir(parents=True, exist_ok=True)
        rules[-1].save(out, ending, players)
        return
    out.mkdir(parents=True, exist_ok=True)
    for r in rules:
        r.save(out / f"size-{r.size}.toml", ending, players)
    pd.DataFrame([r.to_dict() for r in card.rows if r is not None]).to_csv(
        out / "front.csv", index=False)
    front_figure(card, out / "front.png")


def _show(card):
    from rich import box
    from rich.table import Table

    from designer.report.terminal import console, game_words, pct

    g = card.game
    N = getattr(g, "players", 2)
    seats = ("as first", "as second") if N == 2 else tuple(f"seat {k + 1}" for k in range(N))
    console.print(f"[bold]{game_words(g)}[/bold]", highlight=False)
    t = Table(title="best rule of each size (exact, against the optimal player)"
              if N == 2 else f"best rule of each size (exact, at each seat against the "
              f"{N}-player optimum)", box=box.SIMPLE_HEAD)
    # with 3-4 seats no agreement is defined: its column would only hold "-",
    # and the seats' columns need the width
    agrees = ("agrees",) if N == 2 else ()
    digits = 2 if N == 4 else 3  # four seats' columns fit 80 characters with two decimals
    for col in ("size", "rule size", "ops", *seats, "average", *agrees, "closes"):
        t.add_column(col, justify="right")
    t.caption = ("ops: operations per decision; "
                 + ("agrees: share of decisions as optimal play's; " if N == 2 else "")
                 + f"closes: share of {card.baseline}'s gap to optimal play closed"
                 + ("" if N == 2 else f"; with {N} players the opponent's score (j) is the "
                    "highest of the others'"))
    for r in card.rows:
        if r is not None:
            agree = ((pct(r.agreement, 2) if r.agreement is not None else "-",) if N == 2
                     else ())
            t.add_row(str(r.size), str(r.rule_size), str(r.ops),
                      *(pct(w, digits) for w in r.seat_win),
                      f"[bold]{pct(r.win_average, digits + 1)}[/bold]", *agree,
                      pct(r.gap_closed, 1))
    console.print(t)
    shown = set()
    for r in card.rows:
        if r is None or r.text in shown:
            continue
        shown.add(r.text)
        console.print(f"[bold]size {r.rule_size}, {r.ops} operations[/bold] "
                      f"({pct(r.win_average, 4)}): {r.rule}")
        console.print(f"    {r.formula}", highlight=False)
    t = Table(title="classic rules, measured the same way", box=box.SIMPLE_HEAD)
    for col in ("rule", "size", *seats, "average", "gap"):
        t.add_column(col, justify="right")
    for name, r in card.references:
        t.add_row(name, str(r.rule_size), *map(pct, r.seat_win),
                  pct(r.win_average, 4), f"{sum(r.seat_win) - 1:+.4f}")
    console.print(t)
    s = card.stats
    console.print(f"  {s['templates']} rule templates, {s['induced']} rules induced from the "
                  f"optimal policy and {s.get('arithmetic', 0)} arithmetic rules; "
                  f"{s['evaluated']} rules evaluated exactly ({s['resumed']} scores read from "
                  f"the cache)")


def _show_card(card):
    from designer.report.terminal import console, game_words, pct

    g = card.game
    console.print(f"[bold]Strategy card: {game_words(g)}[/bold]", highlight=False)
    N = getattr(g, "players", 2)
    console.print("Win rates are exact, against a perfect player, seats alternated." if N == 2
                  else f"Win rates are exact, at each seat in turn against {N - 1} perfect "
                  "players (their mean); the opponent is the one with the highest score.",
                  highlight=False)
    shown = set()
    for r in card.rows:
        if r is None or r.text in shown:
            continue
        shown.add(r.text)
        console.print(f"  [{r.rule_size}] wins {pct(r.win_average, 1)}: {r.rule}",
                      highlight=False)
