"""Sessions of more than two units: a host and two guests agree on options and a shared seed
(commit-reveal) and play a toy three-seat game in lockstep to one agreed result."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Self

import pytest

from firmware.link.session import Session, State
from firmware.link.testbed import Air, prepaired
from firmware.match import ActionError, LocalSeat, Match, MatchResult, canonical_digest
from hal.link.air import Impairments


class Tally:
    """Seats take turns adding 1-3 to a total; the seat reaching 21 or more wins."""

    game_id = "tally"
    seats = 3

    def __init__(self, total: int = 0, turn: int = 0, seed: int = 0, seats: int = 3) -> None:
        self.total, self.turn, self.seed, self.seats = total, turn, seed, seats

    def to_move(self) -> int | None:
        return None if self.total >= 21 else self.turn

    def legal_actions(self) -> Sequence[int]:
        return [1, 2, 3]

    def check(self, seat: int, action: int) -> str | None:
        if seat != self.to_move():
            return "not this seat's turn"
        return None if action in (1, 2, 3) else "add 1, 2 or 3"

    def apply(self, seat: int, action: int) -> list[dict[str, Any]]:
        if self.check(seat, action) is not None:
            raise ActionError("illegal")
        self.total += action
        if self.total < 21:
            self.turn = (self.turn + 1) % self.seats
        return [{"type": "add", "seat": seat, "n": action}]

    def result(self) -> MatchResult | None:
        return MatchResult(self.turn, "21") if self.total >= 21 else None

    def digest(self) -> str:
        return canonical_digest(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "turn": self.turn, "seed": self.seed, "seats": self.seats}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        return cls(int(data["total"]), int(data["turn"]), int(data["seed"]), int(data["seats"]))

    def encode(self, action: int) -> bytes:
        return bytes([action])

    def decode(self, data: bytes) -> int:
        if len(data) != 1:
            raise ActionError("one byte")
        return data[0]


@pytest.mark.parametrize("units", [3, 4])
def test_a_host_and_its_guests_play_in_lockstep(units: int) -> None:
    air = Air(Impairments(baud=9600, loss=0.1, delay_ms=20, jitter_ms=10, seed=8))
    radios = prepaired(air, *("Host", "G1", "G2", "G3")[:units])
    sessions = [Session(r) for r in radios]
    host = sessions[0]
    host.host_game("tally", {"target": "21"}, seats=units)
    for s in sessions[1:]:
        s.look("tally")

    def tick_all() -> None:
        for s in sessions:
            s.tick()

    air.run(300, until=lambda: (tick_all(), all(s.hosts() for s in sessions[1:]))[1])
    for s in sessions[1:]:
        assert s.join(radios[0].id)
    air.run(1200, until=lambda: (tick_all(), all(s.ready for s in sessions))[1])
    assert all(s.ready for s in sessions), [(s.state.value, s.seat, s.note) for s in sessions]
    assert len({s.seed for s in sessions}) == 1  # one shared seed, everyone contributed
    assert sorted(s.seat or 0 for s in sessions) == list(range(units))
    assert all(s.options == {"target": "21"} for s in sessions)  # the host's options
    assert radios[0].beacon is None  # full: no longer announcing
    matches = []
    for s in sessions:
        m: Match[int] = Match(Tally(seed=s.seed or 0, seats=units), s.make_seats())
        s.attach(m)
        matches.append(m)
    plays = {0: 3, 1: 2, 2: 1, 3: 2}  # each seat's player always adds the same
    for _ in range(60 * 120):
        air.run(1)
        tick_all()
        for s, m in zip(sessions, matches, strict=True):
            if m.to_move == s.seat:
                seat = m.seats[s.seat]
                assert isinstance(seat, LocalSeat)
                seat.offer(plays[s.seat])
            m.step()
        if all(s.agreed for s in sessions):
            break
    assert all(m.over for m in matches)
    assert len({m.rules.digest() for m in matches}) == 1
    assert all(s.agreed and s.state is State.OVER for s in sessions)
    assert [p.seat for p in matches[1].history] == [p.seat for p in matches[0].history]
    assert all(s.radio.counters.rejected["illegal"] == 0 for s in sessions)
    assert all(s.divergences == 0 for s in sessions)


def test_malformed_session_messages_from_a_paired_unit_are_refused_not_raised() -> None:
    air = Air(Impairments(baud=0))
    host_radio, guest_radio = prepaired(air, "Host", "Guest")
    guest = Session(guest_radio)
    guest.look("tally")
    guest.host = host_radio.id
    guest.state = State.JOINING
    for bad in (
        b"W",
        b"W\x01\x02" + bytes(16) + b"[1, 2]",
        b"W\x01\x02" + bytes(16) + b"{",
        b"A\x00",
        b"S\x05",
        b"G",
        b"\xff\xfe",
    ):
        guest._on_message_safe(host_radio.id, bad)
    assert guest_radio.counters.rejected["illegal"] >= 5
    assert guest.state in (State.JOINING, State.LOOKING)


class Units:
    """Sessions on one simulated air: the first unit hosts "tally" for `seats`, the others
    look for it."""

    def __init__(self, seed: int, *names: str, seats: int, sealed: bool = False) -> None:
        self.air = Air(Impairments(baud=9600, loss=0.05, delay_ms=20, seed=seed))
        self.radios = prepaired(self.air, *names)
        self.sessions = [Session(r) for r in self.radios]
        self.sessions[0].host_game("tally", {}, seats=seats, sealed=sealed)
        for s in self.sessions[1:]:
            s.look("tally")

    def run(self, ticks: int, until: Callable[[], bool]) -> None:
        def step() -> bool:
            for s in self.sessions:
                s.tick()
            return until()

        self.air.run(ticks, until=step)

    def join(self, *guests: Session) -> None:
        """The guests see the host's beacon and join; each gets its seat."""
        self.run(300, until=lambda: all(g.hosts() for g in guests))
        for g in guests:
            assert g.join(self.radios[0].id)
        self.run(600, until=lambda: all(g.seat is not None for g in guests))
        assert all(g.seat is not None for g in guests)


@pytest.mark.parametrize("sealed", [False, True])
def test_the_host_starts_with_who_is_here_and_late_units_cannot_join(sealed: bool) -> None:
    units = Units(6, "Host", "G1", "G2", "Late", seats=4, sealed=sealed)
    host, g1, g2, late = units.sessions
    assert not host.can_start_now()  # nobody has joined yet
    units.join(g1, g2)
    units.run(600, until=lambda: len(host.guests) == 2)
    assert host.can_start_now() and host.start_now()
    assert not host.can_start_now() and units.radios[0].beacon is None  # closed to newcomers
    units.run(900, until=lambda: all(s.seed is not None for s in (host, g1, g2)))
    assert [s.seats for s in (host, g1, g2)] == [3, 3, 3]  # every unit knows the final count
    assert host.seed == g1.seed == g2.seed
    assert sorted(s.seat or 0 for s in (host, g1, g2)) == [0, 1, 2]
    assert (host.deal_seed is not None) == sealed and g1.deal_seed is None
    late.host = units.radios[0].id  # a unit that saw the beacon earlier asks anyway
    late.state = State.JOINING
    late.radio.connect(units.radios[0].id)
    late._send_join()
    units.run(120, until=lambda: late.state is not State.JOINING)
    # turned away, and told why: it looks for hosts again
    assert late.state is State.LOOKING and late.failure == "started"
    assert len(host.guests) == 2


def test_a_guest_that_vanishes_before_the_start_frees_its_seat() -> None:
    units = Units(7, "Host", "G1", "G2", "G3", seats=4)
    host, g1, g2, g3 = units.sessions
    units.join(g1, g2)
    assert {g1.seat, g2.seat} == {1, 2}
    left, stays = (g1, g2) if g1.seat == 1 else (g2, g1)
    units.air.radios.remove(left.radio)  # switched off (or out of range) before the start
    units.run(600, until=lambda: len(host.guests) == 1)
    assert len(host.guests) == 1 and host.state is State.HOSTING
    units.run(120, until=lambda: stays.seat == 1)
    assert stays.seat == 1  # welcomed again, in the freed seat
    assert units.radios[0].beacon is not None  # announcing again
    units.join(g3)
    assert g3.seat == 2
    assert host.start_now()
    units.run(900, until=lambda: all(s.seed for s in (host, stays, g3)))
    assert host.seed == stays.seed == g3.seed and [host.seats, stays.seats, g3.seats] == [3] * 3


def test_a_host_that_vanishes_after_the_welcome_sends_the_guest_looking_again() -> None:
    units = Units(8, "Host", "G1", seats=3)  # waits for a second guest: no start yet
    _host, guest = units.sessions
    units.join(guest)
    assert guest.seat == 1 and guest.state is State.JOINING
    units.air.radios.remove(units.radios[0])
    units.run(600, until=lambda: guest.state is State.LOOKING)
    assert guest.state is State.LOOKING and guest.note == "the host went away"
    assert guest.host is None and guest.seat is None


def test_a_guest_lost_while_the_randoms_are_revealed_ends_the_session() -> None:
    units = Units(9, "Host", "G1", "G2", seats=3)
    host, g1, g2 = units.sessions
    units.run(300, until=lambda: bool(g1.hosts() and g2.hosts()))
    assert g1.join(units.radios[0].id) and g2.join(units.radios[0].id)
    units.run(600, until=lambda: host._host_reveal_sent)
    units.air.radios.remove(units.radios[2])  # G2 goes as the host asks for the randoms
    units.run(600, until=lambda: host.state is State.ABANDONED)
    assert host.seed is None and g1.seed is None
    assert host.state is State.ABANDONED and host.note == "a player left before the start"
    units.run(120, until=lambda: g1.state is State.ABANDONED)
    assert g1.state is State.ABANDONED
