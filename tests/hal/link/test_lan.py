"""`lan://`: its URL options, its one-line errors and how it cuts writes into datagrams
(the traffic itself is tested in network namespaces: tests/firmware/link/test_lan_netns.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware.link.framing import FrameDecoder, encode_frame
from hal.link.serial_link import LinkError, SerialLink
from hal.link.urlhandlers.protocol_lan import (
    DEFAULT_CHANNEL,
    DEFAULT_PORT,
    LanOptions,
    parse_url,
    split_frames,
)


def test_defaults_and_options() -> None:
    assert parse_url("lan://") == LanOptions(DEFAULT_CHANNEL, "", DEFAULT_PORT)
    assert parse_url("lan://lobby") == LanOptions("lobby", "", DEFAULT_PORT)
    got = parse_url("lan://?channel=club&iface=wlan0&port=41999")
    assert got == LanOptions("club", "wlan0", 41999)
    assert parse_url("lan://club?channel=club").channel == "club"


def test_channels_map_to_local_scope_groups_and_tags() -> None:
    a, b = LanOptions("a"), LanOptions("b")
    for opts in (a, b):
        octets = [int(x) for x in opts.group.split(".")]
        assert octets[:3] == [239, 255, 76] and 1 <= octets[3] <= 250
    assert a.tag != b.tag


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("lan://?port=80", "option port has a bad value '80'"),
        ("lan://?port=x", "option port has a bad value 'x'"),
        ("lan://?speed=1", "unknown lan:// option 'speed' (options: channel, iface, port)"),
        ("lan://?iface=", "option iface has a bad value ''"),
        ("lan://a?channel=b", "names another channel"),
        ("lan://?iface=no-such-if9", "no interface named 'no-such-if9'"),
    ],
)
def test_a_bad_option_is_named_in_one_line(url: str, words: str) -> None:
    with pytest.raises(LinkError) as err:
        SerialLink.open(url)
    text = str(err.value)
    assert words in text and "\n" not in text and text.startswith(f"cannot open the link {url}")


frames = st.lists(st.binary(min_size=1, max_size=160), max_size=30)


@given(frames, st.integers(200, 1400))
def test_datagrams_are_cut_only_between_frames(bodies: list[bytes], most: int) -> None:
    data = b"\x00" + b"".join(encode_frame(b) for b in bodies)
    pieces = split_frames(data, most)
    assert b"".join(pieces) == data
    decoded: list[bytes] = []
    for piece in pieces:  # each datagram on its own decodes to whole frames
        assert len(piece) <= most
        decoded += FrameDecoder().feed(piece)
    assert decoded == bodies


@given(st.binary(max_size=300))
def test_any_datagram_is_frames_nothing_or_noise(datagram: bytes) -> None:
    """The receiving side takes any bytes: a datagram of the format gives its frames (and a
    delimiter), the unit's own or another channel's nothing, anything else is noise."""
    from hal.link.urlhandlers.protocol_lan import HEADER, MAGIC, unwrap

    channel, me = LanOptions("x").tag, b"ME!!"
    got = unwrap(datagram, channel, me)
    if len(datagram) < HEADER.size or datagram[:4] != MAGIC:
        assert got is None
    elif datagram[4:8] != channel or datagram[8:12] == me:
        assert got == b""
    else:
        assert got == datagram[HEADER.size :] + b"\x00"
    ours = HEADER.pack(MAGIC, channel, b"THEM") + datagram
    assert unwrap(ours, channel, me) == datagram + b"\x00"
    assert unwrap(HEADER.pack(MAGIC, channel, me) + datagram, channel, me) == b""
