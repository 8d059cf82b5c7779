"""Versus sessions (P-LINK-3, P-LINK-4): a host and up to three paired guests play one match
in lockstep; only actions travel, each with a digest of the state it produced.

Messages (over each host-guest reliable channel; the first byte says which):

    J game            guest -> host  join the game the host offers
    W seat seats c_H options-json    host -> guest  welcome: your seat, the host's commitment
    C c_G             guest -> host  the guest's commitment (SHA-256 of its random, 16 bytes)
    R r_H             host -> guest  the host's random, revealed once every guest committed
    V r_G             guest -> host  the guest's random
    G r_0 .. r_n      host -> guest  go: every random in seat order; seed = SHA-256(all)
    A i seat d data   either way     action number i by seat, digest prefix d (6 bytes)
    Q i               guest -> host  my state differs after action i: send yours
    S k n part        host -> guest  the host's state, part k of n (zlib JSON)
    E d               either way     the game is over here, final digest prefix d
    B                 either way     abandon

Shared randomness by commit-reveal: nobody learns another's random before committing to its
own, so no single unit chooses the seed. The host is authoritative: it checks every guest
action against the rules (an illegal one is refused, counted and answered with the host's
state) and forwards accepted actions to the other guests. A digest mismatch on either side
ends in the host's state being adopted (resync). The match driver's seats (RemoteSeat)
receive the actions; `attach(match)` wires a match to the session.
"""

from __future__ import annotations

import enum
import hashlib
import json
import logging
import os
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

from firmware.link.packet import Beacon
from firmware.link.radio import Radio
from firmware.match import LocalSeat, Match, Played, RemoteSeat, Seat

log = logging.getLogger("twinfold.link")

DIGEST_BYTES = 6
PART_BYTES = 40
JOIN_TIMEOUT = 600  # ticks a guest waits for the host's welcome before looking again
ACTION = struct.Struct("!HB6s")


class State(enum.Enum):
    IDLE = "idle"
    HOSTING = "hosting"  # announcing, waiting for guests
    LOOKING = "looking"  # a guest choosing a host
    PAIRING = "pairing"
    JOINING = "joining"  # joined; agreeing on options and randomness
    PLAYING = "playing"
    WAITING = "waiting"  # a partner's link is lost
    OVER = "over"
    ABANDONED = "abandoned"


def _commit(secret: bytes) -> bytes:
    return hashlib.sha256(b"seed" + secret).digest()[:16]


@dataclass
class Guest:
    peer: bytes
    seat: int
    commit: bytes = b""
    reveal: bytes = b""


@dataclass
class Session:
    """One unit's side of a versus session."""

    radio: Radio
    role: str = ""  # "host" | "guest"
    game: str = ""
    options: dict[str, str] = field(default_factory=dict)
    seats: int = 2
    state: State = State.IDLE
    seat: int | None = None  # the local player's seat
    host: bytes | None = None
    guests: list[Guest] = field(default_factory=list)
    seed: int | None = None
    match: Match[Any] | None = None
    agreed: bool = False
    resyncs: int = 0
    divergences: int = 0
    note: str = ""

    def __post_init__(self) -> None:
        self._secret = os.urandom(16)
        self._host_commit = b""
        self._host_reveal = b""
        self._remote: dict[int, RemoteSeat[Any]] = {}
        self._parts: dict[int, bytes] = {}
        self._final: dict[bytes, bytes] = {}
        self._refused_before = 0
        self._early: list[bytes] = []  # actions that arrived before the match was attached
        self._joined_at = 0

    # ------------------------------------------------------------------ set-up
    def host_game(self, game: str, options: dict[str, str], seats: int = 2) -> None:
        self.role, self.game, self.options, self.seats = "host", game, dict(options), seats
        self.seat, self.state = 0, State.HOSTING
        self.radio.beacon = Beacon(self.radio.id, True, game, self.radio.name, seats - 1)
        self.radio.accept_pairing = True

    def look(self, game: str) -> None:
        self.role, self.game, self.state = "guest", game, State.LOOKING

    def hosts(self) -> list[Beacon]:
        """Nearby units offering this session's game with a free seat."""
        return [
            b
            for b in self.radio.nearby_units()
            if b.hosting and b.game == self.game and b.seats_free
        ]

    def join(self, host: bytes) -> bool:
        """Join a host; False if not paired with it yet (pair first)."""
        if host not in self.radio.paired():
            return False
        self.host, self.state = host, State.JOINING
        self._joined_at = self.radio.tick_no
        self.radio.connect(host)
        self.radio.send(host, b"J" + self.game.encode())
        return True

    @property
    def partners(self) -> list[bytes]:
        return [g.peer for g in self.guests] if self.role == "host" else [self.host or b""]

    def partner_name(self) -> str:
        names = [self.radio.paired()[p].name for p in self.partners if p in self.radio.paired()]
        return ", ".join(names)

    @property
    def ready(self) -> bool:
        """Options and seed agreed: the match can start."""
        return self.seed is not None

    def link_lost(self) -> bool:
        peers = [self.radio.peers.get(p) for p in self.partners]
        return any(p is None or p.rel.lost for p in peers) if peers else False

    def rtt_ms(self) -> int | None:
        for p in self.partners:
            peer = self.radio.peers.get(p)
            if peer is not None and peer.rel.rtt_ms is not None:
                return peer.rel.rtt_ms
        return None

    def quality(self) -> int:
        """0..3 bars for the indicator: silence, retransmissions and RTT lower it."""
        if self.link_lost():
            return 0
        peer = next((self.radio.peers.get(p) for p in self.partners), None)
        if peer is None:
            return 0
        silent = peer.rel.tick - peer.rel.last_heard
        rtt = peer.rel.rtt_ms or 0
        bars = 3
        if silent > 60 or rtt > 400:
            bars -= 1
        if silent > 90 or rtt > 800 or peer.rel.pending > 2:
            bars -= 1
        return max(1, bars)

    def abandon(self) -> None:
        for p in self.partners:
            if p:
                self.radio.send(p, b"B")
        self.state = State.ABANDONED
        self.radio.beacon = None
        self.radio.accept_pairing = False

    def close(self) -> None:
        self.radio.beacon = None
        self.radio.accept_pairing = False
        for p in self.partners:
            if p:
                self.radio.disconnect(p)

    # ----------------------------------------------------------------- the match
    def make_seats(self) -> list[Seat[Any]]:
        """Local seat for this unit's player, remote seats for the others."""
        out: list[Seat[Any]] = []
        self._remote = {}
        for n in range(self.seats):
            if n == self.seat:
                out.append(LocalSeat())
            else:
                remote: RemoteSeat[Any] = RemoteSeat()
                self._remote[n] = remote
                out.append(remote)
        return out

    def attach(self, match: Match[Any]) -> None:
        """Send this unit's actions out, and check each remote action's digest."""
        self.match = match
        self._refused_before = sum(match.refused.values())
        match.listeners.append(self._on_played)
        match.divergence_listeners.append(self._on_divergence)
        early, self._early = self._early, []
        for body in early:
            self._action(body)

    def _on_played(self, played: Played, _events: list[Any]) -> None:
        index = len(self.match.history) - 1 if self.match else 0
        digest = bytes.fromhex(played.digest)[:DIGEST_BYTES]
        if played.seat == self.seat:
            msg = b"A" + ACTION.pack(index, played.seat, digest) + played.data
            for p in self.partners:
                self.radio.send(p, msg)
        elif self.role == "host":  # forward to the other guests
            msg = b"A" + ACTION.pack(index, played.seat, digest) + played.data
            for g in self.guests:
                if g.seat != played.seat:
                    self.radio.send(g.peer, msg)
        self._check_over()

    def _on_divergence(self, seat: int, expected: str, got: str) -> None:
        """The match found a remote action's digest differs from the sender's."""
        if self.match is not None:
            self._diverged(len(self.match.history) - 1)

    def _diverged(self, index: int) -> None:
        self.divergences += 1
        log.warning("versus: states differ after action %d; the host's state wins", index)
        if self.role == "host":
            for g in self.guests:
                self._send_state(g.peer)
        elif self.host is not None:
            self.radio.send(self.host, b"Q" + struct.pack("!H", index))

    def _send_state(self, peer: bytes) -> None:
        if self.match is None:
            return
        saved = self.match.save()
        data = zlib.compress(
            json.dumps({"rules": saved["rules"], "history": saved["history"]}).encode(), 9
        )
        parts = [data[i : i + PART_BYTES] for i in range(0, len(data), PART_BYTES)]
        for k, part in enumerate(parts):
            self.radio.send(peer, b"S" + bytes([k, len(parts)]) + part)

    def _adopt(self, blob: bytes) -> None:
        if self.match is None:
            return
        try:
            data = json.loads(zlib.decompress(blob))
            rules = type(self.match.rules).from_json(data["rules"])
            history = [Played.from_json(p) for p in data["history"]]
        except (ValueError, KeyError, TypeError, zlib.error) as exc:
            log.warning("versus: the host's state did not load: %s", exc)
            return
        self.match.replace_rules(rules)
        self.match.history = history
        self.resyncs += 1
        self.agreed = False
        self._final.pop(self.radio.id, None)  # the partners' final digests still stand
        self._check_over()

    def _check_over(self) -> None:
        if self.match is None or not self.match.over:
            return
        final = bytes.fromhex(self.match.rules.digest())[:DIGEST_BYTES]
        self._final[self.radio.id] = final
        for p in self.partners:
            self.radio.send(p, b"E" + final)
        self._settle_result()

    def _settle_result(self) -> None:
        mine = self._final.get(self.radio.id)
        if mine is None:
            return
        if all(self._final.get(p) == mine for p in self.partners):
            self.agreed = True
            self.state = State.OVER

    # ---------------------------------------------------------------------- tick
    def tick(self) -> None:
        """Handle what arrived (called by the link service once per tick, after the radio)."""
        for kind, peer in self.radio.take_events():
            # The partner's channel started afresh: it rebooted or closed its side of this
            # session; a lockstep match cannot go on without its state.
            live = self.state in (State.PLAYING, State.WAITING, State.JOINING)
            if kind == "restarted" and peer in self.partners and live:
                self.state, self.note = State.ABANDONED, "partner restarted or left"
        for src, msg in self.radio.take_messages():
            self._on_message_safe(src, msg)
        if self.state in (State.PLAYING, State.WAITING):
            self.state = State.WAITING if self.link_lost() else State.PLAYING
        elif self.state is State.JOINING and (
            self.seat is None and self.radio.tick_no - self._joined_at > JOIN_TIMEOUT
        ):
            self.state, self.note = State.LOOKING, "the host did not answer"
            if self.host is not None:
                self.radio.disconnect(self.host)
            self.host, self.seat, self._host_commit, self._host_reveal = None, None, b"", b""
        if self.match is not None:
            refused = sum(self.match.refused.values())
            if refused > self._refused_before:
                # A remote action the rules refuse: counted; the host's state settles it.
                self._refused_before = refused
                self.radio.reject("illegal", self.match.last_refusal or "illegal action")
                self._diverged(len(self.match.history))

    def _on_message_safe(self, src: bytes, msg: bytes) -> None:
        """One message from a paired unit; anything malformed is refused and counted."""
        try:
            self._on_message(src, msg)
        except Exception as exc:
            self.radio.reject("illegal", f"malformed session message: {exc}")

    def _on_message(self, src: bytes, msg: bytes) -> None:
        kind, body = msg[:1], msg[1:]
        if kind == b"B" and src in self.partners:
            self.state, self.note = State.ABANDONED, "partner left"
            return
        if self.role == "host":
            self._host_message(src, kind, body)
        elif src == self.host:
            self._guest_message(kind, body)
        else:
            self.radio.reject("illegal", "session traffic from a unit not in this session")

    def _host_message(self, src: bytes, kind: bytes, body: bytes) -> None:
        guest = next((g for g in self.guests if g.peer == src), None)
        if kind == b"J":
            if body.decode() != self.game or self.state is not State.HOSTING:
                self.radio.send(src, b"B")
                return
            if guest is None:
                taken = {g.seat for g in self.guests}
                seat = next(n for n in range(1, self.seats + 1) if n not in taken)
                if seat >= self.seats:  # full
                    self.radio.send(src, b"B")
                    return
                guest = Guest(src, seat)
                self.guests.append(guest)
            self._host_commit = _commit(self._secret)
            opts = json.dumps(self.options, separators=(",", ":")).encode()
            self.radio.send(src, b"W" + bytes([guest.seat, self.seats]) + self._host_commit + opts)
            if len(self.guests) == self.seats - 1:
                self.radio.beacon = None
                self.radio.accept_pairing = False
            return
        if guest is None:
            self.radio.reject("illegal", "session traffic from a unit that did not join")
            return
        if kind == b"C":
            guest.commit = body[:16]
            if len(self.guests) == self.seats - 1 and all(g.commit for g in self.guests):
                for g in self.guests:
                    self.radio.send(g.peer, b"R" + self._secret)
        elif kind == b"V":
            if _commit(body) != guest.commit:
                self.radio.reject("illegal", "a guest's random does not match its commitment")
                return
            guest.reveal = body
            if all(g.reveal for g in self.guests):
                reveals = [self._secret] + [
                    g.reveal for g in sorted(self.guests, key=lambda g: g.seat)
                ]
                self._start(reveals)
                for g in self.guests:
                    self.radio.send(g.peer, b"G" + b"".join(reveals))
        elif kind == b"A":
            self._action(body)
        elif kind == b"Q":
            self._send_state(src)
        elif kind == b"E":
            self._final[src] = body[:DIGEST_BYTES]
            self._settle_result()

    def _guest_message(self, kind: bytes, body: bytes) -> None:
        if kind == b"W":
            self.seat, self.seats = body[0], body[1]
            self._host_commit = body[2:18]
            self.options = {str(k): str(v) for k, v in json.loads(body[18:]).items()}
            assert self.host is not None
            self.radio.send(self.host, b"C" + _commit(self._secret))
        elif kind == b"R":
            if _commit(body) != self._host_commit:
                self.radio.reject("illegal", "the host's random does not match its commitment")
                return
            self._host_reveal = body
            assert self.host is not None
            self.radio.send(self.host, b"V" + self._secret)
        elif kind == b"G":
            reveals = [body[i : i + 16] for i in range(0, len(body), 16)]
            if not reveals or reveals[0] != self._host_reveal or self._secret not in reveals:
                self.radio.reject("illegal", "the agreed randoms leave out ours or the host's")
                return
            self._start(reveals)
        elif kind == b"A":
            self._action(body)
        elif kind == b"S":
            k, n = body[0], body[1]
            self._parts[k] = body[2:]
            if len(self._parts) == n and all(i in self._parts for i in range(n)):
                blob = b"".join(self._parts[i] for i in range(n))
                self._parts.clear()
                self._adopt(blob)
        elif kind == b"E":
            assert self.host is not None
            self._final[self.host] = body[:DIGEST_BYTES]
            self._settle_result()

    def _start(self, reveals: list[bytes]) -> None:
        self.seed = int.from_bytes(hashlib.sha256(b"".join(reveals)).digest()[:8], "big") >> 1
        self.state = State.PLAYING

    def _action(self, body: bytes) -> None:
        index, seat, digest = ACTION.unpack_from(body)
        data = body[ACTION.size :]
        if self.match is None:
            self._early.append(body)  # the go and the first action came in one tick
            return
        remote = self._remote.get(seat)
        if remote is None:
            self.radio.reject("illegal", f"an action for seat {seat}, not a remote seat here")
            return
        queued = sum(len(r.inbox) for r in self._remote.values())
        if index != len(self.match.history) + queued:
            if index < len(self.match.history):
                return  # already applied (e.g. it came again after a resync)
            self.radio.reject("illegal", f"action {index} out of turn")
            self._diverged(index)
            return
        remote.deliver(data, digest.hex())  # the match compares it with its own digest
