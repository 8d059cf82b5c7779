"""Emulator costs: drawing a frame into the window, whole app frames, and the rewind history.

    .venv/bin/python bench/emu.py            # SDL's dummy video driver (no screen)
    SDL_VIDEODRIVER=x11 DISPLAY=:N .venv/bin/python bench/emu.py   # a real X server
    .venv/bin/python bench/emu.py --only present|app|rewind|clip [--sizes windowed|fullscreen]

present: p50 / p99 milliseconds (wall clock, and CPU time of this process, which a busy
shared host does not inflate) of `WindowDisplay.present` (upload both panels as textures,
the GPU scales them, present) at scale 1, 4 and fullscreen, against the CPU composition
the emulator used before (scale each panel into the window surface with
`pygame.transform.scale`, flip), kept here as the baseline.

rewind: for games in play (movies, then the computers go on alone), the CPU time of
taking checkpoints (`History.before_step`; CPU time, as a shared host's scheduling would
swamp wall-clock maxima), per checkpoint and per tick, the memory the 60 s history holds (the Python
heap it adds, tracemalloc, and the process's resident size, which also counts SDL's pixel
memory), and the frames kept while rewinding a segment.

clip: `twinfold clip`'s work for 30 s of a movie (1800 ticks) in each format at scale 1 and
2: the CPU time of replaying the ticks alone, then of replaying, composing and writing each
format (MP4 with its sound), the encoding share (the difference), and the file's size.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import benchenv  # (headless SDL unless told otherwise; the checkout on sys.path)
import pygame

from emulator.app import App
from emulator.clip import movie_machine
from emulator.display import BACKDROP, WindowDisplay
from emulator.layout import Layout
from emulator.rewind import History, Rewinder
from emulator.viewport import place
from firmware.checkpoint import capture
from firmware.cli import build_parser
from firmware.machine import Machine
from hal.clock import SimClock
from hal.interfaces import SCREEN_SIZE, InputSource, RawInput

FRAMES = 600
ROOT = benchenv.ROOT


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ------------------------------------------------------------------------ present
class CpuComposition:
    """The emulator's window before issue 26: panels scaled on the CPU into the window
    surface of `pygame.display.set_mode`, then flipped (the baseline)."""

    def __init__(self, layout: Layout, fullscreen: bool) -> None:
        flags = pygame.FULLSCREEN if fullscreen else 0
        size = (0, 0) if fullscreen else layout.geometry().size
        self.window = pygame.display.set_mode(size, flags)
        self.placement = place(layout, self.window.get_size())
        self.upper = pygame.Surface(SCREEN_SIZE).convert(self.window)
        self.lower = pygame.Surface(SCREEN_SIZE).convert(self.window)
        self.targets = {
            name: self.window.subsurface(rect.as_tuple()) for name, rect in self.placement.panels()
        }
        self.window.fill(BACKDROP)

    def present(self, upper: pygame.Surface, lower: pygame.Surface) -> None:
        self.upper.blit(upper, (0, 0))
        self.lower.blit(lower, (0, 0))
        for name, rect in self.placement.panels():
            source = self.upper if name == "upper" else self.lower
            pygame.transform.scale(source, (rect.w, rect.h), self.targets[name])
        pygame.display.flip()

    def close(self) -> None:
        pygame.display.quit()
        pygame.display.init()


def timed_frames(
    present: Callable[[pygame.Surface, pygame.Surface], None],
) -> tuple[list[float], list[float]]:
    upper, lower = pygame.Surface(SCREEN_SIZE), pygame.Surface(SCREEN_SIZE)
    times, cpu = [], []
    for i in range(FRAMES):
        upper.fill((i % 256, 30, 60))
        lower.fill((30, i % 256, 60))
        t0, c0 = time.perf_counter(), time.process_time()
        present(upper, lower)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return times, cpu


def bench_present(sizes: str = "all") -> None:
    pygame.display.init()
    print(f"present, {FRAMES} frames ({pygame.display.get_driver()} driver), vertical layout")
    print(
        f"{'size':<11} {'path':<4} {'window':>10} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'cpu p50':>8} {'cpu p99':>8}"
    )
    for label, scale, fullscreen in (
        ("scale 1", 1, False),
        ("scale 4", 4, False),
        ("fullscreen", 2, True),
    ):
        if sizes != "all" and (sizes == "fullscreen") != fullscreen:
            continue
        layout = Layout("vertical", scale, 8)
        for path in ("cpu", "gpu"):
            if path == "cpu":
                cpu_window = CpuComposition(layout, fullscreen)
                size = cpu_window.window.get_size()
                times, cpu = timed_frames(cpu_window.present)
                cpu_window.close()
            else:
                display = WindowDisplay(layout, fullscreen=fullscreen)
                for _ in range(5):  # let a fullscreen switch settle
                    pygame.event.pump()
                    display.relayout()
                size = display.screens[0].output_size()
                times, cpu = timed_frames(display.present)
                display.close()
            print(
                f"{label:<11} {path:<4} {f'{size[0]}x{size[1]}':>10} {pct(times, 0.5):8.3f} "
                f"{pct(times, 0.99):8.3f} {pct(cpu, 0.5):8.3f} {pct(cpu, 0.99):8.3f}"
            )


def bench_app(game: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        argv = ["emu", "--store", str(Path(tmp) / "store.db"), "--scale", "2", "--seed", "0"]
        if game:
            argv += ["--game", game]
        app = App(build_parser().parse_args(argv), clock=SimClock())
        costs: list[float] = []
        for _ in range(FRAMES):
            app.pass_once()
            costs.append(app.timed.frame_costs[-1])
        app.shutdown()
    where = game or "launcher"
    print(
        f"app frame ({where}, vertical x2, history on): p50 {pct(costs, 0.5):.3f} ms, "
        f"p99 {pct(costs, 0.99):.3f} ms, mean {1000 * statistics.fmean(costs):.3f} ms"
    )


# ------------------------------------------------------------------------- rewind
class Recorded(InputSource):
    """The machine's input, told to the history as the emulator's SessionInput does."""

    def __init__(self, inner: InputSource, history: History) -> None:
        self.inner, self.history = inner, history
        self.override: Callable[[int], RawInput] | None = None

    def poll(self, tick: int) -> RawInput:
        if self.override is not None:
            return self.override(tick)
        raw = self.inner.poll(tick)
        self.history.record(tick, raw)
        return raw


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def bench_rewind(movie: str, seconds: int = 62) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        machine: Machine = movie_machine(ROOT / "docs" / "movies" / movie, Path(tmp))
        ticks = seconds * 60
        for _ in range(ticks):  # warm up: fonts, sprites, caches (no history yet)
            machine.step()
            machine.render()
        history = History()
        source = Recorded(machine.hal.input, history)
        machine.hal.input = source
        rss0 = rss_bytes()
        captures = []
        for _ in range(ticks):
            before = history.capture_seconds
            history.before_step(machine)
            machine.step()
            if history.capture_seconds > before:
                captures.append(history.capture_seconds - before)
            machine.render()
        rss = rss_bytes() - rss0
        span = (machine.tick - (history.oldest or 0)) / 60
        # the Python heap one more checkpoint adds (tracemalloc slows copying: measured apart)
        tracemalloc.start()
        heap0 = tracemalloc.get_traced_memory()[0]
        extra = capture(machine, history.pool)
        heap = tracemalloc.get_traced_memory()[0] - heap0
        tracemalloc.stop()
        del extra
        packed = {id(p): len(p.data) for c in history.checkpoints for p in c.packed}
        rewinder = Rewinder(history, source)
        rewinder.start(machine)
        t0 = time.process_time()
        rewinder.back(machine)  # rebuilds one segment: the worst frame while rewinding
        segment_ms = 1000 * (time.process_time() - t0)
        kept = rewinder.kept_bytes()
        rewinder.stop(machine)
        machine.store.close()
    per_tick = 1000 * history.capture_seconds / ticks
    print(
        f"{movie:<17} {span:5.1f} s {len(history.checkpoints):4d} "
        f"{pct(captures, 0.5):7.3f} {pct(captures, 1.0):7.3f} {per_tick:7.3f} "
        f"{heap * len(history.checkpoints) / 2**20:7.2f} {sum(packed.values()) / 2**20:7.2f} "
        f"{rss / 2**20:7.1f} {segment_ms:8.1f} {kept / 2**20:6.1f}"
    )


def bench_clip(movie: str = "sevens-play.txt", ticks: int = 1800) -> None:
    from emulator.clip import movie_frames, write_clip
    from emulator.layout import DEFAULT_GAP
    from emulator.soundtrack import SoundLog

    path = ROOT / "docs" / "movies" / movie
    with tempfile.TemporaryDirectory() as tmp:
        machine = movie_machine(path, Path(tmp) / "replay")
        t0 = time.process_time()
        for _ in movie_frames(machine, 0, ticks - 1):
            pass
        replay = time.process_time() - t0
        machine.store.close()
        print(f"clip of {movie}, {ticks} ticks: replaying alone {replay:.2f} s CPU")
        print(f"{'format':<16} {'scale':>5} {'total s':>8} {'encode s':>8} {'x real':>7} {'KB':>7}")
        for scale in (1, 2):
            geometry = Layout("vertical", scale, DEFAULT_GAP).geometry()
            for name, suffix, mp4 in (
                ("gif", ".gif", "exact"),
                ("apng", ".png", "exact"),
                ("mp4 exact", ".mp4", "exact"),
                ("mp4 compatible", ".mp4", "compatible"),
            ):
                machine = movie_machine(path, Path(tmp) / f"{name}-{scale}")
                sound = SoundLog(lambda m=machine: m.tick)  # type: ignore[misc]
                machine.hal.audio = sound
                out = Path(tmp) / f"clip-{scale}-{name.replace(' ', '-')}{suffix}"
                t0 = time.process_time()
                write_clip(movie_frames(machine, 0, ticks - 1), out, geometry, sound=sound, mp4=mp4)
                total = time.process_time() - t0
                machine.store.close()
                encode = total - replay
                print(
                    f"{name:<16} {scale:>5} {total:8.2f} {encode:8.2f} "
                    f"{ticks / 60 / total:7.2f} {out.stat().st_size / 1024:7.0f}"
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("present", "app", "rewind", "clip"))
    parser.add_argument(
        "--sizes",
        choices=("all", "windowed", "fullscreen"),
        default="all",
        help="present: which sizes (in X, fullscreen needs a window manager, which resizes "
        "every window: measure windowed without one, fullscreen with one)",
    )
    ns = parser.parse_args()
    only = ns.only
    if only in (None, "present"):
        bench_present(ns.sizes)
    if only in (None, "app"):
        bench_app(None)
        bench_app("pop")
    if only in (None, "rewind"):
        print("rewind history after 62 s of play per game (a checkpoint every 20 ticks)")
        print(
            f"{'movie':<17} {'history':>7} {'chk':>4} {'chk p50':>7} {'chk max':>7} "
            f"{'ms/tick':>7} {'heap MB':>7} {'pix MB':>7} {'RSS MB':>7} {'seg ms':>8} {'seg MB':>6}"
        )
        for movie in (
            "reversi-hints.txt",
            "sevens-play.txt",
            "arimaa-cpu.txt",
            "panels-cpu.txt",
            "regions-play.txt",
            "pop.txt",
        ):
            bench_rewind(movie)
    if only in (None, "clip"):
        bench_clip()
