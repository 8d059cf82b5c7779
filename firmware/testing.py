"""Helpers for tests, benchmarks and screenshot scripts: headless machines fed by scripts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.headless import build_machine
from firmware.machine import Machine
from firmware.movie import parse_movie
from hal.backends.headless import ScriptedInput
from hal.interfaces import RawInput


def machine_from_movie(tmp: Path, movie_text: str = "", **kw: Any) -> Machine:
    """A headless machine playing `movie_text`; `kw` goes to build_machine (game, seed...)."""
    movie = parse_movie(movie_text) if movie_text else None
    return build_machine(tmp, movie=movie, **kw)


def scripted_machine(tmp: Path, script: Callable[[int], RawInput], **kw: Any) -> Machine:
    """A headless machine whose input is `script(tick)`; `kw` goes to build_machine."""
    m = build_machine(tmp, **kw)
    assert isinstance(m.hal.input, ScriptedInput)  # build_machine's headless Hal
    m.hal.input.script = script
    return m


def run(machine: Machine, frames: int, draw: bool = True) -> None:
    for _ in range(frames):
        machine.step()
        if draw:
            machine.render()
            machine.present()


def tap_script(
    events: dict[int, tuple[int, int]], length: int = 3
) -> Callable[[int], RawInput]:
    """A tap (touch for `length` ticks) starting at each given tick."""

    def script(tick: int) -> RawInput:
        from hal.interfaces import RawTouch

        for start, (x, y) in events.items():
            if start <= tick < start + length:
                return RawInput(touch=RawTouch(x, y))
        return RawInput()

    return script
