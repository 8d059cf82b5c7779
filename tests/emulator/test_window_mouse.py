"""The stylus maps exactly to the lower-screen pixel shown under it, in real windows (Xvfb):
at several window sizes, with the largest fit, in fullscreen and with one window per screen.

Each case runs `window_mouse_child.py` in the X server: it clicks real screen points with
xdotool and compares each touch the game got with the pixel the X server shows there.
Fullscreen is a window manager's job in X, so that case also needs one
(matchbox-window-manager, Debian package of that name); each tool missing is a visible skip.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.emulator.test_real_window import WAIT_SECONDS, emu_env, xdisplay

pytestmark = pytest.mark.slow
__all__ = ["xdisplay"]  # the X server fixture, shared with test_real_window

WINDOW_MANAGER = "matchbox-window-manager"


def run_child(display: str, out: Path, cases: str) -> str:
    if shutil.which("xdotool") is None:
        pytest.skip("xdotool is not installed (Debian: apt-get install xdotool)")
    result = subprocess.run(
        [sys.executable, "-m", "tests.emulator.window_mouse_child", display, str(out), cases],
        env=emu_env(display),
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=6 * WAIT_SECONDS,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    return result.stdout


def test_mouse_maps_to_the_shown_lower_pixel_at_every_window_size(
    xdisplay: str, tmp_path: Path
) -> None:
    out = run_child(xdisplay, tmp_path, "windowed")
    for label in ("window-256x392", "window-600x800", "window-1000x900", "fit-700x1000"):
        assert f"{label}: ok" in out
    assert "two-windows: ok" in out
    assert "key in the upper window: ok" in out and "key in the lower window: ok" in out


def test_mouse_maps_to_the_shown_lower_pixel_in_fullscreen(xdisplay: str, tmp_path: Path) -> None:
    if shutil.which(WINDOW_MANAGER) is None:
        pytest.skip(f"{WINDOW_MANAGER} is not installed: X has no fullscreen without one")
    wm = subprocess.Popen(
        [WINDOW_MANAGER, "-use_titlebar", "no"],
        env=emu_env(xdisplay),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        out = run_child(xdisplay, tmp_path, "fullscreen")
    finally:
        wm.terminate()
        wm.wait(timeout=30)
    assert "fullscreen: ok" in out and "fullscreen-fit: ok" in out
    assert "left fullscreen: size" in out


def test_fullscreen_without_a_window_manager_covers_the_screen(
    xdisplay: str, tmp_path: Path
) -> None:
    """Issue 34, item 8: on a bare X server SDL's fullscreen request goes unanswered; the
    window must still cover the screen, the picture be laid out for the size the window
    really has (every click lands on the pixel shown), and leaving fullscreen give back the
    size it had before."""
    out = run_child(xdisplay, tmp_path, "fullscreen-bare")
    assert "fullscreen: shown at (0, 0, 1280, 1024)" in out
    assert "fullscreen: ok" in out and "fullscreen-fit: ok" in out
    assert "left fullscreen: shown at (40, 30, 600, 800)" in out and "windowed-again: ok" in out
