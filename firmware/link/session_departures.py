"""Units leaving a running match, for both roles (firmware/link/session.py says how a
session works): goodbyes and their causes, lost links, who is gone, and the game's computer
taking a gone unit's seat (three or four units) or the partner's (two units, finishing alone).
The host's side of it (offering a seat back, handing it over) is in session_host.py, the
guest's (the host's word on seats) in session_guest.py.
"""

from __future__ import annotations

import logging

from firmware.link.session_codec import DEPARTURE_CODES, DEPARTURES, State
from firmware.link.session_core import SessionCore

log = logging.getLogger("twinfold.link")


class Departures(SessionCore):
    """Who is gone from the match and what becomes of their seats."""

    def abandon(self, cause: str = "left") -> None:
        """Leave the session; in a running match the others are told why (`cause`, a value
        of DEPARTURES) and whose seat is gone."""
        running = self.state in (State.PLAYING, State.WAITING, State.OVER, State.STRANDED)
        goodbye = b"B"
        if running and self.seat is not None:
            goodbye += bytes([DEPARTURE_CODES[cause], self.seat])
            log.info("versus: leaving the match (%s)", cause)
        partners = [g.peer for g in self._listening()] if self.role == "host" else self.partners
        for p in partners:
            if p:
                self.radio.send(p, goodbye)
        self.state = State.ABANDONED
        self.radio.beacon = None
        self.radio.accept_pairing = False

    def name_of(self, seat: int) -> str:
        """The radio name of the unit in `seat` (as the host handed them round)."""
        if 0 <= seat < len(self.names):
            return self.names[seat]
        paired = self.radio.paired()
        peer = self.host if seat == 0 else next(
            (g.peer for g in self.guests if g.seat == seat), None
        )
        return paired[peer].name if peer in paired else f"Player {seat + 1}"

    def lost_seats(self) -> list[int]:
        """The seats of the units this match hears nothing from now: a host's silent guests;
        a guest's host, or else the guests the host reports lost (`L`)."""
        if self.alone:
            return []
        if self.role == "host":
            return sorted(
                g.seat
                for g in self.guests
                if self._lost(g.peer) and g.seat not in self.standins | self.departed.keys()
            )
        if self.host is not None and self._lost(self.host):
            return [0]
        return list(self._reported_lost)

    def gone(self) -> list[tuple[int, str, str]]:
        """Every unit gone from the match, as (seat, name, why): those that left (the
        goodbye's cause) and those lost now."""
        out = dict(self.departed)
        for seat in self.standins:
            if not self.alone or seat in out:
                out.setdefault(seat, "lost")
        if self.state in (State.PLAYING, State.WAITING, State.STRANDED):
            for seat in self.lost_seats():
                out.setdefault(seat, "lost")
        return [(seat, self.name_of(seat), why) for seat, why in sorted(out.items())]

    def _depart(self, seat: int, why: str) -> None:
        """The unit in `seat` left the match (`why`: quit, left, restarted): remember and log
        it; a host tells the other guests (and, with three or four units, its computer takes
        the seat: `_keep_seats`)."""
        if seat in self.departed or seat == self.seat:
            return
        self.departed[seat] = why
        log.info("versus: %s (seat %d) is gone: %s", self.name_of(seat), seat, why)
        if self.role == "host":
            for g in self._listening():
                if g.seat != seat:
                    self.radio.send(g.peer, b"B" + bytes([DEPARTURE_CODES[why], seat]))

    def _watch_lost(self) -> None:
        """Log each unit whose link is lost or back; a host tells the guests still there."""
        lost = self.lost_seats()
        if lost == self._lost_seen:
            return
        for seat in lost:
            if seat not in self._lost_seen:
                log.info("versus: %s (seat %d) is gone: lost", self.name_of(seat), seat)
        for seat in self._lost_seen:
            if seat not in lost and seat not in self.standins:
                log.info("versus: the link to %s (seat %d) is back", self.name_of(seat), seat)
        self._lost_seen = lost
        if self.role == "host":
            for g in self._listening():
                if g.seat not in lost:
                    self.radio.send(g.peer, b"L" + bytes(lost))

    def _restarted(self, peer: bytes) -> None:
        """A partner's channel started afresh mid-match: it restarted (a unit that left
        said goodbye first). With three or four units the host's computer takes a guest's
        seat; else the match cannot go on without the partner's state (or, two units, the
        one left may finish alone)."""
        if self.role == "host":
            guest = next((g for g in self.guests if g.peer == peer), None)
            if guest is not None:
                self._depart(guest.seat, "restarted")
                if self.units > 2:
                    return
        else:
            self._depart(0, "restarted")
            self._partner_gone("host_gone")
            return
        self._partner_gone("partner_restarted")

    def _partner_gone(self, failure: str) -> None:
        """The partner of two units (or a guest's host) is gone for good: finish alone if
        this unit can (`can_finish_alone`), else the match is over for this unit."""
        if self.can_finish_alone():
            if self.state is not State.STRANDED:
                log.info("versus: the partner is gone for good; finish alone or leave")
            self.state = State.STRANDED
            return
        self.state = State.ABANDONED
        self._fail(failure)

    def can_finish_alone(self) -> bool:
        """Two units, and this one can play the partner's seat: it has the game's computer
        and the whole state (a sealed guest sees only its own hand)."""
        return (
            self.units == 2
            and self.computer is not None
            and self.match is not None
            and not self.match.over
            and not (self.sealed and self.role == "guest")
        )

    def finish_alone(self) -> bool:
        """Two units, the partner gone for good: the computer takes the partner's seat and
        this unit plays the match to its end alone (the record says so)."""
        if self.state is not State.STRANDED or not self.can_finish_alone():
            return False
        assert self.match is not None and self.computer is not None
        partner = self.guests[0].seat if self.role == "host" else 0
        # a partner that was only lost and comes back must not wait for this unit for ever
        peers = [g.peer for g in self.guests] if self.role == "host" else [self.host]
        for peer in peers:
            if peer and self.seat is not None:
                self.radio.send(peer, b"B" + bytes([DEPARTURE_CODES["left"], self.seat]))
        self._stand_in(partner)
        self.alone = True
        self.state = State.PLAYING
        log.info("versus: %s: finishing alone, the computer plays the partner's seat", self.game)
        return True

    def _stand_in(self, seat: int) -> int:
        """The computer plays `seat` from the next action on; returns that action's number."""
        assert self.match is not None and self.computer is not None
        index = len(self.match.history)
        self.match.replace_seat(seat, self.computer(seat))
        self._remote.pop(seat, None)  # the unit's late actions for it are refused
        self.standins[seat] = index
        self.countdown.pop(seat, None)
        self._part(seat, "", index)
        log.info(
            "versus: the computer plays %s's seat (seat %d) from action %d",
            self.name_of(seat), seat, index,
        )
        return index

    def _part(self, seat: int, who: str, index: int) -> None:
        """`who` ("" the computer) plays `seat` from action `index` (for the record)."""
        parts = self.seat_parts.setdefault(seat, [(self.name_of(seat), 0)])
        if parts[-1][1] == index:
            parts.pop()
        parts.append((who, index))

    def time_left(self) -> int | None:
        """Ticks until the first wait for a gone unit ends (its seat taken, or, a guest
        waiting for its host, the match over), or None when nothing is waited for."""
        if not self.countdown:
            return None
        return max(0, min(self.countdown.values()) - self.radio.tick_no)

    def _goodbye(self, src: bytes, body: bytes) -> None:
        """A partner abandoned the session: who is gone and why. A goodbye without a cause
        (before the start, or protocol 3 firmware) is the sender's own leaving."""
        why = DEPARTURES.get(body[0], "left") if body else "left"
        if self.role == "host":
            guest = next((g for g in self.guests if g.peer == src), None)
            seat = guest.seat if guest is not None else None
        else:
            seat = body[1] if len(body) >= 2 and body[0] in DEPARTURES else 0
        running = self.state in (State.PLAYING, State.WAITING, State.OVER, State.STRANDED)
        if seat is not None and running:
            self._depart(seat, why)
        if running and seat != 0 and self.units > 2 and not self.match_over():
            return  # three or four units: the others play on (the host's computer takes it)
        if running and seat == 0 and self.role == "guest" and not self.match_over():
            self._partner_gone("host_gone")
            return
        if running and self.units == 2 and not self.match_over():
            self._partner_gone("partner_restarted" if why == "restarted" else "partner_left")
            return
        self.state = State.ABANDONED
        self._fail("partner_restarted" if why == "restarted" else "partner_left")

    def match_over(self) -> bool:
        return self.match is not None and self.match.over
