"""Reliable ordered delivery over impaired simulated air, in simulated time."""

from __future__ import annotations

from firmware.link.framing import FrameDecoder, encode_frame
from firmware.link.reliable import KEEPALIVE_TICKS, LOST_TICKS, SEQ_MOD, Reliable, seq_lt
from firmware.link.testbed import Air, prepaired
from hal.link.air import Impairments
from hal.link.memory import MemoryLink, MemoryMedium


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class End:
    """One unit: radio, frame decoder, reliable channel; records what it delivered."""

    def __init__(self, link: MemoryLink, phase: int = 0) -> None:
        self.link = link
        self.dec = FrameDecoder()
        self.rel = Reliable(keepalive_phase=phase)
        self.got: list[bytes] = []

    def tick(self, tick: int) -> None:
        for body in self.dec.feed(self.link.read()):
            out = self.rel.receive(body)
            if out:
                self.got += out
        if self.link.out_waiting() > 40:
            return  # the radio is still busy: hold back (as the link stack does)
        segs = self.rel.poll(tick)
        if segs:
            self.link.write(b"\x00" + b"".join(encode_frame(s) for s in segs))


def run(ends: list[End], clock: Clock, ticks: int, start: int = 0) -> int:
    for t in range(start, start + ticks):
        clock.t = t / 60
        for e in ends:
            e.tick(t)
    return start + ticks


def test_seq_comparison_wraps() -> None:
    assert seq_lt(SEQ_MOD - 1, 0) and not seq_lt(0, SEQ_MOD - 1) and not seq_lt(5, 5)


def test_ten_thousand_messages_under_heavy_impairment_arrive_once_in_order() -> None:
    """Through the whole stack (framing, authentication, reliable delivery) on simulated air
    with 30% loss, 1% byte corruption, duplication and jitter that reorders frames."""
    imp = Impairments(baud=0, loss=0.3, corrupt=0.01, dup=0.05, delay_ms=10, jitter_ms=60, seed=9)
    air = Air(imp)
    a, b = prepaired(air, "A", "B")
    sent_ab = [f"a{i}".encode() for i in range(10_000)]
    sent_ba = [f"b{i}".encode() for i in range(300)]
    for m in sent_ab:
        a.send(b.id, m)
    for m in sent_ba:
        b.send(a.id, m)
    got_b: list[bytes] = []
    got_a: list[bytes] = []
    while len(got_b) < len(sent_ab) and air.tick < 60 * 3600:
        air.run(600)
        got_b += [m for src, m in b.take_messages() if src == a.id]
        got_a += [m for src, m in a.take_messages() if src == b.id]
    assert got_b == sent_ab  # each exactly once, in order, none invented
    assert got_a == sent_ba
    assert a.counters.retransmitted > 1000  # the impairment really bit
    assert b.peers[a.id].rel.stats.duplicates > 0
    assert b.counters.rejected["crc"] > 0
    assert b.counters.rejected["replay"] > 0  # duplicated frames
    assert air.medium.links[1].rx.stats["dup"] > 0


def test_delivery_at_9600_baud_with_collisions_and_loss() -> None:
    clock = Clock()
    imp = Impairments(baud=9600, loss=0.1, corrupt=0.002, delay_ms=20, jitter_ms=10, seed=2)
    medium = MemoryMedium(imp, clock)
    a, b = End(medium.attach()), End(medium.attach(), phase=13)
    msgs = [bytes([i % 256]) * 12 for i in range(300)]
    t = 0
    for i, m in enumerate(msgs):  # a message every 10 ticks, alternating senders
        (a if i % 2 else b).rel.send(m)
        t = run([a, b], clock, 10, t)
    run([a, b], clock, 1800, t)
    assert b.got == [m for i, m in enumerate(msgs) if i % 2]
    assert a.got == [m for i, m in enumerate(msgs) if not i % 2]
    assert a.rel.rtt_ms is not None and 30 < a.rel.rtt_ms < 400


def test_keepalives_flow_and_silence_marks_the_link_lost_then_recovers() -> None:
    clock = Clock()
    medium = MemoryMedium(Impairments(baud=9600, delay_ms=20), clock)
    a, b = End(medium.attach()), End(medium.attach(), phase=11)
    t = run([a, b], clock, 300)
    assert not a.rel.lost and not b.rel.lost
    assert a.rel.stats.received >= 300 // KEEPALIVE_TICKS - 2  # regular keep-alives
    medium.cut = True
    a.rel.send(b"during the cut")
    cut_at = t
    lost_at = None
    while lost_at is None:
        t = run([a, b], clock, 1, t)
        if a.rel.lost and b.rel.lost:
            lost_at = t
    assert (lost_at - cut_at) <= LOST_TICKS + 2  # detected within about two seconds
    t = run([a, b], clock, 600, t)  # ten seconds without air
    assert b.got == []
    medium.cut = False
    t = run([a, b], clock, 120, t)
    assert not a.rel.lost and not b.rel.lost
    assert b.got == [b"during the cut"]


def test_malformed_segments_are_refused() -> None:
    rel = Reliable()
    assert rel.receive(b"\x00") is None
    assert rel.receive(b"") is None
