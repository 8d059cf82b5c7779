"""Rolling backups of the store (issue 35, P-REL-2), taken with SQLite's online backup API.

Why the backup API (`sqlite3.Connection.backup`): it copies a consistent snapshot of the
database while the store stays open, page by page through SQLite itself, so a backup is never
a half-written copy of a file being changed (a plain file copy of a WAL database can be).
Each backup is written to a hidden temporary name, synced, then renamed into place, so a
power cut leaves either the old set of backups or the new one.

When: at safe moments only, when the store has just been found sound or has just committed:
a day's first start (`Store.open`), a game's end (`Machine.record_result`), before a schema
migration, and after a repair. Where: `<store>.backups/` beside the store, one file per
backup named `<sequence>-<UTC time>-<why>.db`; the sequence, not the clock, orders them (a
handheld without a real-time clock may boot in the past).

How many: at most `KEEP` (4), and together never more than `SHARE` (a tenth) of the size of
the file system that holds the store. Why a tenth: the data partition also holds the live
store, its write-ahead log, the log files and clips; backups that filled it would make the
next save fail, which is worse than an older backup. A store is normally well under a
megabyte, so the bound only bites on a tiny partition or after years of records, and then
the oldest backups go first; a backup that would not fit even alone, or that would leave
less free space than twice the store's size (room for the live store and its journal to
grow), is skipped and logged rather than taken.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware.store_rescue import UNREADABLE, readonly_uri

KEEP = 4
SHARE = 0.10
SUFFIX = ".backups"
_NAME = re.compile(r"^(\d{6})-(\d{8}T\d{6})-([a-z]+)\.db$")

log = logging.getLogger("twinfold")


@dataclass(frozen=True, slots=True)
class Backup:
    """One backup file: its order, its UTC time (`YYYYmmddTHHMMSS`) and why it was taken."""

    path: Path
    sequence: int
    stamp: str
    why: str

    @property
    def day(self) -> str:
        return self.stamp[:8]


def folder(store: Path) -> Path:
    return store.with_name(store.name + SUFFIX)


def backups(store: Path) -> list[Backup]:
    """The store's backups, newest first."""
    found = []
    with contextlib.suppress(OSError):
        for entry in folder(store).iterdir():
            m = _NAME.match(entry.name)
            if m:
                found.append(Backup(entry, int(m[1]), m[2], m[3]))
    return sorted(found, key=lambda b: b.sequence, reverse=True)


def stamp(now: float) -> str:
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(now))


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def take(
    conn: sqlite3.Connection,
    store: Path,
    why: str,
    now: Callable[[], float],
) -> Path | None:
    """Back up the open store `conn` (at `store`) now; returns the new backup, or None when
    the bound (`KEEP`, `SHARE`) forbids it or the disk refuses (logged: a backup never
    stops the unit)."""
    keep, share = KEEP, SHARE
    try:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        need = int(page_size) * int(pages)
        where = folder(store)
        where.mkdir(exist_ok=True)
        disk = shutil.disk_usage(where)
        budget = int(disk.total * share)
        kept = backups(store)
        sequence = max((b.sequence for b in kept), default=0) + 1
        if need > budget or disk.free - need < 2 * need:
            log.warning(
                "store %s: backup skipped: %d bytes would pass the bound (%d bytes, %d free)",
                store, need, budget, disk.free,
            )
            return None
        # make room: at most keep-1 old ones, and the old ones plus the new one within bounds
        while kept and (len(kept) >= keep or sum(_size(b.path) for b in kept) + need > budget):
            kept.pop().path.unlink(missing_ok=True)
        # everything the backup holds goes into the main file first, so that a write-ahead
        # log torn later (a power cut in a later commit) can only cost what came after it
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        final = where / f"{sequence:06d}-{stamp(now())}-{why}.db"
        temp = where / f".{final.name}.tmp"
        for stale in where.glob(".*.tmp"):  # a backup cut off by a power cut
            stale.unlink(missing_ok=True)
        target = sqlite3.connect(temp)
        try:
            conn.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            target.close()
        with open(temp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(temp, final)
        _fsync_dir(where)
    except (OSError, sqlite3.Error) as exc:
        log.warning("store %s: backup (%s) failed: %s", store, why, exc)
        return None
    log.info("store %s: backup %s taken (%s)", store, final.name, why)
    return final


def is_good(path: Path, schema_version: int) -> bool:
    """A backup that passes SQLite's check and holds a schema this firmware can open."""
    try:
        conn = sqlite3.connect(readonly_uri(path), uri=True)
    except UNREADABLE:
        return False
    try:
        if conn.execute("PRAGMA quick_check").fetchall() != [("ok",)]:
            return False
        rows = conn.execute("SELECT version FROM schema_version").fetchall()
        return len(rows) == 1 and isinstance(rows[0][0], int) and rows[0][0] <= schema_version
    except UNREADABLE:
        return False
    finally:
        conn.close()


def restore(backup: Path, store: Path) -> None:
    """Write `backup` as the store at `store` (which must be absent), through the backup
    API, synced before it is used."""
    source = sqlite3.connect(readonly_uri(backup), uri=True)
    target = sqlite3.connect(store)
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()
    with open(store, "rb+") as f:
        os.fsync(f.fileno())
    _fsync_dir(store.parent)
