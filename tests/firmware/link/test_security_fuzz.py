"""The whole receive path (framing, packet parsing, authentication, replay window, reliable
delivery) fed random and mutated byte streams: it never raises and never delivers a message
that the paired peer did not send."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.link import packet
from firmware.link.framing import encode_frame
from firmware.link.radio import MemoryKeyring, PairRecord, Radio
from hal.link.memory import PipeLink

KEY = os.urandom(32)
PEER = b"PEER"
ME = b"UNIT"
SENT = [b"move %d" % i for i in range(6)]


def _radio() -> tuple[Radio, PipeLink]:
    ring = MemoryKeyring(ME)
    ring.add(PairRecord(PEER, "peer", KEY))
    mine, theirs = PipeLink.pair()
    return Radio(mine, ring, "me"), theirs


def _genuine_stream() -> bytes:
    """What the peer really sent: its messages as authenticated reliable segments."""
    out = b""
    for seq, msg in enumerate(SENT):
        segment = seq.to_bytes(2, "big") + b"\xff\xff\x00" + msg
        out += b"\x00" + encode_frame(packet.data_body(KEY, PEER, ME, 1, seq + 1, segment))
    return out


GENUINE = _genuine_stream()


def _check(stream: bytes) -> None:
    radio, _ = _radio()
    radio.link.inbox += stream  # type: ignore[attr-defined]
    radio.tick(0)
    taken = radio.take_messages()
    assert all(src == PEER for src, _ in taken)
    delivered = [m for _, m in taken]
    # only messages the peer sent, in its order (a prefix-respecting subsequence)
    assert delivered == SENT[: len(delivered)]


@settings(max_examples=5000)
@given(st.binary(max_size=400))
def test_random_streams_never_raise_or_deliver(data: bytes) -> None:
    radio, _ = _radio()
    radio.link.inbox += data  # type: ignore[attr-defined]
    radio.tick(0)
    assert radio.take_messages() == []


MUTATIONS = (
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=8),
    st.lists(st.integers(0, 10_000), max_size=4),
    st.lists(st.tuples(st.integers(0, 10_000), st.binary(min_size=1, max_size=8)), max_size=3),
    st.booleans(),
)


def mutated_genuine_streams_deliver_only_what_was_sent(
    flips: list[tuple[int, int]],
    cuts: list[int],
    inserts: list[tuple[int, bytes]],
    repeat: bool,
) -> None:
    stream = bytearray(GENUINE + (GENUINE if repeat else b""))
    for pos, value in flips:
        stream[pos % len(stream)] ^= value
    for pos in cuts:
        del stream[pos % len(stream)]
    for pos, chunk in inserts:
        stream[pos % len(stream) : pos % len(stream)] = chunk
    _check(bytes(stream))


# Each example authenticates up to 12 frames (about 45 ms): 500 in the suite, 5000 in the
# soak run (`python3 run.py soak`).
test_mutated_genuine_streams_deliver_only_what_was_sent = settings(max_examples=500)(
    given(*MUTATIONS)(mutated_genuine_streams_deliver_only_what_was_sent)
)
test_mutated_genuine_streams_soak = pytest.mark.soak(
    settings(max_examples=5000)(
        given(*MUTATIONS)(mutated_genuine_streams_deliver_only_what_was_sent)
    )
)


def test_the_untouched_stream_delivers_everything_once() -> None:
    radio, _ = _radio()
    radio.link.inbox += GENUINE + GENUINE  # type: ignore[attr-defined]
    radio.tick(0)
    assert [m for _, m in radio.take_messages()] == SENT
    assert radio.counters.rejected["replay"] == len(SENT)
