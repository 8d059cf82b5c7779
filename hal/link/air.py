"""The radio air model shared by the in-memory medium and the `air://` simulated radio.

A UART radio module (HC-12 and the like) is a transparent, half-duplex byte pipe on a shared
channel. One `write` goes on the air as one burst: it occupies the channel for
`len * 10 / baud` seconds (start bit, 8 data bits, stop bit), queued behind the sender's
previous bursts. Every other unit hears it, after `delay_ms` plus up to `jitter_ms`, unless:

- the hearing unit was itself transmitting at any moment of it (half-duplex: deaf while
  sending), or
- it overlaps another unit's burst (a collision: both arrive garbled), or
- it is lost (probability `loss` per burst).

What arrives may be corrupted (each byte has one bit flipped with probability `corrupt`) and
duplicated (probability `dup`: the burst arrives a second time a little later). Jitter lets a
later burst overtake an earlier one, so reordering happens too. Everything is driven by an
explicit clock and a seeded generator, so runs are reproducible.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, fields, replace
from urllib.parse import parse_qsl

BITS_PER_BYTE = 10  # 8N1 on the UART


@dataclass(frozen=True)
class Impairments:
    """What the air does to traffic. `baud` 0 means no air time (infinitely fast)."""

    baud: int = 9600
    loss: float = 0.0
    corrupt: float = 0.0
    dup: float = 0.0
    delay_ms: float = 0.0
    jitter_ms: float = 0.0
    seed: int = 0
    collisions: bool = True

    def __post_init__(self) -> None:
        if self.baud < 0:
            raise ValueError("baud must be >= 0")
        for name in ("loss", "corrupt", "dup"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {value}")
        if self.delay_ms < 0 or self.jitter_ms < 0:
            raise ValueError("delay_ms and jitter_ms must be >= 0")

    def airtime(self, nbytes: int) -> float:
        """Seconds `nbytes` occupy the channel."""
        return 0.0 if self.baud == 0 else nbytes * BITS_PER_BYTE / self.baud

    @classmethod
    def from_query(cls, query: str) -> Impairments:
        """Parse `baud=9600&loss=0.1&...` (a URL's query); unknown keys raise ValueError."""
        known = {f.name: f.type for f in fields(cls)}
        values: dict[str, object] = {}
        for key, text in parse_qsl(query, keep_blank_values=True):
            if key not in known:
                raise ValueError(f"unknown radio option {key!r} (options: {', '.join(known)})")
            try:
                if key in ("baud", "seed"):
                    values[key] = int(text)
                elif key == "collisions":
                    if text not in ("0", "1", "true", "false"):
                        raise ValueError(text)
                    values[key] = text in ("1", "true")
                else:
                    values[key] = float(text)
            except ValueError:
                raise ValueError(f"radio option {key} has a bad value {text!r}") from None
        # each value was parsed to its field's type above; mypy sees only object
        return replace(cls(), **values)  # type: ignore[arg-type]


@dataclass
class Burst:
    """One transmission on the air."""

    sender: int
    start: float
    end: float
    data: bytes


def _overlap(a0: float, a1: float, b0: float, b1: float) -> bool:
    return a0 < b1 and b0 < a1


class Receiver:
    """One unit's ear: decides what of the air it hears, and when."""

    def __init__(self, unit: int, imp: Impairments, rng: random.Random) -> None:
        self.unit = unit
        self.imp = imp
        self.rng = rng
        self._own: list[tuple[float, float]] = []  # own recent transmissions
        self._pending: list[tuple[float, int, Burst]] = []  # (deliver at, order, burst)
        self._heard: list[Burst] = []  # recent bursts, for collision checks and carrier sense
        self._order = 0
        self.stats = {"heard": 0, "lost": 0, "deaf": 0, "collided": 0, "corrupted": 0, "dup": 0}

    def transmitting(self, start: float, end: float) -> None:
        """This unit transmits over [start, end): it cannot hear anything then."""
        self._own.append((start, end))
        if len(self._own) > 64:
            del self._own[:32]
        if not self._pending:
            return
        kept = []
        for item in self._pending:
            if _overlap(start, end, item[2].start, item[2].end):
                self.stats["deaf"] += 1
            else:
                kept.append(item)
        if len(kept) != len(self._pending):
            heapq.heapify(kept)
            self._pending = kept

    def hear(self, burst: Burst) -> None:
        """Another unit's burst reaches the antenna."""
        imp = self.imp
        self.stats["heard"] += 1
        if any(_overlap(s, e, burst.start, burst.end) for s, e in self._own):
            self.stats["deaf"] += 1
            return
        self._heard = [b for b in self._heard if b.end > burst.start - 1.0]
        if imp.collisions and burst.end > burst.start:
            for i, (at, order, other) in enumerate(self._pending):
                if other.sender != burst.sender and _overlap(
                    other.start, other.end, burst.start, burst.end
                ):
                    self.stats["collided"] += 1
                    garbled = Burst(other.sender, other.start, other.end, self._garble(other.data))
                    self._pending[i] = (at, order, garbled)
                    burst = Burst(burst.sender, burst.start, burst.end, self._garble(burst.data))
        self._heard.append(burst)
        if self.rng.random() < imp.loss:
            self.stats["lost"] += 1
            return
        copies = 2 if self.rng.random() < imp.dup else 1
        if copies == 2:
            self.stats["dup"] += 1
        at = burst.end
        for _ in range(copies):
            at += (imp.delay_ms + self.rng.random() * imp.jitter_ms) / 1000.0
            data = self._corrupt(burst.data)
            self._order += 1
            heapq.heappush(
                self._pending, (at, self._order, Burst(burst.sender, burst.start, burst.end, data))
            )

    def _corrupt(self, data: bytes) -> bytes:
        p = self.imp.corrupt
        if p <= 0.0:
            return data
        out = bytearray(data)
        hit = False
        for i in range(len(out)):
            if self.rng.random() < p:
                out[i] ^= 1 << self.rng.randrange(8)
                hit = True
        if hit:
            self.stats["corrupted"] += 1
        return bytes(out)

    def _garble(self, data: bytes) -> bytes:
        out = bytearray(data)
        for i in range(len(out)):
            if self.rng.random() < 0.3:
                out[i] = self.rng.randrange(256)
        return bytes(out)

    def take(self, now: float) -> bytes:
        """Everything that has arrived by `now`, in arrival order."""
        if not self._pending or self._pending[0][0] > now:
            return b""
        chunks = []
        while self._pending and self._pending[0][0] <= now:
            chunks.append(heapq.heappop(self._pending)[2].data)
        return b"".join(chunks)

    def busy(self, now: float) -> bool:
        """Carrier sense: another unit's burst is on the air now (its bytes are arriving)."""
        return any(b.start <= now < b.end for b in self._heard)

    @property
    def waiting(self) -> int:
        return len(self._pending)


class Transmitter:
    """One unit's sender: bursts queue behind each other at the channel's bit rate."""

    def __init__(self, unit: int, imp: Impairments) -> None:
        self.unit = unit
        self.imp = imp
        self.busy_until = 0.0
        self.bytes_sent = 0

    def send(self, now: float, data: bytes) -> Burst:
        start = max(now, self.busy_until)
        end = start + self.imp.airtime(len(data))
        self.busy_until = end
        self.bytes_sent += len(data)
        return Burst(self.unit, start, end, bytes(data))

    def out_waiting(self, now: float) -> int:
        """Bytes still queued in the radio's buffer (approximately)."""
        if self.imp.baud == 0 or self.busy_until <= now:
            return 0
        return int((self.busy_until - now) * self.imp.baud / BITS_PER_BYTE) + 1
