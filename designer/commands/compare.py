"""``designer compare``: two policies head to head, exactly."""

from designer.commands._common import add_game_args, game_from_args, REPORTS_PROGRESS, solve_shown
from designer.policies.parse import POLICY_FORMS

POLICY_HELP = (f"{POLICY_FORMS} (nn:FILE: a trained network, decks; py:FILE.py:FUNCTION: your "
               f"own function; fixed_hold_at, minh, llano, neller: the human Zombie Dice "
               f"policies)")


def register(sub):
    p = sub.add_parser(
        "compare", help="exact win probabilities of one policy against another",
        description="Evaluate policy A (--policy) against policy B (--against) exactly, with no "
                    "simulation: A's win probability when A moves first, when A moves second "
                    "(the game's komi always goes to the second mover), their average, and the "
                    "agreement: the share of decision states (every non-terminal state with a "
                    "choice; forced first draws of deck turns excluded) where A and B choose the "
                    "same action. A rules game (FILE.toml or a shipped rules example: two "
                    "players, race or rounds ending) takes optimal, max-score (the most points "
                    "banked on average this turn) or hold-at:N (N in points; at a choice of dice to keep, "
                    "the option that gains most; in the rounds ending a fixed policy also "
                    "holds as soon as holding wins the game), "
                    "rule:RULE ('rule:dice_left <= 2, k >= 300 -> hold; below 400') and "
                    "py:FILE.py:FUNCTION, whose parameters name what they read (i, j, k, "
                    "need, diff, ... and the game's own: dice_left, w_rem, c_rem, ...; in the "
                    "rounds ending every score stops at the cap, where a turn holds); its "
                    "agreement counts decision positions (scores, turn state and turn total "
                    "where the mover may stop and go on, or has two ways to go on; in the rounds "
                    "ending each seat's own, "
                    "both scores below the goal). A deck or dice game under the rounds ending "
                    "is compared as the same game written as rules, with a rules game's "
                    "policies (its decks' items left are w_rem and c_rem), and so is Zombie "
                    "Dice with 3 or 4 players (its score cap kept). With --players "
                    "3 or 4 policy A is a two-player "
                    "policy played at each seat in turn, reading its own score and the highest "
                    "opponent score, while every other seat plays the N-player optimum "
                    "(--against must be optimal): each seat's exact win probability against the "
                    "same seat playing optimally; a rules game takes max-score, hold-at:N, rule: "
                    "and py: there in the race (j, diff, ... read the highest opponent score), "
                    "and in the rounds ending under either tie rule (in a replayed round a rule "
                    "reads the score the tied players go on from; a seat last in its round "
                    "stops as soon as stopping wins).",
        epilog="examples: designer compare fowl-play --policy max-score --against optimal | "
               "designer compare pig --players 3 --policy two-player --against optimal | "
               "designer compare farkle --players 3 --goal 2000 --policy hold-at:300 | "
               "designer compare hog --players 3 --ending rounds --policy hold-at:10 | "
               "designer compare pig --ending rounds --policy hold-at:20 | "
               "designer compare red-light --policy hold-at:5 --against max-score | "
               "designer compare zombie-yellow --policy neller --against optimal | "
               "designer compare zombie-yellow --players 3 --policy hold-at:5 | "
               "designer compare fowl-play --policy nn:fowl_nn.npz --against optimal --json")
    add_game_args(p)
    p.add_argument("--policy", required=True, metavar="POLICY", help=f"policy A: {POLICY_HELP}")
    p.add_argument("--against", default="optimal", metavar="POLICY",
                   help="policy B (default optimal), same forms")
    p.add_argument("--no-agreement", action="store_true",
                   help="skip the agreement count (faster for large games)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(func=run)


def run(args):
    from contextlib import nullcontext

    from designer.analysis.compare import compare
    from designer.commands.solve import PassesStatus
    from designer.report.terminal import err_console, estimated, print_json, show_comparison
    from designer.support import kind_of

    game = game_from_args(args, "compare")
    solution = None
    if kind_of(game) in REPORTS_PROGRESS and "optimal" in (args.policy, args.against):
        # Zombie Dice's optimal solve is long (about a minute for the full
        # game): solved here, with a progress bar, and shared by both sides;
        # the other side's policy is read first, so a bad one fails at once
        from designer.policies.parse import parse_policy

        for spec in {args.policy, args.against} - {"optimal"}:
            parse_policy(spec, game)
        solution = solve_shown(game)
    # a solve and an exact evaluation can take minutes on large games (a
    # solve with its own progress bar was done above)
    shown = solution is None and err_console.is_terminal and not args.json
    if shown:  # a long comparison (one seat of 3-4 in rounds) says how long
        from designer.analysis.rules_compare import compare_seconds

        wait = estimated(compare_seconds(game, args.policy))
    with (err_console.status(f"evaluating {args.policy} on {game.name} exactly{wait}...")
          if shown else nullcontext()) as status:
        # where scores fall, each pass of the race's solve and evaluation
        result = compare(game, args.policy, args.against, solution=solution,
                         with_agreement=not args.no_agreement,
                         progress=PassesStatus(status, game.name) if shown else None)
    if args.json:
        print_json(result.to_dict())
    else:
        show_comparison(result)
    return 0
