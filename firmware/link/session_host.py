"""The host's side of a versus session: announcing the game, taking joins, handing
round the commitments and randoms, dealing a sealed game's views, checking and forwarding
every guest's action (firmware/link/session.py says how a session works).
"""

from __future__ import annotations

import json
import logging
import zlib
from typing import Any

from firmware.link.packet import LINK_PROTOCOL, Beacon
from firmware.link.session_codec import (
    ACTION,
    DIGEST_BYTES,
    PART_BYTES,
    REFUSAL_CODES,
    SEAT,
    Guest,
    State,
    commit_of,
    seed_of,
)
from firmware.link.session_departures import Departures
from firmware.match import RemoteSeat, SealedRules

log = logging.getLogger("twinfold.link")


class HostSide(Departures):
    """The host's messages and duties (the match it drives is the core's)."""

    def host_game(
        self,
        game: str,
        options: dict[str, str],
        seats: int = 2,
        sealed: bool = False,
        rules_version: int = 1,
    ) -> None:
        self.role, self.game, self.options, self.seats = "host", game, dict(options), seats
        self.seat, self.state, self.sealed = 0, State.HOSTING, sealed
        self.rules_version = rules_version
        self._most_seats = seats
        self._announce(seats - 1)
        self.radio.accept_pairing = True

    def _announce(self, seats_free: int) -> None:
        self.radio.beacon = Beacon(
            self.radio.id,
            True,
            self.game,
            self.radio.name,
            seats_free,
            LINK_PROTOCOL,
            self.rules_version,
        )

    def can_start_now(self) -> bool:
        """The host may start with the guests it has (games for 2 to `seats` units)."""
        return (
            self.role == "host"
            and self.state is State.HOSTING
            and not self._closed
            and 0 < len(self.guests) < self.seats - 1
        )

    def start_now(self) -> bool:
        """Start with the units that joined: the session shrinks to them (the game fills
        the other seats itself, e.g. with computers); no more joins are taken."""
        if not self.can_start_now():
            return False
        self._closed = True
        self.seats = 1 + len(self.guests)
        self.radio.beacon = None
        self.radio.accept_pairing = False
        self._everyone_committed()
        return True

    def _drop_vanished_guests(self) -> None:
        """Before the start a guest whose link is lost is let go: its seat is free again and
        the others are welcomed anew with their seats renumbered (their randoms are still
        unrevealed). Once the randoms are being revealed a lost guest ends the session."""
        gone = [g for g in self.guests if self._lost(g.peer)]
        if not gone:
            return
        if self._host_reveal_sent:
            for g in self.guests:
                self.radio.send(g.peer, b"B")
            self.state = State.ABANDONED
            self._fail("guest_left")
            return
        for g in gone:
            self.guests.remove(g)
            self.radio.disconnect(g.peer)
            log.info("versus: a guest left before the start; its seat is free again")
        self._closed = False
        self.seats = max(self.seats, self._most_seats)
        self._announce(self.seats - 1 - len(self.guests))
        self.radio.accept_pairing = True
        for seat, g in enumerate(sorted(self.guests, key=lambda g: g.seat), 1):
            g.seat = seat
            self._welcome(g)

    def _welcome(self, guest: Guest, rejoin: bool = False) -> None:
        """Tell a guest its seat, the most seats, the flags (1 sealed, 2 joining a running
        match again), the host's commitment and the options (again after the seats were
        renumbered)."""
        opts = json.dumps(self.options, separators=(",", ":")).encode()
        flags = int(self.sealed) | (2 if rejoin else 0)
        head = bytes([guest.seat, self.seats, flags, LINK_PROTOCOL, self.rules_version])
        self.radio.send(guest.peer, b"W" + head + self._host_commit + opts)

    def _host_message(self, src: bytes, kind: bytes, body: bytes) -> None:
        guest = next((g for g in self.guests if g.peer == src), None)
        if kind == b"J":
            if guest is not None and self._may_rejoin(guest, body):
                self._rejoin(guest)
                return
            refusal = self._refusal(guest, body)
            if refusal is not None:
                log.info("versus: refused a join: %s", refusal)
                self.radio.send(src, b"B" + bytes([REFUSAL_CODES[refusal]]))
                return
            if guest is None:
                taken = {g.seat for g in self.guests}
                seat = next(n for n in range(1, self.seats + 1) if n not in taken)
                guest = Guest(src, seat)
                self.guests.append(guest)
            self._host_commit = commit_of(self._secret)
            self._welcome(guest)
            if len(self.guests) == self.seats - 1:
                self.radio.beacon = None
                self.radio.accept_pairing = False
            return
        if guest is None:
            self.radio.reject("illegal", "session traffic from a unit that did not join")
            return
        if kind == b"C":
            guest.commit = body[:16]
            self._everyone_committed()
        elif kind == b"V":
            if commit_of(body) != guest.commit:
                self.radio.reject("illegal", "a guest's random does not match its commitment")
                return
            guest.reveal = body
            if all(g.reveal for g in self.guests):
                reveals = [self._secret] + [
                    g.reveal for g in sorted(self.guests, key=lambda g: g.seat)
                ]
                self._send_names()
                if self.sealed:
                    self._reveals, self.deal_seed = reveals, seed_of(reveals)
                    self._start([b"public", *self._commits])
                    for g in self.guests:
                        self.radio.send(g.peer, b"G")
                else:
                    self._start(reveals)
                    for g in self.guests:
                        self.radio.send(g.peer, b"G" + b"".join(reveals))
        elif kind in (b"A", b"P"):
            if len(body) < ACTION.size or ACTION.unpack_from(body)[1] != guest.seat:
                self.radio.reject("illegal", "a guest sent an action for a seat not its own")
                return
            if (kind == b"P") != self.sealed:
                self.radio.reject("illegal", "a proposal outside a sealed session, or the reverse")
                return
            self._action(body, check=kind == b"A")
        elif kind == b"Q":
            self._send_state(src)
        elif kind == b"Y" and guest.seat in self.standins and guest.seat in self._offers:
            log.info("versus: %s takes its seat back at the next turn", self.name_of(guest.seat))
            self._handback.add(guest.seat)
        elif kind == b"E":
            self._final[src] = body[:DIGEST_BYTES]
            self._settle_result()

    def _refusal(self, guest: Guest | None, body: bytes) -> str | None:
        """Why the host cannot take a join ("J" body), as a key of REFUSAL_CODES, or None."""
        if len(body) < 2 or body[0] != LINK_PROTOCOL or body[1] != self.rules_version:
            return "version"
        if body[2:].decode(errors="replace") != self.game:
            return "other_game"
        if self.state is not State.HOSTING or self._closed:
            return "started"
        if guest is None and len(self.guests) >= self.seats - 1:
            return "full"
        return None

    def _send_names(self) -> None:
        paired = self.radio.paired()
        ordered = sorted(self.guests, key=lambda g: g.seat)
        self.names = [self.radio.name] + [
            paired[g.peer].name if g.peer in paired else f"Player {g.seat + 1}" for g in ordered
        ]
        msg = b"N" + json.dumps(self.names, ensure_ascii=False).encode()
        for g in self.guests:
            self.radio.send(g.peer, msg)

    def _everyone_committed(self) -> None:
        """Once every guest committed: reveal the host's random (or, sealed, hand round
        every commitment; the randoms go to the host alone)."""
        if not (len(self.guests) == self.seats - 1 and all(g.commit for g in self.guests)):
            return
        self._host_reveal_sent = True
        if self.sealed:
            ordered = sorted(self.guests, key=lambda g: g.seat)
            self._commits = [self._host_commit] + [g.commit for g in ordered]
            for g in self.guests:
                self.radio.send(g.peer, b"R" + b"".join(self._commits))
        else:
            for g in self.guests:
                self.radio.send(g.peer, b"R" + self._secret)

    def _send_state(self, peer: bytes, force: bool = False) -> None:
        if self.match is None:
            return
        if self._state_sent.get(peer) == len(self.match.history) and not force:
            return  # that state is on its way already (the channel is reliable)
        self._state_sent[peer] = len(self.match.history)
        saved = self.match.save()
        rules_json = saved["rules"]
        if self.sealed:  # the guest's own view only: never another seat's hand
            guest = next(g for g in self.guests if g.peer == peer)
            assert isinstance(self.match.rules, SealedRules)
            rules_json = self.match.rules.sealed_view(guest.seat).to_json()
        data = zlib.compress(
            json.dumps({"rules": rules_json, "history": saved["history"]}).encode(), 9
        )
        parts = [data[i : i + PART_BYTES] for i in range(0, len(data), PART_BYTES)]
        for k, part in enumerate(parts):
            self.radio.send(peer, b"S" + bytes([k, len(parts)]) + part)

    # ------------------------------------------------- seats of units that are gone
    def _keep_guest_seats(self) -> None:
        """Every tick of a running match: a guest gone (goodbye) or lost has its seat taken
        by the computer, at once or after `grace_ticks` (three or four units; told to the
        others with `T`); one that is back is offered its seat (`O`) and, once it says yes,
        takes it at the next turn boundary. With two units the player left chooses
        (`State.STRANDED`) once the partner has been lost for the grace period."""
        if self.match is None or self.match.over:
            return
        self._announce_rejoin()
        now = self.radio.tick_no
        for g in list(self.guests):
            seat = g.seat
            if seat in self.standins:
                self._offer_back(g)
                continue
            if seat not in self.departed and not self._lost(g.peer):
                self.countdown.pop(seat, None)  # back in time (`L` tells the others)
                continue
            if seat not in self.countdown:
                wait = 0 if seat in self.departed else self.grace_ticks
                self.countdown[seat] = now + wait
                if wait:
                    log.info(
                        "versus: the computer takes %s's seat in %d ticks unless it returns",
                        self.name_of(seat), wait,
                    )
                    self._tell(seat, SEAT.pack(seat, min(wait, 0xFFFF), 0), b"T")
            if now < self.countdown[seat]:
                continue
            if self.units > 2 and self.computer is not None:
                index = self._stand_in(seat)
                self.news.append(("takeover", seat))
                for other in self._listening():  # the unit itself too, should it return
                    self.radio.send(other.peer, b"T" + SEAT.pack(seat, 0, index))
            elif self.units == 2:
                self.countdown.pop(seat, None)
                self._partner_gone("partner_left")

    def _tell(self, seat: int, body: bytes, kind: bytes) -> None:
        """Tell every guest still listening, but the one in `seat`, about that seat."""
        for g in self._listening():
            if g.seat != seat:
                self.radio.send(g.peer, kind + body)

    def play_on(self) -> bool:
        """The host's "Play on without ...": the wait for every lost guest ends now."""
        waited = [s for s in self.countdown if s not in self.standins]
        for seat in waited:
            self.countdown[seat] = self.radio.tick_no
        if waited:
            log.info("versus: the host plays on without waiting")
        return bool(waited)

    def _offer_back(self, guest: Guest) -> None:
        """A guest whose seat the computer plays is heard again: offer it the seat; once it
        said yes, hand it over at a turn boundary (not while the computer decides for it)."""
        seat = guest.seat
        if seat in self.departed or self._lost(guest.peer):
            return
        if seat not in self._offers:
            self._offers.add(seat)
            log.info("versus: %s is back; its seat is offered back", self.name_of(seat))
            self.radio.send(guest.peer, b"O")
        assert self.match is not None
        if seat in self._handback and self.match.to_move != seat:
            self._hand_back(guest)

    def _hand_back(self, guest: Guest) -> None:
        """The returning guest plays its seat again from the next action: its state is
        sent afresh (it may have missed actions) and every guest is told (`H`)."""
        assert self.match is not None
        seat, index = guest.seat, len(self.match.history)
        remote: RemoteSeat[Any] = RemoteSeat()
        self.match.replace_seat(seat, remote)
        self._remote[seat] = remote
        del self.standins[seat]
        self._handback.discard(seat)
        self._offers.discard(seat)
        self._part(seat, self.name_of(seat), index)
        self._lost_seen = [s for s in self._lost_seen if s != seat]
        log.info("versus: %s plays its seat again from action %d", self.name_of(seat), index)
        self._send_state(guest.peer, force=True)
        body = SEAT.pack(seat, 0, index)
        for g in self._listening():
            self.radio.send(g.peer, b"H" + body)
        self.news.append(("back", seat))

    def _rejoinable(self) -> list[Guest]:
        """Guests of a sealed match whose seat the computer plays and that are gone (a
        restarted unit has lost its session: it may join again from the lobby)."""
        if not self.sealed or self.match is None or self.match.over:
            return []
        return [
            g for g in self.guests
            if g.seat in self.standins and (g.seat in self.departed or self._lost(g.peer))
        ]

    def _may_rejoin(self, guest: Guest, body: bytes) -> bool:
        """A join ("J" body) from the unit whose seat the computer plays: it comes back."""
        return (
            guest in self._rejoinable()
            and self.state in (State.PLAYING, State.WAITING)
            and self._refusal(None, body) in (None, "started", "full")
        )

    def _rejoin(self, guest: Guest) -> None:
        """A unit that restarted joins its running match again: its seat, the names, every
        commitment, its view of the game now (its opening), the go, that the computer plays
        its seat, and the offer to take it back (at the next turn boundary, as any unit
        that returns). Its new random plays no part: the deal was made without it."""
        seat = guest.seat
        log.info("versus: %s joins the match again; its seat is offered back", self.name_of(seat))
        self.departed.pop(seat, None)
        self._offers.add(seat)
        self._welcome(guest, rejoin=True)
        self.radio.send(guest.peer, b"N" + json.dumps(self.names, ensure_ascii=False).encode())
        self.radio.send(guest.peer, b"R" + b"".join(self._commits))
        self._send_state(guest.peer, force=True)
        self.radio.send(guest.peer, b"G")
        self.radio.send(guest.peer, b"T" + SEAT.pack(seat, 0, self.standins[seat]))
        self.radio.send(guest.peer, b"O")

    def _announce_rejoin(self) -> None:
        """While a gone unit may join again, the host's beacon offers its seat (a unit not of
        this match that tries is refused: the match has started)."""
        free = len(self._rejoinable())
        if free and self.radio.beacon is None:
            self._announce(free)
        elif not free and self.radio.beacon is not None:
            self.radio.beacon = None
