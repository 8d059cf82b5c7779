"""A hostile unit on a `lan://` segment, for the network tests: run as

    python tests/firmware/link/lan_hostile.py STOPFILE UNITS [CHANNEL]

It knows the datagram format and the frame format (they are public) but no pairing key. It
listens like a unit, and once it has heard paired traffic (DATA frames) of UNITS units (all
of them joined the match: a beacon is not signed, so before that a spoofed one can mislead
a lobby, which is not what this attacks) it attacks, round after round, until STOPFILE
exists:

- replays datagrams it captured (verbatim, also long after: old counters);
- fuzzes: random datagrams; random bytes behind a valid header; frames with a valid CRC
  that are DATA from a real unit to a real unit with a random segment and tag; PAIR frames;
- spoofs beacons with the ids of the units it heard (the paired ones);
- floods once: thousands of forged DATA frames as fast as the socket takes them.

At the end it prints a JSON line of what it sent.
"""

from __future__ import annotations

import json
import os
import random
import socket
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from firmware.link import packet
from firmware.link.framing import FrameDecoder, encode_frame
from hal.link.urlhandlers.protocol_lan import HEADER, MAGIC, LanOptions

FLOOD = 4000  # forged frames in the flood
ROUND = 0.05  # seconds between rounds of attacks


def main(stop: Path, expected: int, channel: str) -> int:
    opts = LanOptions(channel)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((opts.group, opts.port))
    mreq = struct.pack("=4s4si", socket.inet_aton(opts.group), bytes(4), 0)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 0)  # not its own replays
    sock.settimeout(ROUND)
    next_round = 0.0
    me = os.urandom(4)
    head = HEADER.pack(MAGIC, opts.tag, me)
    rng = random.Random(7)
    captured: list[bytes] = []
    pairs: set[tuple[bytes, bytes]] = set()
    units: set[bytes] = set()
    sent = dict.fromkeys(("replay", "fuzz", "forged", "pair", "spoof", "flood", "noise"), 0)
    flooded = False

    def send(payload: bytes, kind: str, n: int = 1) -> None:
        try:
            sock.sendto(payload, (opts.group, opts.port))
            sent[kind] += n
        except OSError:
            pass

    def forged(src: bytes, dst: bytes) -> bytes:
        body = packet.DATA_HEAD.pack(
            packet.DATA, src, dst, rng.randrange(1 << 16), os.urandom(3), rng.randrange(256)
        )
        return body + os.urandom(rng.randrange(0, 40)) + os.urandom(packet.NETWORK_TAG_BYTES)

    print("listening", flush=True)
    while not stop.exists():
        try:
            datagram = sock.recv(4096)
        except TimeoutError:
            datagram = b""
        if datagram.startswith(MAGIC) and datagram[8:12] != me:
            for body in FrameDecoder().feed(datagram[HEADER.size :]):
                if body[0] == packet.DATA and len(body) >= packet.DATA_HEAD.size:
                    src, dst = body[1:5], body[5:9]
                    pairs.add((src, dst))
                    units.update((src, dst))
                    captured.append(datagram)
            if len(captured) > 2000:
                del captured[:1000]
        if len(captured) < 20 or len(units) < expected or time.monotonic() < next_round:
            continue  # not yet paired traffic (wait for the match), or not yet time
        next_round = time.monotonic() + ROUND
        for old in rng.sample(captured, 3):
            send(old, "replay")
        send(os.urandom(rng.randrange(1, 300)), "noise")
        send(head + os.urandom(rng.randrange(1, 200)), "fuzz")
        src, dst = rng.choice(sorted(pairs))
        send(head + b"\x00" + encode_frame(forged(src, dst)), "forged")
        send(
            head
            + b"\x00"
            + encode_frame(packet.pair_body(os.urandom(4), dst, b"\x00\x00\xff\xff\x00\x01")),
            "pair",
        )
        for unit in sorted(units):
            beacon = packet.Beacon(unit, True, "sevens", "Evil", 3).encode()
            send(head + b"\x00" + encode_frame(beacon), "spoof")
        if not flooded and len(captured) > 60:
            flooded = True
            for _ in range(FLOOD // 40):
                frames = b"".join(
                    encode_frame(forged(*rng.choice(sorted(pairs)))) for _ in range(40)
                )
                send(head + b"\x00" + frames, "flood", 40)
    print(json.dumps(sent), flush=True)
    return 0


if __name__ == "__main__":
    channel = sys.argv[3] if len(sys.argv) > 3 else "twinfold"
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2]), channel))
