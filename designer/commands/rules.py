"""``designer rules check``: read a rules file and say what solving it takes."""

from designer.commands._common import add_game_args, game_from_args
from designer.memory import ENV, limit_source


def register(sub):
    p = sub.add_parser("rules", help="rules files: any push-your-luck game, described in TOML",
                       description="Rules files describe a push-your-luck game from parts "
                                   "(dice, a deck, scoring dice) for the engine to solve.")
    rsub = p.add_subparsers(dest="rules_command", metavar="SUBCOMMAND", required=True)
    c = rsub.add_parser(
        "check", help="validate a rules file, count its states, estimate time and memory",
        description="Read a rules file (FILE.toml), a Python rules module (rules:FILE.py, "
                    "whose code runs) or a shipped example and check it, "
                    "without solving it: a malformed or unplayable file is refused in one line "
                    "naming the file, the key and what is allowed (exit status 2). Prints the "
                    "game's name, goal, komi, players and ending, its turn states, the "
                    "positions the solver will cover (the state count `designer solve` "
                    "prints), the memory the solve allocates and a rough estimate of its time: "
                    "the sweep work (each position times the outcomes and options of its turn "
                    "state; ten passes when scores can fall) at a rate measured on a busy "
                    "2-core machine (2.5e-9 s per unit), a guide within a factor of about 3, "
                    "not counting the first load of the compiled solver (about a second). "
                    "With two players under the rounds ending it also gives the memory "
                    "designer compare takes for a rule: or py: policy (tabled by both "
                    "scores up to the score cap).",
        epilog="examples: designer rules check farkle | designer rules check my_game.toml "
               "--json | designer rules check farkle --goal 5000")
    add_game_args(c, rules_only=True)
    c.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    c.set_defaults(func=run_check)


def run_check(args):
    from designer.engine.game import check_game
    from designer.report.terminal import print_json

    game = game_from_args(args, "rules check")
    figures = check_game(game)
    if args.json:
        print_json(figures)
    else:
        show_check(figures)
    return 0


def show_check(f):
    from designer.report.terminal import console, duration, start_points

    unit = f" (counted in units of {f['unit']})" if f["unit"] > 1 else ""
    console.print(f"[bold]{f['name']}[/bold]  (rules: {f['source']}; {f['part']})")
    console.print(f"  goal {f['goal']:,}{unit}, komi {f['komi']}: {start_points(f['komi'])}")
    ties = f", ties {f['ties']}" if f.get("ties") else ""
    console.print(f"  {f['players']} players, {f['ending']} ending{ties}")
    turn = []
    if f["forced_first"]:
        turn.append("the first throw or draw of a turn is forced")
    if f["min_bank"]:
        turn.append(f"a turn total below {f['min_bank']:,} cannot be banked")
    if f["scores_can_fall"]:
        turn.append("a bust can lower the banked score (solved by iterating)")
    if turn:
        console.print("  " + "; ".join(turn))
    console.print(f"  turn states: {f['turn_states']:,} ({f['start_states']:,} can start a turn)")
    feats = ", ".join(f"{name} {lo}..{hi}" for name, (lo, hi) in f["features"].items())
    console.print(f"  a rule: or py: policy reads i, j, k, goal and the race (need, diff, ...)"
                  f"{'; ' + feats if feats else ''}", highlight=False)
    least = "at least " if f["states_at_least"] else ""
    console.print(f"  positions: {least}{f['states']:,} (the states `designer solve` counts)")
    mb = f["memory_bytes"] / 2**20
    limit = f["memory_limit_bytes"] / 2**20
    fits = "" if f["fits"] else ("  [bold]over the limit: designer solve refuses it[/bold] "
                                 f"({ENV} sets another limit)")
    console.print(f"  memory: {least}{mb:,.1f} MB (limit {limit:,.0f} MB, {limit_source()}){fits}",
                  highlight=False)
    if "rule_compare_memory_bytes" in f:
        rb = f["rule_compare_memory_bytes"] / 2**20
        over = "" if rb <= limit else "  [bold]over the limit: designer compare refuses it[/bold]"
        console.print(f"  a rule: or py: policy in designer compare (tabled by both scores): "
                      f"{rb:,.1f} MB{over}", highlight=False)
    seconds = f["estimated_seconds"]
    if seconds is not None:
        console.print(f"  estimated solve time: {duration(seconds)}" if seconds >= 1 else
                      f"  estimated solve time: under a second ({seconds:.2g} s)")
        if f.get("estimated_passes"):
            # (designer solve shows each pass, with the time left at its rate)
            console.print(f"    (at {f['estimated_passes']} passes; a game whose busts often "
                          "lower the score may need hundreds)")
