"""Versus sessions (P-LINK-3, P-LINK-4): a host and up to three paired guests play one match
in lockstep; only actions travel, each with a digest of the state it produced.

Messages (over each host-guest reliable channel; the first byte says which):

    J p r game        guest -> host  join the game the host offers; p, r: the guest's link
                                     protocol and rules versions (one byte each)
    W seat seats f p r c_H options-json  host -> guest  welcome: your seat, the most seats,
                                     flags (1 = sealed), the host's versions, its commitment
    C c_G             guest -> host  the guest's commitment (SHA-256 of its random, 16 bytes)
    R r_H             host -> guest  the host's random, revealed once every guest committed
    R c_0 .. c_n      host -> guest  (sealed) every commitment in seat order, instead
    V r_G             guest -> host  the guest's random
    G r_0 .. r_n      host -> guest  go: every random in seat order; seed = SHA-256(all)
    G                 host -> guest  (sealed) go; the shared seed is SHA-256 of the commitments
    N names-json      host -> guest  every unit's radio name in seat order (sent before G)
    A i seat d data   either way     action number i by seat, digest prefix d (6 bytes)
    P i seat 0 data   guest -> host  (sealed) the guest's proposed action, applied on the echo
    Q i               guest -> host  my state differs after action i: send yours
    S k n part        host -> guest  the host's state, part k of n (zlib JSON; sealed: the
                                     guest's seat's view; the first one is the opening deal)
    U r_0 .. r_n      host -> guest  (sealed) every random, once the game is over
    E d               either way     the game is over here, final digest prefix d
    B [why]           either way     abandon; a host refusing a join says why in one byte
                                     (REFUSALS: full, another game, another version, started)

A join that fails never fails silently: `failure` names why (a key of FAILURES: no answer,
refused and why, another version, the host left or restarted), the lobby shows it and the
log has it. Units with another link protocol or rules version never start a match: the
lobby shows them "needs the same version" and will not join, a host refuses their join
and a guest leaves a welcome whose versions differ.

Shared randomness by commit-reveal: nobody learns another's random before committing to its
own, so no single unit chooses the seed. The host is authoritative: it checks every guest
action against the rules (an illegal one is refused, counted and answered with the host's
state) and forwards accepted actions to the other guests. A digest mismatch on either side
ends in the host's state being adopted (resync). The match driver's seats (RemoteSeat)
receive the actions; `attach(match)` wires a match to the session.

Sealed sessions (hidden-information games, `SealedRules`: Killing Sevens) keep every hand on
the host. The seed that deals is SHA-256 of every random, and only the host learns the
guests' randoms before the end, so only the host (the dealer, which also runs the computer
seats) knows the deal; each guest gets its own seat's view (`sealed_view`), proposes its
actions to the host (`RelaySeat`) and applies every action as the host echoes it, with the
`disclosure` it needs (who held the killed cards); views compare the public digest. At the
end the host reveals the randoms; each guest deals the game again itself (`dealer`), replays
every action through the whole rules and checks its view against it (`SealedView.unseal`),
so a host that dealt unfairly, passed with a playable card or named a wrong victim is caught.
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

from firmware.link.packet import LINK_PROTOCOL, Beacon
from firmware.link.radio import Radio
from firmware.match import (
    ActionError,
    LocalSeat,
    Match,
    Played,
    RelaySeat,
    RemoteSeat,
    SealedRules,
    SealedView,
    Seat,
)

log = logging.getLogger("twinfold.link")

DIGEST_BYTES = 6
PART_BYTES = 40
JOIN_TIMEOUT = 600  # ticks a guest waits for the host's welcome before looking again
ACTION = struct.Struct("!HB6s")

# Why a host refused a join (the byte after "B"), and the failure key a guest keeps for it.
REFUSALS = {1: "full", 2: "other_game", 3: "version", 4: "started"}
REFUSAL_CODES = {why: code for code, why in REFUSALS.items()}
# Every way a join or a start can fail, as the log says it (the lobby shows each in the
# unit's language, firmware/scenes/versus.py).
FAILURES = {
    "no_answer": "the host did not answer",
    "full": "the host has no free seat",
    "other_game": "the host offers another game",
    "version": "the host needs the same version (link protocol and rules)",
    "started": "the host has started without more players",
    "refused": "the host refused",
    "host_left": "the host went away",
    "host_restarted": "the host restarted",
    "guest_left": "a player left before the start",
    "partner_left": "partner left",
    "partner_restarted": "partner restarted or left",
}


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


def _seed_of(parts: list[bytes]) -> int:
    return int.from_bytes(hashlib.sha256(b"".join(parts)).digest()[:8], "big") >> 1


def _chunks(body: bytes) -> list[bytes]:
    return [body[i : i + 16] for i in range(0, len(body), 16)]


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
    seed: int | None = None  # shared by every unit (a sealed session does not deal from it)
    sealed: bool = False
    deal_seed: int | None = None  # sealed: the dealing seed, the host's until the end
    opening: dict[str, Any] | None = None  # sealed guest: its view of the deal, from the host
    dealer: Any = None  # sealed guest: deal_seed -> the whole rules, to check the host's game
    cheated: bool = False  # sealed guest: the host's game did not check out at the end
    names: list[str] = field(default_factory=list)  # every unit's name, in seat order
    match: Match[Any] | None = None
    agreed: bool = False
    resyncs: int = 0
    divergences: int = 0
    note: str = ""
    failure: str = ""  # why the last join or session failed: a key of FAILURES, or ""
    rules_version: int = 0  # this unit's version of the game's rules (Cartridge.rules_version)

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
        self._closed = False  # the host started with the guests it had: no more joins
        self._resync_asked = False  # a guest asked for the host's state and waits for it
        self._proposer: int | None = None  # sealed host: the seat of the last proposal
        self._host_reveal_sent = False  # the host's random (or every commitment) went out
        self._most_seats = 0  # the seats offered before a "start now" shrank them
        self._state_sent: dict[bytes, int] = {}  # peer -> history length of the last state
        self._commits: list[bytes] = []  # sealed: every commitment, in seat order
        self._reveals: list[bytes] = []  # sealed: every random (the host's; a guest's at the end)

    # ------------------------------------------------------------------ set-up
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

    def look(self, game: str, rules_version: int = 1) -> None:
        self.role, self.game, self.state = "guest", game, State.LOOKING
        self.rules_version = rules_version

    def hosts(self) -> list[Beacon]:
        """Nearby units offering this session's game with a free seat (also those this unit
        cannot play with: `mismatch` says which, and the lobby shows them so)."""
        return [
            b
            for b in self.radio.nearby_units()
            if b.hosting and b.game == self.game and b.seats_free
        ]

    def mismatch(self, beacon: Beacon) -> str | None:
        """Why this unit cannot play with the host of `beacon` ("version"), or None."""
        if beacon.protocol != LINK_PROTOCOL or beacon.rules != self.rules_version:
            return "version"
        return None

    def join(self, host: bytes) -> bool:
        """Join a host; False if not paired with it yet (pair first) or if it needs another
        version (then `failure` says so)."""
        if host not in self.radio.paired():
            return False
        seen = self.radio.nearby.get(host)
        if seen is not None and self.mismatch(seen[0]) is not None:
            self._fail("version")
            return False
        self.failure, self.note = "", ""
        self.host, self.state = host, State.JOINING
        self._joined_at = self.radio.tick_no
        self.radio.connect(host)
        self._send_join()
        return True

    def _send_join(self) -> None:
        assert self.host is not None
        versions = bytes([LINK_PROTOCOL, self.rules_version & 0xFF])
        self.radio.send(self.host, b"J" + versions + self.game.encode())

    def _fail(self, why: str) -> None:
        """Remember and log why a join or the session failed (a key of FAILURES)."""
        self.failure, self.note = why, FAILURES[why]
        log.info("versus: %s (%s)", self.note, self.game)

    @property
    def partners(self) -> list[bytes]:
        return [g.peer for g in self.guests] if self.role == "host" else [self.host or b""]

    def partner_name(self) -> str:
        names = [self.radio.paired()[p].name for p in self.partners if p in self.radio.paired()]
        return ", ".join(names)

    @property
    def ready(self) -> bool:
        """Options and seed agreed (and, for a sealed guest, its view of the deal arrived):
        the match can start."""
        if self.sealed and self.role == "guest":
            return self.seed is not None and self.opening is not None
        return self.seed is not None

    def commits_known(self) -> bool:
        """A guest: the host has everyone it starts with (its random or every commitment
        arrived), so the start is under way."""
        return bool(self._host_reveal or self._commits)

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
        self.radio.silent = set()
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
            if n == self.seat and self.sealed and self.role == "guest":
                relay: RelaySeat[Any] = RelaySeat(self._propose)
                self._remote[n] = relay  # the host's echo of our action arrives like any other
                out.append(relay)
            elif n == self.seat:
                out.append(LocalSeat())
            else:
                remote: RemoteSeat[Any] = RemoteSeat()
                self._remote[n] = remote
                out.append(remote)
        return out

    def attach(self, match: Match[Any], dealer: Any = None) -> None:
        """Send this unit's actions out, and check each remote action's digest. A sealed
        host sends each guest its view of the deal; a sealed guest keeps `dealer` (deal seed
        -> the whole rules) to check the host's game at the end."""
        self.match = match
        self.dealer = dealer
        self._refused_before = sum(match.refused.values())
        match.listeners.append(self._on_played)
        match.divergence_listeners.append(self._on_divergence)
        if self.sealed and self.role == "host":
            if not isinstance(match.rules, SealedRules):
                raise TypeError(f"{match.rules.game_id} cannot be played sealed")
            for g in self.guests:
                self._send_state(g.peer)  # the opening: each guest's own hand only
        elif self.sealed and self.opening is not None:
            match.history = [Played.from_json(p) for p in self.opening.get("history", [])]
        early, self._early = self._early, []
        for body in early:
            self._action(body)

    def _propose(self, action: Any) -> None:
        """A sealed guest's own action goes to the host, which applies it and echoes it."""
        if self.match is None or self.host is None or self.seat is None:
            return
        queued = sum(len(r.inbox) for r in self._remote.values())
        head = ACTION.pack(len(self.match.history) + queued, self.seat, bytes(DIGEST_BYTES))
        self.radio.send(self.host, b"P" + head + self.match.rules.encode(action))

    def _on_played(self, played: Played, events: list[Any]) -> None:
        index = len(self.match.history) - 1 if self.match else 0
        log.info("versus: action %d by seat %d (%s)", index, played.seat, played.data.hex())
        if self.sealed:
            self._on_played_sealed(index, played, events)
            return
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

    def _on_played_sealed(self, index: int, played: Played, events: list[Any]) -> None:
        """The host echoes every action to every guest with its disclosure and the public
        digest; a guest sends nothing (its own actions went out as proposals)."""
        if self.role == "host" and self.match is not None:
            rules = self.match.rules
            assert isinstance(rules, SealedRules)
            digest = bytes.fromhex(rules.public_digest())[:DIGEST_BYTES]
            data = played.data + rules.disclosure(events)
            msg = b"A" + ACTION.pack(index, played.seat, digest) + data
            for g in self.guests:
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
        elif self.host is not None and not self._resync_asked:
            # one request at a time: the answer repairs every later difference too, and a
            # request per differing action would bury a 9600-baud link in states
            self._resync_asked = True
            self.radio.send(self.host, b"Q" + struct.pack("!H", index))

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

    def _adopt(self, blob: bytes) -> None:
        if self.match is None:
            if self.sealed:
                self._take_opening(blob)
            return
        if self.sealed and self._unsealed():
            return  # a late answer to a resync request: this unit checked the whole game
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
        self._resync_asked = False
        self.agreed = False
        self._final.pop(self.radio.id, None)  # the partners' final digests still stand
        self._check_over()

    def _take_opening(self, blob: bytes) -> None:
        try:
            data = json.loads(zlib.decompress(blob))
            if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
                raise ValueError("not a saved match")
        except (ValueError, zlib.error) as exc:
            self.radio.reject("illegal", f"the host's deal did not load: {exc}")
            return
        self.opening = data

    def _check_over(self) -> None:
        if self.match is None or not self.match.over:
            return
        if self.sealed and self.role == "host":
            for g in self.guests:
                self.radio.send(g.peer, b"U" + b"".join(self._reveals))
        elif self.sealed and not self._unseal():
            return  # the randoms have not come yet, or the host's game failed its check
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
            if not self.agreed:
                log.info("versus: %s is over; every unit agrees (%s)", self.game, mine.hex())
            self.agreed = True
            self.state = State.OVER

    # ---------------------------------------------------------------------- tick
    def tick(self) -> None:
        """Handle what arrived (called by the link service once per tick, after the radio)."""
        for kind, peer in self.radio.take_events():
            # The partner's channel started afresh: it rebooted or closed its side of this
            # session; a lockstep match cannot go on without its state.
            live = self.state in (State.PLAYING, State.WAITING, State.JOINING)
            if kind != "restarted" or peer not in self.partners or not live:
                continue
            if self.state is State.JOINING and self.seat is None:
                # The host's channel started afresh before it welcomed us (it restarted
                # since we last talked): our join went with the old channel; ask again.
                log.info("versus: the host's channel started afresh; joining again")
                self._send_join()
            elif self.state is State.JOINING:
                self._look_again("host_restarted")
            else:
                self.state = State.ABANDONED
                self._fail("partner_restarted")
        for src, msg in self.radio.take_messages():
            self._on_message_safe(src, msg)
        if self.state in (State.PLAYING, State.WAITING):
            self.state = State.WAITING if self.link_lost() else State.PLAYING
            self.radio.silent = set(self.partners)  # they announce nothing while we play
        else:
            self.radio.silent = set()
        if self.state is State.JOINING and (
            self.seat is None and self.radio.tick_no - self._joined_at > JOIN_TIMEOUT
        ):
            self._look_again("no_answer")
        elif self.state is State.JOINING and self.link_lost():
            self._look_again("host_left")
        elif self.state is State.HOSTING:
            self._drop_vanished_guests()
        if self.match is not None:
            refused = sum(self.match.refused.values())
            if refused > self._refused_before:
                # A remote action the rules refuse: counted; the host's state settles it.
                self._refused_before = refused
                self.radio.reject("illegal", self.match.last_refusal or "illegal action")
                proposer = next((g for g in self.guests if g.seat == self._proposer), None)
                if self.sealed and proposer is not None:
                    # the proposer waits for its action's echo: its state (only) frees it
                    self._send_state(proposer.peer, force=True)
                else:
                    self._diverged(len(self.match.history))

    def _look_again(self, why: str) -> None:
        """A guest whose host never answered, refused or went away before the start looks
        again; `failure` (shown in the lobby, logged) says why."""
        self.state = State.LOOKING
        self._fail(why)
        if self.host is not None:
            self.radio.disconnect(self.host)
        self.host, self.seat, self._host_commit, self._host_reveal = None, None, b"", b""
        self._commits, self._reveals = [], []

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

    def _lost(self, peer: bytes) -> bool:
        channel = self.radio.peers.get(peer)
        return channel is None or channel.rel.lost

    def _on_message_safe(self, src: bytes, msg: bytes) -> None:
        """One message from a paired unit; anything malformed is refused and counted."""
        try:
            self._on_message(src, msg)
        except Exception as exc:
            self.radio.reject("illegal", f"malformed session message: {exc}")

    def _on_message(self, src: bytes, msg: bytes) -> None:
        kind, body = msg[:1], msg[1:]
        if kind == b"B" and src in self.partners:
            if self.role == "guest" and self.state is State.JOINING and not self.commits_known():
                self._look_again(REFUSALS.get(body[0], "refused") if body else "refused")
                return
            self.state = State.ABANDONED
            self._fail("partner_left")
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
            self._host_commit = _commit(self._secret)
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
            if _commit(body) != guest.commit:
                self.radio.reject("illegal", "a guest's random does not match its commitment")
                return
            guest.reveal = body
            if all(g.reveal for g in self.guests):
                reveals = [self._secret] + [
                    g.reveal for g in sorted(self.guests, key=lambda g: g.seat)
                ]
                self._send_names()
                if self.sealed:
                    self._reveals, self.deal_seed = reveals, _seed_of(reveals)
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

    def _guest_message(self, kind: bytes, body: bytes) -> None:
        if kind == b"W":
            if body[3] != LINK_PROTOCOL or body[4] != self.rules_version:
                assert self.host is not None
                self.radio.send(self.host, b"B")
                self._look_again("version")
                return
            self.seat, self.seats, self.sealed = body[0], body[1], bool(body[2] & 1)
            self._host_commit = body[5:21]
            self.options = {str(k): str(v) for k, v in json.loads(body[21:]).items()}
            assert self.host is not None
            self.radio.send(self.host, b"C" + _commit(self._secret))
        elif kind == b"R" and self.sealed:
            commits = _chunks(body)
            mine = _commit(self._secret)
            if not (commits and commits[0] == self._host_commit and self.seat is not None
                    and self.seat < len(commits) and commits[self.seat] == mine):
                self.radio.reject("illegal", "the commitments leave out ours or the host's")
                return
            self._commits, self.seats = commits, len(commits)
            assert self.host is not None
            self.radio.send(self.host, b"V" + self._secret)
        elif kind == b"G" and self.sealed:
            if self._commits:
                self._start([b"public", *self._commits])
        elif kind == b"N":
            names = json.loads(body)
            if not (isinstance(names, list) and len(names) <= 4
                    and all(isinstance(n, str) and len(n) <= 24 for n in names)):
                raise ValueError("unit names are a list of up to 4 short strings")
            self.names = names
        elif kind == b"U" and self.sealed:
            self._reveals = _chunks(body)
            self._check_over()
        elif kind == b"R":
            if _commit(body) != self._host_commit:
                self.radio.reject("illegal", "the host's random does not match its commitment")
                return
            self._host_reveal = body
            assert self.host is not None
            self.radio.send(self.host, b"V" + self._secret)
        elif kind == b"G":
            reveals = _chunks(body)
            if not reveals or reveals[0] != self._host_reveal or self._secret not in reveals:
                self.radio.reject("illegal", "the agreed randoms leave out ours or the host's")
                return
            self.seats = len(reveals)  # the host may have started with fewer units
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

    def _start(self, parts: list[bytes]) -> None:
        self.seed = _seed_of(parts)
        self.state = State.PLAYING
        log.info(
            "versus: %s starts: seat %s of %d, as %s", self.game, self.seat, self.seats, self.role
        )

    def _unseal(self) -> bool:
        """A sealed guest at the end: check the randoms against the commitments, deal the
        game again, replay every action through the whole rules, and compare with what this
        unit saw; on success adopt the whole game (the record shows every hand)."""
        if self._unsealed():
            return True
        if not self._reveals or self.match is None or self.cheated:
            return False
        view = self.match.rules
        reason = self._check_reveals()
        full: Any = None
        history: list[Played] = []
        if reason is None and (self.dealer is None or not isinstance(view, SealedView)):
            reason = "this game cannot check the host's deal"
        if reason is None:
            assert isinstance(view, SealedView)
            self.deal_seed = _seed_of(self._reveals)
            full = self.dealer(self.deal_seed)
            try:
                for p in self.match.history:
                    data = view.plain(p.data)
                    action = full.decode(data)
                    why = full.check(p.seat, action)
                    if why is not None:
                        raise ActionError(f"action {len(history)} of seat {p.seat}: {why}")
                    full.apply(p.seat, action)
                    # the digest this unit compared (the public one): a whole-game digest
                    # per action would cost most of the check, and nothing reads them now
                    history.append(Played(p.seat, data, p.digest))
            except ActionError as exc:
                reason = str(exc)
            reason = reason or view.unseal(full)
        if reason is not None:
            self.cheated = True
            self.abandon()  # the host is told; the result is not recorded
            self.note = f"the host's game does not check out: {reason}"
            log.warning("versus: %s", self.note)
            self.radio.reject("illegal", self.note)
            return False
        self.match.replace_rules(full)
        self.match.history = history
        return True

    def _unsealed(self) -> bool:
        return self.match is not None and not isinstance(self.match.rules, SealedView)

    def _check_reveals(self) -> str | None:
        if len(self._reveals) != len(self._commits) or not self._commits:
            return "the host revealed a different number of randoms"
        if any(_commit(r) != c for r, c in zip(self._reveals, self._commits, strict=True)):
            return "a revealed random does not match its commitment"
        if self.seat is None or self._reveals[self.seat] != self._secret:
            return "the revealed randoms leave out ours"
        return None

    def _action(self, body: bytes, check: bool = True) -> None:
        index, seat, digest = ACTION.unpack_from(body)
        data = body[ACTION.size :]
        if self.match is None:
            if check:
                self._early.append(body)  # the go and the first action came in one tick
            return
        remote = self._remote.get(seat)
        if remote is None:
            self.radio.reject("illegal", f"an action for seat {seat}, not a remote seat here")
            return
        if not check and (index != len(self.match.history) or self.match.to_move != seat):
            # A proposal is made on the proposer's turn as it knows it: out of turn here, its
            # view is behind or wrong; the state (once per proposal) puts it right.
            self.radio.reject("illegal", f"a proposal for action {index} out of turn")
            peer = next((g.peer for g in self.guests if g.seat == seat), None)
            if peer is not None:
                self._send_state(peer, force=True)
            return
        queued = sum(len(r.inbox) for r in self._remote.values())
        if index != len(self.match.history) + queued:
            if index < len(self.match.history):
                return  # already applied (e.g. it came again after a resync)
            self.radio.reject("illegal", f"action {index} out of turn")
            self._diverged(index)
            return
        # the match compares the sender's digest with its own (a proposal carries none)
        remote.deliver(data, digest.hex() if check else None)
        if not check:
            self._proposer = seat
