"""The dm-log-writes log that QEMU's `blklogwrites` block driver keeps, and the crash states
replayed from it (power_series.py, issue 35). Pure: bytes and files in, no QEMU.

The format (QEMU's block/blklogwrites.c, taken from Linux's drivers/md/dm-log-writes.c; all
fields little-endian): log sector 0 holds the super block (magic, version 1, nr_entries,
the log's sector size); entries follow from log sector 1, each one log sector holding
(sector, nr_sectors, flags, data_len) padded with zeroes, then its data (nr_sectors log
sectors; none for a discard or a flush). `sector` and `nr_sectors` count log sectors.
QEMU writes the super block only on a flush, so its nr_entries can lag: the entries are read
by scanning to the end of the file (a torn last entry, cut as QEMU was killed, is dropped).

Two crash models (`crash_writes`):

- "completed" (the emulated card's contract): every write that completed before the cut
  is on the card, nothing after it. QEMU's SD card has no volatile cache (the kernel sees
  none, so it sends no FLUSH or FUA), it writes each block of a multi-block command as it
  arrives, in order, and the guest's write completes only after QEMU wrote it: a cut after
  k logged writes leaves exactly the first k (a cut in a multi-block command keeps the
  blocks before it: they are separate entries).
- "flush" (dm-log-writes / CrashMonkey, a card with a volatile cache): every write before
  the last FLUSH before the cut, every FUA write before the cut, and a random subset of the
  other writes after that FLUSH (log order kept). Meaningful only if the log has flushes.
"""

from __future__ import annotations

import os
import random
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

MAGIC = 0x6A736677736872
VERSION = 1
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8
FLAG_MASK = FLUSH | FUA | DISCARD | MARK
SUPER = struct.Struct("<QQQI")
ENTRY = struct.Struct("<QQQQ")
MODELS = ("completed", "flush")


class LogError(ValueError):
    """Not a dm-log-writes log."""


@dataclass(frozen=True)
class Entry:
    """One logged request: its place on the disk (log sectors) and of its data in the log."""

    index: int
    sector: int
    nr_sectors: int
    flags: int
    data_at: int  # byte offset of the data in the log
    end: int  # byte offset just past this entry (and its data) in the log

    @property
    def is_write(self) -> bool:
        return not self.flags & (FLUSH | DISCARD) and self.nr_sectors > 0


@dataclass(frozen=True)
class Log:
    sectorsize: int
    super_entries: int  # nr_entries in the super block (as of the last flush)
    entries: tuple[Entry, ...]

    def count_at(self, offset: int) -> int:
        """How many entries lie wholly before byte `offset` of the log (the log's size when
        the host saw something happen: every entry written by then)."""
        lo, hi = 0, len(self.entries)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.entries[mid].end <= offset:
                lo = mid + 1
            else:
                hi = mid
        return lo


def encode_super(nr_entries: int, sectorsize: int = 512) -> bytes:
    raw = SUPER.pack(MAGIC, VERSION, nr_entries, sectorsize)
    return raw + bytes(sectorsize - len(raw))


def encode_entry(sector: int, data: bytes = b"", flags: int = 0, sectorsize: int = 512,
                 nr_sectors: int | None = None) -> bytes:  # fmt: skip
    """One entry as QEMU writes it (tests build logs with it). A discard gives nr_sectors
    and no data."""
    if nr_sectors is None:
        nr_sectors = len(data) // sectorsize
    raw = ENTRY.pack(sector, nr_sectors, flags, 0)
    return raw + bytes(sectorsize - len(raw)) + data


def parse(data: bytes) -> Log:
    """Parse a log held in memory."""
    return _parse(lambda at, n: data[at : at + n], len(data))


def parse_file(path: str) -> Log:
    """Parse a log file, entry header by entry header (the data is not loaded)."""
    with open(path, "rb") as f:
        fd = f.fileno()
        return _parse(lambda at, n: os.pread(fd, n, at), os.fstat(fd).st_size)


def _parse(read: Callable[[int, int], bytes], size: int) -> Log:
    head = read(0, SUPER.size)
    if len(head) < SUPER.size:
        raise LogError("shorter than a super block")
    magic, version, nr, sectorsize = SUPER.unpack(head)
    if magic == 0 and version == 0:  # QEMU writes the super block at the first flush
        sectorsize = 512
        nr = 0
    elif magic != MAGIC or version != VERSION:
        raise LogError(f"bad magic {magic:#x} or version {version}")
    if sectorsize <= 0 or sectorsize & (sectorsize - 1) or sectorsize < ENTRY.size:
        raise LogError(f"bad sector size {sectorsize}")
    entries: list[Entry] = []
    at = sectorsize
    while at + ENTRY.size <= size:
        sector, nr_sectors, flags, _ = ENTRY.unpack(read(at, ENTRY.size))
        if flags & ~FLAG_MASK or (sector, nr_sectors, flags) == (0, 0, 0):
            break  # past the last entry (zeroes) or garbage
        data = 0 if flags & (DISCARD | FLUSH) else nr_sectors * sectorsize
        end = at + sectorsize + data
        if end > size:
            break  # torn: QEMU was killed while writing it
        entries.append(Entry(len(entries), sector, nr_sectors, flags, at + sectorsize, end))
        at = end
    return Log(sectorsize, nr, tuple(entries))


def last_flush(entries: Sequence[Entry], cut: int) -> int:
    """The number of entries up to and including the last FLUSH among the first `cut`."""
    for i in range(min(cut, len(entries)) - 1, -1, -1):
        if entries[i].flags & FLUSH:
            return i + 1
    return 0


def crash_writes(entries: Sequence[Entry], cut: int, model: str,
                 rng: random.Random | None = None) -> list[Entry]:  # fmt: skip
    """The entries a power cut after the first `cut` leaves on the card, in log order."""
    cut = max(0, min(cut, len(entries)))
    if model == "completed":
        return [e for e in entries[:cut] if e.is_write or e.flags & DISCARD]
    if model != "flush":
        raise ValueError(f"unknown model {model!r}")
    rng = rng or random.Random(0)
    barrier = last_flush(entries, cut)
    kept = [e for e in entries[:barrier] if e.is_write or e.flags & DISCARD]
    for e in entries[barrier:cut]:
        if (e.is_write and e.flags & FUA) or ((e.is_write or e.flags & DISCARD)
                                              and rng.random() < 0.5):  # fmt: skip
            kept.append(e)
    return kept


def apply(writes: Iterable[Entry], log_fd: int, disk_fd: int, sectorsize: int,
          window: tuple[int, int] | None = None) -> int:  # fmt: skip
    """Write the entries' data onto a disk (a discard writes zeroes: what a card may return
    for discarded blocks is not promised, zeroes are one choice). `window` (start, length in
    bytes): only the part of each write inside it, at offsets relative to its start (one
    partition's file). The bytes written."""
    done = 0
    lo, length = window if window is not None else (0, 1 << 62)
    for e in writes:
        start, size = e.sector * sectorsize, e.nr_sectors * sectorsize
        a, b = max(start, lo), min(start + size, lo + length)
        if a >= b:
            continue
        if e.flags & DISCARD:
            chunk = bytes(b - a)
        else:
            chunk = os.pread(log_fd, b - a, e.data_at + (a - start))
        os.pwrite(disk_fd, chunk, a - lo)
        done += len(chunk)
    return done


def touches(entry: Entry, sectorsize: int, window: tuple[int, int]) -> bool:
    """Does a write or discard reach into the byte window (start, length)?"""
    if not (entry.is_write or entry.flags & DISCARD):
        return False
    start = entry.sector * sectorsize
    return start < window[0] + window[1] and start + entry.nr_sectors * sectorsize > window[0]
