"""A clip's sound, rendered after the fact like its frames.

The firmware makes sound only by naming an effect (`Machine.play` -> `Audio.play(effect,
volume)`) during a tick, and every effect is a fixed synthesised sample run
(`hal.sdl_audio`). So the sound of a replayed stretch is a function of the movie: a
`SoundLog` stands in for the audio device while the clip's ticks run and notes which effect
started at which tick and how loud; `mix` then lays those sample runs on a timeline at
22 050 Hz, summed and clipped as the mixer does. An effect started in the tick that led to
clip frame k begins at k/60 s; one started before the clip's first frame and still ringing
is heard from its middle.
"""

from __future__ import annotations

import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from hal.interfaces import TICK_HZ, Audio
from hal.sdl_audio import DEFAULT, EFFECTS, RATE, synthesise

SAMPLE_MAX = 32767


@dataclass(frozen=True, slots=True)
class Cue:
    """One effect: first heard with the frame after `tick` (the tick that played it)."""

    tick: int
    effect: str
    volume: float


class SoundLog(Audio):
    """An audio device that keeps what it is asked to play, each with the machine's tick."""

    def __init__(self, tick: Callable[[], int]) -> None:
        self._tick = tick
        self.cues: list[Cue] = []

    def play(self, effect: str, volume: float) -> None:
        self.cues.append(Cue(self._tick(), effect, max(0.0, min(1.0, volume))))


@cache
def effect_samples(effect: str) -> array.array[int]:
    """The effect's mono samples as the device plays them (unknown names: the default)."""
    return synthesise(EFFECTS.get(effect, DEFAULT))


def sample_at(frames: int) -> int:
    """The sample index where clip frame `frames` begins (22 050 / 60 is not whole)."""
    return round(frames * RATE / TICK_HZ)


def mix(cues: list[Cue], first: int, frames: int) -> array.array[int]:
    """Signed 16-bit mono samples for `frames` clip frames, the first being the frame
    shown at tick `first`."""
    total = sample_at(frames)
    acc = [0.0] * total
    for cue in cues:
        start = sample_at(cue.tick + 1 - first)
        samples = effect_samples(cue.effect)
        lo, hi = max(0, -start), min(len(samples), total - start)
        for i in range(lo, hi):
            acc[start + i] += samples[i] * cue.volume
    return array.array("h", (max(-SAMPLE_MAX - 1, min(SAMPLE_MAX, round(v))) for v in acc))


__all__ = ["RATE", "Cue", "SoundLog", "effect_samples", "mix", "sample_at"]
