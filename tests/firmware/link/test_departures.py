"""Who left, said right (issue 33, item 1): three firmware units (host Hana, guests Ken and
Cy, a computer in the fourth seat) play Killing Sevens on simulated air with a simulated
clock. A guest that quits or leaves says goodbye at once and the others name exactly it,
with its cause; a guest that falls silent is named lost within a bounded number of ticks by
the host and by the other guest; the dumps, the screens (English and Japanese) and the log
say the same. After a departure the match ends for every unit, as before."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pygame
import pytest

from firmware.link.radio import PairRecord
from firmware.link.reliable import LOST_TICKS
from firmware.link.session import Session, State
from firmware.link.testbed import Air, prepaired
from firmware.scenes.versus import start_versus
from firmware.storage import Store
from firmware.testing import scripted_machine
from games.sevens.scene.setup import Setup
from hal.interfaces import Button, RawInput
from hal.link.air import Impairments
from hal.link.memory import MemoryMedium
from tests.games.sevens.sevens_driver import Tapper

NAMES = ("Hana", "Ken", "Cy")


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


class ThreeUnits:
    """Hana hosts Killing Sevens for four seats, Ken and Cy (paired with her and each other
    earlier) join, Hana starts with who is here: a computer takes the fourth seat."""

    def __init__(self, tmp_path: Path, languages: tuple[str, ...] = ("en", "en", "en")) -> None:
        self.clock = 0.0
        self.medium = MemoryMedium(Impairments(baud=9600, delay_ms=20, seed=7), lambda: self.clock)
        self.machines: list[Any] = []
        self.tappers: list[Tapper] = []
        self.stopped: set[int] = set()  # units no longer stepped (switched off, or killed)
        self.ticks = 0
        for i, name in enumerate(NAMES):
            folder = tmp_path / name
            folder.mkdir()
            store = Store.open(folder / "store.db")
            store.set_setting("game:sevens:setup", Setup(bubbles="fast").to_json())
            store.close()
            tapper = Tapper(i)
            m = scripted_machine(folder, tapper, link=self.medium.attach(), link_name=name)
            m.settings.language = languages[i]
            m.to_launcher()
            tapper.machine = m
            self.machines.append(m)
            self.tappers.append(tapper)
        radios = [m.link.radio for m in self.machines]
        for i, a in enumerate(radios):  # paired earlier: every two share a stored key
            for b in radios[i + 1 :]:
                key = os.urandom(32)
                a.keyring.add(PairRecord(b.id, b.name, key))
                b.keyring.add(PairRecord(a.id, a.name, key))
        self.host, self.ken, self.cy = self.machines

    def run(self, ticks: int, until: Any = None) -> int:
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

    def start(self, plays: int) -> None:
        """Into the match, and on until `plays` actions were played."""
        start_versus(self.host, "host", "sevens", {"max_kill": "4"})
        for guest in (self.ken, self.cy):
            start_versus(guest, "join", "sevens", {})
            guest.scene.auto_join = True
        self.run(60 * 60, until=lambda: self.host.scene.dump().get("joined") == 2)
        assert self.host.link.session.start_now()
        self.run(60 * 60, until=lambda: all(m.game_scene() is not None for m in self.machines))
        assert all(m.game_scene() is not None for m in self.machines)
        self.run(60 * 300, until=lambda: self.played() >= plays and self.settled())
        assert self.played() >= plays and all(
            m.link.session.state is State.PLAYING for m in self.machines
        )

    def settled(self) -> bool:
        """The host's messages (the deal first: seconds of air at 9600 baud, when nobody
        else gets a word in) have all arrived."""
        radio = self.host.link.radio
        return all(radio.peers[g.peer].rel.pending == 0 for g in self.host.link.session.guests)

    def played(self) -> int:
        match = self.host.link.session.match
        return len(match.history) if match is not None else 0

    def scenes(self) -> list[str]:
        return [m.scene.name for i, m in enumerate(self.machines) if i not in self.stopped]


def _gone(machine: Any) -> list[dict[str, Any]]:
    return list(machine.dump()["link"]["gone"])


def _departures(caplog: pytest.LogCaptureFixture, why: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().endswith(f"is gone: {why}")]


@pytest.mark.parametrize("plays", [0, 6], ids=["dealt-before-the-first-play", "mid-game"])
def test_a_guest_that_quits_is_named_by_the_host_and_the_other_guest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, plays: int
) -> None:
    """Cy's unit switches off (the emulator's quit, the end of a headless run): its goodbye
    goes at once; Hana and Ken name Cy, and only Cy, with cause "quit"."""
    units = ThreeUnits(tmp_path)
    units.start(plays)
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()  # only what follows (an earlier test may have left the logger at INFO)
    units.stopped.add(2)  # switched off: it says nothing more
    units.cy.link.shutdown(wait=lambda: units.run(1))  # the others go on meanwhile
    took = units.run(60 * 10, until=lambda: units.scenes() == ["notice", "notice"])
    assert units.scenes() == ["notice", "notice"]
    assert took < LOST_TICKS  # told by the goodbye, not by the silence
    for m in (units.host, units.ken):
        assert m.scene.message == "Cy left the game."
        assert _gone(m) == [{"seat": 2, "name": "Cy", "why": "quit"}]
    assert _departures(caplog, "quit") == ["versus: Cy (seat 2) is gone: quit"] * 2
    assert not _departures(caplog, "lost")
    assert any(r.getMessage() == "versus: leaving the match (quit)" for r in caplog.records)


def test_a_guest_that_leaves_by_the_pause_menu_is_named_in_japanese_too(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Cy picks "Leave the match": Hana (English) and Ken (Japanese) name Cy, cause "left";
    Cy is back in its launcher."""
    units = ThreeUnits(tmp_path, languages=("en", "ja", "en"))
    units.start(3)
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()  # only what follows (an earlier test may have left the logger at INFO)
    units.tappers[2].queue = [RawInput(held=frozenset({Button.START})), None, None]
    units.run(60, until=lambda: units.cy.scene.name == "pause")
    assert units.cy.scene.name == "pause"
    units.cy.scene.quit()  # the menu's "Leave the match"
    assert units.cy.scene.name == "launcher"
    units.run(60 * 10, until=lambda: units.scenes()[:2] == ["notice", "notice"])
    assert units.host.scene.message == "Cy left the game."
    assert units.ken.scene.message == "Cyが ゲームを ぬけました。"
    for m in (units.host, units.ken):
        assert _gone(m) == [{"seat": 2, "name": "Cy", "why": "left"}]
    assert _departures(caplog, "left") == ["versus: Cy (seat 2) is gone: left"] * 2


def test_a_silent_guest_is_named_lost_by_the_host_and_the_other_guest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Cy's unit stops dead (a flat battery, SIGKILL, out of range): within a bounded number
    of ticks Hana and Ken show the waiting screen naming Cy alone; when Hana then leaves,
    Ken names Hana (never Cy as having left, nor Hana as lost)."""
    units = ThreeUnits(tmp_path, languages=("en", "ja", "en"))
    units.start(4)
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()  # only what follows (an earlier test may have left the logger at INFO)
    units.stopped.add(2)
    took = units.run(LOST_TICKS + 120, until=lambda: units.scenes() == ["waiting", "waiting"])
    assert units.scenes() == ["waiting", "waiting"]
    assert took <= LOST_TICKS + 60  # 2.5 s of silence, and the host's word to Ken
    assert units.host.scene.dump()["lost"] == "Cy"
    assert units.ken.scene.dump()["lost"] == "Cy"
    for m in (units.host, units.ken):
        assert m.dump()["link"]["state"] == "waiting"
        assert _gone(m) == [{"seat": 2, "name": "Cy", "why": "lost"}]
    assert _departures(caplog, "lost") == ["versus: Cy (seat 2) is gone: lost"] * 2
    units.host.scene.abandon()  # the waiting screen's "Abandon the game"
    units.run(60 * 10, until=lambda: units.ken.scene.name == "notice")
    assert units.ken.scene.message == "Hanaが ゲームを ぬけました。"
    assert _gone(units.ken) == [{"seat": 0, "name": "Hana", "why": "left"}]


def test_a_guest_stuck_joining_says_the_host_went_away_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The host vanishes after its welcome; the guest, joining again and again while the
    host's beacon is still in its list (as the lobby's auto-join does), logs it once."""
    air = Air(Impairments(baud=9600, delay_ms=20, seed=2))
    host_radio, guest_radio = prepaired(air, "Hana", "Ken")
    host, guest = Session(host_radio), Session(guest_radio)
    host.host_game("sevens", {}, seats=4, sealed=True)
    guest.look("sevens")
    air.run(300, until=lambda: (host.tick(), guest.tick(), bool(guest.hosts()))[2])
    assert guest.join(host_radio.id)
    air.run(600, until=lambda: (host.tick(), guest.tick(), guest.seat is not None)[2])
    assert guest.seat is not None
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()  # only what follows (an earlier test may have left the logger at INFO)
    air.radios.remove(host_radio)  # switched off
    for _ in range(60 * 20):
        air.run(1)
        guest.tick()
        if guest.state is State.LOOKING and host_radio.id in guest_radio.nearby:
            guest.join(host_radio.id)
    went = [r for r in caplog.records if "the host went away" in r.getMessage()]
    assert len(went) == 1
    assert guest.failure == "host_left"



def test_a_silent_guest_that_comes_back_resumes_the_match_everywhere(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Cy falls silent, Hana and Ken wait naming Cy; Cy's radio is heard again: the host
    tells Ken, every unit is back in the game, and the log says the link is back."""
    units = ThreeUnits(tmp_path)
    units.start(4)
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()  # only what follows (an earlier test may have left the logger at INFO)
    units.stopped.add(2)
    units.run(LOST_TICKS + 120, until=lambda: units.scenes() == ["waiting", "waiting"])
    assert units.scenes() == ["waiting", "waiting"]
    units.stopped.discard(2)
    units.run(60 * 10, until=lambda: units.scenes() == ["sevens"] * 3)
    assert units.scenes() == ["sevens"] * 3
    assert all(_gone(m) == [] for m in units.machines)
    back = [r.getMessage() for r in caplog.records if "is back" in r.getMessage()]
    assert back == ["versus: the link to Cy (seat 2) is back"] * 2
    before = units.played()
    units.run(60 * 60, until=lambda: units.played() >= before + 3)
    assert units.played() >= before + 3  # and the match goes on


def test_the_host_that_quits_is_named_by_every_guest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Hana's unit switches off mid-game: Ken and Cy name Hana, cause "quit" (what happens
    next, the match ending, is as before)."""
    units = ThreeUnits(tmp_path)
    units.start(5)
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()  # only what follows (an earlier test may have left the logger at INFO)
    units.stopped.add(0)
    units.host.link.shutdown(wait=lambda: units.run(1))
    units.run(60 * 10, until=lambda: units.scenes() == ["notice", "notice"])
    for m in (units.ken, units.cy):
        assert m.scene.message == "Hana left the game."
        assert _gone(m) == [{"seat": 0, "name": "Hana", "why": "quit"}]
    assert _departures(caplog, "quit") == ["versus: Hana (seat 0) is gone: quit"] * 2


def test_a_guest_that_restarts_is_named_restarted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Cy's unit restarts at once (a crash, a reset: no goodbye) on its store: its new
    channel tells the host, which names Cy "restarted" and tells Ken."""
    units = ThreeUnits(tmp_path)
    units.start(5)
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()  # only what follows (an earlier test may have left the logger at INFO)
    units.cy.store.close()
    tapper = Tapper(9)
    cy = scripted_machine(
        tmp_path / "Cy", tapper, link=units.medium.attach(), link_name="Cy"
    )
    cy.to_launcher()
    tapper.machine = cy
    units.machines[2] = units.cy = cy
    units.run(60 * 10, until=lambda: units.scenes()[:2] == ["notice", "notice"])
    assert units.scenes() == ["notice", "notice", "launcher"]
    for m in (units.host, units.ken):
        assert m.scene.message == "Cy restarted."
        assert _gone(m) == [{"seat": 2, "name": "Cy", "why": "restarted"}]
    assert _departures(caplog, "restarted") == ["versus: Cy (seat 2) is gone: restarted"] * 2
