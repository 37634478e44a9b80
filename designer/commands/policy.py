"""``designer policy``: build policies (for now: train the neural policy)."""

import os

from designer.commands._common import add_game_args, float_in, game_from_args, int_in
from designer.errors import DesignError


def register(sub):
    p = sub.add_parser("policy", help="build policies: train-nn",
                       description="Build policies that designer compare can play.")
    psub = p.add_subparsers(dest="policy_command", metavar="ACTION", required=True)
    t = psub.add_parser(
        "train-nn", help="train the 118-weight neural policy of a deck game",
        description="Train a 7-13-1 logistic network (118 weights) on the decisions of optimal "
                    "self-play by online backpropagation, evaluating it exactly against the "
                    "optimal player after every epoch and keeping the best. Saves the weights "
                    "and the input scaling as npz; play it with --policy nn:FILE.",
        epilog="example: designer policy train-nn fowl-play --out fowl_nn.npz --minutes 9")
    add_game_args(t)
    t.add_argument("--out", required=True, help="output file (.npz)")
    t.add_argument("--seed", type=int_in(0, 2**31 - 1), default=0, help="random seed (default 0)")
    t.add_argument("--minutes", type=float_in(0, 10**5, lo_open=True), default=None,
                   help="time budget in minutes (default 9 unless --epochs is given)")
    t.add_argument("--epochs", type=int_in(1, 10**6), default=None, help="stop after this many epochs")
    t.add_argument("--games", type=int_in(1, 10**7), default=None,
                   help="optimal self-play games per epoch (default: the library's)")
    t.add_argument("--stake", type=float_in(0, 1, hi_open=True), default=None,
                   help="thin visited states whose win probability at stake is below this "
                        "(default 0.01; 0 keeps all)")
    t.add_argument("--json", action="store_true", help="print the report as one JSON object")
    t.set_defaults(func=run_train)


def run_train(args):
    from designer.training import DEFAULT_GAMES, DEFAULT_STAKE, train_nn
    from designer.report.terminal import print_json, show_training, training_progress
    from designer.solve import solve

    game = game_from_args(args, "policy train-nn")  # two-player deck games, race ending
    from designer.paths import output_file

    output_file(args.out)  # before training: a run that cannot save fails at once
    minutes = args.minutes if args.minutes is not None or args.epochs is not None else 9.0
    games = args.games if args.games is not None else DEFAULT_GAMES
    solution = solve(game)
    with training_progress(minutes, args.epochs, quiet=args.json) as callback:
        result = train_nn(game, seed=args.seed, epochs=args.epochs, minutes=minutes,
                          games=games, stake=DEFAULT_STAKE if args.stake is None else args.stake,
                          solution=solution, callback=callback)
    try:
        from designer.paths import make_dirs

        make_dirs(os.path.dirname(os.path.abspath(args.out)))  # checked above: under cwd
        result.network.save(args.out)
    except OSError as exc:
        raise DesignError(f"cannot write {args.out}: {exc}") from None
    report = {"game": game.name, "out": args.out, "seed": args.seed,
              "epochs": result.epochs, "best_epoch": result.best_epoch,
              "samples": result.samples, "seconds": result.seconds,
              "win_as_first": result.win_as_first, "win_as_second": result.win_as_second,
              "win_average": result.win_average, **result.compression()}
    if args.json:
        print_json(report)
    else:
        show_training(report)
    return 0
