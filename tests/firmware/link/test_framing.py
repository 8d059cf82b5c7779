"""COBS + CRC framing: round trips, resynchronisation, and a decoder that survives anything."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.link.framing import MAX_BODY, FrameDecoder, crc16, encode_frame

bodies = st.binary(min_size=1, max_size=MAX_BODY)


@given(st.lists(bodies, max_size=8), st.integers(1, 40))
def test_frames_round_trip_whatever_the_chunking(frames: list[bytes], chunk: int) -> None:
    stream = b"".join(encode_frame(f) for f in frames)
    dec = FrameDecoder()
    out: list[bytes] = []
    for i in range(0, len(stream), chunk):
        out += dec.feed(stream[i : i + chunk])
    assert out == frames


def test_wire_form_has_no_zero_except_the_delimiter() -> None:
    wire = encode_frame(bytes(50))
    assert wire.endswith(b"\x00") and b"\x00" not in wire[:-1]
    assert len(wire) == 50 + 2 + 1 + 1  # CRC, COBS code byte, delimiter


def test_decoder_resynchronises_after_garbage() -> None:
    dec = FrameDecoder()
    # senders start every burst with a delimiter, so noise before it cannot swallow a frame
    out = dec.feed(b"\x13\x37garbage\x00" + encode_frame(b"one") + b"\xff" * 500)
    out += dec.feed(b"\x00" + encode_frame(b"two"))
    assert out == [b"one", b"two"]
    assert dec.overlong == 1


@settings(max_examples=5000)
@given(st.binary(max_size=300))
def test_decoder_never_raises_on_random_bytes(data: bytes) -> None:
    dec = FrameDecoder()
    out = dec.feed(data)
    assert dec.frames == len(out)
    for body in out:  # whatever it yields is a frame its CRC vouches for
        assert 0 < len(body) <= MAX_BODY
        assert FrameDecoder().feed(encode_frame(body)) == [body]


def test_corrupted_frames_are_counted_not_returned() -> None:
    rng = random.Random(4)
    dec = FrameDecoder()
    sent = [bytes(rng.randrange(256) for _ in range(30)) for _ in range(2000)]
    delivered = []
    for body in sent:
        wire = bytearray(encode_frame(body))
        if rng.random() < 0.5:
            i = rng.randrange(len(wire) - 1)
            wire[i] ^= 1 << rng.randrange(8)
        delivered += dec.feed(bytes(wire))
    assert set(delivered) <= set(sent)
    assert 800 < dec.crc_errors < 1200
    assert dec.frames == len(delivered)


def test_crc16_is_genibus() -> None:
    assert crc16(b"123456789") == 0xD64E  # the catalogue check value of CRC-16/GENIBUS


def test_a_lost_delimiter_never_merges_two_frames_into_a_valid_one() -> None:
    rng = random.Random(1)
    dec = FrameDecoder()
    sent = set()
    for i in range(20_000):
        body = bytes(rng.randrange(256) for _ in range(8)) + b"m%d" % i
        sent.add(body)
        wire = bytearray(b"\x00" + encode_frame(body))
        for j in range(len(wire)):
            if rng.random() < 0.01:
                wire[j] ^= 1 << rng.randrange(8)
        assert set(dec.feed(bytes(wire))) <= sent
