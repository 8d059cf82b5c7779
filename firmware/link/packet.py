"""The frame bodies of the link (on top of framing.py), and their authentication.

Every body starts with `kind` (1 byte) and the sender's unit id `src` (4 bytes):

    BEACON  kind | src | flags | game (len+utf8) | name (len+utf8) | proto | rules   CRC only
    PAIR    kind | src | dst | segment (reliable.py) carrying a pairing msg  CRC only
    DATA    kind | src | dst | counter (5) | chan | segment | tag (6)      authenticated

`proto` is the link protocol version (LINK_PROTOCOL) and `rules` the offered game's rules
version (`Cartridge.rules_version`): units play together only when both match. A beacon of
the first firmware ends after the name; it decodes as protocol 1, rules version 0, which
no unit of today accepts (the lobby shows it as "needs the same version").

DATA frames carry everything between paired units. The tag is HMAC-SHA256 over the whole
body before it, under the pairing key, truncated to 6 bytes (48 bits). Truncation is safe
here because a forger gets one try per frame on a 9600-baud channel (at most ~40 frames a
second): guessing a 48-bit tag takes on the order of 10^5 years, while every byte costs about
1 ms of air on every frame. The counter is `epoch (2 bytes) | count (3 bytes)`: the epoch
is raised and stored at every start of the link stack, the count rises with every frame
sent (retransmissions included). `chan` names the sender's channel and the receiver's
channel it talks to (see radio.py). A receiver keeps, per peer, the highest epoch it accepted
(stored) and a 64-frame window of counts seen in it, so a recorded frame played back later,
or a duplicate, is refused as a replay. Frames of an unknown or unpaired sender are refused
as "unpaired"; a tag that does not verify as "auth".
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from dataclasses import dataclass

BEACON, PAIR, DATA = 0x42, 0x50, 0x44
ID_BYTES = 4
TAG_BYTES = 6
COUNT_BITS = 24
WINDOW = 64
HEAD = struct.Struct("!B4s")
ADDR = struct.Struct("!B4s4s")
DATA_HEAD = struct.Struct("!B4s4sH3sB")
UNKNOWN_CHAN = 15  # in `chan`: "my channel has not heard yours yet"
# The link protocol: raised whenever a frame or session message changes meaning, so units
# with different firmware see that they cannot play together instead of disagreeing later.
# 1: the first firmware (no versions anywhere); 2: versions in beacons, joins and welcomes,
# refusals with a reason.
LINK_PROTOCOL = 2


class PacketError(ValueError):
    """A body that does not parse."""


def tag(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, body, hashlib.sha256).digest()[:TAG_BYTES]


@dataclass(frozen=True)
class Beacon:
    src: bytes
    hosting: bool
    game: str
    name: str
    seats_free: int = 0
    protocol: int = LINK_PROTOCOL
    rules: int = 0  # the offered game's rules version

    def encode(self) -> bytes:
        game, name = self.game.encode()[:16], self.name.encode()[:24]
        flags = (1 if self.hosting else 0) | (min(self.seats_free, 7) << 1)
        return (
            HEAD.pack(BEACON, self.src)
            + bytes([flags, len(game)])
            + game
            + bytes([len(name)])
            + name
            + bytes([self.protocol & 0xFF, self.rules & 0xFF])
        )

    @classmethod
    def decode(cls, body: bytes) -> Beacon:
        try:
            _, src = HEAD.unpack_from(body)
            flags, glen = body[5], body[6]
            game = body[7 : 7 + glen]
            nlen = body[7 + glen]
            name = body[8 + glen : 8 + glen + nlen]
            end = 8 + glen + nlen
            if len(name) != nlen or len(game) != glen or len(body) not in (end, end + 2):
                raise PacketError("beacon length")
            protocol, rules = (body[end], body[end + 1]) if len(body) == end + 2 else (1, 0)
            return cls(
                src,
                bool(flags & 1),
                game.decode(),
                name.decode(errors="replace"),
                flags >> 1,
                protocol,
                rules,
            )
        except (IndexError, struct.error, UnicodeDecodeError) as exc:
            raise PacketError(f"bad beacon: {exc}") from None


def pair_body(src: bytes, dst: bytes, segment: bytes) -> bytes:
    return ADDR.pack(PAIR, src, dst) + segment


def parse_addressed(body: bytes) -> tuple[int, bytes, bytes, bytes]:
    """(kind, src, dst, rest) of a PAIR or DATA body."""
    if len(body) < ADDR.size:
        raise PacketError("short frame")
    kind, src, dst = ADDR.unpack_from(body)
    return kind, src, dst, body[ADDR.size :]


def data_body(
    key: bytes,
    src: bytes,
    dst: bytes,
    epoch: int,
    count: int,
    segment: bytes,
    chan: int = 0xFF,
) -> bytes:
    """`chan`: the sender's channel number (high 4 bits) and the receiver's channel number
    the sender's channel talks to (low 4 bits, UNKNOWN_CHAN before it heard one)."""
    head = DATA_HEAD.pack(DATA, src, dst, epoch, count.to_bytes(3, "big"), chan)
    body = head + segment
    return body + tag(key, body)


@dataclass(frozen=True)
class DataFrame:
    src: bytes
    dst: bytes
    epoch: int
    count: int
    chan: int
    segment: bytes
    signed: bytes  # the part the tag covers
    tag: bytes


def parse_data(body: bytes) -> DataFrame:
    if len(body) < DATA_HEAD.size + TAG_BYTES:
        raise PacketError("short data frame")
    kind, src, dst, epoch, count, chan = DATA_HEAD.unpack_from(body)
    if kind != DATA:
        raise PacketError("not a data frame")
    signed = body[:-TAG_BYTES]
    return DataFrame(
        src,
        dst,
        epoch,
        int.from_bytes(count, "big"),
        chan,
        signed[DATA_HEAD.size :],
        signed,
        body[-TAG_BYTES:],
    )


def verify(key: bytes, frame: DataFrame) -> bool:
    return hmac.compare_digest(tag(key, frame.signed), frame.tag)


class ReplayWindow:
    """Which (epoch, count) of one peer were accepted: refuses repeats and old epochs."""

    def __init__(self, epoch: int = -1) -> None:
        self.epoch = epoch
        self.top = -1
        self.seen = 0  # bit i: count top - i was accepted

    def check(self, epoch: int, count: int) -> bool:
        """True if (epoch, count) is new (nothing changes until `accept`)."""
        if epoch != self.epoch:
            return epoch > self.epoch
        if count > self.top:
            return True
        age = self.top - count
        return age < WINDOW and not (self.seen >> age) & 1

    def accept(self, epoch: int, count: int) -> bool:
        """Record (epoch, count); True if the epoch is new (the caller stores it)."""
        new_epoch = epoch != self.epoch
        if new_epoch:
            self.epoch, self.top, self.seen = epoch, -1, 0
        if count > self.top:
            shift = count - self.top
            self.seen = ((self.seen << shift) | 1) & ((1 << WINDOW) - 1)
            self.top = count
        else:
            self.seen |= 1 << (self.top - count)
        return new_epoch
