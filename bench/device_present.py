"""Device backend (issue 12): what presenting both screens to the framebuffer panels costs.

    .venv/bin/python bench/device_present.py [--frames N]

`FramebufferDisplay.present(upper, lower)` against ordinary files standing in for two
320x240 panels (a sysfs-like directory beside each, as in the tests): conversion to the
panel's pixel format in SDL, rotation, the row comparison and the mmap writes. Three kinds
of frame: "game" (consecutive frames of the Bubble Pop demo: a few rows change), "full"
(every row of both screens changes: the worst case) and "still" (nothing changes).
Figures per frame: CPU time of this thread and wall time, p50 / p99 / max in ms, and the
bytes written.
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
    from pygame import Surface

TARGET_MS = 1.0


def make_panel(root: Path, name: str, width: int, height: int, bpp: int) -> tuple[Path, Path]:
    sysfs = root / "sys" / name
    sysfs.mkdir(parents=True)
    (sysfs / "virtual_size").write_text(f"{width},{height}\n")
    (sysfs / "bits_per_pixel").write_text(f"{bpp}\n")
    (sysfs / "stride").write_text(f"{width * bpp // 8}\n")
    device = root / name
    device.write_bytes(b"")
    return device, sysfs


def game_frames(count: int) -> list[tuple[Surface, Surface]]:
    """`count` consecutive frames of the demo game, as the machine hands them over."""
    import pygame

    from firmware.testing import machine_from_movie

    frames = []
    with tempfile.TemporaryDirectory() as tmp:
        m = machine_from_movie(Path(tmp), game="pop", seed=1)
        for _ in range(count):
            m.step()
            m.render()
            frames.append((m.top.copy(), m.bottom.copy()))
        m.store.close()
    assert all(isinstance(f[0], pygame.Surface) for f in frames)
    return frames


def full_frames(count: int) -> list[tuple[Surface, Surface]]:
    import pygame

    out = []
    for i in range(count):
        a, b = pygame.Surface((256, 192)), pygame.Surface((256, 192))
        a.fill((i * 37 % 256, 40, 90))
        b.fill((20, i * 53 % 256, 200))
        out.append((a, b))
    return out


def measure(
    bpp: int, rotate: int, frames: list[tuple[Surface, Surface]]
) -> tuple[list[float], list[float], list[int]]:
    from hal.backends.device.config import DisplayConfig, PanelConfig
    from hal.backends.device.framebuffer import FramebufferDisplay

    native = (240, 320) if rotate in (90, 270) else (320, 240)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        d0, s0 = make_panel(root, "fb0", *native, bpp)
        d1, s1 = make_panel(root, "fb1", *native, bpp)
        display = FramebufferDisplay(
            DisplayConfig(
                upper=PanelConfig(str(d0), str(s0), rotate),
                lower=PanelConfig(str(d1), str(s1), rotate),
            )
        )
        display.present(*frames[-1])  # the panels start with something on them
        cpu: list[float] = []
        wall: list[float] = []
        written: list[int] = []
        for upper, lower in frames:
            t0, c0 = time.perf_counter(), time.thread_time()
            display.present(upper, lower)
            cpu.append((time.thread_time() - c0) * 1000)
            wall.append((time.perf_counter() - t0) * 1000)
            written.append(display.last_written)
        display.close()
    return cpu, wall, written


def pcts(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered), p99, ordered[-1]


# format, rotation, frames, CPU p50 / p99 / max, wall p50 / p99 / max (ms), bytes avg / max
PresentRow = tuple[str, int, str, float, float, float, float, float, float, float, int]


def present_costs(count: int) -> list[PresentRow]:
    game = game_frames(count)
    full = full_frames(count)
    still = [game[0]] * count
    rows: list[PresentRow] = []
    for bpp in (16, 32):
        for rotate in (0, 90):
            for kind, frames in (("game", game), ("full", full), ("still", still)):
                cpu, wall, written = measure(bpp, rotate, frames)
                rows.append(
                    (
                        "RGB565" if bpp == 16 else "XRGB8888",
                        rotate,
                        kind,
                        *pcts(cpu),
                        *pcts(wall),
                        statistics.mean(written),
                        max(written),
                    )
                )
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600)
    args = parser.parse_args(argv)
    rows = present_costs(args.frames)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"FramebufferDisplay.present, both 320x240 panels, {args.frames} frames per row")
    print(
        f"{'format':9} {'rot':>3} {'frames':6} {'cpu p50':>8} {'cpu p99':>8} {'cpu max':>8}"
        f" {'wall p50':>9} {'wall p99':>9} {'wall max':>9} {'bytes avg':>10} {'max':>7}  (ms)"
    )
    worst = 0.0
    for fmt, rot, kind, c50, c99, cmax, w50, w99, wmax, avg, most in rows:
        print(
            f"{fmt:9} {rot:3d} {kind:6} {c50:8.3f} {c99:8.3f} {cmax:8.3f}"
            f" {w50:9.3f} {w99:9.3f} {wmax:9.3f} {avg:10.0f} {most:7d}"
        )
        worst = max(worst, c99)
    still_bytes = max(r[-1] for r in rows if r[2] == "still")
    met = worst <= TARGET_MS and still_bytes == 0
    print(
        f"target: present p99 <= {TARGET_MS} ms (cpu), 0 bytes for a still frame: "
        f"worst p99 {worst:.3f} ms, still frames wrote {still_bytes} bytes: "
        + ("met" if met else "NOT met")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
