"""The shipped Japanese font (issue 25): its size, its load time, the cost of drawing a line of
Japanese, and the tick cost of the heaviest Japanese screens beside the same screens in English.

    .venv/bin/python bench/japanese_text.py [--frames N] [--repeat R]

- data file: bytes on disk (zlib) and unpacked; its first use (read, inflate, index: the
  first Japanese character drawn) in a fresh process, median of R runs;
- one line of Japanese (20 characters, kana and kanji): drawn cold (every cache emptied: glyphs
  built from the bitmaps) and drawn again (the rendered-line cache), median of R;
- ticks (Machine.step + render + present, headless, thread CPU time and wall time, p50 / p99 /
  max in ms) of Settings (idle, then with random taps and buttons like firmware_ticks.py) and of
  the Killing Sevens table playing docs/movies/sevens-play.txt (speech bubbles, the members
  table, the hand), each in English and in Japanese.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from benchenv import ROOT
from ticktime import machine_ticks, pct

sys.path.insert(0, str(ROOT / "tests" / "project"))
sys.path.insert(0, str(ROOT / "tests" / "firmware"))

LINE = "殺しの7並べ:上下左右を囲まれた札は殺されます。"


def file_figures(repeat: int) -> list[str]:
    from firmware.gfx import japanese

    path = ROOT / "firmware" / "gfx" / japanese.DATA_FILE
    body = zlib.decompress(path.read_bytes())
    code = (
        "from firmware.gfx import japanese; import time; t = time.perf_counter(); "
        "n = len(japanese.characters()); print(n, (time.perf_counter() - t) * 1000)"
    )
    loads, chars = [], 0
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
        chars, ms = int(out[0]), float(out[1])
        loads.append(ms)
    return [
        f"data file: {path.stat().st_size} bytes ({len(body)} unpacked), {chars} characters",
        f"first use (read, inflate, index): median {statistics.median(loads):.1f} ms, "
        f"best {min(loads):.1f} ms over {repeat} fresh processes",
    ]


def line_figures(repeat: int) -> list[str]:
    from firmware.gfx import text

    cold, warm = [], []
    for _ in range(repeat):
        text.reset_caches()
        t = time.perf_counter()
        text.render(LINE, (255, 255, 255))
        cold.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        text.render(LINE, (255, 255, 255))
        warm.append((time.perf_counter() - t) * 1000)
    return [
        f"one line of {len(LINE)} characters ({LINE}):",
        f"  cold (glyphs built): median {statistics.median(cold):.3f} ms, max {max(cold):.3f} ms",
        f"  cached: median {statistics.median(warm) * 1000:.1f} µs",
    ]


def _row(label: str, cpu: list[float], wall: list[float]) -> str:
    figures = [pct(cpu, 0.5), pct(cpu, 0.99), max(cpu), pct(wall, 0.5), pct(wall, 0.99), max(wall)]
    return f"{label:<28}{len(cpu):>6}" + "".join(f"{v:>9.3f}" for v in figures)


def tick_rows(frames: int) -> list[str]:
    import zlib as _z

    from screen_sweep import _movie_kwargs, machine_in
    from test_chaos import chaos_script

    from firmware.gfx import text
    from firmware.headless import movie_length
    from firmware.movie import MoviePlayer, parse_movie
    from firmware.scenes.settings import SettingsScene

    rows = []
    for language in ("en", "ja"):
        for mode in ("idle", "random input"):
            text.reset_caches()
            with tempfile.TemporaryDirectory() as tmp:
                m = machine_in(Path(tmp), language)
                m.push(SettingsScene(m))
                if mode == "random input":
                    m.hal.input.script = chaos_script(_z.crc32(b"settings"), lid=False)
                cpu, wall = machine_ticks(m, frames)
                rows.append(_row(f"settings {language} {mode}", cpu, wall))
                m.store.close()
    movie = parse_movie((ROOT / "docs" / "movies" / "sevens-play.txt").read_text())
    for language in ("en", "ja"):
        text.reset_caches()
        with tempfile.TemporaryDirectory() as tmp:
            m = machine_in(Path(tmp), language, **_movie_kwargs(tuple(movie.args)))
            m.hal.input.script = MoviePlayer(movie).input_at
            cpu, wall = machine_ticks(m, movie_length(movie))
            rows.append(_row(f"sevens table {language}", cpu, wall))
            m.store.close()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=3000, help="ticks per Settings row")
    parser.add_argument("--repeat", type=int, default=20, help="runs of the load and line")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    for line in file_figures(args.repeat) + line_figures(args.repeat):
        print(line)
    print("tick = step + render + present; CPU = thread CPU time, wall = perf_counter")
    print(f"{'screen':<28}{'ticks':>6}  cpu p50  cpu p99  cpu max wall p50 wall p99 wall max  (ms)")
    for row in tick_rows(args.frames):
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
