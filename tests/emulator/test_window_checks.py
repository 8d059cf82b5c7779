"""`.ci/window-checks` (issue 26): CI runs the real-window tests where their tools are, and
there a skip of one of them is a failure (TWINFOLD_REQUIRE_WINDOWS=1, see
tests/emulator/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SKIPPING = """
import pytest

@pytest.fixture
def xdisplay():
    pytest.skip("Xvfb is not installed")

def test_in_a_window(xdisplay):
    pass

def test_elsewhere():
    pytest.skip("not a window test")
"""


def run_pytest(tmp_path: Path, require: bool) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_skipping.py"
    test.write_text(SKIPPING)
    env = {k: v for k, v in os.environ.items() if k != "TWINFOLD_REQUIRE_WINDOWS"}
    if require:
        env["TWINFOLD_REQUIRE_WINDOWS"] = "1"
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.emulator.conftest",
            "-rs",
            "-p",
            "no:xdist",
            str(test),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_real_window_test_that_skips_fails_when_windows_are_required(tmp_path: Path) -> None:
    result = run_pytest(tmp_path, require=True)
    assert result.returncode == 1, result.stdout
    assert "1 skipped, 1 error" in result.stdout  # the fixture skipped: an error in setup
    assert "TWINFOLD_REQUIRE_WINDOWS=1 but this real-window test skipped" in result.stdout
    assert "Xvfb is not installed" in result.stdout  # the skip's reason is kept


def test_without_the_variable_it_is_a_visible_skip(tmp_path: Path) -> None:
    result = run_pytest(tmp_path, require=False)
    assert result.returncode == 0, result.stdout
    assert "2 skipped" in result.stdout and "Xvfb is not installed" in result.stdout


def test_ci_runs_the_window_checks_after_the_test_suite() -> None:
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert lines.index("python3 run.py test") < lines.index(".ci/window-checks")
    script = ROOT / ".ci" / "window-checks"
    assert os.access(script, os.X_OK)
    assert subprocess.run(["bash", "-n", str(script)], timeout=30).returncode == 0
    text = script.read_text()
    for package in ("xvfb", "xdotool", "x11-utils", "matchbox-window-manager"):
        assert package in text
    assert "TWINFOLD_REQUIRE_WINDOWS=1" in text and "window-checks: SKIPPED:" in text
