"""Checkpoints of a running machine: everything it runs, copied, so it can continue exactly.

A checkpoint is a deep copy of the machine's own state (the scene stack with the game in it,
input edges and repeat counts, the touch filter, the hotspot cursor, lid and sleep, the tick)
that shares what is not the machine's to copy: the hardware (`hal`), the store and the
settings kept in it, the radio, the cartridges and system scenes, and the two screen
surfaces (redrawn in full every frame). The emulator's
rewind history and its undo of a state load are made of these; unlike a save state (a
game's JSON through `Game.save_state`), a checkpoint also holds the menus, the pause screen
and every animation, so frames after `restore` equal the frames after the original tick.

A computer player thinking in a worker process is not copied with its process: a copied
`ComputerSeat` asks its worker again when first polled (firmware.match.seats).

Scenes keep surfaces (a board drawn once, sprite sheets): most are the same from one
checkpoint to the next. A checkpoint holds each surface packed (its pixels compressed) and
packs equal pixels once across all checkpoints taken with the same `SurfacePool`, so a
minute of checkpoints costs a few megabytes, not one copy of every surface per checkpoint.
"""

from __future__ import annotations

import copy
import hashlib
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pygame

if TYPE_CHECKING:
    from firmware.machine import Machine

# Machine attributes that are shared, never copied: host resources and redrawn buffers.
# The settings are the store's (and the radio holds the same object), so like the store they
# are not rewound: a changed setting stays changed.
SHARED = (
    "hal",
    "store",
    "settings",
    "cartridges",
    "system_scenes",
    "top",
    "bottom",
    "link",
    "profile",
    "touch_profile",
    "pacing",
    "battery",  # the battery's monitor: a rewind does not bring back a warning or a charge
)


class PackedSurface:
    """A surface's pixels and format, compressed; `unpack` makes an equal new surface."""

    __slots__ = ("alpha", "colorkey", "data", "depth", "flags", "masks", "size")

    def __init__(self, surface: pygame.Surface, data: bytes) -> None:
        self.size = surface.get_size()
        self.flags = surface.get_flags() & pygame.SRCALPHA
        self.depth = surface.get_bitsize()
        self.masks = surface.get_masks()
        self.colorkey = surface.get_colorkey()
        self.alpha = surface.get_alpha()
        self.data = zlib.compress(data, 1)

    def unpack(self) -> pygame.Surface:
        surface = pygame.Surface(self.size, self.flags, self.depth, self.masks)
        surface.get_buffer().write(zlib.decompress(self.data))
        if self.colorkey is not None:
            surface.set_colorkey(self.colorkey)
        if self.alpha is not None and not self.flags:
            surface.set_alpha(self.alpha)
        return surface


class SurfacePool:
    """Packed surfaces by content: equal pixels in later checkpoints share one packing."""

    def __init__(self) -> None:
        self._packed: dict[bytes, PackedSurface] = {}

    def pack(self, surface: pygame.Surface) -> PackedSurface:
        data = surface.get_buffer().raw
        key = (
            hashlib.blake2b(data, digest_size=16).digest()
            + repr(
                (
                    surface.get_size(),
                    surface.get_masks(),
                    surface.get_colorkey(),
                    surface.get_alpha(),
                )
            ).encode()
        )
        packed = self._packed.get(key)
        if packed is None:
            packed = self._packed[key] = PackedSurface(surface, data)
        return packed

    def forget_unused(self, kept: list[Checkpoint]) -> None:
        """Drop packings no kept checkpoint refers to (after old checkpoints are dropped)."""
        used = {id(p) for checkpoint in kept for p in checkpoint.packed}
        self._packed = {k: p for k, p in self._packed.items() if id(p) in used}


@contextmanager
def _surfaces_as(handler: Any, kind: type) -> Iterator[None]:
    """deepcopy copies objects of `kind` with `handler` for the body."""
    table: dict[type, Any] = copy._deepcopy_dispatch  # type: ignore[attr-defined]  # the copy module's own per-type table
    previous = table.get(kind)
    table[kind] = handler
    try:
        yield
    finally:
        if previous is None:
            del table[kind]
        else:
            table[kind] = previous


class Checkpoint:
    """One machine's state at one tick (take with `capture`, go back with `restore`)."""

    __slots__ = ("_state", "packed", "tick")

    def __init__(self, tick: int, state: dict[str, Any], packed: list[PackedSurface]) -> None:
        self.tick = tick
        self._state = state
        self.packed = packed  # the packed surfaces the state refers to

    def copy_state(self, machine: Machine) -> dict[str, Any]:
        """A fresh copy of the state (a checkpoint can be restored any number of times)."""

        def unpack(packed: PackedSurface, memo: dict[int, Any]) -> pygame.Surface:
            return packed.unpack()

        with _surfaces_as(unpack, PackedSurface):
            state: dict[str, Any] = copy.deepcopy(self._state, _memo(machine))
        return state


def _memo(machine: Machine) -> dict[int, Any]:
    """deepcopy's memo seeded with the shared objects, so copies point at the originals."""
    memo: dict[int, Any] = {id(machine): machine}
    for name in SHARED:
        value = getattr(machine, name, None)
        if value is not None:
            memo[id(value)] = value
    for cartridge in machine.cartridges.values():
        memo[id(cartridge)] = cartridge
    return memo


def capture(machine: Machine, pool: SurfacePool | None = None) -> Checkpoint:
    """The machine's state now (before its next `step`); surfaces packed into `pool`."""
    pool = pool if pool is not None else SurfacePool()
    packed: list[PackedSurface] = []

    def pack(surface: pygame.Surface, memo: dict[int, Any]) -> PackedSurface:
        result = pool.pack(surface)
        packed.append(result)
        return result

    own = {k: v for k, v in vars(machine).items() if k not in SHARED}
    with _surfaces_as(pack, pygame.Surface):
        state = copy.deepcopy(own, _memo(machine))
    return Checkpoint(machine.tick, state, packed)


def restore(machine: Machine, checkpoint: Checkpoint) -> None:
    """Put `machine` back to `checkpoint`; its next `step` is the checkpoint's tick."""
    vars(machine).update(checkpoint.copy_state(machine))
