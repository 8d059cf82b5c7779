"""Checkpoints of a running machine: everything it runs, copied, so it can continue exactly.

A checkpoint is a deep copy of the machine's own state (the scene stack with the game in it,
input edges and repeat counts, the touch filter, the hotspot cursor, lid and sleep, the tick)
that shares what is not the machine's to copy: the hardware (`hal`), the store, the radio,
the cartridges and the two screen surfaces (redrawn in full every frame). The emulator's
rewind history and its undo of a state load are made of these; unlike a save state (a
game's JSON through `Game.save_state`), a checkpoint also holds the menus, the pause screen
and every animation, so frames after `restore` equal the frames after the original tick.

A computer player thinking in a worker process is not copied with its process: a copied
`ComputerSeat` asks its worker again when first polled (firmware.match.seats).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firmware.machine import Machine

# Machine attributes that are shared, never copied: host resources and redrawn buffers.
SHARED = ("hal", "store", "cartridges", "top", "bottom", "link", "profile", "touch_profile")


class Checkpoint:
    """One machine's state at one tick (take with `capture`, go back with `restore`)."""

    __slots__ = ("_state", "tick")

    def __init__(self, tick: int, state: dict[str, Any]) -> None:
        self.tick = tick
        self._state = state

    def copy_state(self, machine: Machine) -> dict[str, Any]:
        """A fresh copy of the state (a checkpoint can be restored any number of times)."""
        return copy.deepcopy(self._state, _memo(machine))


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


def capture(machine: Machine) -> Checkpoint:
    """The machine's state now (before its next `step`)."""
    own = {k: v for k, v in vars(machine).items() if k not in SHARED}
    return Checkpoint(machine.tick, copy.deepcopy(own, _memo(machine)))


def restore(machine: Machine, checkpoint: Checkpoint) -> None:
    """Put `machine` back to `checkpoint`; its next `step` is the checkpoint's tick."""
    vars(machine).update(checkpoint.copy_state(machine))
