"""An in-memory radio medium for tests: several `MemoryLink`s sharing simulated air.

Time comes from a clock function (tests pass a simulated clock, so a 10-second link cut
takes no real time). `block(a, b)` puts two units out of each other's range (a relay
between them is then the only path), `cut()` silences the whole medium for a while.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hal.interfaces import ByteLink
from hal.link.air import Burst, Impairments, Receiver, Transmitter


class MemoryMedium:
    """The shared air of several in-memory units."""

    def __init__(self, imp: Impairments | None = None, clock: Callable[[], float] | None = None):
        self.imp = imp or Impairments(baud=0)
        self.clock = clock or (lambda: 0.0)
        self.links: list[MemoryLink] = []
        self._blocked: set[frozenset[int]] = set()
        self.cut_until = -1.0
        self.cut = False  # True: nothing reaches anyone (a unit out of range)

    def attach(self) -> MemoryLink:
        link = MemoryLink(self, len(self.links))
        self.links.append(link)
        return link

    def block(self, a: MemoryLink, b: MemoryLink) -> None:
        """`a` and `b` can no longer hear each other."""
        self._blocked.add(frozenset((a.unit, b.unit)))

    def transmit(self, sender: MemoryLink, data: bytes) -> None:
        now = self.clock()
        burst = sender.tx.send(now, data)
        sender.rx.transmitting(burst.start, burst.end)
        if self.cut or now < self.cut_until:
            return
        for link in self.links:
            if link is sender or frozenset((link.unit, sender.unit)) in self._blocked:
                continue
            link.rx.hear(Burst(burst.sender, burst.start, burst.end, burst.data))


class MemoryLink(ByteLink):
    """One unit's radio on a `MemoryMedium`."""

    def __init__(self, medium: MemoryMedium, unit: int) -> None:
        self.medium = medium
        self.unit = unit
        imp = medium.imp
        self.tx = Transmitter(unit, imp)
        self.rx = Receiver(unit, imp, random.Random(f"{imp.seed}:{unit}"))

    def write(self, data: bytes) -> None:
        if data:
            self.medium.transmit(self, data)

    def read(self) -> bytes:
        return self.rx.take(self.medium.clock())

    def out_waiting(self) -> int:
        return self.tx.out_waiting(self.medium.clock())

    def receiving(self) -> bool:
        return self.rx.busy(self.medium.clock())


class PipeLink(ByteLink):
    """A direct wire to another PipeLink (no air, no impairment): `PipeLink.pair()`."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.peer: PipeLink | None = None

    @classmethod
    def pair(cls) -> tuple[PipeLink, PipeLink]:
        a, b = cls(), cls()
        a.peer, b.peer = b, a
        return a, b

    def write(self, data: bytes) -> None:
        if self.peer is not None:
            self.peer.inbox += data

    def read(self) -> bytes:
        data = bytes(self.inbox)
        self.inbox.clear()
        return data


def lossy_pair(
    imp: Impairments, clock: Callable[[], float]
) -> tuple[MemoryMedium, MemoryLink, MemoryLink]:
    """Two units on one impaired medium (the common test set-up)."""
    medium = MemoryMedium(imp, clock)
    return medium, medium.attach(), medium.attach()


__all__ = ["Impairments", "MemoryLink", "MemoryMedium", "PipeLink", "lossy_pair"]
