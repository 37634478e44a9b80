"""``designer report``: a study's fairness report as HTML and Markdown."""

from designer.errors import DesignError


def _policies(text):
    """``--policies``: a count of designs (0 or more) or ``all``."""
    if text == "all":
        return "all"
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise DesignError(f"invalid --policies={text!r}: allowed an integer >= 0 or 'all'")
    return n


def register(sub):
    p = sub.add_parser(
        "report", help="write a study's fairness report (interactive HTML, Markdown, PNG, data)",
        description="Write the report of a study: index.html (one self-contained file, no "
                    "network: hover the fairness map, click a design, filter by the study's "
                    "constraints, length and skill gap), report.md, the figures as PNG and the "
                    "data behind every table and figure (parquet and CSV). Works on partly "
                    "finished studies and says how far they got.",
        epilog="example: designer report studies/red_light.toml --open")
    p.add_argument("file", help="study file (TOML)")
    p.add_argument("--out", help="output folder (default reports/<study name>)")
    p.add_argument("--open", action="store_true",
                   help="open index.html in the default browser when written")
    p.add_argument("--policies", default="3", metavar="N|all",
                   help="draw the optimal policy of the N best designs in index.html (one "
                        "solve each, about 0.5 s for a deck at goal 50; default 3), or of all")
    p.add_argument("--card-size", type=int, default=4, metavar="N",
                   help="largest rule size on the recommended design's strategy card (0..80, "
                        "default 4): the best rule a person can remember at each size, "
                        "measured exactly against the optimal player (as `designer strategy`; "
                        "about a minute for a deck at goal 50 the first time, its scores are "
                        "kept beside the study's results)")
    p.add_argument("--no-card", action="store_true", help="no strategy card")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def open_in_browser(path):
    """Open ``path`` in a browser if there is one; returns True if one was
    started. Never waits for the browser and never fails: without a display
    (CI, ssh) it says where the file is instead."""
    import os
    import webbrowser

    if os.name == "posix" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                                   or os.environ.get("BROWSER")) and os.uname().sysname != "Darwin":
        return False
    try:
        return bool(webbrowser.open(path.resolve().as_uri()))
    except Exception:  # noqa: BLE001 - a browser that cannot start must not fail the report
        return False


def run(args):
    from designer.commands._common import CountingBar
    from designer.report.study_report import write_report
    from designer.report.terminal import console
    from designer.strategy.card import MAX_SIZE

    policies = _policies(args.policies)
    if not 0 <= args.card_size <= MAX_SIZE:
        raise DesignError(f"invalid --card-size={args.card_size}: allowed 0..{MAX_SIZE}")
    if args.out is not None:
        from designer.paths import output_dir

        output_dir(args.out)
    with CountingBar("report:", disable=args.quiet) as bar:
        index, st = write_report(args.file, args.out, policies=policies,
                                 card=None if args.no_card else args.card_size,
                                 card_progress=bar.counter("strategy card, rules scored"),
                                 stage=bar.stage)
    from designer.report.content import COMPOSITION_WORDS

    what = COMPOSITION_WORDS.get(st["family"], "designs")
    console.print(f"wrote {index.parent}/ (index.html, report.md, figures/, data/): "
                  f"{st['done']} of {st['units']} {what}")
    if args.open and not open_in_browser(index):
        console.print(f"no browser to open here: open {index} yourself")
    return 0
