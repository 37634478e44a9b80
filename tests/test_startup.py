"""The command line starts without loading what only the work needs.

Building the parser (every command's ``--help``, every refusal of a flag)
must not import numba, pandas, optuna or the kernels: they cost a second or
more of start-up to every ``designer`` process, including the ones that
only print help or a one-line error.
"""

import json
import subprocess
import sys

import pytest

HEAVY = ("numba", "pandas", "optuna", "scipy", "matplotlib", "designer.solve", "designer.engine",
         "designer.policies.builtin")


def _loaded_after(code):
    """Which of :data:`HEAVY` a fresh interpreter holds after ``code``."""
    probe = (f"import sys\n{code}\nimport json\n"
             f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_parser_loads_nothing_heavy():
    assert _loaded_after("from designer.cli import build_parser\nbuild_parser()") == []


@pytest.mark.parametrize("argv", [["--help"], ["solve", "--help"], ["solve", "deck", "--bad", "x"],
                                  ["compare", "--help"], ["study", "run", "--help"]])
def test_help_and_flag_errors_load_nothing_heavy(argv):
    code = ("from designer.cli import main\n"
            "import contextlib, io\n"
            "with contextlib.redirect_stdout(io.StringIO()), "
            "contextlib.redirect_stderr(io.StringIO()):\n"
            "    try:\n"
            f"        main({argv!r})\n"
            "    except SystemExit:\n"
            "        pass")
    assert _loaded_after(code) == []


def test_the_policies_package_still_gives_every_name():
    import designer.policies as p

    for name in p.__all__:
        assert getattr(p, name) is not None
    assert "from_function" in dir(p)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        p.nope  # noqa: B018
