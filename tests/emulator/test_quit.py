"""Issue 34, item 9: quitting after a clip prints no traceback from a computer player's
worker process (the clip's replay starts workers of its own and drops them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("quit_key", ["ctrl+q", "escape"])
def test_quitting_after_a_clip_prints_no_traceback(tmp_path: Path, quit_key: str) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    result = subprocess.run(
        [sys.executable, "-m", "tests.emulator.quit_after_clip_child", str(tmp_path), quit_key],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,  # bounds a hang on a loaded machine; not asserted
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "quit"
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    assert "Error" not in result.stderr, result.stderr[-3000:]
