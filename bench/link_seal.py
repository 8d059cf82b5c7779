"""Sealed frames (issue 32): what sealing a DATA frame (ChaCha20, then the truncated
HMAC-SHA256 tag) and opening it (parse, verify, decrypt) cost per frame, for a Reversi move
segment (17 bytes) and a full one (150 bytes), with the radio's and the network's tag; and
the bytes a move frame takes on each transport.

    python bench/link_seal.py [--n 20000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import benchenv  # noqa: F401  (the checkout on sys.path)

from firmware.link import packet
from firmware.link.framing import encode_frame


def per_call_us(run: object, n: int) -> float:
    """Median over 5 rounds of the mean time of one call (microseconds)."""
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for i in range(n):
            run(i)  # type: ignore[operator]
        rounds.append((time.perf_counter() - start) / n * 1e6)
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=20000)
    n = parser.parse_args().n
    key, src, dst = os.urandom(32), b"SRCE", b"DEST"
    print(f"{'segment':>8} {'tag':>4} {'seal us':>8} {'open us':>8} {'frame bytes':>12}")
    for size in (17, 150):  # a move, about the longest segment
        segment = os.urandom(size)
        for tag in (packet.TAG_BYTES, packet.NETWORK_TAG_BYTES):
            body = packet.data_body(key, src, dst, 1, 1, segment, 0x11, tag)

            def seal(i: int, segment: bytes = segment, tag: int = tag) -> None:
                packet.data_body(key, src, dst, 1, i + 1, segment, 0x11, tag)

            def unseal(i: int, body: bytes = body, tag: int = tag) -> None:
                frame = packet.parse_data(body, tag)
                assert packet.verify(key, frame)
                packet.unseal(key, frame)

            wire = len(encode_frame(body)) + 1  # and the burst's leading delimiter
            print(
                f"{size:>8} {tag:>4} {per_call_us(seal, n):>8.1f} {per_call_us(unseal, n):>8.1f}"
                f" {wire:>12}"
            )


if __name__ == "__main__":
    main()
