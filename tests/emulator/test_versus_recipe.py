"""The README's versus recipe, verbatim (issue 24, item 1), and the window class (item 8).

Two real emulator processes in real X windows (Xvfb), started with exactly the README's
arguments on the default data directory, are driven with the mouse through `xdotool` as a
person would: Versus, host on Ann, join on Bob, pair, and a whole game of Reversi. Each
unit's log says what it did; at the end both stores hold the same finished game. Skips with
the reason where Xvfb, xdotool or xprop are missing.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from emulator.layout import Layout
from firmware.storage import Store
from games.reversi.rules import Game

pytestmark = [pytest.mark.slow, pytest.mark.soak]  # real-time processes: `run.py soak`

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_real_window import (  # noqa: E402
    NO_CONNECTION,
    STARTS,
    emu_env,
    grab_screen,
    twinfold_command,
    xdisplay,
)

__all__ = ["xdisplay"]  # the X server fixture, shared with the real-window tests

README = Path(__file__).resolve().parents[2] / "README.md"
WAIT = 90.0  # bounds a hang on a shared machine; not asserted


def readme_recipe() -> tuple[list[str], list[str]]:
    """The two commands of README's versus recipe, as written there."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r"`(twinfold emu [^`]*--name Ann)` and `\.\.\. (--name Bob)`", text)
    assert found, "README's versus recipe moved: update this test with it"
    first = shlex.split(found.group(1))
    second = first[: first.index("--name")] + shlex.split(found.group(2))
    return first, second


def tools() -> None:
    for tool in ("xdotool", "xprop"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (Debian: apt-get install {tool}); cannot drive")


class Unit:
    """One emulator process and its window, driven by xdotool."""

    def __init__(self, command: list[str], env: dict[str, str], data_dir: Path) -> None:
        """`command`: the full command line; `data_dir`: where its log lands."""
        self.data_dir = data_dir
        self.env = env
        data_dir.mkdir(parents=True, exist_ok=True)
        self.command = command
        self.err = open(data_dir / "stderr.txt", "w+")  # noqa: SIM115
        self.proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=self.err)
        self.starts = 1
        self.window = ""
        self.geometry = Layout()

    def xdo(self, *args: str) -> str:
        out = subprocess.run(
            ["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=30
        )
        return out.stdout.strip()

    def find_window(self, x: int = 0) -> None:
        """Find the process's window and move it to `x` (with no window manager, windows
        would overlap and the pointer would click the one on top)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and self.restarted_if_refused():
            ids = self.xdo("search", "--pid", str(self.proc.pid))
            for wid in ids.split():
                size = self.xdo("getwindowgeometry", "--shell", wid)
                dims = dict(line.split("=", 1) for line in size.splitlines() if "=" in line)
                width, height = int(dims.get("WIDTH", 0)), int(dims.get("HEIGHT", 0))
                if width >= 256 and height >= 384:
                    scale = width // 256
                    self.window = wid
                    self.geometry = Layout("vertical", scale, height - 2 * 192 * scale)
                    self.xdo("windowmove", "--sync", wid, str(x), "0")
                    return
            time.sleep(0.3)
        self.fail("its window never appeared")

    def restarted_if_refused(self) -> bool:
        """Whether the unit runs; one that the X server did not let connect is started
        again (twice at most: see test_real_window.NO_CONNECTION)."""
        if self.proc.poll() is None:
            return True
        self.err.seek(0)
        if NO_CONNECTION not in self.err.read() or self.starts >= STARTS:
            return False
        self.err.seek(0)
        self.err.truncate()
        self.proc = subprocess.Popen(
            self.command, env=self.env, stdout=subprocess.DEVNULL, stderr=self.err
        )
        self.starts += 1
        return True

    def tap(self, x: int, y: int) -> None:
        """Click the lower screen's pixel (x, y)."""
        wx, wy = self.geometry.geometry().to_window(x, y)
        self.xdo("mousemove", "--window", self.window, str(wx), str(wy))
        self.xdo("mousedown", "1")
        time.sleep(0.08)  # a few frames: a press the firmware sees as a tap
        self.xdo("mouseup", "1")
        time.sleep(0.05)

    def log(self) -> str:
        path = self.data_dir / "twinfold.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def scene(self) -> str:
        """The screen the unit shows now, as its log says (firmware.machine logs each)."""
        found = re.findall(r"scene: (\S+) at tick", self.log())
        return found[-1] if found else ""

    def tap_until(
        self, x: int, y: int, done: Callable[[], bool], on: str, again: float = 5.0
    ) -> None:
        """Tap (x, y) on screen `on` until `done()`; tapped again (every `again` seconds)
        only while the unit still shows `on`, so a tap that landed is never repeated on
        the next screen. A tap can be lost where a screen ignores it for a moment (a
        pairing code still being worked out, an animation, a busy machine)."""
        self.wait(lambda: done() or self.scene() == on, f"the {on} screen")
        if done():  # (the boot screen can end by itself meanwhile)
            return
        self.tap(x, y)
        tapped = time.monotonic()
        deadline = tapped + WAIT
        while time.monotonic() < deadline and self.proc.poll() is None:
            if done():
                return
            if time.monotonic() - tapped > again and self.scene() == on:
                self.tap(x, y)
                tapped = time.monotonic()
            time.sleep(0.1)
        self.fail(f"tapping {(x, y)} on the {on} screen had no effect (now: {self.scene()})")

    def wait(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and self.proc.poll() is None:
            if condition():
                return
            time.sleep(0.1)
        self.fail(f"never reached {what} (the log's last screen: {self.scene()})")

    def tap_to(self, x: int, y: int, on: str, to: str, again: float = 5.0) -> None:
        """Tap (x, y) on screen `on` until the unit shows screen `to`."""
        self.tap_until(x, y, lambda: self.scene() == to, on, again)

    def wait_log(
        self, pattern: str, seconds: float = WAIT, retap: tuple[int, int] | None = None
    ) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        last_tap = time.monotonic()
        while time.monotonic() < deadline and self.proc.poll() is None:
            found = re.search(pattern, self.log())
            if found:
                return found
            if retap is not None and time.monotonic() - last_tap > 5.0:
                self.tap(*retap)  # a tap lost to a busy machine or an animation: again
                last_tap = time.monotonic()
            time.sleep(0.1)
        self.fail(f"its log never said {pattern!r}")
        raise AssertionError  # (fail raises)

    def fail(self, why: str) -> None:
        shot = grab_screen(self.env["DISPLAY"])
        if shot is not None:  # what the screens showed, for whoever reads the failure
            import pygame

            pygame.image.save(shot, str(self.data_dir / "screen-at-failure.png"))
        self.err.seek(0)
        state = "running" if self.proc.poll() is None else f"exited {self.proc.returncode}"
        where = self.xdo("getwindowgeometry", self.window) if self.window else "no window"
        pytest.fail(
            f"{self.data_dir.name} ({state}; window {self.window}: {where}): {why}\n"
            f"{self.err.read()[-1500:]}\n{self.log()[-1500:]}"
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.err.close()


def squares(tmp_path: Path) -> dict[str, tuple[int, int]]:
    """Each board square's centre on the lower screen, from the game's own hotspots (a
    headless machine with a store of its own: a store is held by one process at a time)."""
    import pygame

    from firmware.testing import machine_from_movie

    pygame.init()
    m = machine_from_movie(tmp_path, game="reversi", seed=1)
    return {
        name.split(":", 1)[1]: rect.center
        for name, rect in m.game_scene().hotspots().items()
        if name.startswith("square:")
    }


def test_the_readme_versus_recipe_pairs_and_plays_a_whole_reversi_game(
    xdisplay: str, tmp_path: Path
) -> None:
    tools()
    ann_argv, bob_argv = readme_recipe()
    assert ann_argv[:2] == ["twinfold", "emu"] and bob_argv[-2:] == ["--name", "Bob"]
    env = {
        **emu_env(xdisplay),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "HOME": str(tmp_path / "home"),
    }
    base = tmp_path / "data" / "twinfold"
    ann = Unit([*twinfold_command(), *ann_argv[1:]], env, base)
    try:
        ann.find_window()
        # the second emulator on the default data directory is instance 2 (the README)
        bob = Unit([*twinfold_command(), *bob_argv[1:]], env, base / "instance-2")
        try:
            bob.find_window(x=640)
            play(ann, bob, tmp_path / "squares")
        finally:
            bob.stop()
    finally:
        ann.stop()
    with Store.open(base / "store.db") as a, Store.open(base / "instance-2" / "store.db") as b:
        ra, rb = a.list_records("reversi"), b.list_records("reversi")
        assert len(ra) == len(rb) == 1
        assert ra[0].record["game"] == rb[0].record["game"]
        assert (
            ra[0].record["players"]
            == rb[0].record["players"]
            == {
                "black": "Ann",
                "white": "Bob",
            }
        )


def play(ann: Unit, bob: Unit, scratch: Path) -> None:
    """Each tap waits for the screen it is meant for (the unit's log names every screen it
    shows), never for a fixed time: on a loaded machine a screen can take seconds to come."""
    units = (ann, bob)
    # the boot screen: a touch skips it (it also ends by itself); a new store then asks the
    # language first (firmware/scenes/language.py)
    for unit in units:
        unit.wait(lambda u=unit: u.scene() != "", "its first screen")
        if unit.scene() == "boot":  # (unless it has ended by itself already)
            unit.tap_until(20, 8, lambda u=unit: u.scene() != "boot", on="boot")
    for unit in units:
        unit.tap_to(128, 66, on="language", to="launcher")  # English
    for unit in units:  # the launcher selects Reversi, the first game
        unit.tap_to(161, 9, on="launcher", to="versus")  # the Versus button (title bar)
    ann.tap_to(128, 72, on="versus", to="lobby")  # Host a game
    bob.tap_to(128, 100, on="versus", to="lobby")  # Join a game
    # the first nearby unit, once Ann's beacon has reached Bob's list: Ann (new) -> pairing
    bob.tap_to(128, 47, on="lobby", to="pairing", again=1.0)
    # both screens show the code; confirm on both ("Same code: pair"), again only until the
    # unit says it confirmed (a tap before the code is worked out does nothing)
    for unit in units:
        unit.tap_until(
            128,
            108,
            lambda u=unit: "the code is confirmed here" in u.log(),
            on="pairing",
        )
    ann.wait_log(r"versus: reversi starts: seat 0 of 2, as host")
    bob.wait_log(r"versus: reversi starts: seat 1 of 2, as guest")
    assert "(instance 2)" in bob.xdo("getwindowname", bob.window)
    scratch.mkdir(parents=True, exist_ok=True)
    centre = squares(scratch)
    game = Game()
    units = {"black": ann, "white": bob}
    while not game.over:
        assert game.turn is not None
        square = sorted(game.legal())[0]
        index = len(game.moves)
        mover = units[game.turn]
        mover.tap(*centre[square])
        pattern = rf"versus: action {index} by seat \d \({square.encode().hex()}\)"
        for unit in (mover, *(u for u in units.values() if u is not mover)):
            unit.wait_log(pattern, retap=centre[square] if unit is mover else None)
        game.play(square)
    for unit in (ann, bob):
        unit.wait_log(r"versus: reversi is over; every unit agrees")
        unit.wait_log(r"reversi: result recorded")  # (after the last flips: then stop)


def test_the_window_class_is_twinfold_however_it_is_started(xdisplay: str, tmp_path: Path) -> None:
    tools()
    env = {**emu_env(xdisplay), "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("SDL_VIDEO_X11_WMCLASS", None)
    # as `python3 run.py emu` starts it (`python -m firmware.cli`: the program is cli.py),
    # and as `twinfold emu`
    for n, argv in enumerate(([sys.executable, "-m", "firmware.cli"], twinfold_command())):
        command = [*argv, "emu", "--scale", "1", "--frames", "100000"]
        unit = Unit(command, env, tmp_path / str(n))
        try:
            unit.find_window()
            out = subprocess.run(
                ["xprop", "-id", unit.window, "WM_CLASS"],
                env=env,
                capture_output=True,
                text=True,
                timeout=30,
            ).stdout
            assert out.strip() == 'WM_CLASS(STRING) = "twinfold", "twinfold"', (argv, out)
        finally:
            unit.stop()
