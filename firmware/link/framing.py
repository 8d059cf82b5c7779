"""Self-delimiting frames on a byte stream (P-LINK-1): COBS-stuffed body + CRC-16, then 0x00.

COBS (from the `cobs` package) guarantees the body holds no zero byte, so 0x00 ends every
frame and a receiver that joins mid-stream, or loses bytes, resynchronises at the next zero.
The CRC-16 (`binascii.crc_hqx`, init 0xFFFF, final XOR 0xFFFF: CRC-16/GENIBUS; without the
final XOR a frame whose closing zero is hit merges with the next one's opening zero into a
body that still checks) catches corruption before anything
parses the body; authentication (firmware/link/packet.py) sits on top for paired traffic.
Overhead per frame: 2 bytes CRC, 1 COBS code byte (+1 per 254 bytes), 1 delimiter; a sender
also starts every burst with a delimiter so noise before it cannot swallow its first frame.
"""

from __future__ import annotations

import binascii

from cobs import cobs

# Larger frames are never sent; longer runs between zeros are garbage. The longest message
# (the unit names, `N` + JSON of 4 names of 12 characters of up to 3 UTF-8 bytes: 161
# bytes) + the reliable segment's 5 + the DATA head's 16 + the network's 16-byte tag = 198.
MAX_BODY = 200
CRC_BYTES = 2


def crc16(data: bytes) -> int:
    return binascii.crc_hqx(data, 0xFFFF) ^ 0xFFFF


def encode_frame(body: bytes) -> bytes:
    """The wire form of one frame body."""
    if len(body) > MAX_BODY:
        raise ValueError(f"frame body of {len(body)} bytes exceeds {MAX_BODY}")
    return bytes(cobs.encode(body + crc16(body).to_bytes(CRC_BYTES, "big"))) + b"\x00"


class FrameDecoder:
    """Turns any byte stream into the frame bodies whose CRC checks. Never raises.

    `crc_errors` counts runs between delimiters that were not a valid frame (bad stuffing,
    bad CRC, too short); `overlong` counts runs longer than any frame (dropped).
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._skipping = False
        self.crc_errors = 0
        self.overlong = 0
        self.frames = 0

    @property
    def mid_frame(self) -> bool:
        """Bytes of a frame have arrived but not its end: someone is transmitting now."""
        return bool(self._buf) and not self._skipping

    def feed(self, data: bytes) -> list[bytes]:
        out: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\x00", start)
            if end < 0:
                self._append(data[start:])
                return out
            self._append(data[start:end])
            body = self._finish()
            if body is not None:
                out.append(body)
            start = end + 1

    def _append(self, chunk: bytes) -> None:
        if self._skipping or not chunk:
            return
        self._buf += chunk
        if len(self._buf) > MAX_BODY + CRC_BYTES + 2:
            self._buf.clear()
            self._skipping = True
            self.overlong += 1

    def _finish(self) -> bytes | None:
        raw = bytes(self._buf)
        self._buf.clear()
        if self._skipping:
            self._skipping = False
            return None
        if not raw:
            return None  # back-to-back delimiters (line noise, a sender's preamble)
        try:
            decoded = bytes(cobs.decode(raw))
        except cobs.DecodeError:
            self.crc_errors += 1
            return None
        if len(decoded) <= CRC_BYTES:
            self.crc_errors += 1
            return None
        body, crc = decoded[:-CRC_BYTES], decoded[-CRC_BYTES:]
        if crc16(body).to_bytes(CRC_BYTES, "big") != crc:
            self.crc_errors += 1
            return None
        self.frames += 1
        return body
