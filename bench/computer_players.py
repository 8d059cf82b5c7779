"""Computer players at full strength through the real firmware, headless (issue 18).

    .venv/bin/python bench/computer_players.py [--games N] [--profile NAME ...]

For each device profile (default: desktop, desktop-worker, pi-zero-2w-sliced, pi-zero-2w)
the strongest Reversi level plays N games as white against a player who taps the first
legal square, and Arimaa level 5 (silver) plays N games of up to 40 turns against a
player who enters random legal turns by taps. Reported per computer move: the wait the
player sees, in seconds of ticks at 60 Hz (from the tick its turn starts to the tick its
move is applied), median / p95 / max, and for Reversi the same for the 14-empty exact
solves; per tick while it thinks, the CPU time of the frame loop's own thread (p99 / max;
a worker process's search is not the loop's work).

The Raspberry Pi profiles run here, on the development machine, with the profile's budget:
the tick counts (and so the waits) are exactly those the Pi would show if it keeps up with
its profile's speed estimate; the loop's tick cost on the Pi is this machine's times the
inverse of the profile's speed (see docs/performance.md for the method).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import benchenv  # noqa: F401  (headless SDL; the checkout on sys.path)

if TYPE_CHECKING:
    from firmware.machine import Machine
from ticktime import pct

from firmware.testing import running_game, scripted_input

PROFILES = ("desktop", "desktop-worker", "pi-zero-2w-sliced", "pi-zero-2w")


def reversi(profile: str, games: int) -> tuple[list[float], list[float], list[float]]:
    """(waits in s, exact-solve waits in s, thinking tick CPU ms)."""
    from firmware.match.profiles import PROFILES as TABLE
    from firmware.match.worker import close_all
    from firmware.testing import build_machine
    from games.reversi.scene import layout
    from hal.interfaces import RawInput, RawTouch

    waits, solves, ticks_ms = [], [], []
    for g in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            m = build_machine(Path(tmp), seed=100 + g)
            m.profile = TABLE[profile]
            m.start_game("reversi", {"mode": "cpu", "level": "strong", "color": "white"})
            scene = running_game(m)
            started: int | None = None
            empties = 0
            while not (scene.game.over and scene.anim is None):
                touch = None
                if scene.human_to_move() and scene.anim is None:
                    touch = layout.SQUARE_RECTS[sorted(scene.game.legal())[0]].center
                raw = RawInput(touch=RawTouch(*touch)) if touch else RawInput()

                def script(t: int, raw: RawInput = raw) -> RawInput:
                    return raw

                scripted_input(m).script = script
                thinking = scene.thinking
                if thinking and started is None:
                    started = m.tick
                    empties = 64 - sum(scene.game.score().values())
                before = len(scene.match.history)
                c0 = time.thread_time()
                m.step()
                m.render()
                m.present()
                if thinking:
                    ticks_ms.append((time.thread_time() - c0) * 1000)
                if started is not None and len(scene.match.history) > before:
                    wait = (m.tick - started) / 60
                    waits.append(wait)
                    if empties <= 14:
                        solves.append(wait)
                    started = None
            close_all()
    return waits, solves, ticks_ms


class Ticker:
    """Steps one machine a tick at a time with a given touch, timing the ticks while the
    computer thinks and the wait from its turn's start to its move (seconds of 60 Hz)."""

    def __init__(self, machine: Machine) -> None:
        self.m = machine
        self.started: int | None = None
        self.waits: list[float] = []
        self.ticks_ms: list[float] = []

    def tick(self, touch: tuple[int, int] | None = None) -> None:
        from hal.interfaces import RawInput, RawTouch

        raw = RawInput(touch=RawTouch(*touch)) if touch else RawInput()
        scripted_input(self.m).script = lambda t: raw
        scene = running_game(self.m)
        thinking = scene.thinking_ticks() > 0
        if thinking and self.started is None:
            self.started = self.m.tick
        before = len(scene.match.history)
        c0 = time.thread_time()
        self.m.step()
        self.m.render()
        self.m.present()
        if thinking:
            self.ticks_ms.append((time.thread_time() - c0) * 1000)
        if self.started is not None and len(scene.match.history) > before:
            self.waits.append((self.m.tick - self.started) / 60)
            self.started = None

    def tap(self, name: str) -> None:
        x, y, w, h = self.m.dump()["hotspots"][name]
        for _ in range(3):
            self.tick((x + w // 2, y + h // 2))
        self.tick()


def arimaa(profile: str, games: int, level: int = 5) -> tuple[list[float], list[float]]:
    """(waits in s, thinking tick CPU ms): the computer (silver, `level`) against a player
    who enters a random legal turn (or a goal when there is one) step by step by taps."""
    import random

    from firmware.match.profiles import PROFILES as TABLE
    from firmware.match.worker import close_all
    from firmware.testing import build_machine
    from games.arimaa.ai.goal import find_goal
    from games.arimaa.rules.board import square_name
    from games.arimaa.rules.randomplay import random_turn
    from games.arimaa.scene.play import SETUP_NAMES

    waits: list[float] = []
    ticks_ms: list[float] = []
    for g in range(games):
        rng = random.Random(g)
        with tempfile.TemporaryDirectory() as tmp:
            m = build_machine(Path(tmp), seed=200 + g)
            m.profile = TABLE[profile]
            setup = next(iter(SETUP_NAMES))
            m.start_game("arimaa", {"mode": "cpu", "level": str(level), "setup": setup})
            t = Ticker(m)
            for _ in range(6000):
                s = running_game(m)
                if s.phase == "over" or len(s.game.turns) >= 40:
                    break
                if s.local_to_move() and s.phase == "play" and s.anim is None:
                    game = s.game
                    steps = find_goal(game.position.boards, game.position.side)
                    if not steps:
                        twin = game.copy()
                        random_turn(twin, rng)
                        steps = [(st.frm, st.to) for st in twin.turns[-1]]
                    for frm, to in steps:
                        t.tap(f"square:{square_name(frm)}")
                        t.tap(f"square:{square_name(to)}")
                    t.tap("button:done")
                else:
                    t.tick()
            waits += t.waits
            ticks_ms += t.ticks_ms
            close_all()
    return waits, ticks_ms


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--profile", action="append", choices=PROFILES)
    args = ap.parse_args(argv)
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus")
    print(
        f"{'reversi strongest':<20} {'moves':>5}  wait s p50   p95   max  "
        f"| solves p50   max | tick cpu ms p99   max"
    )
    for profile in args.profile or PROFILES:
        waits, solves, ticks = reversi(profile, args.games)
        print(
            f"{profile:<20} {len(waits):>5}  {statistics.median(waits):11.2f} "
            f"{pct(waits, 0.95):5.2f} {max(waits):5.2f}  | {statistics.median(solves):10.2f} "
            f"{max(solves):5.2f} | {pct(ticks, 0.99):15.2f} {max(ticks):5.2f}"
        )
    print(f"{'arimaa level 5':<20} {'moves':>5}  wait s p50   p95   max  | tick cpu ms p99   max")
    for profile in args.profile or PROFILES:
        waits, ticks = arimaa(profile, args.games)
        print(
            f"{profile:<20} {len(waits):>5}  {statistics.median(waits):11.2f} "
            f"{pct(waits, 0.95):5.2f} {max(waits):5.2f}  | {pct(ticks, 0.99):15.2f} "
            f"{max(ticks):5.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
