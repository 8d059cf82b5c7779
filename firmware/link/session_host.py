"""The host's side of a versus session: announcing the game, taking joins, handing
round the commitments and randoms, dealing a sealed game's views, checking and forwarding
every guest's action (firmware/link/session.py says how a session works).
"""

from __future__ import annotations

import json
import logging
import zlib

from firmware.link.packet import LINK_PROTOCOL, Beacon
from firmware.link.session_codec import (
    ACTION,
    DIGEST_BYTES,
    PART_BYTES,
    REFUSAL_CODES,
    Guest,
    State,
    commit_of,
    seed_of,
)
from firmware.link.session_core import SessionCore
from firmware.match import SealedRules

log = logging.getLogger("twinfold.link")


class HostSide(SessionCore):
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

    def _welcome(self, guest: Guest) -> None:
        """Tell a guest its seat, the most seats, the flags, the host's commitment and the
        options (again after the seats were renumbered)."""
        opts = json.dumps(self.options, separators=(",", ":")).encode()
        head = bytes([guest.seat, self.seats, int(self.sealed), LINK_PROTOCOL, self.rules_version])
        self.radio.send(guest.peer, b"W" + head + self._host_commit + opts)

    def _host_message(self, src: bytes, kind: bytes, body: bytes) -> None:
        guest = next((g for g in self.guests if g.peer == src), None)
        if kind == b"J":
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
