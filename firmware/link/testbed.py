"""Radios on simulated air with a simulated clock: shared by link tests and benches."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.link.packet import Beacon
from firmware.link.radio import MemoryKeyring, PairRecord, Radio
from firmware.scenes.versus import LobbyScene, start_versus
from firmware.testing import scripted_machine
from hal.interfaces import RawInput, RawTouch
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

    def run(self, ticks: int, until=None) -> int:  # type: ignore[no-untyped-def]
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


def prepaired(air: Air, *names: str) -> list[Radio]:
    """Radios that paired earlier (every two share a stored key), as after a pairing."""
    rings = [MemoryKeyring() for _ in names]
    for i, a in enumerate(rings):
        for j, b in enumerate(rings[i + 1 :], i + 1):
            key = os.urandom(32)
            a.add(PairRecord(b.unit_id, names[j], key))
            b.add(PairRecord(a.unit_id, names[i], key))
    return [air.radio(name, ring) for name, ring in zip(names, rings, strict=True)]


class Robot:
    """An input movie written as it goes: taps the first legal square when it is this
    unit's turn in a versus game (and nothing else)."""

    def __init__(self) -> None:
        self.machine: Any = None
        self.tap_until = -1
        self.point: tuple[int, int] | None = None

    def __call__(self, tick: int) -> RawInput:
        m = self.machine
        if self.point is not None and tick <= self.tap_until:
            return RawInput(touch=RawTouch(*self.point))
        self.point = None
        if m is None or tick % 7:
            return RawInput()
        gs = m.game_scene()
        if gs is None or m.scene is not gs:
            return RawInput()
        game = gs.game
        if game.anim is not None or not game.human_to_move():
            return RawInput()
        legal = sorted(game.game.legal())
        if not legal:
            return RawInput()
        rect = game.hotspots()[f"square:{legal[0]}"]
        self.point, self.tap_until = rect.center, tick + 2
        return RawInput(touch=RawTouch(*rect.center))


class MachinePair:
    """Two firmware units on one simulated medium, each played by a `Robot`."""

    def __init__(self, tmp_path: Path, imp: Impairments) -> None:
        self.t = 0.0
        self.medium = MemoryMedium(imp, lambda: self.t)
        self.machines: list[Any] = []
        self.robots: list[Robot] = []
        for name in ("Hana", "Ken"):
            robot = Robot()
            m = scripted_machine(tmp_path / name, robot, link=self.medium.attach(), link_name=name)
            m.to_launcher()  # no boot screen: straight to the launcher
            m.link.auto_accept = True
            robot.machine = m
            self.machines.append(m)
            self.robots.append(robot)
        self.tick = 0

    def run(self, ticks: int, until: Callable[[], bool] | None = None, draw: bool = False) -> None:
        for _ in range(ticks):
            self.t = self.tick / 60
            for m in self.machines:
                m.step()
                if draw:
                    m.render()
            self.tick += 1
            if until is not None and until():
                return

    def start(self) -> None:
        host, guest = self.machines
        start_versus(host, "host", "reversi", {})
        start_versus(guest, "join", "reversi", {})
        assert isinstance(guest.scene, LobbyScene)
        guest.scene.auto_join = True
        self.run(60 * 60, until=lambda: all(m.game_scene() is not None for m in self.machines))
        assert all(m.game_scene() is not None for m in self.machines)

    def games(self) -> list[Any]:
        return [m.game_scene().game for m in self.machines if m.game_scene() is not None]
