"""What the store does with a file that is not sound: tell a Twinfold store from a person's
file, and say in plain words (English and Japanese) what happened to a damaged one.

Why the mark: `--store FILE` may name any file. Setting aside (renaming) a file that was
never a store would take a person's file away from its name (issue 34, item 12), so a file
is treated as a damaged store only when it is one of ours: its SQLite header carries
Twinfold's application id (`PRAGMA application_id`, written on every open), or it is an
unmarked SQLite file whose schema has Twinfold's `schema_version` table (stores written
before the mark), or the caller vouches for the place (the data directory's own store,
`Store.open(..., ours=True)`), or backups of it lie beside it. Anything else is refused and
left byte for byte as it was: a file that is not SQLite, another program's database, or a
damaged SQLite file without the mark in a place that is not ours. The header is read as bytes
and the schema through an `immutable` read-only connection, so recognising writes nothing.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

SQLITE_MAGIC = b"SQLite format 3\x00"
APP_ID = 0x54774664  # "TwFd": PRAGMA application_id, bytes 68..71 of the header

Verdict = Literal["fresh", "ours", "foreign", "unknown"]


@dataclass(frozen=True, slots=True)
class Recognised:
    """What a file at a store's path is: `fresh` (absent, empty, or an empty database: use it),
    `ours` (a Twinfold store, sound or not), `foreign` (certainly not ours) or `unknown`
    (unreadable and unmarked: ours only if the caller knows so); `why` for the refusal."""

    verdict: Verdict
    why: str = ""


def readonly_uri(path: Path) -> str:
    """An SQLite URI that reads `path` as it is: no journal, no lock, no -shm, no writes."""
    return "file:" + urllib.parse.quote(os.fspath(path)) + "?mode=ro&immutable=1"


def recognise(path: Path) -> Recognised:
    """Look at the file at `path` without changing it (see the module's docstring)."""
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except FileNotFoundError:
        return Recognised("fresh")
    except OSError:
        return Recognised("ours")  # unreadable: opening it says why, and nothing is moved
    if not header:
        return Recognised("fresh")  # an empty file holds nothing: SQLite makes it a store
    if not header.startswith(SQLITE_MAGIC):
        return Recognised("unknown", "it is not an SQLite database")
    if len(header) >= 72:
        app = int.from_bytes(header[68:72], "big")
        if app == APP_ID:
            return Recognised("ours")
        if app != 0:
            return Recognised("foreign", "it is another program's SQLite database")
    try:
        conn = sqlite3.connect(readonly_uri(path), uri=True)
    except sqlite3.Error:
        return Recognised("unknown", "it is a damaged SQLite database without Twinfold's mark")
    try:
        tables = {
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    except sqlite3.Error:
        return Recognised("unknown", "it is a damaged SQLite database without Twinfold's mark")
    finally:
        conn.close()
    if not tables:
        return Recognised("fresh")
    if "schema_version" in tables:
        return Recognised("ours")
    return Recognised("foreign", "it is another program's SQLite database")


@dataclass(frozen=True, slots=True)
class StoreNotice:
    """What the player is told after the store was repaired, in both languages; `detail` is
    the technical cause, for the log only (SQLite's own words, which may span lines)."""

    en: str
    ja: str
    detail: str = ""

    def __str__(self) -> str:
        return self.en


def one_line(text: str) -> str:
    """`text` with its line breaks folded (SQLite's integrity report spans lines)."""
    return "; ".join(part.strip() for part in text.splitlines() if part.strip())


def damaged_notice(aside: str, detail: str) -> StoreNotice:
    """The notice for a damaged store set aside as `aside` with nothing to bring back."""
    return StoreNotice(
        f"The saved data was damaged. It was set aside as {aside}; settings and records"
        " start afresh.",
        f"セーブデータが こわれていました。{aside} として のこし、せっていと きろくは"
        " はじめからです。",
        one_line(detail),
    )
