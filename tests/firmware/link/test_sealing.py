"""Sealed DATA frames (issue 32): the segment is encrypted, the body authenticated with the
transport's tag length, the nonce never repeats, and nothing else changes in the clear."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.link import packet
from firmware.link.framing import FrameDecoder, encode_frame
from firmware.link.keyring import EPOCH_LIMIT, StoreKeyring
from firmware.link.radio import MAX_COUNT, MemoryKeyring, PairRecord, Radio
from firmware.link.testbed import Air, prepaired
from firmware.storage import Store
from hal.link.memory import PipeLink

ids = st.binary(min_size=4, max_size=4)
keys = st.binary(min_size=32, max_size=32)
segments = st.binary(min_size=0, max_size=120)
tags = st.sampled_from([packet.TAG_BYTES, packet.NETWORK_TAG_BYTES])


@settings(max_examples=200, deadline=None)
@given(keys, ids, ids, st.integers(0, 0xFFFF), st.integers(0, MAX_COUNT), segments, tags)
def test_a_sealed_frame_opens_to_its_segment_and_keeps_its_head_in_the_clear(
    key: bytes, src: bytes, dst: bytes, epoch: int, count: int, segment: bytes, tag: int
) -> None:
    body = packet.data_body(key, src, dst, epoch, count, segment, 0x3F, tag)
    assert len(body) == packet.DATA_HEAD.size + len(segment) + tag
    frame = packet.parse_data(body, tag)
    assert (frame.src, frame.dst, frame.epoch, frame.count, frame.chan) == (
        src,
        dst,
        epoch,
        count,
        0x3F,
    )
    assert packet.verify(key, frame)
    assert packet.unseal(key, frame) == segment
    if len(segment) >= 8:
        assert segment not in body  # the segment itself never travels
    # The frame decoder finds it again in a stream.
    assert FrameDecoder().feed(b"\x00" + encode_frame(body)) == [body]


@settings(max_examples=200, deadline=None)
@given(keys, ids, ids, segments, tags, st.data())
def test_any_changed_bit_or_another_key_fails_the_tag(
    key: bytes, src: bytes, dst: bytes, segment: bytes, tag: int, data: st.DataObject
) -> None:
    body = bytearray(packet.data_body(key, src, dst, 7, 99, segment, 0xFF, tag))
    at = data.draw(st.integers(0, len(body) - 1))
    bit = data.draw(st.integers(0, 7))
    body[at] ^= 1 << bit
    try:
        frame = packet.parse_data(bytes(body), tag)
    except packet.PacketError:
        return  # the kind byte was hit: not a data frame at all
    assert not packet.verify(key, frame)
    other = data.draw(keys.filter(lambda k: k != key))
    clean = packet.parse_data(packet.data_body(key, src, dst, 7, 99, segment, 0xFF, tag), tag)
    assert not packet.verify(other, clean)


@settings(max_examples=100, deadline=None)
@given(keys, ids, ids, st.integers(1, 0xFFFF), st.integers(1, MAX_COUNT))
def test_every_counter_and_sender_gets_its_own_keystream(
    key: bytes, a: bytes, b: bytes, epoch: int, count: int
) -> None:
    """One segment sealed under neighbouring counters, epochs and by the other unit of the
    pairing: never the same ciphertext (the nonce is src | epoch | count)."""
    segment = bytes(32)

    def sealed(src: bytes, e: int, c: int) -> bytes:
        return packet.parse_data(packet.data_body(key, src, b"DEST", e, c, segment)).sealed

    mine = sealed(a, epoch, count)
    assert mine != sealed(a, epoch, count - 1)
    assert mine != sealed(a, epoch - 1, count)
    if b != a:
        assert mine != sealed(b, epoch, count)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), tags)
def test_parse_data_takes_any_bytes(body: bytes, tag: int) -> None:
    try:
        frame = packet.parse_data(body, tag)
    except packet.PacketError:
        return
    assert len(frame.tag) == tag and not packet.verify(os.urandom(32), frame)


class NetworkPipe(PipeLink):
    def kind(self) -> str:
        return "network"


def _pair_of_radios(link_type: type[PipeLink]) -> tuple[Radio, Radio]:
    key = os.urandom(32)
    a_ring, b_ring = MemoryKeyring(b"AAAA"), MemoryKeyring(b"BBBB")
    a_ring.add(PairRecord(b"BBBB", "b", key))
    b_ring.add(PairRecord(b"AAAA", "a", key))
    one, two = link_type(), link_type()
    one.peer, two.peer = two, one
    return Radio(one, a_ring, "a"), Radio(two, b_ring, "b")


def _data_frames(radio: Radio) -> list[bytes]:
    """The DATA frames waiting in `radio`'s inbox (what its peer sent)."""
    assert isinstance(radio.link, PipeLink)
    return [b for b in FrameDecoder().feed(bytes(radio.link.inbox)) if b[0] == packet.DATA]


def test_the_tag_length_is_the_transports_and_both_ends_agree() -> None:
    for link_type, tag in ((PipeLink, 6), (NetworkPipe, 16)):
        a, b = _pair_of_radios(link_type)
        a.send(b"BBBB", b"hello there")
        a.tick(1)
        frames = _data_frames(b)
        assert frames and all(len(f) == packet.DATA_HEAD.size + 5 + 11 + tag for f in frames)
        b.tick(1)
        assert b.take_messages() == [(b"AAAA", b"hello there")]
        assert b.counters.rejected["auth"] == 0


def test_the_count_never_wraps_a_new_epoch_follows_its_top() -> None:
    a, b = _pair_of_radios(PipeLink)
    epoch = a.epoch
    a.count = MAX_COUNT - 1
    a.send(b"BBBB", b"one")
    a.tick(1)
    a.send(b"BBBB", b"two")
    a.tick(40)
    a.tick(80)
    counters = {(f.epoch, f.count) for f in map(packet.parse_data, _data_frames(b))}
    assert (epoch, MAX_COUNT) in counters
    assert any(e == epoch + 1 for e, _ in counters) and a.epoch == epoch + 1
    assert len(counters) == len(_data_frames(b))


def test_a_wrapping_epoch_forgets_every_key(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = Store.open(tmp_path / "store.db")
    ring = StoreKeyring(store)
    unit, _ = ring.start()
    ring.add(PairRecord(b"PEER", "peer", os.urandom(32)))
    store.set_setting("radio", {"id": unit.hex(), "epoch": EPOCH_LIMIT - 2})
    assert ring.start() == (unit, EPOCH_LIMIT - 1) and ring.pairings()
    assert ring.start() == (unit, 1)
    assert ring.pairings() == {}
    store.close()


def test_a_beacon_with_a_partners_id_during_play_is_a_spoof() -> None:
    air = Air()
    host, guest = prepaired(air, "Host", "Guest")
    guest.silent = {host.id}  # what the session says while they play
    forged = packet.Beacon(host.id, True, "reversi", "Evil", 1).encode()
    guest._on_body(forged)
    assert guest.counters.rejected["spoof"] == 1 and host.id not in guest.nearby
    guest.silent = set()
    guest._on_body(forged)  # in the lobby beacons are what they say (they are not signed)
    assert host.id in guest.nearby


def test_pairing_traffic_with_the_units_own_id_is_refused() -> None:
    air = Air()
    unit = air.radio("Me")
    unit.accept_pairing = True
    unit._on_body(packet.pair_body(unit.id, unit.id, b"\x00\x00\xff\xff\x00\x01"))
    assert unit.pairing is None and unit.counters.rejected["spoof"] == 1


def test_the_longest_message_fits_a_network_frame() -> None:
    """The unit names (`N` + JSON of four 12-character names, 3 UTF-8 bytes a character)
    behind a segment header, sealed with the network's tag, is one frame."""
    import json

    name = "ひらがなカタカナ漢字ですよ"[:12]
    message = b"N" + json.dumps([name] * 4, ensure_ascii=False).encode()
    assert len(message) == 1 + 2 + 4 * (2 + 36) + 3 * 2  # 161 bytes
    segment = bytes(5) + message
    body = packet.data_body(os.urandom(32), b"AAAA", b"BBBB", 1, 1, segment, 0, 16)
    assert FrameDecoder().feed(b"\x00" + encode_frame(body)) == [body]
