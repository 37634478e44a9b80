"""Output paths (designer/paths.py): checked before any work; a missing
folder is created only under the working directory."""

import os

import pytest

from designer.errors import DesignError
from designer.paths import output_dir, output_file


def test_output_file_rules(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert str(output_file("new/sub/x.npz")) == "new/sub/x.npz"  # under cwd: may be created
    assert not (tmp_path / "new").exists()  # ... but the check itself creates nothing
    (tmp_path / "d").mkdir()
    with pytest.raises(DesignError, match="it is a folder"):
        output_file("d")
    outside = tmp_path.parent / f"{tmp_path.name}-missing" / "x.npz"
    with pytest.raises(DesignError, match="does not exist: allowed a path whose folder exists"):
        output_file(outside)
    (tmp_path / "f").write_text("x")
    with pytest.raises(DesignError, match="is not a folder"):
        output_file("f/x.npz")
    with pytest.raises(DesignError, match="allowed a file name"):
        output_file("  ")
    assert set(tmp_path.iterdir()) == {tmp_path / "d", tmp_path / "f"}  # nothing written


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_folder(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(DesignError, match="not writable"):
            output_file(ro / "x.npz")
    finally:
        ro.chmod(0o700)


def test_output_dir_rules(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert str(output_dir("reports/x")) == "reports/x"
    (tmp_path / "f").write_text("x")
    with pytest.raises(DesignError, match="it is a file: allowed a folder"):
        output_dir("f")
    with pytest.raises(DesignError, match="does not exist"):
        output_dir(tmp_path.parent / f"{tmp_path.name}-missing" / "r")


def test_special_file_system_refused(tmp_path):
    if not os.path.isdir("/proc/self"):
        pytest.skip("no /proc")
    with pytest.raises(DesignError, match="cannot create it"):
        output_file("/proc/designer-test.npz")
