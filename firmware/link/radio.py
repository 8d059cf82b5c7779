"""One unit's radio stack: frames in and out, beacons, pairing, and a reliable authenticated
channel per paired peer. Driven by `tick()` once per frame-loop tick; never blocks.

Above it the session layer (session.py) sends and receives messages with `send(peer, msg)`
and `take_messages()`; only frames that verify under a stored pairing key ever become
messages, so an unpaired unit's traffic never reaches a game (P-LINK-2, P-REL-4).
"""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from firmware.link import packet
from firmware.link.framing import FrameDecoder, encode_frame
from firmware.link.packet import Beacon, PacketError, ReplayWindow
from firmware.link.pairing import REQ, Pairing, Step
from firmware.link.reliable import HEADER, Reliable
from hal.interfaces import ByteLink

log = logging.getLogger("twinfold.link")

BEACON_TICKS = 45  # announce about every 0.75 s while hosting or looking
NEARBY_TICKS = 180  # a unit not heard for 3 s leaves the nearby list
HOLD_BYTES = 24  # the radio's buffer holds more than this: send nothing new this tick
# Half-duplex fairness: after talking this many ticks without a break, a unit falls silent
# for HUSH_TICKS (plus 0-2 at random) so its partners can get their acks in; a unit with a
# backlog (several guests' states to send, retransmissions) would otherwise fill the air,
# hear no acks, retransmit more, and never recover.
TALK_TICKS = 12
HUSH_TICKS = 3
MAX_COUNT = (1 << packet.COUNT_BITS) - 1
HELLO_TICKS = 120  # a channel answers stale frames with a hello at most this often
CLOSE_LINGER = 180  # ticks a closed channel keeps trying to deliver its last messages
PAIR_LINGER = 240  # ticks the pairing channel stays up after it ended (its last acks)
# A pairing request nobody answers (the unit is not hosting, is out of range or switched
# off) fails after this many ticks with a reason, instead of asking for ever.
PAIR_ANSWER_TICKS = 600


@dataclass
class PairRecord:
    peer: bytes
    name: str
    key: bytes
    epoch: int = -1  # the highest epoch of this peer accepted so far


class Keyring(Protocol):
    """Where the radio's identity and pairings persist (the store, or memory in tests)."""

    def start(self) -> tuple[bytes, int]:
        """This unit's id and a fresh epoch (raised and saved at every call)."""
        ...

    def pairings(self) -> dict[bytes, PairRecord]: ...

    def add(self, record: PairRecord) -> None: ...

    def forget(self, peer: bytes) -> None: ...

    def seen_epoch(self, peer: bytes, epoch: int) -> None: ...


class MemoryKeyring:
    """A keyring that lives as long as the object (tests, benches)."""

    def __init__(self, unit_id: bytes | None = None) -> None:
        self.unit_id = unit_id or os.urandom(packet.ID_BYTES)
        self.epoch = 0
        self.records: dict[bytes, PairRecord] = {}

    def start(self) -> tuple[bytes, int]:
        self.epoch += 1
        return self.unit_id, self.epoch

    def pairings(self) -> dict[bytes, PairRecord]:
        return dict(self.records)

    def add(self, record: PairRecord) -> None:
        self.records[record.peer] = record

    def forget(self, peer: bytes) -> None:
        self.records.pop(peer, None)

    def seen_epoch(self, peer: bytes, epoch: int) -> None:
        if peer in self.records:
            self.records[peer].epoch = epoch


@dataclass
class Counters:
    sent: int = 0
    received: int = 0
    retransmitted: int = 0
    rejected: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            ("crc", "auth", "replay", "unpaired", "illegal", "spoof"), 0
        )
    )


class Peer:
    """A paired unit we talk to: its key, replay window and reliable channel."""

    def __init__(
        self, record: PairRecord, rng: random.Random, leader: bool = True, my_inc: int = 0
    ) -> None:
        self.record = record
        self.my_inc = my_inc  # this channel's number (a new one for every new channel)
        self.peer_inc: int | None = None  # the number of the peer's channel we talk to
        self.window = ReplayWindow(record.epoch)
        self.leader = leader
        self.rel = Reliable(keepalive_phase=rng.randrange(30), rng=rng, leader=leader)
        self.active = False  # True while a session uses it (keep-alives flow)
        self.closing: int | None = None  # tick of `disconnect`; dropped once flushed
        self.rel_epoch: int | None = None  # the peer's epoch our channel talks with
        self.hello_at = -HELLO_TICKS - 1  # when this channel last announced itself


def _request_key(segment: bytes) -> bytes | None:
    """The public key of the pairing request a PAIR segment carries (the first message of
    an exchange), or None."""
    if len(segment) <= HEADER.size or segment[HEADER.size] != REQ:
        return None
    return segment[HEADER.size + 1 : HEADER.size + 33]


class Radio:
    def __init__(
        self,
        link: ByteLink,
        keyring: Keyring,
        name: str,
        *,
        rng: random.Random | None = None,
        on_reject: Callable[[str, str], None] | None = None,
    ) -> None:
        self.link = link
        self.keyring = keyring
        self.name = name
        self.id, self.epoch = keyring.start()
        self.tag_bytes = packet.tag_length(link.kind())  # the transport's (packet.py)
        self.rng = rng or random.Random(self.id)
        self.count = 0
        self.decoder = FrameDecoder()
        self.counters = Counters()
        self.peers: dict[bytes, Peer] = {}
        self.nearby: dict[bytes, tuple[Beacon, int]] = {}
        self.beacon: Beacon | None = None  # what this unit announces (None: stays quiet)
        # Units in a match with this one (the session says): they announce nothing, so a
        # beacon with one of their ids is someone else's (refused as "spoof").
        self.silent: set[bytes] = set()
        self.accept_pairing = False  # a host accepts pairing requests while it waits
        self.pairing: Pairing | None = None
        self._kept: Pairing | None = None  # the exchange whose key was stored last
        self._pair_rel: Reliable | None = None
        self._pair_done = 0
        self._pair_asked = 0  # tick of the last pairing request or answer heard
        self.id_clash: str | None = None  # the name of another unit heard with our id
        self._messages: list[tuple[bytes, bytes]] = []
        self.events: list[tuple[str, bytes]] = []  # ("restarted", peer), ("paired", peer)
        self.tick_no = 0
        # Channel numbers: a new one per new channel with a peer; the start moves by 7 (of
        # 15) with every epoch, so a rebooted unit does not reuse its last numbers at once.
        self._inc_base = (self.epoch * 7) % packet.UNKNOWN_CHAN
        self._made: dict[bytes, int] = {}
        self._last_rx = -10
        self._talking = 0  # consecutive ticks with our own bytes still on the air
        self._hush_until = 0
        self._hellos: set[bytes] = set()  # peers to greet from a new channel (see _on_data)
        self._next_beacon = 0
        self._retrans_done = 0
        self.on_reject = on_reject

    # ----------------------------------------------------------------------- services
    def paired(self) -> dict[bytes, PairRecord]:
        return self.keyring.pairings()

    def peer(self, peer_id: bytes) -> Peer | None:
        """The channel to a paired unit (made on first use); None if not paired."""
        found = self.peers.get(peer_id)
        if found is None:
            record = self.keyring.pairings().get(peer_id)
            if record is None:
                return None
            made = self._made.get(peer_id, 0)
            self._made[peer_id] = made + 1
            inc = (self._inc_base + made) % packet.UNKNOWN_CHAN
            found = self.peers[peer_id] = Peer(
                record, self.rng, leader=self.id < peer_id, my_inc=inc
            )
        return found

    def connect(self, peer_id: bytes) -> bool:
        peer = self.peer(peer_id)
        if peer is None:
            return False
        peer.active = True
        return True

    def disconnect(self, peer_id: bytes) -> None:
        """Stop talking to a peer once what is queued for it (a goodbye) has gone out."""
        peer = self.peers.get(peer_id)
        if peer is not None and peer.closing is None:
            peer.closing = self.tick_no

    def send(self, peer_id: bytes, message: bytes) -> bool:
        peer = self.peer(peer_id)
        if peer is None:
            return False
        peer.active, peer.closing = True, None
        peer.rel.send(message)
        return True

    def take_messages(self) -> list[tuple[bytes, bytes]]:
        out, self._messages = self._messages, []
        return out

    def take_events(self) -> list[tuple[str, bytes]]:
        out, self.events = self.events, []
        return out

    def start_pairing(self, peer_id: bytes) -> Pairing:
        """Ask the unit `peer_id` (seen in a beacon) to pair."""
        self.pairing = Pairing(True, self.name, peer_id)
        self._pair_rel = Reliable(rng=self.rng, leader=self.id < peer_id)
        self._pair_asked = self.tick_no
        return self.pairing

    def cancel_pairing(self) -> None:
        if self.pairing is not None and not self.pairing.done:
            self.pairing.confirm(False)
            self._flush_pairing()
        self.pairing, self._pair_rel = None, None

    def forget(self, peer_id: bytes) -> None:
        self.keyring.forget(peer_id)
        self.peers.pop(peer_id, None)

    def nearby_units(self) -> list[Beacon]:
        return [b for b, _ in sorted(self.nearby.values(), key=lambda v: v[0].name)]

    def reject(self, kind: str, why: str) -> None:
        self.counters.rejected[kind] += 1
        log.info("link: rejected (%s): %s", kind, why)
        if self.on_reject is not None:
            self.on_reject(kind, why)

    # ----------------------------------------------------------------------- the tick
    def tick(self, tick: int) -> None:
        self.tick_no = tick
        data = self.link.read()
        if data:
            self._last_rx = tick
            for body in self.decoder.feed(data):
                self._on_body(body)
        self.counters.rejected["crc"] = (
            self.decoder.crc_errors + self.decoder.overlong + self.link.noise()
        )
        for peer_id, (_, seen) in list(self.nearby.items()):
            if tick - seen > NEARBY_TICKS:
                del self.nearby[peer_id]
        self._settle_pairing()
        waiting = self.link.out_waiting()
        self._talking = self._talking + 1 if waiting else 0
        if self._talking >= TALK_TICKS:
            self._talking = 0
            self._hush_until = tick + HUSH_TICKS + self.rng.randrange(3)
        if waiting > HOLD_BYTES or tick < self._hush_until:
            return  # still sending earlier bursts, or letting the partners speak
        arriving = self.decoder.mid_frame and tick - self._last_rx <= 2  # (noise times out)
        if self.link.receiving() or arriving:
            return  # carrier sense: another unit is on the air; talk after it (next tick)
        frames: list[bytes] = []
        if self.beacon is not None and tick >= self._next_beacon:
            frames.append(self.beacon.encode())
            self._next_beacon = tick + BEACON_TICKS + self.rng.randrange(8)
        if self.pairing is not None and self._pair_rel is not None:
            self._flush_pairing()
            for seg in self._pair_rel.poll(tick):
                frames.append(packet.pair_body(self.id, self.pairing.peer, seg))
        for peer_id in sorted(self._hellos):
            hello = self.peers.get(peer_id)
            if hello is not None:
                frames.append(self._data(hello, peer_id, hello.rel.hello_segment()))
        self._hellos.clear()
        for peer_id, peer in list(self.peers.items()):
            if peer.closing is not None and (
                peer.rel.pending == 0 or tick - peer.closing > CLOSE_LINGER
            ):
                self._retrans_done += peer.rel.stats.retransmitted
                del self.peers[peer_id]
                continue
            if not peer.active:
                continue
            for seg in peer.rel.poll(tick):
                frames.append(self._data(peer, peer_id, seg))
        if frames:
            self.counters.sent += len(frames)
            self.link.write(b"\x00" + b"".join(encode_frame(f) for f in frames))
        self.counters.retransmitted = self._retrans_done + sum(
            p.rel.stats.retransmitted for p in self.peers.values()
        )

    def _data(self, peer: Peer, peer_id: bytes, segment: bytes) -> bytes:
        if self.count >= MAX_COUNT:
            # A count is never used twice in an epoch (it is half of the frame's nonce): at
            # the top (hours of play at the fastest pace) the unit takes a new epoch, which
            # its peers see as a restart of the channel.
            _, self.epoch = self.keyring.start()
            self.count = 0
        self.count += 1
        seen = packet.UNKNOWN_CHAN if peer.peer_inc is None else peer.peer_inc
        chan = (peer.my_inc << 4) | seen
        return packet.data_body(
            peer.record.key,
            self.id,
            peer_id,
            self.epoch,
            self.count,
            segment,
            chan,
            self.tag_bytes,
        )

    def _flush_pairing(self) -> None:
        if self.pairing is not None and self._pair_rel is not None:
            for msg in self.pairing.outbox:
                self._pair_rel.send(msg)
            self.pairing.outbox.clear()

    def _settle_pairing(self) -> None:
        self._flush_pairing()  # what the exchange still has to say counts as pending
        p = self.pairing
        if p is not None and not p.done and self.tick_no - self._pair_asked > PAIR_ANSWER_TICKS:
            # Nothing heard from the other unit for 10 s, whatever the step (a live one
            # keeps its channel's keep-alives coming): the exchange ends, and its channel
            # at once (retransmitting a request nobody answered would only open a stale
            # exchange on a host later, in the way of this unit's next try and others').
            p.give_up("no answer (is the other unit hosting, in range and switched on?)")
            self._pair_rel = None
        if p is None or p.step is not Step.PAIRED or p.key is None:
            if p is not None and p.step is Step.FAILED and self._pair_rel is not None:
                if self._pair_rel.pending == 0 or self.tick_no - self._pair_done > PAIR_LINGER:
                    self._pair_rel = None  # the decline went out: the channel falls silent
            elif p is not None:
                self._pair_done = self.tick_no
            return
        # Paired: keep the pairing channel only until its last messages are acknowledged
        # (or a while), so its keep-alives do not crowd the air during play.
        if self._pair_rel is not None and (
            (self._pair_rel.pending == 0 and self.tick_no - self._pair_done > PAIR_LINGER // 4)
            or self.tick_no - self._pair_done > PAIR_LINGER
        ):
            self._pair_rel = None
        self._keep(p)

    def _keep(self, p: Pairing) -> None:
        """Store the key of an exchange that has just paired, once: at once when its last
        message arrives (in the same tick another unit's request may take the exchange's
        place), and a pairing again with a known unit replaces the old key."""
        if p.step is Step.PAIRED and p.key is not None and p is not self._kept:
            self._kept = p
            self.keyring.add(PairRecord(p.peer, p.peer_name or p.peer.hex(), p.key))
            log.info("link: paired with %s (%s)", p.peer_name, p.peer.hex())
            self.peers.pop(p.peer, None)
            self.events.append(("paired", p.peer))

    # -------------------------------------------------------------------- receiving
    def _on_body(self, body: bytes) -> None:
        kind = body[0]
        try:
            if kind == packet.BEACON:
                beacon = Beacon.decode(body)
                if beacon.src in self.silent:
                    self.reject("spoof", f"a beacon with the id of {beacon.src.hex()}, in play")
                elif beacon.src != self.id:
                    self.nearby[beacon.src] = (beacon, self.tick_no)
                elif self.id_clash != beacon.name:
                    # No radio hears itself: another unit announces with our id (a copied
                    # store). Neither could pair with the other; the screens say so.
                    self.id_clash = beacon.name
                    log.warning(
                        "link: another unit (%s) uses this unit's radio id %s; give each unit"
                        " its own store",
                        beacon.name,
                        self.id.hex(),
                    )
            elif kind == packet.PAIR:
                self._on_pair(body)
            elif kind == packet.DATA:
                self._on_data(body)
            # other kinds: not ours (a future version, noise that passed the CRC)
        except PacketError as exc:
            self.reject("crc", str(exc))
        except Exception as exc:
            log.exception("link: a frame could not be handled")
            self.reject("crc", f"unhandled frame: {exc}")

    def _on_pair(self, body: bytes) -> None:
        _, src, dst, segment = packet.parse_addressed(body)
        if dst != self.id:
            return
        if src == self.id:  # a copy of this unit: one key, one nonce space for both
            self.reject("spoof", "pairing traffic from a unit with this unit's id")
            return
        over = self.pairing is None or (self.pairing.done and self._pair_rel is None)
        request = _request_key(segment)
        # The unit of the running exchange asks again with a new key: it gave up on that
        # one and started afresh (its messages are numbered from 0 again), so must we.
        again = (
            self.pairing is not None
            and not self.pairing.done
            and not self.pairing.joiner
            and self.pairing.peer == src
            and request is not None
            and request != self.pairing.peer_key
        )
        # Another unit's request takes the place of an exchange that ended once that
        # exchange's last messages (its confirmation) got through.
        flushed = self._pair_rel is None or self._pair_rel.pending == 0
        if (
            over
            or again
            or (
                self.pairing is not None
                and self.pairing.done
                and self.pairing.peer != src
                and flushed
            )
        ):
            # a new exchange (also a second try from a unit whose first one ended)
            if src in self.keyring.pairings() and not self.accept_pairing:
                return  # a late retransmission of the exchange that paired us
            if request is None:
                # Only a request opens an exchange: anything else is a late retransmission
                # or ack of one that ended. Taken as a new one, it would stand (asking for
                # a request that never comes) in the way of the next unit's pairing.
                return
            if not self.accept_pairing:
                self.reject("unpaired", "a pairing request while not accepting any")
                return
            self.pairing = Pairing(False, self.name, src)
            self._pair_rel = Reliable(rng=self.rng, leader=self.id < src)
            log.info("link: unit %s asks to pair", src.hex())
        pairing = self.pairing
        if pairing is None or pairing.peer != src:
            self.reject("unpaired", "pairing traffic from a third unit")
            return
        if self._pair_rel is None:
            return
        self._pair_rel.tick = self.tick_no
        self._pair_asked = self.tick_no
        for msg in self._pair_rel.receive(segment) or []:
            pairing.receive(msg)
        self._keep(pairing)

    def _on_data(self, body: bytes) -> None:
        frame = packet.parse_data(body, self.tag_bytes)
        if frame.dst != self.id:
            return  # between two other units
        peer = self.peer(frame.src)
        if peer is None:
            self.reject("unpaired", f"data from unit {frame.src.hex()}, which is not paired")
            return
        if not packet.verify(peer.record.key, frame):
            self.reject("auth", f"a frame from {peer.record.name} failed authentication")
            return
        if not peer.window.check(frame.epoch, frame.count):
            self.reject("replay", f"frame {frame.epoch}:{frame.count} seen before")
            return
        if peer.window.accept(frame.epoch, frame.count):
            self.keyring.seen_epoch(frame.src, frame.epoch)
        segment = packet.unseal(peer.record.key, frame)
        their, seen = frame.chan >> 4, frame.chan & 0x0F
        rebooted = peer.rel_epoch is not None and peer.rel_epoch != frame.epoch
        renewed = peer.peer_inc is not None and peer.peer_inc != their
        if rebooted or renewed:
            # The peer rebooted, or started a new channel with us (it had closed the old
            # one): its message numbers start again, so ours must too. A channel that never
            # heard the peer simply adopts its numbers: both sides are fresh.
            self._retrans_done += peer.rel.stats.retransmitted
            peer.rel = Reliable(
                keepalive_phase=self.rng.randrange(30), rng=self.rng, leader=peer.leader
            )
            self.events.append(("restarted", frame.src))
        peer.rel_epoch, peer.peer_inc = frame.epoch, their
        if seen not in (packet.UNKNOWN_CHAN, peer.my_inc):
            # Sent to a channel of ours that is closed: dropped. Our new channel says hello
            # once in a while, so the peer learns its partner moved on (its match ends).
            if self.tick_no - peer.hello_at > HELLO_TICKS:
                peer.hello_at = self.tick_no
                self._hellos.add(frame.src)
            return
        self.counters.received += 1
        if len(segment) > HEADER.size:  # a message: answer it (acks) from now on
            peer.active, peer.closing = True, None
        peer.rel.tick = self.tick_no
        for msg in peer.rel.receive(segment) or []:
            self._messages.append((frame.src, msg))
