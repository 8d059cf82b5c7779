"""An impairing Ethernet switch in user space, for kernels without `netem` (tc's sch_netem):
run in a segment's bridge namespace as

    python tests/firmware/link/impair_switch.py SPEC PORT...

SPEC is netem's: e.g. "loss 10% duplicate 2% delay 10ms 8ms". Every frame that arrives on
one port goes out of every other port, unless lost (per port it would go out of, as each
receiver of a radio burst loses it on its own), sometimes twice, after the delay plus up
to the jitter (so later frames overtake earlier ones: reordering). Raw AF_PACKET sockets on
the veth ends; it prints "ready" once they are bound, and runs until killed.
"""

from __future__ import annotations

import contextlib
import heapq
import random
import select
import socket
import sys
import time

ETH_P_ALL = 0x0003


def parse_spec(spec: str) -> tuple[float, float, float, float]:
    """(loss, duplicate, delay s, jitter s) of a netem-style spec."""
    words = spec.split()
    loss = dup = delay = jitter = 0.0
    i = 0
    while i < len(words):
        word = words[i]
        if word == "loss":
            loss, i = float(words[i + 1].rstrip("%")) / 100, i + 2
        elif word == "duplicate":
            dup, i = float(words[i + 1].rstrip("%")) / 100, i + 2
        elif word == "delay":
            delay = float(words[i + 1].removesuffix("ms")) / 1000
            i += 2
            if i < len(words) and words[i].endswith("ms"):
                jitter, i = float(words[i].removesuffix("ms")) / 1000, i + 1
        else:
            raise ValueError(f"impair_switch: cannot do {word!r}")
    return loss, dup, delay, jitter


def plain_udp(frame: bytes) -> bytes:
    """The frame with an IPv4 UDP datagram's checksum cleared (0: none, which IPv4 allows).
    A veth sender leaves the checksum to "the hardware" (a partial sum); the kernel's bridge
    keeps that note with the frame, a raw socket cannot, and the receiver would drop it."""
    if len(frame) < 42 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
        return frame
    at = 14 + (frame[14] & 0x0F) * 4 + 6
    return frame[:at] + b"\x00\x00" + frame[at + 2 :]


def main(spec: str, ports: list[str]) -> int:
    loss, dup, delay, jitter = parse_spec(spec)
    rng = random.Random(spec)
    socks: dict[int, socket.socket] = {}
    for name in ports:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.bind((name, 0))
        s.setblocking(False)
        socks[s.fileno()] = s
    due: list[tuple[float, int, int, bytes]] = []
    order = 0
    print("ready", flush=True)
    while True:
        wait = max(0.0, due[0][0] - time.monotonic()) if due else 1.0
        ready, _, _ = select.select(list(socks), [], [], wait)
        now = time.monotonic()
        for fd in ready:
            while True:
                try:
                    frame, addr = socks[fd].recvfrom(65535)
                except BlockingIOError:
                    break
                if addr[2] == socket.PACKET_OUTGOING:
                    continue  # what this switch sent out of that port
                frame = plain_udp(frame)
                for out in socks:
                    if out == fd or rng.random() < loss:
                        continue
                    for _ in range(2 if rng.random() < dup else 1):
                        order += 1
                        at = now + delay + rng.random() * jitter
                        heapq.heappush(due, (at, order, out, frame))
        now = time.monotonic()
        while due and due[0][0] <= now:
            _, _, out, frame = heapq.heappop(due)
            with contextlib.suppress(OSError):  # a port that went away (the test is ending)
                socks[out].send(frame)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
