"""deploy/lib.sh, one helper at a time: the paths a staging-root install never takes (an
empty ROOT, as on the Pi) and the wheel handling, with a stand-in pip that records calls."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LIB = REPO / "deploy" / "lib.sh"
BASH = shutil.which("bash")

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is missing: installer not tested")


def call(script: str, root: str = "", system: int = 1, dry: int = 0):
    """Run SCRIPT after sourcing lib.sh with the given ROOT / SYSTEM / DRY settings."""
    return subprocess.run(
        [BASH, "-c", f'set -euo pipefail; . "$1"; ROOT="$2"; SYSTEM={system}; DRY={dry}; {script}',
         "lib", str(LIB), root],  # type: ignore[list-item]
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_remove_works_on_the_running_system(tmp_path):
    # ROOT is empty on a Pi: the first uninstall.sh died there on "${ROOT:?}".
    folder = tmp_path / "opt" / "twinfold"
    (folder / "venv").mkdir(parents=True)
    (folder / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    link = tmp_path / "wants.service"
    link.symlink_to(tmp_path / "gone.service")  # a dangling link is removed too
    result = call(f'remove "{folder}"; remove "{link}"; remove "{tmp_path}/never"')
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"removed {folder}", f"removed {link}",
                                          f"absent {tmp_path}/never"]  # fmt: skip
    assert not folder.exists() and not link.is_symlink()


@pytest.mark.parametrize("path", ["", "relative/path", "/"])
def test_remove_refuses_paths_that_are_not_absolute_files(tmp_path, path):
    keep = tmp_path / "keep"
    keep.write_text("x")
    result = call(f'cd "{tmp_path}"; remove "{path}"')
    assert result.returncode != 0
    assert "refusing the path" in result.stderr
    assert keep.read_text() == "x"


def test_remove_in_a_dry_run_only_says_so(tmp_path):
    victim = tmp_path / "file"
    victim.write_text("x")
    result = call(f'remove "{victim}"', dry=1)
    assert result.returncode == 0 and result.stdout.strip() == f"would remove {victim}"
    assert victim.exists()


def fake_venv(tmp_path: Path) -> tuple[Path, Path]:
    """A virtual environment whose pip records its arguments and 'installs' the entry point."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    log = tmp_path / "pip.log"
    pip = venv / "bin" / "pip"
    pip.write_text(
        f'#!/bin/sh\necho "$*" >> "{log}"\n'
        f'printf "#!/bin/sh\\n" > "{venv}/bin/twinfold"; chmod +x "{venv}/bin/twinfold"\n'
    )
    pip.chmod(0o755)
    return venv, log


def pip_calls(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_a_rebuilt_wheel_of_the_same_version_is_reinstalled_and_the_same_one_is_not(tmp_path):
    venv, log = fake_venv(tmp_path)
    wheel = tmp_path / "twinfold-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"first build")
    assert call(f'install_wheel "{venv}" "{wheel}"').returncode == 0
    assert pip_calls(log) == [
        f"install --no-cache-dir --force-reinstall --no-deps {wheel}",
        f"install --no-cache-dir {wheel}[device]",
    ]
    # the same wheel again: nothing to do, no pip (and so no network)
    again = call(f'install_wheel "{venv}" "{wheel}"')
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == f"unchanged twinfold wheel {wheel.name}"
    assert len(pip_calls(log)) == 2
    # a new build with the same version number: pip alone would keep the old code
    wheel.write_bytes(b"second build")
    assert call(f'install_wheel "{venv}" "{wheel}"').returncode == 0
    assert pip_calls(log)[2:] == pip_calls(log)[:2]


def test_install_wheel_in_a_dry_run_or_a_staging_root_calls_no_pip(tmp_path):
    venv, log = fake_venv(tmp_path)
    wheel = tmp_path / "twinfold-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"build")
    dry = call(f'install_wheel "{venv}" "{wheel}"', dry=1)
    staged = call(f'install_wheel "{venv}" "{wheel}"', root=str(tmp_path / "stage"), system=0)
    assert dry.stdout.startswith("would run: ") and staged.stdout.startswith("skipped (DESTDIR)")
    assert pip_calls(log) == [] and not (venv / "twinfold-wheel.sha256").exists()


def test_clean_source_leaves_out_what_builds_leave_behind(tmp_path):
    src = tmp_path / "checkout"
    for name in (
        "pyproject.toml",
        "firmware/__init__.py",
        "firmware/build/keep.py",  # a package folder named build is source
        "games/pop/rules.py",
        "build/lib/firmware/deleted_module.py",  # setuptools' stale copy
        "dist/twinfold-0.1.0-py3-none-any.whl",
        "twinfold.egg-info/PKG-INFO",
        "firmware/__pycache__/x.cpython-311.pyc",
        ".git/HEAD",
        ".venv/pyvenv.cfg",
    ):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(name)
    dest = tmp_path / "copy"
    result = call(f'clean_source "{src}" "{dest}"')
    assert result.returncode == 0, result.stderr
    copied = {str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file()}
    assert copied == {
        "pyproject.toml",
        "firmware/__init__.py",
        "firmware/build/keep.py",
        "games/pop/rules.py",
    }


def test_build_wheel_builds_the_checkout_without_its_stale_build_folder(tmp_path):
    # The real project, with a module that exists only in a stale build/lib.
    src = tmp_path / "checkout"
    call(f'clean_source "{REPO}" "{src}"')
    stale = src / "build/lib/firmware/deleted_module.py"
    stale.parent.mkdir(parents=True)
    stale.write_text("GONE = True\n")
    result = call(f'build_wheel "{sys.executable}" "{src}" "{tmp_path / "out"}"')
    assert result.returncode == 0, result.stderr
    wheel = Path(result.stdout.strip())
    assert wheel.parent == tmp_path / "out" and wheel.name.startswith("twinfold-")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert "firmware/cli.py" in names and "firmware/deleted_module.py" not in names
    assert not (src / "build/lib/firmware/cli.py").exists()  # built elsewhere
    # The dates inside come from SOURCE_DATE_EPOCH, not the clock or the files: a later
    # build of the same source has the same bytes, and install_wheel reinstalls nothing.
    with zipfile.ZipFile(wheel) as z:
        assert {info.date_time for info in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
