"""A match that outlives a unit (issue 33, items 2-5): Killing Sevens between three or four
firmware units on simulated air with a simulated clock (match_units.py). A guest that quits
or is killed (stops dead: no goodbye, as after SIGKILL) at several points of the game has
its seat taken by the host's computer after the grace period; every unit still there names
exactly the units gone, announces the takeover, and the match ends with the same digest
everywhere, the sealed deal checking out on every guest and the record naming who played
which part of the seat. A guest that comes back is offered its seat and takes it over at a
turn boundary; the host killed ends the match for every guest within a bounded time. (The
one left of two finishing against the computer: test_serial_pty.py, over a pty pair.)

The grace period is short here (`GRACE` ticks, as `--link-grace` sets it) so nothing waits
long; every wait is for the thing itself (a dump's field, a scene), with a deadline."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from firmware.link.reliable import LOST_TICKS
from firmware.scenes.versus import start_versus
from firmware.testing import scripted_machine
from tests.firmware.link.match_units import MatchUnits, announced
from tests.games.sevens.sevens_driver import Tapper

GRACE = 420  # ticks a lost guest is waited for (7 s: the deal of four units at 9600 baud
# starves a channel for up to 3 s, which is not a unit gone)
END = 60 * 300  # a deadline for a whole match in simulated ticks (it takes ~40 s)
FOUR = ("Hana", "Ken", "Cy", "Mio")


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same randoms every run (the deal, the keys): a failure reproduces."""
    pygame.init()
    rng = random.Random("issue 33")
    monkeypatch.setattr("firmware.link.session_core.os.urandom", rng.randbytes)


def _host_game(units: MatchUnits) -> Any:
    return units.host.link.session.match.rules.game


def _killing(units: MatchUnits) -> bool:
    """A kill is on the table now: the last card played killed cards (they animate)."""
    anim = units.host.game_scene().game.anim
    return anim is not None and bool(anim.killed) and units.settled()


def _last_card(seat: int) -> Callable[[MatchUnits], bool]:
    def check(units: MatchUnits) -> bool:
        return units.host.link.session.match.to_move == seat and (
            _host_game(units).cards_left(seat) == 1
        )

    return check


POINTS: dict[str, Callable[[MatchUnits], bool]] = {
    "before-the-first-play": lambda u: u.played() == 0,  # the deal is on its way
    "mid-trick": lambda u: u.played() >= 5 and u.settled(),
    "during-a-kill": _killing,
}


def _leave(units: MatchUnits, seat: int, how: str) -> None:
    """The unit in `seat` quits (its goodbye goes out as it switches off) or is killed."""
    units.stopped.add(seat)
    if how == "quit":
        units.machines[seat].link.shutdown(wait=lambda: units.run(1))


def _link(m: Any) -> dict[str, Any]:
    return dict(m.dump()["link"])


def _finish(units: MatchUnits) -> None:
    """Play on to the end: every unit still there agrees and records the result."""
    units.run(END, until=lambda: all(m.store.list_records("sevens") for m in units.running()))
    assert all(m.link.session.agreed for m in units.running())


def _check_end(units: MatchUnits, seat: int) -> None:
    """Identical digests, every guest's check of the sealed deal passed (its rules are the
    whole game now), and the records name the unit and then the computer in `seat`."""
    sessions = [m.link.session for m in units.running()]
    assert len({s.match.rules.digest() for s in sessions}) == 1
    for s in sessions[1:]:
        assert not s.cheated and s._unsealed()
    name = units.names[seat]
    for m in units.running():
        record = m.store.list_records("sevens")[0].record
        parts = record["seat_parts"][str(seat)]
        assert parts[0] == [name, 0] and parts[-1][0] == "computer"
        assert f"{name}'s seat: {name} from move 1, the computer from move" in record["summary"]


@pytest.mark.parametrize(
    ("names", "seat", "how", "point"),
    [
        (FOUR[:3], 2, "killed", "before-the-first-play"),
        (FOUR[:3], 2, "quit", "mid-trick"),
        (FOUR, 3, "killed", "during-a-kill"),
        (FOUR, 1, "quit", "at-the-last-card"),
    ],
    ids=["3-units-killed-before-the-first-play", "3-units-quit-mid-trick",
         "4-units-killed-during-a-kill", "4-units-quit-at-the-last-card"],
)
def test_the_computer_takes_a_gone_guests_seat_and_the_match_ends_alike(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
    names: tuple[str, ...], seat: int, how: str, point: str,
) -> None:
    units = MatchUnits(tmp_path, names, grace=GRACE)
    at = POINTS.get(point) or _last_card(seat)
    units.start(lambda: at(units))
    caplog.set_level(logging.INFO, logger="twinfold.link")
    caplog.clear()
    _leave(units, seat, how)
    why = "quit" if how == "quit" else "lost"
    gone = [{"seat": seat, "name": names[seat], "why": why}]
    if how == "killed":  # noticed within the lost time; then the waiting screen counts down
        units.run(LOST_TICKS + 60, until=lambda: all(
            m.scene.name == "waiting" for m in units.running()))
        assert units.host.scene.dump()["time_left"] <= GRACE
        assert all(_link(m)["gone"] == gone for m in units.running())
    took = units.run(GRACE + LOST_TICKS + 120, until=lambda: all(
        _link(m)["computer"] == [seat] and m.scene.name == "sevens" for m in units.running()))
    assert all(_link(m)["computer"] == [seat] for m in units.running())
    if how == "quit":
        assert took < LOST_TICKS  # a goodbye is not waited for
    for m in units.running():
        assert _link(m)["gone"] == gone  # exactly the unit that is gone, on every unit
        assert _link(m)["announced"] == {"kind": "takeover", "seat": seat}
        assert announced(m).endswith(f"The computer plays for {names[seat]} now.")
    taken = [r.getMessage() for r in caplog.records if "the computer plays" in r.getMessage()]
    assert len(taken) == len(names) - 1  # logged once on each unit still there
    _finish(units)
    _check_end(units, seat)


def test_a_guest_that_comes_back_takes_its_seat_back(tmp_path: Path) -> None:
    """Cy falls silent; the host plays on without waiting ("Play on without Cy"); Cy's
    radio is heard again: it is offered its seat, takes it at the next turn boundary with
    the state resynced, every unit is told, and all three finish alike; the records say
    Cy, then the computer, then Cy again played seat 2."""
    units = MatchUnits(tmp_path, grace=60 * 600)  # only "Play on" ends this wait
    units.start(6)
    host, ken, cy = units.machines
    units.stopped.add(2)
    units.run(LOST_TICKS + 120, until=lambda: host.scene.name == "waiting")
    assert [item.key for item in host.scene.items] == ["play_on", "abandon"]
    host.scene.play_on()
    units.run(120, until=lambda: all(_link(m)["computer"] == [2] for m in (host, ken)))
    assert all(_link(m)["computer"] == [2] for m in (host, ken))
    units.run(200)  # the computer plays on for Cy meanwhile
    units.stopped.discard(2)
    units.run(60 * 20, until=lambda: cy.scene.name == "offer")
    assert cy.scene.name == "offer" and _link(cy)["offered"]
    cy.scene.take()
    units.run(60 * 20, until=lambda: all(_link(m)["computer"] == [] for m in units.machines))
    for m in (host, ken):
        assert _link(m)["announced"] == {"kind": "back", "seat": 2}
        assert announced(m) == "Cy is back and plays again."
        assert _link(m)["gone"] == []
    parts = _link(host)["parts"]["2"]
    assert [who for who, _ in parts] == ["Cy", "computer", "Cy"]
    assert all(_link(m)["parts"] == {"2": parts} for m in units.machines)
    _finish(units)
    assert len({m.link.session.match.rules.digest() for m in units.machines}) == 1
    assert all(not m.link.session.cheated for m in (ken, cy))
    for m in units.machines:
        assert m.store.list_records("sevens")[0].record["seat_parts"] == {"2": parts}


def test_the_host_killed_every_guest_leaves_saying_the_host_left(tmp_path: Path) -> None:
    """Hana's unit stops dead: Ken (Japanese) and Cy wait for her, with the time left shown,
    and then leave the match saying the host is gone, within a bounded time; the unfinished
    match is counted as played, with no winner."""
    units = MatchUnits(tmp_path, languages=("en", "ja", "en"), grace=GRACE)
    units.start(5)
    _, ken, cy = units.machines
    units.stopped.add(0)
    units.run(LOST_TICKS + 60, until=lambda: ken.scene.name == cy.scene.name == "waiting")
    assert 0 < cy.scene.dump()["time_left"] <= 2 * GRACE
    assert cy.scene.time_left_text().startswith("The match ends in ")
    took = units.run(LOST_TICKS + 2 * GRACE + 60,
                     until=lambda: ken.scene.name == cy.scene.name == "notice")
    assert ken.scene.name == cy.scene.name == "notice"
    assert took <= LOST_TICKS + 2 * GRACE + 60
    assert cy.scene.message == (
        "The link to Hana (the host) is lost. The match cannot go on without the host."
    )
    assert ken.scene.message == (
        "ホストの Hanaとの つうしんが とぎれました。ホストが いないと つづけられません。"
    )
    for m in (ken, cy):
        assert _link(m)["gone"] == [{"seat": 0, "name": "Hana", "why": "lost"}]
        assert m.link.session is None and m.game_scene() is None
        stats = m.store.get_stats("sevens")
        assert stats["played"] == 1 and not stats.get("wins") and not stats.get("losses")


def test_a_guest_that_restarted_joins_again_and_takes_its_seat_back(tmp_path: Path) -> None:
    """Cy's unit restarts mid-game (no goodbye: a crash, a reset) on its store: the host's
    computer takes its seat at once; Cy joins again from the lobby, is offered its seat,
    takes it back at a turn boundary from its view of the game now, and the three finish
    alike, Cy's check of the sealed deal passing (its new random played no part)."""
    units = MatchUnits(tmp_path, grace=GRACE)
    units.start(6)
    host, ken, _ = units.machines
    units.machines[2].store.close()
    tapper = Tapper(9)
    cy = scripted_machine(tmp_path / "Cy", tapper, link=units.medium.attach(), link_name="Cy")
    cy.to_launcher()
    tapper.machine = cy
    units.machines[2] = cy
    units.run(60 * 10, until=lambda: all(_link(m)["computer"] == [2] for m in (host, ken)))
    assert _link(host)["gone"] == [{"seat": 2, "name": "Cy", "why": "restarted"}]
    start_versus(cy, "join", "sevens", {})
    cy.scene.auto_join = True
    units.run(60 * 60, until=lambda: cy.scene.name == "offer")
    assert cy.scene.name == "offer" and cy.link.session.rejoined
    cy.scene.take()
    units.run(60 * 20, until=lambda: all(_link(m)["computer"] == [] for m in units.machines))
    assert all(_link(m)["computer"] == [] for m in units.machines)
    assert announced(ken) == "Cy is back and plays again."
    _finish(units)
    assert len({m.link.session.match.rules.digest() for m in units.machines}) == 1
    assert not cy.link.session.cheated and cy.link.session._unsealed()
    parts = host.store.list_records("sevens")[0].record["seat_parts"]["2"]
    assert [who for who, _ in parts] == ["Cy", "computer", "Cy"]
