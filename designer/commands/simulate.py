"""``designer simulate``: evaluate a wagering game by simulation."""

from designer.commands._common import seed_arg
from designer.errors import DesignError
from designer.support import check, refusal

#: Runs with at least this many games in all show a progress bar (on a terminal).
PROGRESS_FROM = 100_000

STRATEGY_HELP = "counting, non_counting (or non-counting) or random"


def register(sub):
    p = sub.add_parser(
        "simulate", help="evaluate a wagering game (Persian Monarchs) by simulation",
        description="Simulate games of a wagering game between two strategies. Prints, for each "
                    "pairing, the mean final counters of each side, the player's net (final "
                    "counters minus start, i.e. counters won from the opponent per game) and "
                    "the difference between the sides with 95% confidence intervals, the "
                    "non-dealer's mean gain per hand, the share of games ended because a side "
                    "could not pay the ante, and the time taken. The player is the non-dealer "
                    "of the first hand. Without --player/--opponent: counting against each of "
                    "counting, non_counting and random.",
        epilog="examples: designer simulate persian-monarchs --games 10000 --seed 1 | "
               "designer simulate persian-monarchs --player counting --opponent random "
               "--rounds 26 --json | designer simulate wager --pack 32 --max-raise 5 --jobs 2")
    p.add_argument("game", help="persian-monarchs (preset) or wager (family, all defaults)")
    g = p.add_argument_group("design parameters (override the preset's)")
    g.add_argument("--max-raise", type=int, help="largest raise, uniform 1..max-raise (default 10)")
    g.add_argument("--ante", type=int, help="counters each side antes per hand (default 1)")
    g.add_argument("--start", type=int, help="starting counters of each side (default 100)")
    g.add_argument("--rounds", type=int, help="rounds per game, two hands each (default 26)")
    g.add_argument("--pack", type=int, help="cards in the pack (default 52)")
    s = p.add_argument_group("simulation")
    s.add_argument("--player", help=f"the player's strategy: {STRATEGY_HELP} (default counting)")
    s.add_argument("--opponent",
                   help=f"the opponent's strategy: {STRATEGY_HELP} (default: each in turn)")
    s.add_argument("--games", type=int, default=10_000, help="games per pairing (default 10000)")
    s.add_argument("--seed", type=seed_arg, default=0, help="seed, 0 <= seed < 2**64 (default 0)")
    s.add_argument("--jobs", type=int, default=1,
                   help="worker threads, -1 for all cores; results do not depend on it (default 1)")
    p.add_argument("--json", action="store_true", help="print a JSON list, one object per pairing")
    p.set_defaults(func=run)


def run(args):
    from designer.games import load_game
    from designer.report.terminal import pairing_progress, print_json, show_pairings
    from designer.simulate.wager import STRATEGIES, simulate_pairing

    _check_kind(args.game)  # before the wagering parameters are applied to another game
    game = load_game(args.game, max_raise=args.max_raise, ante=args.ante, start=args.start,
                     rounds=args.rounds, pack=args.pack)
    player = "counting" if args.player is None else args.player
    opponents = list(STRATEGIES) if args.opponent is None else [args.opponent]
    pairings = [(player, opp) for opp in opponents]
    if args.jobs == 0 or args.jobs < -1:
        raise DesignError(f"invalid --jobs={args.jobs}: allowed -1 (all cores) or 1 <= jobs <= 64")

    results = []
    with pairing_progress(total=args.games * len(pairings),
                          enabled=args.games * len(pairings) >= PROGRESS_FROM) as advance:
        for k, (a, b) in enumerate(pairings):
            offset = k * args.games
            results.append(simulate_pairing(
                game, a, b, args.games, seed=args.seed, n_jobs=args.jobs,
                progress=lambda done, _total, offset=offset: advance(offset + done)))
    if args.json:
        print_json([r.to_dict() for r in results])
    else:
        show_pairings(game, results)
    return 0


def _check_kind(name):
    """Refuse a preset or family that is not a wagering game by its name,
    with the support table's words (its own parameters are not asked for)."""
    from designer.commands._common import is_rules_game
    from designer.engine.game import load_rules_game
    from designer.games import FAMILIES, PRESETS, WagerGame, load_game

    if is_rules_game(name):
        check("simulate", load_rules_game(name))
    cls = PRESETS[name][0] if name in PRESETS else FAMILIES.get(name)
    if cls is None or cls is WagerGame:
        return  # unknown names are refused by load_game, wagering games taken
    if name in PRESETS:
        check("simulate", load_game(name))
    raise DesignError(refusal("simulate", name, 2, "race", name))  # a family: its name is its kind
