"""Computer players at full strength through the real firmware, headless (issue 18).

    .venv/bin/python bench/computer_players.py [--games N] [--profile NAME ...]

For each device profile (default: desktop, desktop-worker, pi-zero-2w-sliced, pi-zero-2w)
the strongest Reversi level plays N games as white against a player who taps the first
legal square, and Arimaa level 5 (silver) plays N games of up to 40 turns against a
player who enters random legal turns by taps. Reported per computer move: the wait the
player sees, in seconds of ticks at 60 Hz (from the tick its turn starts to the tick its
move is applied), median / p95 / max, and for Reversi the same for the 14-empty exact
solves; per tick while it thinks, the CPU time of the frame loop's own thread (p99 / max;
a worker process's search is not the loop's work), and the wall time of those ticks while
every search process of the profile works (issue 36: a pool of three on the Raspberry Pi
profiles); and the memory of the firmware process with all its children (the search pool or
worker, multiprocessing's helper), sampled every 30 thinking ticks: the peak of the sum of
their proportional set sizes (PSS, shared pages counted once in all) and of their RSS.

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
#: peak (PSS, RSS) in MB of the firmware process and its children while the computer thinks
PEAK = [0.0, 0.0]


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _memory_of(pid: int) -> tuple[float, float]:
    """(PSS, RSS) of one process in MB (0 if it is gone)."""
    pss = rss = 0.0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1]) / 1024
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1]) / 1024
    except OSError:
        pass
    return pss, rss


def sample_memory() -> None:
    """Add this process and its children's memory now to PEAK."""
    me = os.getpid()
    totals = [_memory_of(pid) for pid in [me, *_children(me)]]
    PEAK[0] = max(PEAK[0], sum(t[0] for t in totals))
    PEAK[1] = max(PEAK[1], sum(t[1] for t in totals))


#: wall-clock ms of the ticks while the computer thinks (all games and profiles of a run)
WALL_MS: list[float] = []
#: --realtime: ticks at 60 Hz that never wait for the search, as on a unit (the waits are
#: then those of this machine's processes, not the profile's; the tick figures are the loop's)
REALTIME = [False]


def pace(started: float) -> None:
    """With --realtime, sleep out the rest of a 60 Hz frame begun at `started`."""
    if REALTIME[0]:
        time.sleep(max(0.0, 1 / 60 - (time.perf_counter() - started)))


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
            m.hal.realtime = REALTIME[0]
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
                c0, w0 = time.thread_time(), time.perf_counter()
                m.step()
                m.render()
                m.present()
                if thinking:
                    ticks_ms.append((time.thread_time() - c0) * 1000)
                    WALL_MS.append((time.perf_counter() - w0) * 1000)
                    if len(ticks_ms) % 30 == 1:
                        sample_memory()
                pace(w0)
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
        c0, w0 = time.thread_time(), time.perf_counter()
        self.m.step()
        self.m.render()
        self.m.present()
        if thinking:
            self.ticks_ms.append((time.thread_time() - c0) * 1000)
            WALL_MS.append((time.perf_counter() - w0) * 1000)
            if len(self.ticks_ms) % 30 == 1:
                sample_memory()
        pace(w0)
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
            m.hal.realtime = REALTIME[0]
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
    ap.add_argument("--game", choices=("reversi", "arimaa", "both"), default="both")
    ap.add_argument("--realtime", action="store_true", help="60 Hz ticks that never wait")
    args = ap.parse_args(argv)
    REALTIME[0] = args.realtime
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus")
    print(
        f"{'reversi strongest':<20} {'moves':>5}  wait s p50   p95   max  "
        f"| solves p50   max | tick cpu ms p99   max"
    )
    for profile in args.profile or PROFILES if args.game != "arimaa" else ():
        PEAK[:] = [0.0, 0.0]
        WALL_MS.clear()
        waits, solves, ticks = reversi(profile, args.games)
        print(
            f"{profile:<20} {len(waits):>5}  {statistics.median(waits):11.2f} "
            f"{pct(waits, 0.95):5.2f} {max(waits):5.2f}  | "
            f"{statistics.median(solves) if solves else 0:10.2f} "
            f"{max(solves, default=0):5.2f} | {pct(ticks, 0.99):15.2f} {max(ticks):5.2f}"
            f" | wall p99 {pct(WALL_MS, 0.99):.2f} ms | peak PSS {PEAK[0]:.0f} MB,"
            f" RSS {PEAK[1]:.0f} MB",
            flush=True,
        )
    print(f"{'arimaa level 5':<20} {'moves':>5}  wait s p50   p95   max  | tick cpu ms p99   max")
    for profile in args.profile or PROFILES if args.game != "reversi" else ():
        PEAK[:] = [0.0, 0.0]
        WALL_MS.clear()
        waits, ticks = arimaa(profile, args.games)
        print(
            f"{profile:<20} {len(waits):>5}  {statistics.median(waits):11.2f} "
            f"{pct(waits, 0.95):5.2f} {max(waits):5.2f}  | {pct(ticks, 0.99):15.2f} "
            f"{max(ticks):5.2f} | wall p99 {pct(WALL_MS, 0.99):.2f} ms | peak PSS"
            f" {PEAK[0]:.0f} MB, RSS {PEAK[1]:.0f} MB",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
