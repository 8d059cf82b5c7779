"""What both sides of a versus session share (firmware/link/session.py says how a session
works): the session's state, the match it drives in lockstep (seats, actions, digests,
resyncs, the agreed end), departures and the tick. The host's side (session_host.py) and
the guest's (session_guest.py) add the messages only their role sends or answers; the hooks
below are theirs.
"""

from __future__ import annotations

import json
import logging
import os
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware.link.radio import Radio
from firmware.link.session_codec import (
    ACTION,
    DIGEST_BYTES,
    FAILURES,
    GRACE_TICKS,
    JOIN_TIMEOUT,
    REFUSALS,
    Guest,
    State,
    seed_of,
)
from firmware.match import (
    LocalSeat,
    Match,
    Played,
    RelaySeat,
    RemoteSeat,
    SealedRules,
    Seat,
)

log = logging.getLogger("twinfold.link")


@dataclass
class SessionCore:
    """One unit's side of a versus session: the state both roles keep."""

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
    departed: dict[int, str] = field(default_factory=dict)  # seat -> why (DEPARTURES) it left
    grace_ticks: int = GRACE_TICKS  # a lost guest's seat waits this long for it (3-4 units)
    # the seats the computer plays for a unit that is gone: seat -> the action it took over at
    standins: dict[int, int] = field(default_factory=dict)
    # who played which part of a seat that changed hands: seat -> [(name, from action)], the
    # computer named "" (the record and the result say so)
    seat_parts: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    countdown: dict[int, int] = field(default_factory=dict)  # seat -> tick the wait ends
    offered: bool = False  # a guest: the host offers this unit its seat back
    alone: bool = False  # two units: this unit finishes against the computer, unlinked
    rejoined: bool = False  # a guest that joined its running match again after a restart
    # what the firmware announces on this unit: ("takeover" | "back", seat), oldest first
    news: list[tuple[str, int]] = field(default_factory=list)
    # the game's computer player for a seat (given at `attach`): it takes a gone unit's seat
    computer: Callable[[int], Seat[Any]] | None = None

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
        self._lost_seen: list[int] = []  # the lost seats as last logged (and told, a host)
        self._reported_lost: list[int] = []  # a guest: the seats the host says are lost
        self._logged = ""  # the failure logged last (a guest stuck joining logs it once)
        self._offers: set[int] = set()  # a host: the seats offered back to their units
        self._handback: set[int] = set()  # a host: the seats whose units said yes

    def _fail(self, why: str) -> None:
        """Remember and log why a join or the session failed (a key of FAILURES)."""
        self.failure, self.note = why, FAILURES[why]
        if why != self._logged:  # once, not every tick of a guest stuck joining
            self._logged = why
            log.info("versus: %s (%s)", self.note, self.game)

    @property
    def partners(self) -> list[bytes]:
        """The units this one plays with now (a host's: not those gone whose seat the
        computer took; none once it finishes alone)."""
        if self.alone:
            return []
        if self.role == "host":
            gone = self.standins.keys() | self.departed.keys()
            return [g.peer for g in self.guests if g.seat not in gone]
        return [self.host or b""]

    def _listening(self) -> list[Guest]:
        """A host's guests that still hear the match (all but those that said goodbye: a
        lost one catches up on what was sent when it is back)."""
        return [g for g in self.guests if g.seat not in self.departed]

    @property
    def units(self) -> int:
        """How many units play the match (the seats beyond them are the game's own)."""
        return 1 + len(self.guests) if self.role == "host" else max(2, len(self.names))

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

    def close(self) -> None:
        self.radio.silent = set()
        self.radio.beacon = None
        self.radio.accept_pairing = False
        for p in self.partners:
            if p:
                self.radio.disconnect(p)

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

    def attach(
        self,
        match: Match[Any],
        dealer: Any = None,
        computer: Callable[[int], Seat[Any]] | None = None,
    ) -> None:
        """Send this unit's actions out, and check each remote action's digest. A sealed
        host sends each guest its view of the deal; a sealed guest keeps `dealer` (deal seed
        -> the whole rules) to check the host's game at the end. `computer` (seat -> the
        game's computer player for it) lets the computer take the seat of a unit that is
        gone: on the host with three or four units, or on the one left of two."""
        self.match = match
        self.dealer = dealer
        self.computer = computer
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
            for g in self._listening():
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
            for g in self._listening():
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
            for g in self._listening():
                self._send_state(g.peer)
        elif self.host is not None and not self._resync_asked:
            # one request at a time: the answer repairs every later difference too, and a
            # request per differing action would bury a 9600-baud link in states
            self._resync_asked = True
            self.radio.send(self.host, b"Q" + struct.pack("!H", index))

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

    def _check_over(self) -> None:
        if self.match is None or not self.match.over:
            return
        if self.sealed and self.role == "host":
            for g in self._listening():
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
                self._restarted(peer)
        for src, msg in self.radio.take_messages():
            if not self.alone:  # finishing alone: the partner's words come too late
                self._on_message_safe(src, msg)
        if self.state in (State.PLAYING, State.WAITING) and not self.alone:
            self._keep_seats()
        if self.state in (State.PLAYING, State.WAITING) and not self.alone:
            self._watch_lost()
            self.state = State.WAITING if self.lost_seats() else State.PLAYING
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
            self._goodbye(src, body)
            return
        if self.role == "host":
            self._host_message(src, kind, body)
        elif src == self.host:
            self._guest_message(kind, body)
        else:
            self.radio.reject("illegal", "session traffic from a unit not in this session")

    def _start(self, parts: list[bytes]) -> None:
        self._logged = ""
        self.seed = seed_of(parts)
        self.state = State.PLAYING
        log.info(
            "versus: %s starts: seat %s of %d, as %s", self.game, self.seat, self.seats, self.role
        )

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

    # ------------------------------------------------ the roles' hooks (host / guest side)
    def _host_message(self, src: bytes, kind: bytes, body: bytes) -> None:
        raise NotImplementedError

    def _guest_message(self, kind: bytes, body: bytes) -> None:
        raise NotImplementedError

    def _send_state(self, peer: bytes, force: bool = False) -> None:
        raise NotImplementedError

    def _drop_vanished_guests(self) -> None:
        raise NotImplementedError

    def _propose(self, action: Any) -> None:
        raise NotImplementedError

    def _send_join(self) -> None:
        raise NotImplementedError

    def _look_again(self, why: str) -> None:
        raise NotImplementedError

    def _take_opening(self, blob: bytes) -> None:
        raise NotImplementedError

    def _unseal(self) -> bool:
        raise NotImplementedError

    def _unsealed(self) -> bool:
        raise NotImplementedError

    def commits_known(self) -> bool:
        raise NotImplementedError

    def _keep_seats(self) -> None:
        """Every tick of a running match: the seats of units that are gone (the host's
        duty), or the wait for a lost host (a guest's)."""
        if self.role == "host":
            self._keep_guest_seats()
        else:
            self._watch_host()

    def _keep_guest_seats(self) -> None:
        raise NotImplementedError

    def _watch_host(self) -> None:
        raise NotImplementedError

    def _watch_lost(self) -> None:
        raise NotImplementedError

    def lost_seats(self) -> list[int]:
        raise NotImplementedError

    def _restarted(self, peer: bytes) -> None:
        raise NotImplementedError

    def _goodbye(self, src: bytes, body: bytes) -> None:
        raise NotImplementedError
