"""Link versions (issue 24, item 3) and joins that fail (item 4): units with another link
protocol or rules version are told apart and never start a match; every failed join or
pairing says why (on the session, in the log, on screen)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware.link import packet
from firmware.link.packet import LINK_PROTOCOL, Beacon
from firmware.link.pairing import Step
from firmware.link.radio import PAIR_ANSWER_TICKS, MemoryKeyring, Radio
from firmware.link.session import FAILURES, JOIN_TIMEOUT, Session, State
from firmware.link.testbed import Air, prepaired
from hal.link.air import Impairments


class Units:
    """Paired sessions on one simulated air: the first hosts `game` at `host_rules`, the
    others look for `look_game` at their `rules` version."""

    def __init__(
        self,
        *names: str,
        host_rules: int = 1,
        rules: int = 1,
        game: str = "tally",
        look_game: str = "tally",
        seats: int = 2,
        seed: int = 5,
    ) -> None:
        self.air = Air(Impairments(baud=9600, loss=0.05, delay_ms=20, seed=seed))
        self.radios = prepaired(self.air, *names)
        self.sessions = [Session(r) for r in self.radios]
        self.sessions[0].host_game(game, {}, seats=seats, rules_version=host_rules)
        for s in self.sessions[1:]:
            s.look(look_game, rules)

    def run(self, ticks: int, until: Callable[[], bool]) -> None:
        def step() -> bool:
            for s in self.sessions:
                s.tick()
            return until()

        self.air.run(ticks, until=step)

    def see_host(self, guest: Session) -> Beacon:
        self.run(300, until=lambda: bool(guest.radio.nearby))
        return guest.radio.nearby[self.radios[0].id][0]


@given(
    src=st.binary(min_size=4, max_size=4),
    hosting=st.booleans(),
    game=st.text(max_size=8),
    name=st.text(max_size=10),
    seats=st.integers(0, 7),
    protocol=st.integers(0, 255),
    rules=st.integers(0, 255),
)
def test_a_beacon_carries_both_versions(
    src: bytes, hosting: bool, game: str, name: str, seats: int, protocol: int, rules: int
) -> None:
    sent = Beacon(src, hosting, game[:4], name[:6], seats, protocol, rules)
    got = Beacon.decode(sent.encode())
    assert (got.protocol, got.rules, got.seats_free, got.hosting) == (
        protocol,
        rules,
        seats,
        hosting,
    )
    assert got.src == src and got.game == game[:4]


def test_a_beacon_of_the_first_firmware_reads_as_protocol_one() -> None:
    # the first firmware's beacon: no version bytes after the name
    old = packet.HEAD.pack(packet.BEACON, b"abcd") + bytes([1 | 2, 7]) + b"reversi" + b"\x03Ann"
    got = Beacon.decode(old)
    assert got.game == "reversi" and got.name == "Ann"
    assert (got.protocol, got.rules) == (1, 0) and LINK_PROTOCOL != 1


@pytest.mark.parametrize(
    ("host_rules", "rules", "host_protocol"), [(2, 1, LINK_PROTOCOL), (1, 1, LINK_PROTOCOL - 1)]
)
def test_units_with_another_version_are_shown_so_and_never_start(
    host_rules: int, rules: int, host_protocol: int
) -> None:
    units = Units("Host", "Guest", host_rules=host_rules, rules=rules)
    host, guest = units.sessions
    beacon = units.radios[0].beacon
    assert beacon is not None
    units.radios[0].beacon = Beacon(
        beacon.src, True, beacon.game, beacon.name, 1, host_protocol, host_rules
    )
    seen = units.see_host(guest)
    assert guest.hosts() == [seen]  # listed (the lobby shows it "needs the same version")
    assert guest.mismatch(seen) == "version"
    assert not guest.join(units.radios[0].id)  # refused here: nothing is sent
    assert guest.failure == "version" and guest.state is State.LOOKING
    units.run(300, until=lambda: False)
    assert guest.seed is None and host.seed is None and host.guests == []
    if host_protocol != LINK_PROTOCOL:
        return  # (the host here only pretends to be older: its beacon says so)
    # a guest that asks anyway (it missed the beacon) is refused by the host, with the reason
    guest.host, guest.state = units.radios[0].id, State.JOINING
    units.radios[1].connect(units.radios[0].id)
    guest._send_join()
    units.run(600, until=lambda: guest.state is not State.JOINING)
    assert guest.state is State.LOOKING and guest.failure == "version"
    assert host.guests == [] and guest.seed is None and host.seed is None


def test_a_welcome_with_another_version_is_left() -> None:
    units = Units("Host", "Guest")
    host, guest = units.sessions
    units.see_host(guest)
    assert guest.join(units.radios[0].id)
    host.rules_version = 3  # the host's firmware changed under it: its welcome says so
    guest.rules_version = 3  # ... and the guest's join matched it, but not its own check
    units.run(20, until=lambda: bool(host.guests))
    guest.rules_version = 1
    units.run(900, until=lambda: guest.state is not State.JOINING)
    assert guest.state is State.LOOKING and guest.failure == "version"
    assert guest.seed is None and host.seed is None


def test_a_full_host_and_another_game_say_why() -> None:
    units = Units("Host", "First", "Second", seats=2)
    host, first, second = units.sessions
    units.see_host(first)
    assert first.join(units.radios[0].id)
    units.run(900, until=lambda: first.seat is not None)
    second.host, second.state = units.radios[0].id, State.JOINING
    units.radios[2].connect(units.radios[0].id)
    second._send_join()
    units.run(600, until=lambda: second.state is not State.JOINING)
    assert second.state is State.LOOKING and second.failure in ("full", "started")
    assert len(host.guests) == 1

    other = Units("Host", "Guest", game="other")
    _, guest = other.sessions
    guest.host, guest.state = other.radios[0].id, State.JOINING
    other.radios[1].connect(other.radios[0].id)
    guest._send_join()
    other.run(600, until=lambda: guest.state is not State.JOINING)
    assert guest.state is State.LOOKING and guest.failure == "other_game"


def test_a_host_that_never_answers_is_named_after_the_timeout(
    caplog: pytest.LogCaptureFixture,
) -> None:
    units = Units("Host", "Guest")
    _, guest = units.sessions
    units.see_host(guest)
    units.air.radios.remove(units.radios[0])  # switched off right after its beacon
    caplog.set_level(logging.INFO, logger="twinfold")
    assert guest.join(units.radios[0].id)
    units.run(JOIN_TIMEOUT + 900, until=lambda: guest.state is not State.JOINING)
    assert guest.state is State.LOOKING and guest.failure in ("no_answer", "host_left")
    assert FAILURES[guest.failure] in caplog.text


def test_a_host_restarted_since_the_last_talk_is_joined_anew(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 24, item 4: the joining unit's channel to a restarted host started afresh and
    the join went back to the menu without a word. Now it asks again and gets in."""
    caplog.set_level(logging.INFO, logger="twinfold")
    air = Air(Impairments(baud=9600, loss=0.05, delay_ms=20, seed=12))
    host_radio, guest_radio = prepaired(air, "Ann", "Bob")
    first_host, guest = Session(host_radio), Session(guest_radio)
    first_host.host_game("tally", {})
    guest.look("tally")

    def run(ticks: int, until: Callable[[], bool], *sessions: Session) -> None:
        air.run(ticks, until=lambda: ([s.tick() for s in sessions], until())[1])

    run(300, lambda: bool(guest.hosts()), first_host, guest)
    assert guest.join(host_radio.id)
    run(900, lambda: guest.seed is not None, first_host, guest)
    assert guest.seed is not None
    # Ann is killed; Bob abandons (his goodbye stays queued on the old channel, unanswered)
    # and Ann restarts on her store: a new radio (a new epoch) with the same id
    air.radios.remove(host_radio)
    guest.abandon()
    guest.close()
    air.run(60)
    assert host_radio.id in guest_radio.peers  # the old channel still lingers
    keyring = host_radio.keyring
    assert isinstance(keyring, MemoryKeyring)
    restarted = Radio(air.medium.attach(), keyring, "Ann")
    air.radios.append(restarted)
    host = Session(restarted)
    host.host_game("tally", {})
    guest = Session(guest_radio)
    guest.look("tally")
    run(300, lambda: bool(guest.hosts()), host, guest)
    assert guest.join(restarted.id)
    run(1200, lambda: guest.seed is not None or guest.state is not State.JOINING, host, guest)
    assert guest.seed is not None and guest.seed == host.seed, (guest.state, guest.failure)
    assert "joining again" in caplog.text  # it was the restarted channel


def test_a_pairing_request_nobody_answers_fails_with_a_reason() -> None:
    air = Air(Impairments(baud=9600, delay_ms=20))
    host, guest = air.radio("Host"), air.radio("Guest")
    host.beacon = Beacon(host.id, True, "tally", "Host", 1)  # announcing, not accepting
    air.run(120, until=lambda: host.id in guest.nearby)
    pairing = guest.start_pairing(host.id)
    air.run(PAIR_ANSWER_TICKS + 120, until=lambda: pairing.done)
    assert pairing.step is Step.FAILED and "no answer" in pairing.reason
    assert host.counters.rejected["unpaired"] >= 1


def test_two_units_with_one_id_say_so() -> None:
    air = Air(Impairments(baud=9600, delay_ms=20))
    shared = b"\x01\x02\x03\x04"
    ann = air.radio("Ann", MemoryKeyring(shared))
    bob = air.radio("Bob", MemoryKeyring(shared))
    ann.beacon = Beacon(ann.id, True, "reversi", "Ann", 1)
    air.run(200, until=lambda: bob.id_clash is not None)
    assert bob.id_clash == "Ann" and not bob.nearby


# ------------------------------------------------------------------- on the screen


@pytest.fixture
def _pygame() -> None:
    pygame.init()


@pytest.mark.usefixtures("_pygame")
def test_the_lobby_shows_another_version_and_a_failed_session_says_why(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from firmware.gfx import palette as pal
    from firmware.scenes.versus import LobbyScene, start_versus
    from games.reversi.robot import MachinePair

    pair = MachinePair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=2))
    host, guest = pair.machines
    start_versus(host, "host", "reversi", {})
    host.link.session.rules_version = 9  # a host with other Reversi rules
    host.link.session._announce(1)
    start_versus(guest, "join", "reversi", {})
    pair.run(600, until=lambda: bool(guest.dump()["game"]["units"]))
    units = guest.dump()["game"]["units"]
    assert units and units[0]["compatible"] is False
    guest.render()
    lobby = guest.scene
    assert isinstance(lobby, LobbyScene)
    spot = lobby.hotspots()[f"unit:{units[0]['id']}"]
    lobby.choose(bytes.fromhex(units[0]["id"]))
    assert guest.link.radio.pairing is None  # no pairing with a unit it cannot play with
    assert guest.dump()["game"]["failure"] == "version"
    guest.render()
    # the row reads "needs the same version" in red
    row = guest.bottom.subsurface(spot)
    reds = sum(
        1
        for x in range(row.get_width())
        for y in range(row.get_height())
        if row.get_at((x, y))[:3] == pal.DANGER[:3]
    )
    assert reds > 20
    # a session that ends in the lobby returns to the menu with the reason on screen
    host.link.session.state = State.ABANDONED
    host.link.session._fail("guest_left")
    pair.run(2)
    assert host.scene.name == "notice"
    assert "left before the start" in host.scene.dump()["message"]


@pytest.mark.usefixtures("_pygame")
def test_a_unit_hearing_its_own_id_says_so_in_the_lobby(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from firmware.scenes.versus import start_versus
    from games.reversi.robot import MachinePair

    pair = MachinePair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=3))
    host, guest = pair.machines
    guest.link.radio.id = host.link.radio.id  # as if one store had been copied to both
    start_versus(host, "host", "reversi", {})
    start_versus(guest, "join", "reversi", {})
    pair.run(600, until=lambda: guest.link.radio.id_clash is not None)
    assert guest.dump()["game"]["id_clash"] == "Hana"
    assert guest.dump()["game"]["units"] == []  # it cannot see (or pair with) that unit
    guest.render()  # the lobby's upper screen says it (drawn without error)
