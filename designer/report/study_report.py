"""The one entry point: a study file in, a report folder out."""

from pathlib import Path

from designer.report import content, writers
from designer.search import load_study, open_store, status


def write_report(study_file, out_dir=None, policies=3, card=None, card_progress=None,
                 stage=None):
    """Build and write the report of a study.

    Parameters
    ----------
    study_file : path
        The study's TOML file; its results store must exist.
    out_dir : path, optional
        Default ``reports/<study name>`` under the current directory.
    policies : int or "all"
        How many of the best designs get their optimal-policy picture in
        ``index.html`` (one solve each); ``"all"`` for every design.
    card : int, optional
        Largest rule size of the recommended design's strategy card; None
        for none.
    card_progress : callable, optional
        Progress callback of the card's rule search.
    stage : callable, optional
        ``stage(words)``: called as each phase begins (building the report,
        writing its files), once the store is open (an error before stays
        one line).

    Returns
    -------
    (Path, dict)
        The path of ``index.html`` and the study's status.
    """
    spec = load_study(study_file)
    store = open_store(spec, readonly=True)  # a report only reads the store
    st = status(spec, store)
    stage = stage or (lambda words: None)
    stage("solving the best designs' policies, drawing the figures")
    report = content.build(spec, store.rows(), st, unit_stats=store.unit_stats(),
                           policies=policies, card=card, card_progress=card_progress)
    stage("writing the files")
    out = Path(out_dir) if out_dir else Path("reports") / spec.name
    return writers.write(report, out), dict(st, family=spec.family)
