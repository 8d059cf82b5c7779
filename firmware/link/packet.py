"""The frame bodies of the link (on top of framing.py), and their authentication.

Every body starts with `kind` (1 byte) and the sender's unit id `src` (4 bytes):

    BEACON  kind | src | flags | game (len+utf8) | name (len+utf8) | proto | rules   CRC only
    PAIR    kind | src | dst | segment (reliable.py) carrying a pairing msg  CRC only
    DATA    kind | src | dst | counter (5) | chan | segment | tag (6)      authenticated

`proto` is the link protocol version (LINK_PROTOCOL) and `rules` the offered game's rules
version (`Cartridge.rules_version`): units play together only when both match. A beacon of
the first firmware ends after the name; it decodes as protocol 1, rules version 0, which
no unit of today accepts (the lobby shows it as "needs the same version").

DATA frames carry everything between paired units, sealed (issue 32): the segment is
encrypted and the whole body authenticated, encrypt-then-MAC, under two keys drawn from the
pairing key (`seal_keys`: HMAC-SHA256 of the key with two labels, so neither key says
anything of the other):

- the segment is XORed with ChaCha20 (the `cryptography` package's, RFC 8439 with a 96-bit
  nonce) under the encryption key, nonce = `src (4) | epoch (2) | count (3) | 0 0 0`;
- the tag is HMAC-SHA256 under the MAC key over the clear head and the ciphertext,
  truncated to the transport's length (`TAG_BYTES`).

Why not an AEAD from the library (ChaCha20-Poly1305, AES-GCM): their tag is 16 bytes and
cannot be shortened safely (a short GCM tag leaks its hash key to forgers; the library's
ChaCha20-Poly1305 takes only the whole tag), and on a 9600-baud radio 10 bytes more per
frame cost 10 ms of air on every frame. Encrypt-then-MAC with a truncated HMAC is the
generic composition that stays secure truncated (RFC 2104 section 5), and both primitives
are the library's and the standard library's, nothing hand-made.

The nonce is never used twice under one key: the key belongs to one pairing of two units,
whose ids differ (a unit refuses to pair with its own id), and the src is in the nonce, so
the two directions never meet; the epoch is raised and stored before the link stack sends
anything at every start (keyring.py), and when it would wrap after 65535 starts the
pairings are forgotten (pair again: a new key); the count rises with every frame sent and
never wraps: at its top the radio takes a new epoch (radio.py). A copied store is a copied
identity; the lobby warns of it (`Radio.id_clash`).

The tag's length is the transport's (`tag_length`), from the rate at which a forger gets
frames checked (each try fails with probability 2^-8t and is counted in `rejected.auth`):

- radio (a UART module, and its simulation `air://`): 6 bytes. The shortest forged DATA
  frame is 16 (head) + 6 (tag) + 4 (CRC, COBS, delimiter) = 26 bytes = 260 bits on air:
  at most 37 tries a second at 9600 baud, 443 at 115200. In a year at 115200 baud,
  443 * 3.2e7 = 1.4e10 tries succeed with probability 1.4e10 / 2^48 = 5e-5 (at 9600 baud
  4e-6), while the unit counts 443 refusals a second; each tag byte more costs ~1 ms of air
  on every frame at 9600 baud.
- network (`lan://`): 16 bytes. A datagram holds at most 1400 / 26 = 53 frames and a
  unit takes at most 512 datagrams a tick (protocol_lan.MAX_PER_PUMP, twice a tick), so at
  most 53 * 512 * 60 = 1.6e6 tries a second reach the tag check, whatever the network's
  speed (a gigabit line carries 1.5e6 datagrams a second; the rest is dropped by the
  kernel). In a year, 5.1e13 tries succeed with probability 5.1e13 / 2^128 = 1.5e-25;
  even 8 bytes would give 3e-6. On a network the 10 bytes cost nothing (one datagram).

The counter is `epoch (2 bytes) | count (3 bytes)`. `chan` names the sender's channel and
the receiver's channel it talks to (see radio.py). A receiver keeps, per peer, the highest
epoch it accepted (stored) and a 64-frame window of counts seen in it, so a recorded frame
played back later, or a duplicate, is refused as a replay. Frames of an unknown or unpaired
sender are refused as "unpaired"; a tag that does not verify as "auth". Only the head
(kinds, ids, counter, channels) travels in the clear: who talks to whom, how much and when.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import struct
from dataclasses import dataclass

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

BEACON, PAIR, DATA = 0x42, 0x50, 0x44
ID_BYTES = 4
TAG_BYTES = 6  # the radio's (and the default)
NETWORK_TAG_BYTES = 16
COUNT_BITS = 24
WINDOW = 64
HEAD = struct.Struct("!B4s")
ADDR = struct.Struct("!B4s4s")
DATA_HEAD = struct.Struct("!B4s4sH3sB")
UNKNOWN_CHAN = 15  # in `chan`: "my channel has not heard yours yet"
# The link protocol: raised whenever a frame or session message changes meaning, so units
# with different firmware see that they cannot play together instead of disagreeing later.
# 1: the first firmware (no versions anywhere); 2: versions in beacons, joins and welcomes,
# refusals with a reason; 3: sealed DATA frames (encrypted, tag length by transport);
# 4: a departed guest's seat taken by the host's computer and offered back, "finish alone"
# and "the host left" (a unit of 3 would end the match on a departure a unit of 4 plays on).
LINK_PROTOCOL = 4


class PacketError(ValueError):
    """A body that does not parse."""


def tag_length(kind: str) -> int:
    """The tag's bytes on a transport of `kind` (`ByteLink.kind`): see the arithmetic above."""
    return NETWORK_TAG_BYTES if kind == "network" else TAG_BYTES


@functools.lru_cache(maxsize=64)
def seal_keys(key: bytes) -> tuple[bytes, bytes]:
    """(encryption key, MAC key) of a pairing key."""
    enc = hmac.new(key, b"twinfold seal enc", hashlib.sha256).digest()
    mac = hmac.new(key, b"twinfold seal mac", hashlib.sha256).digest()
    return enc, mac


def tag(key: bytes, body: bytes, length: int = TAG_BYTES) -> bytes:
    """The tag of a sealed body (`key` is the pairing key)."""
    return hmac.new(seal_keys(key)[1], body, hashlib.sha256).digest()[:length]


def _stream(key: bytes, src: bytes, epoch: int, count: int, data: bytes) -> bytes:
    """`data` XOR ChaCha20 under the pairing key's encryption key and the frame's nonce
    (block counter 0; ChaCha20 is its own inverse)."""
    nonce = src + epoch.to_bytes(2, "big") + count.to_bytes(3, "big") + bytes(3)
    cipher = Cipher(algorithms.ChaCha20(seal_keys(key)[0], bytes(4) + nonce), mode=None)
    return cipher.encryptor().update(data)


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
    tag_bytes: int = TAG_BYTES,
) -> bytes:
    """The sealed body. `chan`: the sender's channel number (high 4 bits) and the
    receiver's channel number the sender's channel talks to (low 4 bits, UNKNOWN_CHAN before
    it heard one); `tag_bytes`: the transport's `tag_length`."""
    head = DATA_HEAD.pack(DATA, src, dst, epoch, count.to_bytes(3, "big"), chan)
    body = head + _stream(key, src, epoch, count, segment)
    return body + tag(key, body, tag_bytes)


@dataclass(frozen=True)
class DataFrame:
    src: bytes
    dst: bytes
    epoch: int
    count: int
    chan: int
    sealed: bytes  # the encrypted segment
    signed: bytes  # the part the tag covers
    tag: bytes


def parse_data(body: bytes, tag_bytes: int = TAG_BYTES) -> DataFrame:
    """The parts of a DATA body (nothing checked but its shape; see `verify`, `unseal`)."""
    if len(body) < DATA_HEAD.size + tag_bytes:
        raise PacketError("short data frame")
    kind, src, dst, epoch, count, chan = DATA_HEAD.unpack_from(body)
    if kind != DATA:
        raise PacketError("not a data frame")
    signed = body[:-tag_bytes]
    return DataFrame(
        src,
        dst,
        epoch,
        int.from_bytes(count, "big"),
        chan,
        signed[DATA_HEAD.size :],
        signed,
        body[-tag_bytes:],
    )


def verify(key: bytes, frame: DataFrame) -> bool:
    return hmac.compare_digest(tag(key, frame.signed, len(frame.tag)), frame.tag)


def unseal(key: bytes, frame: DataFrame) -> bytes:
    """The clear segment of a frame that verified under `key`."""
    return _stream(key, frame.src, frame.epoch, frame.count, frame.sealed)


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
