"""Costs of the platform primitives that sit on the frame loop's path.

    .venv/bin/python bench/platform_prims.py

Touch processing runs once per tick; store writes happen on events (lid close, game end,
settings change), each an fsync'd transaction, so they must stay out of ordinary ticks.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from firmware.movie import MoviePlayer, MovieRecorder, parse_movie
from firmware.storage import Store
from hal.interfaces import RawInput, RawTouch
from hal.touch import Calibration, TouchFilterConfig, TouchPipeline


def _pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * len(s)))]


def _report(name: str, samples: list[float]) -> None:
    us = [x * 1e6 for x in samples]
    print(
        f"{name:<38} n={len(us):<6} median {statistics.median(us):9.1f} us"
        f"   p99 {_pct(us, 0.99):9.1f} us   max {max(us):9.1f} us"
    )


def bench_touch() -> None:
    rng = random.Random(1)
    cal = Calibration(0.0672, 0.0015, -14.0, -0.0012, -0.0502, 198.0)
    pipe = TouchPipeline(cal, TouchFilterConfig.RESISTIVE)
    samples = []
    for i in range(20000):
        raw = None if i % 50 > 44 else RawTouch(2000 + rng.gauss(0, 8), 2000 + rng.gauss(0, 8), 0.6)
        t = time.perf_counter()
        pipe.process(raw)
        samples.append(time.perf_counter() - t)
    _report("touch: RESISTIVE process() per tick", samples)


def bench_store() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "store.db"
        opens = []
        for _ in range(20):
            t = time.perf_counter()
            Store.open(path).close()
            opens.append(time.perf_counter() - t)
        _report("store: open (existing)", opens)
        with Store.open(path) as s:
            writes, suspends, reads = [], [], []
            state = {"board": [[rng % 3 for rng in range(8)] for _ in range(8)], "pad": "x" * 20000}
            for i in range(200):
                t = time.perf_counter()
                s.set_setting("volume", i)
                writes.append(time.perf_counter() - t)
                t = time.perf_counter()
                s.save_suspend("reversi", state, {"i": i})
                suspends.append(time.perf_counter() - t)
                t = time.perf_counter()
                s.get_setting("volume")
                reads.append(time.perf_counter() - t)
            _report("store: set_setting (one commit)", writes)
            _report("store: save_suspend 20 kB (one commit)", suspends)
            _report("store: get_setting", reads)


def bench_movie() -> None:
    rng = random.Random(2)
    rec = MovieRecorder()
    for _ in range(36000):  # ten minutes of frames
        touch = RawTouch(rng.randrange(256), rng.randrange(192)) if rng.random() < 0.3 else None
        rec.feed(RawInput(touch=touch))
    text = rec.to_text()
    t = time.perf_counter()
    movie = parse_movie(text)
    parse = time.perf_counter() - t
    player = MoviePlayer(movie)
    lookups = []
    for f in range(36000):
        t = time.perf_counter()
        player.input_at(f)
        lookups.append(time.perf_counter() - t)
    print(f"{'movie: parse ' + str(len(movie.events)) + ' events':<38} {parse * 1e3:9.1f} ms")
    _report("movie: input_at per frame", lookups)


if __name__ == "__main__":
    bench_touch()
    bench_store()
    bench_movie()
