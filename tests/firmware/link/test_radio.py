"""The radio stack: discovery, pairing, authenticated delivery and the security refusals."""

from __future__ import annotations

from firmware.link import packet
from firmware.link.framing import encode_frame
from firmware.link.pairing import Step
from firmware.link.testbed import Air, pair, prepaired
from hal.link.air import Impairments


def test_units_discover_each_other_by_beacon_and_pair_with_the_same_code() -> None:
    air = Air()
    host, guest = air.radio("Ann"), air.radio("Bob")
    pair(air, host, guest)
    assert guest.paired()[host.id].name == "Ann"
    assert host.paired()[guest.id].name == "Bob"
    assert guest.paired()[host.id].key == host.paired()[guest.id].key


def test_pairing_survives_a_lossy_channel() -> None:
    air = Air(Impairments(baud=9600, loss=0.3, corrupt=0.005, delay_ms=20, jitter_ms=10, seed=5))
    host, guest = air.radio("Ann"), air.radio("Bob")
    pair(air, host, guest)


def test_a_decline_on_either_side_pairs_nobody() -> None:
    air = Air()
    host, guest = air.radio("Ann"), air.radio("Bob")
    from firmware.link.packet import Beacon

    host.beacon = Beacon(host.id, True, "reversi", "Ann", 1)
    host.accept_pairing = True
    air.run(120)
    guest.start_pairing(host.id)
    air.run(120)
    assert host.pairing is not None and guest.pairing is not None
    host.pairing.confirm(False)
    guest.pairing.confirm(True)
    air.run(600, until=lambda: guest.pairing.step is Step.FAILED)
    assert guest.pairing.step is Step.FAILED
    assert not host.paired() and not guest.paired()


def test_paired_units_exchange_messages_in_order_under_impairment() -> None:
    air = Air(Impairments(baud=9600, loss=0.1, corrupt=0.002, dup=0.02, delay_ms=20, seed=3))
    host, guest = air.radio("Ann"), air.radio("Bob")
    pair(air, host, guest)
    msgs = [f"move {i}".encode() for i in range(40)]
    got: list[bytes] = []
    for m in msgs:
        host.send(guest.id, m)
        air.run(20)
        got += [msg for src, msg in guest.take_messages() if src == host.id]
    air.run(300)
    got += [msg for src, msg in guest.take_messages() if src == host.id]
    assert got == msgs


def _deliver(radio, body: bytes) -> None:  # type: ignore[no-untyped-def]
    radio.decoder  # noqa: B018 - the radio decodes what its link reads
    radio.link.rx._pending.clear()
    for frame in radio.decoder.feed(b"\x00" + encode_frame(body)):
        radio._on_body(frame)


def test_security_refusals_are_counted_and_never_delivered() -> None:
    air = Air()
    host, guest = air.radio("Ann"), air.radio("Bob")
    pair(air, host, guest)
    key = host.paired()[guest.id].key
    # a well-formed frame from the guest, captured off the air
    body = packet.data_body(key, guest.id, host.id, guest.epoch, 500, b"\x00\x00\xff\xff\x00hi")
    _deliver(host, body)
    assert host.take_messages() == [(guest.id, b"hi")]
    # the same frame again: a replay
    _deliver(host, body)
    assert host.counters.rejected["replay"] == 1
    # a flipped bit in the tag
    fresh = packet.data_body(key, guest.id, host.id, guest.epoch, 501, b"\x00\x01\xff\xff\x00x")
    _deliver(host, fresh[:-1] + bytes([fresh[-1] ^ 1]))
    assert host.counters.rejected["auth"] == 1
    # a frame under a wrong key (a unit that claims the guest's id)
    _deliver(host, packet.data_body(bytes(32), guest.id, host.id, guest.epoch, 502, b"y"))
    assert host.counters.rejected["auth"] == 2
    # an older epoch (a frame recorded before the guest restarted)
    _deliver(host, packet.data_body(key, guest.id, host.id, guest.epoch - 1, 9, b"\x00\x01"))
    assert host.counters.rejected["replay"] == 2
    # a unit nobody paired with
    stranger = b"\x01\x02\x03\x04"
    _deliver(host, packet.data_body(bytes(32), stranger, host.id, 1, 1, b"\x00\x01\x00\x00\x00no"))
    assert host.counters.rejected["unpaired"] == 1
    assert host.take_messages() == []


def test_a_relay_pairing_with_both_sides_shows_them_different_codes() -> None:
    """G and H are out of each other's range; M relays, pairing with each separately."""
    air = Air(Impairments(baud=0))
    host, guest = air.radio("Host"), air.radio("Guest")
    relay_h, relay_g = air.radio("Guest"), air.radio("Host")  # one box, two radios
    medium = air.medium
    links = medium.links
    medium.block(links[0], links[1])  # host and guest cannot hear each other
    medium.block(links[0], links[3])
    medium.block(links[1], links[2])
    medium.block(links[2], links[3])
    host.accept_pairing = True
    relay_g.accept_pairing = True
    guest.start_pairing(relay_g.id)  # the guest believes it is talking to the host
    relay_h.start_pairing(host.id)
    air.run(300)
    assert guest.pairing is not None and host.pairing is not None
    assert guest.pairing.code is not None and host.pairing.code is not None
    assert guest.pairing.code != host.pairing.code
    # the players see different codes and decline; the relay's keys are never stored
    guest.pairing.confirm(False)
    host.pairing.confirm(False)
    relay_g.pairing.confirm(True)
    relay_h.pairing.confirm(True)
    air.run(300)
    assert not guest.paired() and not host.paired()
    # whatever the relay sends now, under the keys it agreed or claiming the other's id,
    # is refused and counted
    key_g = relay_g.pairing.key
    assert key_g is not None
    seg = b"\x00\x00\xff\xff\x00Ahello"
    before = guest.counters.rejected["unpaired"]
    _deliver(guest, packet.data_body(key_g, relay_g.id, guest.id, 9, 1, seg))
    _deliver(guest, packet.data_body(key_g, host.id, guest.id, 9, 2, seg))
    assert guest.counters.rejected["unpaired"] == before + 2  # neither id is paired
    assert guest.take_messages() == []


def test_unpaired_pairing_requests_are_refused_when_not_hosting() -> None:
    air = Air()
    host, guest = air.radio("Ann"), air.radio("Bob")
    guest.start_pairing(host.id)
    air.run(120)
    assert host.pairing is None
    assert host.counters.rejected["unpaired"] >= 1


def test_a_declined_unit_may_ask_again_and_pair() -> None:
    air = Air()
    host, guest = air.radio("Ann"), air.radio("Bob")
    host.accept_pairing = True
    guest.start_pairing(host.id)
    air.run(300, until=lambda: host.pairing is not None and host.pairing.code is not None)
    assert host.pairing is not None
    host.pairing.confirm(False)
    air.run(
        900,
        until=lambda: guest.pairing is not None and guest.pairing.done and host._pair_rel is None,
    )
    assert guest.pairing is not None and guest.pairing.step is Step.FAILED
    pair(air, host, guest)  # the second request is heard and pairs


def test_a_backlog_to_two_partners_drains_on_half_duplex_air() -> None:
    """A host with 80 state parts queued for each of two guests at 9600 baud: without pauses
    in its talking, the guests' acks never find the air free, the host retransmits more and
    more, and delivery stops (it did: about 25 of 80 arrived in a minute)."""
    air = Air(Impairments(baud=9600, loss=0.05, delay_ms=20, jitter_ms=10, seed=1))
    ids = [bytes([0x10 + i]) * packet.ID_BYTES for i in range(3)]
    host, g1, g2 = prepaired(air, "Host", "G1", "G2", ids=ids)
    for g in (g1, g2):
        host.connect(g.id)
        g.connect(host.id)
    parts = [bytes([i]) * 42 for i in range(80)]
    for m in parts:
        host.send(g1.id, m)
        host.send(g2.id, m)
    got: dict[bytes, list[bytes]] = {g1.id: [], g2.id: []}
    for _ in range(60 * 60):
        air.run(1)
        for g in (g1, g2):
            got[g.id] += [m for _src, m in g.take_messages()]
        if all(len(v) == len(parts) for v in got.values()):
            break
    assert got[g1.id] == parts and got[g2.id] == parts  # all of it, in order, within a minute
    assert air.tick < 60 * 50


def test_only_a_request_opens_a_pairing_exchange() -> None:
    """A late ack of a finished exchange (the network delivers those promptly, and twice)
    must not stand in the way of the next unit's pairing as an exchange waiting forever."""
    air = Air()
    host = air.radio("Host")
    host.accept_pairing = True
    other = b"LATE"
    host._on_body(packet.pair_body(other, host.id, b"\x00\x03\x00\x01\x00"))  # an ack
    assert host.pairing is None
    host._on_body(packet.pair_body(other, host.id, b"\x00\x00\xff\xff\x00\x01" + bytes(32)))
    assert host.pairing is not None and host.pairing.peer == other  # a request does


def _request(pk: bytes) -> bytes:
    """A pairing request (seq 0 of a fresh exchange) with public key `pk`."""
    return b"\x00\x00\xff\xff\x00\x01" + pk + b"Guest"


def test_a_unit_that_asks_again_with_a_new_key_restarts_the_exchange() -> None:
    """A guest that gave up and asks afresh (a new key, its messages numbered from 0 again)
    gets a new exchange; the same request again (a retransmission) changes nothing."""
    air = Air()
    host = air.radio("Host")
    host.accept_pairing = True
    guest = b"GST1"
    host._on_body(packet.pair_body(guest, host.id, _request(b"\x11" * 32)))
    first = host.pairing
    assert first is not None and first.peer_key == b"\x11" * 32
    host._on_body(packet.pair_body(guest, host.id, _request(b"\x11" * 32)))
    assert host.pairing is first
    host._on_body(packet.pair_body(guest, host.id, _request(b"\x22" * 32)))
    assert host.pairing is not first and host.pairing.peer_key == b"\x22" * 32


def test_an_exchange_whose_partner_went_silent_ends_and_frees_the_host() -> None:
    """Whatever its step, an exchange that hears nothing for PAIR_ANSWER_TICKS ends, its
    channel with it, and the next unit's request is taken."""
    from firmware.link.radio import PAIR_ANSWER_TICKS

    air = Air()
    host = air.radio("Host")
    host.accept_pairing = True
    host._on_body(packet.pair_body(b"GST1", host.id, _request(b"\x11" * 32)))
    assert host.pairing is not None and host.pairing.step is Step.ASKING
    air.run(PAIR_ANSWER_TICKS + 2)
    assert host.pairing.step is Step.FAILED and host._pair_rel is None
    host._on_body(packet.pair_body(b"GST2", host.id, _request(b"\x22" * 32)))
    assert host.pairing.peer == b"GST2" and not host.pairing.done


def test_a_request_in_the_tick_an_exchange_pairs_does_not_lose_its_key() -> None:
    """On a network every frame of a tick arrives at once: the guest's confirmation that
    pairs the exchange, and another guest's request that then takes its place. The key of
    the exchange is kept at the moment it pairs (it was kept a tick later, by which time
    the exchange was gone: the guest paired, the host never)."""
    from firmware.link.framing import FrameDecoder
    from firmware.link.pairing import CONFIRM
    from firmware.link.radio import MemoryKeyring, Radio
    from hal.link.memory import PipeLink

    to_guest, to_host = PipeLink.pair()
    host = Radio(to_host, MemoryKeyring(b"HOST"), "Host")
    guest = Radio(to_guest, MemoryKeyring(b"GSTA"), "A")
    host.accept_pairing = True
    guest.start_pairing(b"HOST")
    injected = False
    for tick in range(1, 600):
        guest.tick(tick)
        for r in (host, guest):
            if r.pairing is not None and r.pairing.code and not r.pairing.local_yes:
                r.pairing.confirm(True)
        for body in FrameDecoder().feed(bytes(to_host.inbox)):
            if body[0] == packet.PAIR and body[9 + 5 : 9 + 6] == bytes([CONFIRM]):
                to_host.inbox += b"\x00" + encode_frame(
                    packet.pair_body(b"GSTB", b"HOST", _request(b"\x33" * 32))
                )
                injected = True
                break
        host.tick(tick)
        if injected:
            break
    assert injected
    assert host.pairing is not None and host.pairing.peer == b"GSTB"  # B's exchange now
    assert b"GSTA" in host.paired()
    guest.tick(600)
    assert guest.paired()[b"HOST"].key == host.paired()[b"GSTA"].key
