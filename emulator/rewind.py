"""Rewind history: checkpoints every few ticks plus every tick's input, replayed on demand.

The firmware is deterministic given its input, so the history needs no frame per tick: a
machine checkpoint (firmware.checkpoint) every `every` ticks and the `RawInput` the machine
polled at each tick rebuild any position in the last `seconds`. Going back one frame at a
time would re-run up to `every` ticks per frame, so rewinding rebuilds a whole segment once
(restore its checkpoint, step and draw each tick, keep the frames) and then shows the kept
frames backwards. Releasing the rewind key seeks the machine to the frame on screen.

The machine reads its input through a `ReplayableInput`: while the history replays, its
`override` answers the polls from the recorded input instead of the live devices.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, cast

import pygame

from firmware.checkpoint import Checkpoint, SurfacePool, capture, restore
from firmware.machine import Machine
from firmware.match.pacing import PENDING
from firmware.storage import Store
from hal.interfaces import TICK_HZ, Audio, RawInput, SilentAudio

KEYFRAME_EVERY = 20  # ticks between checkpoints: a third of a second
HISTORY_SECONDS = 60  # at least this much play can be rewound


# Store methods that write. Replayed ticks already happened once and wrote then, so while
# the history replays these do nothing (a result is not counted twice); reads go through.
STORE_WRITES = frozenset(
    {
        "set_setting",
        "delete_setting",
        "set_calibration",
        "clear_calibration",
        "update_stats",
        "record_result",
        "reset_stats",
        "add_record",
        "delete_record",
        "save_pairing",
        "set_pairing_epoch",
        "forget_pairing",
        "save_suspend",
        "clear_suspend",
        "close",
    }
)


class ReplayStore:
    """The machine's store while ticks are replayed: reads pass, writes are dropped."""

    def __init__(self, store: Any) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        if name in STORE_WRITES:
            return _ignore
        return getattr(self._store, name)


def _ignore(*args: Any, **kwargs: Any) -> int:
    return 0


class ReplayableInput(Protocol):
    override: Callable[[int], RawInput] | None


@dataclass(frozen=True, slots=True)
class Frame:
    """What the window showed at one position: both logical screens, or a blank pair."""

    top: pygame.Surface
    bottom: pygame.Surface
    swap: bool
    blank: bool


def frame_of(machine: Machine) -> Frame:
    """Copies of the machine's screens as `present` would show them now."""
    return Frame(
        machine.top.copy(),
        machine.bottom.copy(),
        machine.settings.swap,
        machine.lid_closed or machine.asleep,
    )


class History:
    """The last `seconds` of a session, as checkpoints plus inputs."""

    def __init__(self, every: int = KEYFRAME_EVERY, seconds: int = HISTORY_SECONDS) -> None:
        if every < 1 or seconds < 1:
            raise ValueError("the checkpoint interval and the history length must be positive")
        self.every = every
        self.span = seconds * TICK_HZ
        self.checkpoints: collections.deque[Checkpoint] = collections.deque()
        self.inputs: dict[int, RawInput] = {}
        self._last_input: RawInput | None = None
        self._next_tick = -1  # the tick the next step should run; anything else: a jump
        # worker answers applied live: request tick -> (poll, tick applied at, late?)
        # (firmware.match.pacing: replayed ticks apply each at the same poll)
        self.landings: dict[int, tuple[int, int, bool]] = {}
        self.capture_seconds = 0.0  # CPU time spent taking checkpoints (the bench reads it)
        self.pool = SurfacePool()  # surfaces equal across checkpoints are kept once

    # ----------------------------------------------------------------- recording
    def clear(self) -> None:
        self.checkpoints.clear()
        self.pool = SurfacePool()
        self.inputs.clear()
        self.landings.clear()
        self._last_input = None
        self._next_tick = -1

    def before_step(self, machine: Machine) -> None:
        """Called before every forward tick: take a checkpoint when one is due."""
        tick = machine.tick
        if tick != self._next_tick:  # a reset, a state load, a rewind: start again here
            self.clear()
        machine.pacing.log = self  # worker answers are kept like the input
        self._next_tick = tick + 1
        if not self.checkpoints or tick - self.checkpoints[-1].tick >= self.every:
            t0 = time.process_time()
            self.checkpoints.append(capture(machine, self.pool))
            self.capture_seconds += time.process_time() - t0
            self._forget_old(tick)

    def landed(self, request: int, polls: int, late: bool, tick: int) -> None:
        """A computer's answer from its worker was applied (firmware.match.pacing)."""
        self.landings[request] = (polls, tick, late)

    def landing(self, request: int) -> int:
        """The poll `request`'s answer was applied at; PENDING: not applied in the history."""
        found = self.landings.get(request)
        return found[0] if found is not None else PENDING

    def record(self, tick: int, raw: RawInput) -> None:
        """The input the machine polled at `tick` (equal inputs share one object)."""
        if raw == self._last_input:
            raw = self._last_input
        self._last_input = raw
        self.inputs[tick] = raw

    def _forget_old(self, now: int) -> None:
        """Drop checkpoints no longer needed to reach `now - span`, and their inputs."""
        dropped = False
        while len(self.checkpoints) > 1 and self.checkpoints[1].tick <= now - self.span:
            old = self.checkpoints.popleft()
            for t in range(old.tick, self.checkpoints[0].tick):
                self.inputs.pop(t, None)
            dropped = True
        if dropped:
            oldest = self.checkpoints[0].tick
            self.landings = {r: v for r, v in self.landings.items() if v[1] >= oldest}
            self.pool.forget_unused(list(self.checkpoints))

    # ----------------------------------------------------------------- going back
    @property
    def oldest(self) -> int | None:
        """The earliest position that can be rebuilt (None: no history)."""
        return self.checkpoints[0].tick if self.checkpoints else None

    def input_at(self, tick: int) -> RawInput:
        return self.inputs.get(tick, RawInput())

    def checkpoint_for(self, position: int) -> Checkpoint:
        """The latest checkpoint at or before `position`."""
        for checkpoint in reversed(self.checkpoints):
            if checkpoint.tick <= position:
                return checkpoint
        raise ValueError(f"position {position} is older than the history")

    @contextmanager
    def replaying(
        self, machine: Machine, source: ReplayableInput, sound: Audio | None = None
    ) -> Iterator[None]:
        """Polls answered from the recorded input, no store writes, and no sound (or the
        sound into `sound`: a clip's log, never the speakers)."""
        audio: Audio = machine.hal.audio
        store = machine.store
        source.override = self.input_at
        machine.hal.audio = sound if sound is not None else SilentAudio()
        machine.store = cast(Store, ReplayStore(store))  # a Store to every reader
        machine.pacing.log, machine.pacing.replaying = self, True
        try:
            yield
        finally:
            machine.pacing.replaying = False
            source.override = None
            machine.hal.audio = audio
            machine.store = store

    def seek(self, machine: Machine, source: ReplayableInput, position: int) -> None:
        """Put the machine at `position` (its next step runs that tick), rebuilt from the
        checkpoint before it and the recorded input; the history goes on from there."""
        checkpoint = self.checkpoint_for(position)
        restore(machine, checkpoint)
        with self.replaying(machine, source):
            while machine.tick < position:
                machine.step()
        self.truncate(position)

    def frames(
        self,
        machine: Machine,
        source: ReplayableInput,
        start: int,
        end: int,
        sound: Audio | None = None,
    ) -> Iterator[tuple[int, Frame]]:
        """The frame shown at each position start..end (inclusive), replayed from the
        checkpoint before `start` (the effects played go to `sound`, if given); the machine
        is left at `end`."""
        restore(machine, self.checkpoint_for(start))
        with self.replaying(machine, source, sound):
            while machine.tick < start:
                machine.step()
            machine.render()
            yield machine.tick, frame_of(machine)
            while machine.tick < end:
                machine.step()
                machine.render()
                yield machine.tick, frame_of(machine)

    def truncate(self, position: int) -> None:
        """Forget everything after `position` (play goes on from there with new input)."""
        while self.checkpoints and self.checkpoints[-1].tick > position:
            self.checkpoints.pop()
        for t in [t for t in self.inputs if t >= position]:
            del self.inputs[t]
        # answers applied after `position` were not applied in the play that goes on
        self.landings = {r: v for r, v in self.landings.items() if v[1] < position}
        self._last_input = None
        self._next_tick = position


class Rewinder:
    """Runs the game backwards one frame per tick while the rewind key is held."""

    def __init__(self, history: History, source: ReplayableInput) -> None:
        self.history = history
        self.source = source
        self.position = -1  # the position on screen while rewinding
        self._segment: dict[int, Frame] = {}

    @property
    def active(self) -> bool:
        return self.position >= 0

    def start(self, machine: Machine) -> bool:
        """Begin at the machine's position; False when there is no history to go back to."""
        oldest = self.history.oldest
        if oldest is None or machine.tick <= oldest:
            return False
        self.position = machine.tick
        self._segment = {}
        return True

    def back(self, machine: Machine) -> bool:
        """One frame further back; False at the start of the history (the frame stays)."""
        oldest = self.history.oldest
        if oldest is None or self.position <= oldest:
            return False
        self.position -= 1
        if self.position not in self._segment:
            start = self.history.checkpoint_for(self.position).tick
            self._segment = dict(self.history.frames(machine, self.source, start, self.position))
        return True

    def frame(self) -> Frame | None:
        return self._segment.get(self.position)

    def cancel(self) -> None:
        """Forget the rewind without moving the machine (a reset replaces it anyway)."""
        self.position = -1
        self._segment = {}

    def stop(self, machine: Machine) -> int:
        """Leave rewinding: the machine continues from the frame on screen."""
        position = self.position
        self.position = -1
        self._segment = {}
        if position >= 0:
            self.history.seek(machine, self.source, position)
        return position

    def kept_bytes(self) -> int:
        """Pixel memory of the frames kept for the segment being shown."""
        return sum(
            f.top.get_bytesize() * f.top.get_width() * f.top.get_height() * 2
            for f in self._segment.values()
        )
