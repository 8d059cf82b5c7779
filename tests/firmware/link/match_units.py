"""Firmware units on simulated air with a simulated clock, playing one Killing Sevens match
(issue 33): a host and two or three guests paired earlier (every two share a stored key),
a computer in any seat no unit took, each unit's person tapping a playable card on their
turn. Shared by the departure and takeover tests."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.link.radio import PairRecord
from firmware.link.session import State
from firmware.scenes.versus import start_versus
from firmware.scenes.versus_match import announcement_text
from firmware.storage import Store
from firmware.testing import scripted_machine
from games.sevens.scene.setup import Setup
from hal.link.air import Impairments
from hal.link.memory import MemoryMedium
from tests.games.sevens.sevens_driver import Tapper


class MatchUnits:
    """Units named `names` (the first hosts) on one medium; `stopped` units are not
    stepped (switched off, killed, or out of range as far as the others can tell)."""

    def __init__(
        self,
        tmp_path: Path,
        names: tuple[str, ...] = ("Hana", "Ken", "Cy"),
        languages: tuple[str, ...] | None = None,
        grace: int | None = None,
        baud: int = 9600,
    ) -> None:
        self.clock = 0.0
        self.medium = MemoryMedium(Impairments(baud=baud, delay_ms=20, seed=7), lambda: self.clock)
        self.names = names
        self.machines: list[Any] = []
        self.tappers: list[Tapper] = []
        self.stopped: set[int] = set()
        self.ticks = 0
        self.tmp_path = tmp_path
        for i, name in enumerate(names):
            folder = tmp_path / name
            folder.mkdir()
            store = Store.open(folder / "store.db")
            store.set_setting("game:sevens:setup", Setup(bubbles="fast").to_json())
            store.close()
            tapper = Tapper(i)
            m = scripted_machine(folder, tapper, link=self.medium.attach(), link_name=name)
            m.settings.language = languages[i] if languages else "en"
            if grace is not None:
                m.link.grace_ticks = grace
            m.to_launcher()
            tapper.machine = m
            self.machines.append(m)
            self.tappers.append(tapper)
        radios = [m.link.radio for m in self.machines]
        for i, a in enumerate(radios):
            for b in radios[i + 1 :]:
                key = os.urandom(32)
                a.keyring.add(PairRecord(b.id, b.name, key))
                b.keyring.add(PairRecord(a.id, a.name, key))
        self.host = self.machines[0]

    def run(self, ticks: int, until: Callable[[], bool] | None = None) -> int:
        """Step every running unit; the ticks it took until `until` held."""
        for n in range(ticks):
            self.clock += 1 / 60
            self.ticks += 1
            for i, m in enumerate(self.machines):
                if i not in self.stopped:
                    m.step()
            if until is not None and until():
                return n + 1
        return ticks

    def start(self, until: Callable[[], bool] | int = 0) -> None:
        """Into the match (the host starts with who joined), and on until `until` holds
        (a number: that many actions played and the host's messages delivered)."""
        guests = self.machines[1:]
        start_versus(self.host, "host", "sevens", {"max_kill": "4"})
        for guest in guests:
            start_versus(guest, "join", "sevens", {})
            guest.scene.auto_join = True
        joined = len(guests)
        self.run(60 * 60, until=lambda: self.host.scene.dump().get("joined") == joined)
        session = self.host.link.session
        if joined < 3:
            assert session.start_now()
        self.run(60 * 60, until=lambda: all(m.game_scene() is not None for m in self.machines))
        assert all(m.game_scene() is not None for m in self.machines)
        if isinstance(until, int):
            plays = until
            done = lambda: self.played() >= plays and self.settled()  # noqa: E731
        else:
            done = until
        self.run(60 * 300, until=done)
        live = (State.PLAYING, State.WAITING)  # (the deal's seconds of air may look like a loss)
        assert done() and all(m.link.session.state in live for m in self.machines)

    def settled(self) -> bool:
        """The host's messages (the deal first) have all arrived."""
        radio = self.host.link.radio
        return all(radio.peers[g.peer].rel.pending == 0 for g in self.host.link.session.guests)

    def played(self) -> int:
        match = self.host.link.session.match
        return len(match.history) if match is not None else 0

    def running(self) -> list[Any]:
        return [m for i, m in enumerate(self.machines) if i not in self.stopped]

    def scenes(self) -> list[str]:
        return [m.scene.name for m in self.running()]


def announced(machine: Any) -> str:
    """The latest announcement on this unit, as shown (its banner stays up 4 s; the dump
    keeps which it was)."""
    said = machine.dump()["link"]["announced"]
    if said is None:
        return ""
    return announcement_text(machine, said["kind"], said["seat"], machine.link.session)
