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
and the schema through an `immutable` read-only connection, so recognising writes nothing;
when the main file alone shows no Twinfold schema and a write-ahead log lies beside it (a new
store still open, or cut off by a power cut before its first checkpoint), the schema is read
from a copy of both.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import tempfile
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

SQLITE_MAGIC = b"SQLite format 3\x00"
APP_ID = 0x54774664  # "TwFd": PRAGMA application_id, bytes 68..71 of the header

# What reading a damaged SQLite file can raise: SQLite's errors, and Python's when damaged
# bytes come back as text that is not UTF-8 (a value, a pragma's answer, an error message).
UNREADABLE: tuple[type[Exception], ...] = (sqlite3.Error, UnicodeDecodeError)

Verdict = Literal["fresh", "ours", "foreign", "unknown"]


@dataclass(frozen=True, slots=True)
class Recognised:
    """What a file at a store's path is: `fresh` (absent or empty: use it),
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
    tables = _tables(readonly_uri(path))
    wal = path.with_name(path.name + "-wal")
    if (tables is None or "schema_version" not in tables) and _size(wal) > 0:
        # the newest commits (the schema and the mark of a store that was never checkpointed:
        # still open, or the power went) are in the write-ahead log: read it from a copy
        with tempfile.TemporaryDirectory(prefix="twinfold-recognise-") as tmp:
            copy = Path(tmp) / "copy.db"
            try:
                shutil.copyfile(path, copy)
                shutil.copyfile(wal, copy.with_name("copy.db-wal"))
            except OSError:
                return Recognised("ours")  # unreadable: opening it says why, nothing moves
            tables = _tables(str(copy))
    if tables is None:
        return Recognised("unknown", "it is a damaged SQLite database without Twinfold's mark")
    if not tables:  # (also a Twinfold store cut off before its first commit: ours=True)
        return Recognised("unknown", "it is an SQLite database without Twinfold's tables")
    if "schema_version" in tables:
        return Recognised("ours")
    return Recognised("foreign", "it is another program's SQLite database")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _tables(target: str) -> set[str] | None:
    """The tables of the database at `target` (a path or a URI), None when unreadable."""
    try:
        conn = sqlite3.connect(target, uri=target.startswith("file:"))
    except UNREADABLE:
        return None
    try:
        return {
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    except UNREADABLE:
        return None
    finally:
        conn.close()


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


# ---- salvage: every row that can still be read from a damaged store -----------------------

# table: (its key column, the columns salvaged, what the player calls it). The key decides
# which of two copies wins in the repaired store: the damaged file's (newer than any backup).
TABLES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "settings": ("key", ("key", "value"), "settings"),
    "calibration": ("id", ("id", "value", "saved_at"), "settings"),
    "stats": ("game_id", ("game_id", "value"), "scores"),
    "records": ("id", ("id", "game_id", "created_at", "value"), "records"),
    "saved_games": ("game_id", ("game_id", "state", "meta", "saved_at"), "saved"),
    "pairings": ("peer", ("peer", "name", "key", "epoch", "paired_at"), "pairings"),
}
JSON_COLUMNS = frozenset({"value", "state", "meta"})
NUMBER_COLUMNS = frozenset({"saved_at", "created_at", "paired_at", "epoch", "id"})
PROBE_SPAN = 4096  # rowids probed one by one past a damaged stretch of a table


@dataclass
class Salvage:
    """What could be read from a damaged store: `rows` per table, the kinds (TABLES' third
    field) with parts that could not be read, and whether the file could be opened at all."""

    rows: dict[str, list[tuple[object, ...]]] = field(default_factory=dict)
    failed: set[str] = field(default_factory=set)
    opened: bool = False


def _sound(table: str, row: tuple[object, ...], *, parsed: bool = True) -> bool:
    """A row of `table` whose every value has the type the store writes (damage can leave a
    row readable but wrong: a number where text was, text that is not JSON, an empty key).
    `parsed` False: the JSON columns were checked already (SQLite's json_valid, in C)."""
    key, columns, _kind = TABLES[table]
    for name, value in zip(columns, row, strict=True):
        if name in NUMBER_COLUMNS:
            if isinstance(value, bool) or not isinstance(value, int | float):
                return False
            if name in ("id", "epoch") and not isinstance(value, int):
                return False
        elif not isinstance(value, str) or (name == key and not value):
            return False
        elif name in JSON_COLUMNS and parsed:
            try:
                json.loads(value)
            except ValueError:
                return False
    return True


def unsound_row(conn: sqlite3.Connection) -> str | None:
    """Where the first row that SQLite's own check cannot see is damaged lies (text that is
    not UTF-8 or not JSON, a number turned into text), or None. SQLite keeps no checksums of
    its rows, so a changed byte inside a value passes `PRAGMA quick_check`; reading every
    row once at open finds it before a screen does (a few milliseconds for a typical store:
    docs/performance.md)."""
    present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for table, (_key, columns, _kind) in TABLES.items():
        if table not in present:
            continue
        valid = [f"json_valid({c})" for c in columns if c in JSON_COLUMNS] or ["1"]
        sql = f"SELECT rowid, {', '.join(columns)}, min({', '.join(valid)}, 1) FROM {table}"
        try:
            cursor = conn.execute(sql)
        except UNREADABLE as exc:  # e.g. "no such column": the schema itself is damaged
            return f"the table {table} is unreadable ({exc})"
        while True:
            try:
                row = cursor.fetchone()  # (text that is not UTF-8 fails here)
            except UNREADABLE as exc:
                return f"a row of {table} is unreadable ({exc})"
            if row is None:
                break
            if row[-1] != 1 or not _sound(table, row[1:-1], parsed=False):
                return f"row {row[0]} of {table} holds damaged values"
    return None


def _scan(cursor: Iterable[tuple[object, ...]], into: dict[int, tuple[object, ...]]) -> bool:
    """Read rows (rowid first) until the end (True) or the first damaged page (False)."""
    try:
        for row in cursor:
            if isinstance(row[0], int):
                into[row[0]] = row[1:]
    except UNREADABLE:
        return False
    return True


def _read_table(conn: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> tuple[
    dict[int, tuple[object, ...]], bool
]:
    """A table's readable rows by rowid, and whether all of it could be read. Past a damaged
    page a scan stops, so the table is read forwards, then backwards, then the rowids between
    the two are asked for one by one (each lookup walks the b-tree afresh and fails only where
    it meets damage)."""
    select = f"SELECT rowid, {', '.join(columns)} FROM {table}"
    rows: dict[int, tuple[object, ...]] = {}
    try:
        if _scan(conn.execute(select + " ORDER BY rowid"), rows):
            return rows, True
    except UNREADABLE:
        pass
    low = max(rows, default=0)
    backwards: dict[int, tuple[object, ...]] = {}
    with contextlib.suppress(*UNREADABLE):
        _scan(conn.execute(select + " ORDER BY rowid DESC"), backwards)
    rows.update(backwards)
    high = min((r for r in backwards if r > low), default=low + PROBE_SPAN + 1)
    for rowid in range(low + 1, min(high, low + PROBE_SPAN + 1)):
        with contextlib.suppress(*UNREADABLE):
            for row in conn.execute(select + " WHERE rowid = ?", (rowid,)):
                rows[rowid] = row[1:]
    return rows, False


def salvage(damaged: Path) -> Salvage:
    """Every sound row that can be read from the damaged store `damaged` (and its `-wal`,
    whose complete commits SQLite applies). Works on a copy: the set-aside file is kept
    exactly as it was found."""
    result = Salvage()
    with tempfile.TemporaryDirectory(prefix="twinfold-salvage-") as tmp:
        copy = Path(tmp) / "damaged.db"
        try:
            shutil.copyfile(damaged, copy)
            wal = damaged.with_name(damaged.name + "-wal")
            if wal.exists():
                shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
            conn = sqlite3.connect(copy)
        except (OSError, sqlite3.Error):
            result.failed.update(kind for _, _, kind in TABLES.values())
            return result
        try:
            with contextlib.suppress(*UNREADABLE):
                # writable_schema: SQLite then reads a file shorter than its header says (a
                # truncated store) instead of refusing it whole; query_only: this connection
                # never writes; cell_size_check: damaged cells fail rather than read wrong
                conn.execute("PRAGMA writable_schema=ON")
                conn.execute("PRAGMA query_only=ON")
                conn.execute("PRAGMA cell_size_check=ON")
            try:
                present = {
                    r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
                }
                result.opened = True
            except UNREADABLE:
                present = set(TABLES)  # the schema page is damaged: try every table anyway
            for table, (_key, columns, kind) in TABLES.items():
                if table not in present:
                    continue
                try:
                    rows, whole = _read_table(conn, table, columns)
                except UNREADABLE:
                    rows, whole = {}, False
                sound = [row for _, row in sorted(rows.items()) if _sound(table, row)]
                if sound:
                    result.opened = True
                if not whole or len(sound) < len(rows):
                    result.failed.add(kind)
                result.rows[table] = sound
        finally:
            conn.close()
    return result


def merge(conn: sqlite3.Connection, found: Salvage) -> None:
    """Write the salvaged rows into the repaired store (one transaction; a row of the
    damaged file replaces the backup's row with the same key: it is the newer)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for table, rows in found.rows.items():
            columns = TABLES[table][1]
            marks = ", ".join("?" for _ in columns)
            conn.executemany(
                f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
            )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


# ---- what the player is told after a repair ----------------------------------------------

_KINDS = {  # kind: (English, Japanese), in the order the notice lists them
    "records": ("game records", "ゲームの きろく"),
    "saved": ("saved games", "セーブ"),
    "pairings": ("pairings", "ペアリング"),
    "settings": ("settings", "せってい"),
    "scores": ("scores", "せいせき"),
}
_COUNTED = {"records": ("game record", "game records"), "saved": ("saved game", "saved games"),
            "pairings": ("pairing", "pairings")}


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def repaired_notice(
    aside: str, detail: str, *, counts: dict[str, int], found: Salvage, from_backup: bool
) -> StoreNotice:
    """The notice after a repair: what is in the store now (`counts` per kind: what came
    back from the newest good backup and the damaged file), and what could not be read."""
    if not any(counts.values()):
        return damaged_notice(aside, detail)
    en = [f"The saved data was damaged and was set aside as {aside}."]
    ja = [f"データが こわれていたので {aside} に のこしました。"]
    back_en, back_ja = [], []
    for kind, (word_en, word_ja) in _KINDS.items():
        n = counts.get(kind, 0)
        if not n:
            continue
        if kind in _COUNTED:
            one, many = _COUNTED[kind]
            back_en.append(f"{n} {one if n == 1 else many}")
            back_ja.append(f"{word_ja} {n}こ")
        else:
            back_en.append(f"the {word_en}")
            back_ja.append(word_ja)
    en.append("Brought back: " + _and(back_en) + ".")
    ja.append("もどせた もの: " + "、".join(back_ja) + "。")
    if not found.opened:
        if from_backup:
            en.append("Changes after the last backup could not be read.")
            ja.append("さいごの バックアップより あとの へんこうは よめませんでした。")
    elif found.failed:
        lost = [k for k in _KINDS if k in found.failed]
        words_en, words_ja = _and([_KINDS[k][0] for k in lost]), "、".join(
            _KINDS[k][1] for k in lost
        )
        if from_backup:  # what the backup held is back; only later changes may be missing
            en.append(f"Some {words_en} from after the last backup may be missing.")
            ja.append(f"バックアップより あとの {words_ja}は いちぶ よめませんでした。")
        else:
            en.append(f"Could not be read: some {words_en}.")
            ja.append(f"よめなかった もの: {words_ja}の いちぶ。")
    else:
        en.append("Nothing was lost.")
        ja.append("なくなった ものは ありません。")
    return StoreNotice(" ".join(en), "".join(ja), one_line(detail))
