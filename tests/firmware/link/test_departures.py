"""Who left, said right (issue 33, item 1): three firmware units (host Hana, guests Ken and
Cy, a computer in the fourth seat) play Killing Sevens on simulated air with a simulated
clock. A guest that quits or leaves says goodbye at once and the others name exactly it,
with its cause; a guest that falls silent is named lost within a bounded number of ticks by
the host and by the other guest; the dumps, the screens (English and Japanese) and the log
say the same. A guest gone for good has its seat taken by the host's computer and the
others play on (item 2, test_takeover.py); the host gone ends the match for every guest."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pygame
import pytest

from firmware.link.reliable import LOST_TICKS
from firmware.link.session import Session, State
from firmware.link.testbed import Air, prepaired
from firmware.testing import scripted_machine
from hal.interfaces import Button, RawInput
from hal.link.air import Impairments
from tests.firmware.link.match_units import MatchUnits, announced
from tests.games.sevens.sevens_driver import Tapper

NAMES = ("Hana", "Ken", "Cy")


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


class ThreeUnits(MatchUnits):
    """Hana hosts Killing Sevens for four seats, Ken and Cy (paired with her and each other
    earlier) join, Hana starts with who is here: a computer takes the fourth seat."""

    def __init__(self, tmp_path: Path, languages: tuple[str, ...] = ("en", "en", "en")) -> None:
        super().__init__(tmp_path, NAMES, languages)
        self.host, self.ken, self.cy = self.machines


def _gone(machine: Any) -> list[dict[str, Any]]:
    return list(machine.dump()["link"]["gone"])


def _taken(machine: Any) -> bool:
    """The computer plays Cy's seat on this unit, and it is back in the game."""
    return machine.dump()["link"]["computer"] == [2] and machine.scene.name == "sevens"


def _departures(caplog: pytest.LogCaptureFixture, why: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().endswith(f"is gone: {why}")]


@pytest.mark.parametrize("plays", [0, 6], ids=["dealt-before-the-first-play", "mid-game"])
def test_a_guest_that_quits_is_named_by_the_host_and_the_other_guest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, plays: int
) -> None:
    """Cy's unit switches off (the emulator's quit, the end of a headless run): its goodbye
    goes at once; Hana and Ken name Cy, and only Cy, with cause "quit", and play on with
    the host's computer in Cy's seat (announced on both)."""
    units = ThreeUnits(tmp_path)
    units.start(plays)
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()  # only what follows (an earlier test may have left the logger at INFO)
    units.stopped.add(2)  # switched off: it says nothing more
    units.cy.link.shutdown(wait=lambda: units.run(1))  # the others go on meanwhile
    took = units.run(60 * 10, until=lambda: all(_taken(m) for m in (units.host, units.ken)))
    assert took < LOST_TICKS  # told by the goodbye, not by the silence
    assert units.scenes() == ["sevens", "sevens"]
    for m in (units.host, units.ken):
        assert announced(m) == "Cy left the game. The computer plays for Cy now."
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
    units.run(60 * 10, until=lambda: all(_taken(m) for m in (units.host, units.ken)))
    assert units.scenes()[:2] == ["sevens", "sevens"]
    assert announced(units.host) == "Cy left the game. The computer plays for Cy now."
    assert announced(units.ken) == (
        "Cyが ゲームを ぬけました。Cyの かわりに コンピュータが うちます。"
    )
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
    assert units.ken.scene.message == (
        "ホストの Hanaが ゲームを ぬけました。ホストが いないと つづけられません。"
    )
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
    """Hana's unit switches off mid-game: Ken and Cy name Hana as the host, cause "quit";
    the match cannot go on without its dealer: it is over for both."""
    units = ThreeUnits(tmp_path)
    units.start(5)
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()  # only what follows (an earlier test may have left the logger at INFO)
    units.stopped.add(0)
    units.host.link.shutdown(wait=lambda: units.run(1))
    units.run(60 * 10, until=lambda: units.scenes() == ["notice", "notice"])
    for m in (units.ken, units.cy):
        assert m.scene.message == (
            "Hana (the host) left the game. The match cannot go on without the host."
        )
        assert _gone(m) == [{"seat": 0, "name": "Hana", "why": "quit"}]
    assert _departures(caplog, "quit") == ["versus: Hana (seat 0) is gone: quit"] * 2


def test_a_guest_that_restarts_is_named_restarted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Cy's unit restarts at once (a crash, a reset: no goodbye) on its store: its new
    channel tells the host, which names Cy "restarted", tells Ken, and plays on with its
    computer in Cy's seat."""
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
    units.run(60 * 10, until=lambda: all(_taken(m) for m in (units.host, units.ken)))
    assert units.scenes() == ["sevens", "sevens", "launcher"]
    for m in (units.host, units.ken):
        assert announced(m) == "Cy restarted. The computer plays for Cy now."
        assert _gone(m) == [{"seat": 2, "name": "Cy", "why": "restarted"}]
    assert _departures(caplog, "restarted") == ["versus: Cy (seat 2) is gone: restarted"] * 2
