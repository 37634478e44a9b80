"""How fast the interactive report opens, and how big it is.

For each study (default: the flagship and the shipped study with the most
stored rows), writes its report into a temporary folder, then loads
``index.html`` in a fresh headless Chromium several times (every load is
cold: a new browser each time) and prints medians of

* ``DCL``: navigation start -> DOMContentLoaded (reading the page,
  including parsing the inlined plotly.js),
* ``DCL->drawn``: DOMContentLoaded -> every figure drawn (the page sets
  ``window.reportDrawn`` when the last Plotly promise resolves),
* ``total``: navigation start -> every figure drawn,
* ``text``: navigation start -> first contentful paint (the summary and the
  tables show before plotly.js is read: it is inlined at the end),

and the file size. The baseline, measured in the same run, is a page that
only inlines plotly.js and draws one empty heatmap: the floor any
Plotly-based page pays.

With ``--generation`` it also times ``designer report`` itself (median of
``--builds`` runs) for this checkout and, with ``--baseline-src DIR`` (e.g.
``git archive main | tar -x -C DIR``), for another source tree.

Usage::

    python benchmarks/report_page.py [STUDY.toml ...] [--loads 5] [--generation]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def _browser():
    from test_report import _browser as make

    b = make()
    if b is None:
        sys.exit("needs chromium, chromedriver and selenium (pip install -e '.[test]')")
    b.set_window_size(1400, 1000)
    return b


def load_times(path, loads):
    """(DCL, DCL->drawn, total, first text painted) in ms for each of ``loads``
    cold loads."""
    out = []
    for _ in range(loads):
        b = _browser()
        try:
            b.get(Path(path).resolve().as_uri())
            t0 = time.monotonic()
            while not b.execute_script("return window.reportDrawn || null"):
                if time.monotonic() - t0 > 60:
                    raise RuntimeError(f"{path}: figures not drawn after 60 s")
                time.sleep(0.02)
            paint, dcl, drawn = b.execute_script(
                "var n = performance.getEntriesByType('navigation')[0];"
                "var p = performance.getEntriesByName('first-contentful-paint')[0];"
                "return [p ? p.startTime : null, n.domContentLoadedEventStart,"
                " window.reportDrawn]")
            errors = [e for e in b.get_log("browser") if e["level"] == "SEVERE"]
            if errors:
                raise RuntimeError(f"{path}: console errors {errors}")
        finally:
            b.quit()
        out.append((dcl, drawn - dcl, drawn, paint if paint is not None else float("nan")))
    return out


def baseline_page(folder):
    """A page with plotly.js inlined and one small heatmap, nothing else."""
    from designer.report.interactive import plotly_script

    page = Path(folder) / "baseline.html"
    page.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><script>" + plotly_script()
        + "</script></head><body><div id='m'></div><script>"
        "document.addEventListener('DOMContentLoaded', function () {"
        "Plotly.newPlot('m', [{type: 'heatmap', z: [[1, 2], [3, 4]]}]).then(function () {"
        "window.reportDrawn = performance.now(); }); });</script></body></html>")
    return page


def largest_study():
    """The shipped study with the most stored rows (studies run here)."""
    from designer.search import load_study, open_store

    best = None
    for f in sorted((ROOT / "studies").glob("*.toml")):
        spec = load_study(f)
        if not spec.store_path.exists():
            continue
        n = len(open_store(spec, must_exist=True).rows())
        if best is None or n > best[1]:
            best = (f, n)
    return best


def generation_times(study, src, builds, out):
    env = dict(os.environ, PYTHONPATH=str(src))
    times = []
    for _ in range(builds):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "designer", "report", str(study), "--out",
                        str(out)], check=True, env=env, capture_output=True, cwd=src)
        times.append(time.perf_counter() - t0)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("studies", nargs="*", help="study files (default: flagship + largest)")
    ap.add_argument("--loads", type=int, default=5, help="cold page loads per page (default 5)")
    ap.add_argument("--generation", action="store_true", help="also time designer report")
    ap.add_argument("--builds", type=int, default=3, help="report builds to time (default 3)")
    ap.add_argument("--baseline-src", help="another source tree to time designer report with")
    args = ap.parse_args()

    from designer.report.study_report import write_report

    studies = [Path(s) for s in args.studies]
    if not studies:
        studies = [ROOT / "studies" / "red_light.toml"]
        big = largest_study()
        if big and big[0] != studies[0]:
            studies.append(big[0])
    print(f"uptime: {os.popen('uptime').read().strip()}")
    tmp = Path(tempfile.mkdtemp(prefix="report_page_"))
    try:
        base = load_times(baseline_page(tmp), args.loads)
        b_total = statistics.median(t[2] for t in base)
        print(f"{'page':<30} {'MB':>5} {'text ms':>7} {'DCL ms':>7} {'DCL->drawn':>10} "
              f"{'total ms':>8} {'x baseline':>10}")
        print(f"{'baseline (plotly.js only)':<30} "
              f"{(tmp / 'baseline.html').stat().st_size / 1e6:5.2f} {'':>7} "
              f"{statistics.median(t[0] for t in base):7.0f} "
              f"{statistics.median(t[1] for t in base):10.0f} {b_total:8.0f} {1:10.2f}")
        for study in studies:
            t0 = time.perf_counter()
            index, st = write_report(study, tmp / study.stem)
            built = time.perf_counter() - t0
            runs = load_times(index, args.loads)
            total = statistics.median(t[2] for t in runs)
            name = f"{study.stem} ({st['rows']:,} rows)"
            print(f"{name:<30} {index.stat().st_size / 1e6:5.2f} "
                  f"{statistics.median(t[3] for t in runs):7.0f} "
                  f"{statistics.median(t[0] for t in runs):7.0f} "
                  f"{statistics.median(t[1] for t in runs):10.0f} {total:8.0f} "
                  f"{total / b_total:10.2f}   (report written in {built:.1f} s, in process)")
        if args.generation:
            for study in studies:
                mine = generation_times(study.resolve(), ROOT, args.builds, tmp / "gen")
                line = f"designer report {study.name}: median {statistics.median(mine):.1f} s"
                if args.baseline_src:
                    other = generation_times(study.resolve(), Path(args.baseline_src).resolve(),
                                             args.builds, tmp / "gen_base")
                    line += (f"; baseline {statistics.median(other):.1f} s; ratio "
                             f"{statistics.median(mine) / statistics.median(other):.2f}")
                print(line + f"  ({args.builds} builds each)")
        print(f"uptime: {os.popen('uptime').read().strip()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
