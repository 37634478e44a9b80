"""``designer report``: a study's fairness report as HTML and Markdown."""


def register(sub):
    p = sub.add_parser(
        "report", help="write a study's fairness report (HTML, Markdown, PNG, data)",
        description="Write the report of a study: index.html (self-contained), report.md, the "
                    "figures as PNG and the data behind every table and figure (parquet and "
                    "CSV). Works on partly finished studies and says how far they got.",
        epilog="example: designer report studies/red_light.toml --open")
    p.add_argument("file", help="study file (TOML)")
    p.add_argument("--out", help="output folder (default reports/<study name>)")
    p.add_argument("--open", action="store_true", help="open index.html in a browser")
    p.set_defaults(func=run)


def run(args):
    from designer.report.study_report import write_report
    from designer.report.terminal import console

    if args.out is not None:
        from designer.paths import output_dir

        output_dir(args.out)
    index, st = write_report(args.file, args.out)
    console.print(f"wrote {index.parent}/ ({st['done']} of {st['units']} units)")
    if args.open:
        import webbrowser

        webbrowser.open(index.resolve().as_uri())
    return 0
