"""``designer study``: run, watch, resume and read design studies."""

import os
import time
from pathlib import Path

from designer.commands._common import CtrlC, int_in
from designer.errors import DesignError

STUDY_HELP = "the study file (TOML), e.g. studies/red_light.toml"


def _command_started():
    """When the user started this command (epoch seconds): the process's
    start, so that interpreter start-up and imports count (Linux tells a
    process's age in /proc), unless the process is older than a command
    takes to start (main() called in a long-lived process, e.g. a test):
    then now."""
    now = time.time()
    try:
        with open("/proc/self/stat") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])  # field 22: starttime
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    return now - age if 0.0 <= age < 60.0 else now


def register(sub):
    p = sub.add_parser(
        "study", help="sweep or search a design space described in a study file",
        description="Design studies: a TOML file describes the game family, the parameter "
                    "ranges, constraints and objectives; `run` computes every design (grid) or "
                    "searches them (optuna), committing each result at once to the study's "
                    "SQLite store, so an interrupted study resumes where it stopped.",
        epilog="example: designer study run studies/red_light.toml && "
               "designer study top studies/red_light.toml --n 10")
    ss = p.add_subparsers(dest="study_command", metavar="ACTION", required=True)

    details = (" Every finished design is committed at once to the study's SQLite store "
               "(<file stem>.results/ beside the file), so the run is safe to stop at any "
               "moment (Ctrl-C, kill, reboot): `resume` continues where it stopped, computing "
               "nothing twice. A progress bar shows the designs done and the time left, "
               "estimated from the size of the designs still to compute.")
    for name, helptext in (("run", "compute the study's designs (continues if results exist)"),
                           ("resume", "continue a study that was stopped")):
        q = ss.add_parser(name, help=helptext, description=helptext[0].upper() + helptext[1:]
                          + "." + details)
        q.add_argument("file", metavar="STUDY", help=STUDY_HELP)
        q.add_argument("--workers", type=int_in(1, 256), metavar="N",
                       help="how many designs to compute at once, each in its own process "
                            "(default: the study file's `workers`; more than the machine's "
                            "cores does not help)")
        q.add_argument("--backend", choices=("loky", "dask"), default="loky",
                       help="where the designs are computed: loky = processes on this "
                            "machine (default); dask = an existing Dask cluster of several "
                            "machines, grid studies only (give its address with --scheduler)")
        q.add_argument("--scheduler", metavar="ADDRESS",
                       help="address of the Dask cluster's scheduler, e.g. tcp://10.0.0.5:8786")
        q.add_argument("--retry-failed", action="store_true",
                       help="also compute again the designs that failed in an earlier run "
                            "(`study status` lists them with the reason)")
        q.add_argument("--top", type=int_in(1, 10_000), default=5, metavar="N",
                       help="how many of the best designs to list at the end (default 5)")
        q.set_defaults(func=run, resume=(name == "resume"))

    q = ss.add_parser("status", help="designs done, to compute and failed, and the time left",
                      description="How far a study is: designs done, still to compute and "
                                  "failed (with the reason), and the time a `resume` will take, "
                                  "estimated from the size of the designs left and the speed "
                                  "measured on the designs already computed.")
    q.add_argument("file", metavar="STUDY", help=STUDY_HELP)
    q.add_argument("--json", action="store_true",
                   help="print one JSON object for scripts (its keys never change)")
    q.add_argument("--verbose", action="store_true",
                   help="also show the rows stored and how the time left is estimated")
    q.set_defaults(func=show_status)

    q = ss.add_parser("top", help="the best designs by the study's objectives",
                      description="List the best designs stored so far, ranked by the study "
                                  "file's objectives (designs that break its constraints left "
                                  "out).")
    q.add_argument("file", metavar="STUDY", help=STUDY_HELP)
    q.add_argument("--n", type=int_in(1, 10**6), default=10, metavar="N",
                   help="how many designs to list (default 10)")
    q.add_argument("--json", action="store_true", help="print a JSON list for scripts")
    q.set_defaults(func=show_top)

    q = ss.add_parser("export", help="write every stored result to parquet or CSV",
                      description="Write every stored row (one per design, goal and komi) to "
                                  "a file for a spreadsheet or pandas.")
    q.add_argument("file", metavar="STUDY", help=STUDY_HELP)
    q.add_argument("--format", metavar="FORMAT",
                   help="parquet (pandas, R, DuckDB) or csv (spreadsheets); default: "
                        "csv for an --out named .csv, else parquet")
    q.add_argument("--out", metavar="FILE", help="file to write (default: <study name>.<format> in the study's "
                                 "results folder); a .csv or .parquet name that contradicts "
                                 "--format is refused")
    q.set_defaults(func=do_export)


def _load(args, must_exist=False, readonly=False):
    from designer.search import load_study, open_store

    spec = load_study(args.file)
    return spec, open_store(spec, must_exist=must_exist, readonly=readonly)


def run(args):
    command_started = _command_started()
    from designer.report import terminal
    from designer.search.lock import StudyLock

    if args.workers is not None and not 1 <= args.workers <= 256:
        raise DesignError(f"invalid --workers={args.workers}: allowed 1 <= workers <= 256")
    if args.backend == "dask" and not args.scheduler:
        raise DesignError("--backend dask needs --scheduler tcp://HOST:PORT")
    if args.scheduler and args.backend != "dask":
        raise DesignError("--scheduler goes with --backend dask")
    from designer.search import load_study

    spec = load_study(args.file)  # validated before anything is written
    if args.backend == "dask" and spec.method != "grid":
        raise DesignError("the dask backend runs grid studies; for optuna studies run "
                          "`designer study run` on each machine with a shared storage URL")
    client = None
    if args.scheduler:
        from designer.search.distributed import check_address, connect

        check_address(args.scheduler)
        client = connect(args.scheduler)  # an unreachable or broken cluster writes nothing
    from designer.search.undo import created_files_undone

    opened = []
    try:
        # a run that fails before it stores anything leaves no file behind
        with created_files_undone(spec, store=lambda: opened[0] if opened else None):
            _, store = _load(args, must_exist=args.resume)
            opened.append(store)
            t0 = time.perf_counter()
            started = command_started
            interrupted = computed_now = False
            with StudyLock(spec), CtrlC() as ctrl_c:
                try:
                    if spec.method == "grid":
                        summary, computed_now = _run_grid(spec, store, args, ctrl_c, client,
                                                          started)
                    else:
                        summary = _run_optuna(spec, store, args, ctrl_c)
                except KeyboardInterrupt:
                    interrupted = True
    finally:
        if client is not None:
            client.close()
    from designer.search import status

    st = status(spec, store)
    if interrupted:
        # one line each (soft_wrap: no newline inside a command to copy)
        terminal.err_console.print(
            f"interrupted: {st['done']} of {st['units']} {st['units_word']} are stored; "
            f"continue with `designer study resume {args.file}`", soft_wrap=True)
        return 130
    terminal.console.print(
        f"{spec.name}: {summary} in {time.perf_counter() - t0:.1f} s; "
        f"{st['done']} of {st['units']} {st['units_word']} done, {st['failed']} failed",
        soft_wrap=True)
    if st["failed"]:
        terminal.err_console.print(
            f"{st['failed']} {st['units_word']} failed (see `designer study status "
            f"{args.file}`); run them again with `designer study resume {args.file} "
            f"--retry-failed`", soft_wrap=True)
    df = store.rows()
    if len(df):
        _print_top(spec, df, args.top)
    if spec.method == "grid" and computed_now:
        from designer.search.eta import note_end

        note_end(store, time.time())  # how long a run takes after its last design
    return 1 if st["failed"] else 0


def _print_top(spec, rows, n):
    from designer.report.content import ranked_table
    from designer.report.terminal import show_top
    from designer.search.ranking import rank

    table = ranked_table(rank(rows, spec), spec, n)
    show_top(table.shown, f"{spec.name}: best designs by "
                          f"{', '.join(o.label for o in spec.objectives)}")


def _run_grid(spec, store, args, ctrl_c, client=None, started=None):
    from designer.report.terminal import unit_progress
    from designer.search.eta import run_estimate, work_of
    from designer.search.families import family_of, unit_key
    from designer.search.grid import plan, run_grid

    p = plan(spec, store, args.retry_failed)
    workers = args.workers or spec.workers
    work = work_of(spec)
    pending = {unit_key(u) for u in p.pending}
    # nothing stored to calibrate the time left from: a trial solve first
    prior = run_estimate(spec, store, workers, retry_failed=args.retry_failed, started=started,
                         measure=args.backend != "dask")
    with unit_progress(spec.name, p.total, p.total - len(p.pending), workers, args.backend,
                       noun=family_of(spec).units_word,
                       work={k: w for k, w in work.items() if k in pending},
                       work_done=sum(w for k, w in work.items() if k not in pending),
                       seconds_per_work=prior.seconds_per_work,
                       startup_seconds=prior.startup_seconds) as advance:
        out = run_grid(spec, store, workers=workers, backend=args.backend, client=client,
                       on_result=ctrl_c.checked(advance), retry_failed=args.retry_failed, started=started)
    return (f"computed {out['computed']} {family_of(spec).units_word}"
            + (f", {out['failed']} failed" if out["failed"] else "")), bool(p.pending)


def _run_optuna(spec, store, args, ctrl_c):
    from designer.report.terminal import unit_progress
    from designer.search import optuna_search
    from designer.search.families import family_of

    study = optuna_search.load(spec)
    done = optuna_search.counted(study)
    local = not spec.optuna_storage or spec.optuna_storage.startswith("sqlite")
    with unit_progress(spec.name, spec.trials, min(done, spec.trials), args.workers or spec.workers,
                       "optuna", noun="trials") as advance:
        out = optuna_search.run_optuna(spec, store, workers=args.workers, local=local,
                                       on_trial=ctrl_c.checked(advance))
    return (f"ran {out['trials']} trials, solved {out['computed']} new "
            f"{family_of(spec).units_word}"
            + (f", retried {out['recovered']} orphaned trials" if out["recovered"] else ""))


def show_status(args):
    started = _command_started()
    from designer.report import terminal
    from designer.search import load_study, status
    from designer.search.study import open_results

    spec = load_study(args.file)
    store = open_results(spec)  # None before the first result: 0 done, nothing created
    trial = None
    if store is None and spec.method == "grid":
        from designer.search.eta import trial as measure

        trial = measure(spec, started=started)  # the time left from a trial solve
    st = status(spec, store, prior=trial)
    if args.json:
        terminal.print_json(st)
    else:
        est = None
        if spec.method == "grid":
            from designer.search.eta import estimate

            est = estimate(spec, store, running=st["running"], prior=trial)
        terminal.show_status(st, est, verbose=args.verbose)
    return 0


def show_top(args):
    from designer.report import terminal
    from designer.search.ranking import top

    if args.n < 1:
        raise DesignError(f"invalid --n={args.n}: allowed n >= 1")
    spec, store = _load(args, readonly=True)
    if args.json:
        terminal.print_json(top(store.rows(), spec, args.n).to_dict(orient="records"))
    else:
        _print_top(spec, store.rows(), args.n)
    return 0


def do_export(args):
    from designer.report import terminal
    from designer.search import export

    fmt = args.format
    if fmt is not None and fmt not in ("parquet", "csv"):
        raise DesignError(f"invalid --format={fmt!r}: allowed parquet | csv")
    if args.out is not None:
        # the file's extension says what it holds: never parquet in a .csv
        named = {".parquet": "parquet", ".csv": "csv"}.get(Path(args.out).suffix.lower())
        if fmt is not None and named not in (None, fmt):
            raise DesignError(f"invalid --out={args.out!r} with --format={fmt}: allowed a file "
                              f"not named .{named} (a {fmt} file)")
        fmt = fmt or named
    args.format = fmt or "parquet"
    if args.out is not None:
        from designer.paths import output_file

        output_file(args.out)
    spec, store = _load(args, readonly=True)
    path = export(spec, store, args.format, args.out)
    terminal.console.print(f"wrote {len(store.rows())} rows to {path}")
    return 0
