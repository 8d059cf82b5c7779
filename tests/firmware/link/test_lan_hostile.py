"""A hostile namespace on a `lan://` segment during a three-unit Killing Sevens match (issue
32): it replays captured datagrams, fuzzes, forges DATA frames, sends PAIR frames, spoofs
beacons with the paired units' ids and floods. Nothing is accepted: the match goes on to the
same end on every unit, and every kind of refusal is counted in the dumps' `rejected`.

The same namespace captures the whole match with tcpdump. Decoded with the project's own
parsers (framing, packet, the reliable segment header, the session's state messages), the
capture holds no guest's hand: the pipeline that finds each guest's dealt hand in the
frames once they are opened with the pairing keys (read from the units' stores afterwards)
finds nothing in the frames as they travelled, and no byte run of the opened state
messages occurs in any captured datagram.
"""

from __future__ import annotations

import json
import shutil
import signal
import struct
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware.link import packet
from firmware.link.framing import FrameDecoder
from firmware.link.reliable import HEADER as SEGMENT_HEAD
from firmware.storage import Store
from hal.link.urlhandlers.protocol_lan import DEFAULT_PORT, HEADER, MAGIC
from tests.firmware.link.netns import Segment, skip_reason
from tests.firmware.link.test_lan_netns import NAMES, check_link, check_sevens, finish, start_match

REASON = skip_reason() or (None if shutil.which("tcpdump") else "no tcpdump on this machine")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

HERE = Path(__file__).resolve().parent
UNITS = 3


def wait_for_line(path: Path, words: str, timeout: float = 60.0) -> str:
    """The first line of `path` holding `words` (a process saying it is ready)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = path.read_text(errors="replace") if path.exists() else ""
        for line in text.splitlines():
            if words in line:
                return line
        time.sleep(0.05)
    raise AssertionError(f"{path.name} never said {words!r}: {text[-500:]}")


def pcap_udp(path: Path, port: int) -> list[tuple[str, bytes]]:
    """(source address, payload) of every IPv4 UDP datagram to `port` in a pcap file."""
    data = path.read_bytes()
    endian = "<" if data[:4] == b"\xd4\xc3\xb2\xa1" else ">"
    out, at = [], 24
    while at + 16 <= len(data):
        _, _, incl, _ = struct.unpack_from(endian + "IIII", data, at)
        frame, at = data[at + 16 : at + 16 + incl], at + 16 + incl
        if len(frame) < 42 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
            continue
        ip = 14 + (frame[14] & 0x0F) * 4
        if struct.unpack_from("!H", frame, ip + 2)[0] == port:
            out.append((".".join(map(str, frame[26:30])), frame[ip + 8 :]))
    return out


def hands_in(frames: list[packet.DataFrame], segment_of: Callable[[packet.DataFrame], bytes]):  # type: ignore[no-untyped-def]
    """Every seat's hand found in the session's state messages ("S" parts, zlib'd JSON) of
    `frames`, taking each frame's reliable segment as `segment_of` gives it; and the state
    messages' bytes."""
    messages: dict[tuple[bytes, bytes], dict[int, bytes]] = {}
    for f in frames:
        segment = segment_of(f)
        if len(segment) > SEGMENT_HEAD.size:
            seq = SEGMENT_HEAD.unpack_from(segment)[0]
            messages.setdefault((f.src, f.dst), {})[seq] = segment[SEGMENT_HEAD.size :]
    hands: dict[int, list[str]] = {}
    states: list[bytes] = []
    for by_seq in messages.values():
        for seq, msg in by_seq.items():
            if len(msg) < 3 or msg[:1] != b"S" or msg[1] != 0:
                continue
            parts = [by_seq.get((seq + k) % 65536, b"") for k in range(msg[2])]
            if not all(p[:1] == b"S" and len(p) > 3 and p[1] == k for k, p in enumerate(parts)):
                continue
            states += [p[3:] for p in parts]
            try:
                rules = json.loads(zlib.decompress(b"".join(p[3:] for p in parts)))["rules"]
                hands[int(rules["seat"])] = list(rules["hand"])
            except (ValueError, KeyError, TypeError, zlib.error):
                continue
    return hands, states


def test_a_hostile_unit_changes_nothing_and_a_capture_shows_no_hand(tmp_path: Path) -> None:
    stop, pcap = tmp_path / "stop", tmp_path / "match.pcap"
    with Segment(UNITS + 1) as seg:
        spy = UNITS  # the last namespace: the hostile unit and the capture
        dump = ["tcpdump", "-i", "eth0", "-U", "-n", "-w", str(pcap), "udp", "port"]
        capture = seg.popen(spy, [*dump, str(DEFAULT_PORT)], tmp_path / "tcpdump.log")
        wait_for_line(tmp_path / "tcpdump.log", "listening on")
        cmd = [sys.executable, str(HERE / "lan_hostile.py"), str(stop), str(UNITS)]
        hostile = seg.popen(spy, cmd, tmp_path / "hostile.log")
        wait_for_line(tmp_path / "hostile.log", "listening")
        procs = start_match(seg, tmp_path, "sevens", UNITS)
        dumps = finish(procs, tmp_path, UNITS)
        stop.touch()
        hostile.wait(timeout=60)
        capture.send_signal(signal.SIGINT)
        capture.wait(timeout=60)
        spy_address = seg.address(spy)
    sent = json.loads((tmp_path / "hostile.log").read_text().splitlines()[-1])
    check_sevens(dumps)
    check_link(dumps, hostile=True)
    assert all(sent[k] > 0 for k in ("replay", "forged", "spoof", "flood", "fuzz", "pair")), sent
    rejected = {
        k: sum(u["link"]["rejected"][k] for u in dumps) for k in dumps[0]["link"]["rejected"]
    }
    for kind in ("crc", "auth", "replay", "unpaired", "spoof"):
        assert rejected[kind] > 0, (kind, rejected, sent)
    assert rejected["illegal"] == 0

    # The capture, decoded as any listener on the segment can.
    frames: list[packet.DataFrame] = []
    datagrams = [p for src, p in pcap_udp(pcap, DEFAULT_PORT) if src != spy_address]
    for payload in datagrams:
        assert payload[:4] == MAGIC
        for body in FrameDecoder().feed(payload[HEADER.size :]):
            if body[0] == packet.DATA:
                frames.append(packet.parse_data(body, packet.NETWORK_TAG_BYTES))
    assert len(frames) > 100
    keys: dict[tuple[bytes, bytes], bytes] = {}
    for name in NAMES[:UNITS]:
        store = Store.open(tmp_path / name / "store.db")
        me = bytes.fromhex(store.get_setting("radio", {})["id"])
        for row in store.list_pairings():
            peer, key = bytes.fromhex(row["peer"]), bytes.fromhex(row["key"])
            keys[(me, peer)] = keys[(peer, me)] = key
        store.close()
    opened = [f for f in frames if (f.src, f.dst) in keys]
    assert all(packet.verify(keys[(f.src, f.dst)], f) for f in opened)

    clear_hands, states = hands_in(opened, lambda f: packet.unseal(keys[(f.src, f.dst)], f))
    assert sorted(clear_hands) == list(range(1, UNITS)), clear_hands  # each guest's deal
    assert all(len(hand) == 13 for hand in clear_hands.values())
    sealed_hands, _ = hands_in(frames, lambda f: f.sealed)
    assert sealed_hands == {}
    long_runs = [s[i : i + 16] for s in states for i in range(0, len(s) - 15, 16)]
    assert long_runs and not any(run in d for run in long_runs for d in datagrams)
