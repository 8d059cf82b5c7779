"""Reliable, ordered delivery between two units, driven by frame-loop ticks (P-LINK-1, -4).

No threads and no wall clock: `poll(tick)` is called once per tick (also under the pause
menu and with the lid closed) and returns the segments to put on the air now; `receive`
takes one segment that arrived. A segment is

    seq (2 bytes) | ack (2) | ackbits (1) | message (0..n bytes)

`seq` numbers messages (16-bit, wrapping); a segment without a message (`seq` then repeats
the next number unused) is a pure ack or keep-alive. `ack` is the last message received in
order, `ackbits` bit i says message ack+2+i also arrived (selective acks, so one lost frame
does not force the ones after it to be sent again). Up to `WINDOW` messages are in flight.
Unacked messages are sent again after the retransmission timeout (smoothed RTT + 3 x its
variation, at least 2 ticks more, Karn's rule), 1.5 times longer on every retry up to
`MAX_RTO`, plus a few random ticks, more with every retry, so two units whose bursts
collided on the half-duplex air part ways. Duplicates are dropped by sequence number. Only
one side (the `leader`) sends keep-alives; the other answers them, so the two never start a
keep-alive together (once the link is lost, both probe for its return). Silence for
`LOST_TICKS` marks the link lost; any segment from the peer
restores it, and the outstanding messages then go through as if nothing happened.
"""

from __future__ import annotations

import random
import struct
from collections import deque
from dataclasses import dataclass, field

HEADER = struct.Struct("!HHB")
SEQ_MOD = 1 << 16
WINDOW = 8
MIN_RTO = 8  # ticks (133 ms): above the RTT of a frame and its ack at 9600 baud
INITIAL_RTO = 16  # before any RTT sample: a long frame and its ack take ~10 ticks
MAX_RTO = 60  # one second
KEEPALIVE_TICKS = 45  # the leader says something at least every 0.75 s
LOST_TICKS = 150  # 2.5 s of silence (three keep-alive rounds): the partner is gone (<= 3 s)
PER_TICK = 2  # segments with messages per tick at most (the air is slow)


def seq_lt(a: int, b: int) -> bool:
    """a comes before b in 16-bit wrapping sequence space."""
    return a != b and ((b - a) % SEQ_MOD) < SEQ_MOD // 2


@dataclass
class _Outgoing:
    seq: int
    message: bytes
    sent_at: int = -1
    due: int = 0
    tries: int = 0


@dataclass
class ReliableStats:
    sent: int = 0  # segments put on the air (all kinds)
    received: int = 0  # segments taken in
    retransmitted: int = 0
    duplicates: int = 0
    delivered: int = 0
    rtt_samples: list[int] = field(default_factory=list)


class Reliable:
    """One direction pair of reliable delivery with one peer."""

    def __init__(
        self, keepalive_phase: int = 0, rng: random.Random | None = None, leader: bool = True
    ) -> None:
        self.leader = leader  # only the leader sends keep-alives; the other answers them
        self.rng = rng or random.Random(keepalive_phase)
        self.next_seq = 0  # the number of the next new message
        self.rcv_next = 0  # the next message number expected in order
        self._queue: deque[bytes] = deque()  # not yet in flight
        self._flight: dict[int, _Outgoing] = {}
        self._ooo: dict[int, bytes] = {}  # arrived ahead of order
        self._ack_owed = False
        self.last_heard = 0
        self.last_sent = keepalive_phase - KEEPALIVE_TICKS
        self.tick = 0
        self.srtt: float | None = None
        self.rttvar = 0.0
        self.rto = INITIAL_RTO
        self.lost = False
        self.started = False
        self.stats = ReliableStats()

    # ------------------------------------------------------------------ sending side
    def send(self, message: bytes) -> None:
        """Queue a message; it is delivered exactly once, in order, while the peer lives."""
        self._queue.append(bytes(message))

    @property
    def pending(self) -> int:
        """Messages not yet acknowledged."""
        return len(self._queue) + len(self._flight)

    def _ackbits(self) -> int:
        bits = 0
        for i in range(8):
            if (self.rcv_next + 1 + i) % SEQ_MOD in self._ooo:
                bits |= 1 << i
        return bits

    def _segment(self, seq: int, message: bytes) -> bytes:
        ack = (self.rcv_next - 1) % SEQ_MOD
        return HEADER.pack(seq, ack, self._ackbits()) + message

    def hurry(self) -> None:
        """Retransmit what is unacknowledged after MIN_RTO, not the backed-off timeout: a
        unit switching off has a moment for its goodbye, not seconds."""
        for item in self._flight.values():
            if item.tries:
                item.due = min(item.due, item.sent_at + MIN_RTO)

    def hello_segment(self) -> bytes:
        """A pure ack: what a channel sends to make itself known without a message."""
        return self._segment(self.next_seq, b"")

    def poll(self, tick: int) -> list[bytes]:
        """The segments to transmit at this tick (called once per tick)."""
        self.tick = tick
        if not self.started:
            self.started = True
            self.last_heard = tick
        if tick - self.last_heard > LOST_TICKS:
            self.lost = True
        out: list[bytes] = []
        while self._queue and len(self._flight) < WINDOW:
            seq = self.next_seq
            self.next_seq = (seq + 1) % SEQ_MOD
            self._flight[seq] = _Outgoing(seq, self._queue.popleft(), due=tick)
        for item in sorted(self._flight.values(), key=lambda o: (o.due, (o.seq - self.rcv_next))):
            if len(out) >= PER_TICK:
                break
            if item.due > tick:
                continue
            if item.tries:
                self.stats.retransmitted += 1
            item.tries += 1
            item.sent_at = tick
            backoff = min(MAX_RTO, round(self.rto * 1.5 ** min(item.tries - 1, 6)))
            # A random extra slot or two: two units that collided once (half-duplex air) do
            # not retry in the same tick again.
            item.due = tick + backoff + self.rng.randrange(3 + 4 * min(item.tries - 1, 4))
            out.append(self._segment(item.seq, item.message))
        # The leader keeps the link alive; once it is lost, both sides probe for its return.
        speaker = self.leader or self.lost
        quiet = speaker and tick - self.last_sent >= KEEPALIVE_TICKS + self.rng.randrange(8)
        if not out and (self._ack_owed or quiet):
            out.append(self._segment(self.next_seq, b""))
        if out:
            self._ack_owed = False
            self.last_sent = tick
            self.stats.sent += len(out)
        return out

    # ---------------------------------------------------------------- receiving side
    def receive(self, segment: bytes) -> list[bytes] | None:
        """Take one arrived segment; the messages now deliverable, in order. None: the
        segment was malformed (too short)."""
        if len(segment) < HEADER.size:
            return None
        seq, ack, bits = HEADER.unpack_from(segment)
        message = segment[HEADER.size :]
        self.stats.received += 1
        self.last_heard = self.tick
        self.lost = False
        self._on_ack(ack, bits)
        if not message:
            # The follower answers the leader's keep-alive (at most every half interval), so
            # only one side talks unprompted and the two never start a keep-alive together.
            if not self.leader and self.tick - self.last_sent >= KEEPALIVE_TICKS // 2:
                self._ack_owed = True
            return []
        self._ack_owed = True
        if seq == self.rcv_next:
            out = [message]
            self.rcv_next = (self.rcv_next + 1) % SEQ_MOD
            while self.rcv_next in self._ooo:
                out.append(self._ooo.pop(self.rcv_next))
                self.rcv_next = (self.rcv_next + 1) % SEQ_MOD
            self.stats.delivered += len(out)
            return out
        if seq_lt(seq, self.rcv_next) or seq in self._ooo:
            self.stats.duplicates += 1
            return []
        if (seq - self.rcv_next) % SEQ_MOD < WINDOW * 2:
            self._ooo[seq] = message
        return []

    def _on_ack(self, ack: int, bits: int) -> None:
        acked = [s for s in self._flight if not seq_lt(ack, s)]
        for i in range(8):
            if bits & (1 << i):
                s = (ack + 2 + i) % SEQ_MOD
                if s in self._flight:
                    acked.append(s)
        for s in acked:
            item = self._flight.pop(s, None)
            if item is not None and item.tries == 1 and item.sent_at >= 0:
                self._sample(self.tick - item.sent_at)

    def _sample(self, rtt: int) -> None:
        rtt = max(rtt, 1)
        self.stats.rtt_samples.append(rtt)
        if len(self.stats.rtt_samples) > 64:
            del self.stats.rtt_samples[:32]
        if self.srtt is None:
            self.srtt, self.rttvar = float(rtt), rtt / 2
        else:
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - rtt)
            self.srtt = 0.875 * self.srtt + 0.125 * rtt
        # SRTT plus a margin for its variation; the air's delay hardly varies, and most
        # losses here are collisions, not congestion, so a short timeout recovers soonest.
        self.rto = max(MIN_RTO, min(MAX_RTO, round(self.srtt + max(2.0, 3 * self.rttvar))))

    @property
    def rtt_ms(self) -> int | None:
        return None if self.srtt is None else round(self.srtt * 1000 / 60)
