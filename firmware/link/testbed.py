"""Radios on simulated air with a simulated clock: shared by link tests and benches."""

from __future__ import annotations

import os
from collections.abc import Callable

from firmware.link.packet import Beacon
from firmware.link.radio import MemoryKeyring, PairRecord, Radio
from hal.link.air import Impairments
from hal.link.memory import MemoryMedium


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Air:
    """Radios on one medium, ticked together at 60 Hz of simulated time."""

    def __init__(self, imp: Impairments | None = None) -> None:
        self.clock = Clock()
        self.medium = MemoryMedium(imp or Impairments(baud=9600, delay_ms=20), self.clock)
        self.radios: list[Radio] = []
        self.tick = 0

    def radio(self, name: str, keyring: MemoryKeyring | None = None) -> Radio:
        r = Radio(self.medium.attach(), keyring or MemoryKeyring(), name)
        self.radios.append(r)
        return r

    def run(self, ticks: int, until: Callable[[], bool] | None = None) -> int:
        for _ in range(ticks):
            self.clock.t = self.tick / 60
            for r in self.radios:
                r.tick(self.tick)
            self.tick += 1
            if until is not None and until():
                break
        return self.tick


def pair(air: Air, host: Radio, guest: Radio, game: str = "reversi") -> None:
    """Pair two radios the way the UI does: host announces, guest asks, both confirm."""
    host.beacon = Beacon(host.id, True, game, host.name, 1)
    host.accept_pairing = True
    air.run(120, until=lambda: host.id in guest.nearby)
    guest.start_pairing(host.id)
    air.run(
        3000,
        until=lambda: (
            host.pairing is not None
            and host.pairing.code is not None
            and guest.pairing is not None
            and guest.pairing.code is not None
        ),
    )
    assert host.pairing is not None and guest.pairing is not None
    assert host.pairing.code == guest.pairing.code
    host.pairing.confirm(True)
    guest.pairing.confirm(True)
    air.run(3000, until=lambda: host.id in guest.paired() and guest.id in host.paired())
    assert host.id in guest.paired() and guest.id in host.paired()


def prepaired(air: Air, *names: str, ids: list[bytes] | None = None) -> list[Radio]:
    """Radios that paired earlier (every two share a stored key), as after a pairing.
    `ids` fixes the unit ids (their order decides keep-alive leaders; runs repeat)."""
    rings = [MemoryKeyring(ids[i] if ids else None) for i in range(len(names))]
    for i, a in enumerate(rings):
        for j, b in enumerate(rings[i + 1 :], i + 1):
            key = os.urandom(32)
            a.add(PairRecord(b.unit_id, names[j], key))
            b.add(PairRecord(a.unit_id, names[i], key))
    return [air.radio(name, ring) for name, ring in zip(names, rings, strict=True)]
