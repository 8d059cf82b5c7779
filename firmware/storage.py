"""The persistent store (P-HW-7, P-REL-1, P-REL-2): settings, calibration, statistics,
finished-game records, radio pairings and each game's saved (suspended) game, in one SQLite
file, held by one process at a time.

Why SQLite: every write is a transaction that survives power loss at any instant (WAL journal
with synchronous=FULL: a commit is on disk before it returns, and an interrupted one is rolled
back on the next open), and damage is detectable (`PRAGMA quick_check`). A Twinfold store that
is damaged (garbage, truncated, written by newer firmware) is renamed to `<name>.damaged-<n>`
together with its journal files and replaced by a fresh one; `Store.notice` then says so in
both languages, and the firmware boots. A file that is not a Twinfold store at all is refused
(`NotAStore`) and left as it was (firmware/store_rescue.py).

All values are JSON (stored as text), checked before any write: a value that JSON cannot
represent exactly raises `StoreValueError` and nothing is written.

One process at a time: `Store.open` takes an exclusive lock on `<store>.lock` beside the file
(firmware/store_lock.py says how and why); a second process is refused with `StoreBusy`.
Saved games (schema 3): one slot per game (`save_suspend(game_id, ...)`); schema 2 had one
slot for all games, whose game moves into its own slot on the first open (nothing lost).
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware import store_backup, store_rescue
from firmware.store_lock import LOCK_SUFFIX as LOCK_SUFFIX
from firmware.store_lock import StoreBusy as StoreBusy
from firmware.store_lock import StoreError as StoreError
from firmware.store_lock import _discard_lock, acquire, release
from firmware.store_lock import holds as holds
from firmware.store_lock import lock_holder as lock_holder
from firmware.store_rescue import APP_ID, StoreNotice, recognise

JsonValue = Any  # None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]

# Migrations: entry i brings schema version i to i+1. Append only; never edit a shipped one.
MIGRATIONS: list[tuple[str, ...]] = [
    (
        "CREATE TABLE schema_version (version INTEGER NOT NULL)",
        "INSERT INTO schema_version (version) VALUES (0)",
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE calibration ("
        " id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL, saved_at REAL NOT NULL)",
        "CREATE TABLE stats (game_id TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE records ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL,"
        " created_at REAL NOT NULL, value TEXT NOT NULL)",
        "CREATE INDEX records_by_game ON records (game_id, id)",
        "CREATE TABLE suspend ("
        " id INTEGER PRIMARY KEY CHECK (id = 1), game_id TEXT NOT NULL,"
        " state TEXT NOT NULL, meta TEXT NOT NULL, saved_at REAL NOT NULL)",
    ),
    (  # issue 11: radio pairings (P-LINK-2, P-FW-2)
        "CREATE TABLE pairings (peer TEXT PRIMARY KEY, name TEXT NOT NULL, key TEXT NOT NULL,"
        " epoch INTEGER NOT NULL, paired_at REAL NOT NULL)",
    ),
    (  # issue 24: one saved game per game; the old single slot moves into its game's slot
        "CREATE TABLE saved_games (game_id TEXT PRIMARY KEY, state TEXT NOT NULL,"
        " meta TEXT NOT NULL, saved_at REAL NOT NULL)",
        "INSERT INTO saved_games (game_id, state, meta, saved_at)"
        " SELECT game_id, state, meta, saved_at FROM suspend",
        "DELETE FROM suspend",
    ),
]
SCHEMA_VERSION = len(MIGRATIONS)
TABLES = frozenset(
    {
        "schema_version",
        "settings",
        "calibration",
        "stats",
        "records",
        "suspend",
        "pairings",
        "saved_games",
    }
)

# SQLite primary result codes that mean "this file is not a sound database of ours". Others
# (busy, locked, permissions, disk full, I/O) are about the environment: never set aside.
# SQLITE_ERROR is an SQL statement that does not fit the schema ("no such column"): the
# store's own fixed statements meet it only when the schema in the file was damaged.
_DAMAGE_CODES = frozenset({1, 11, 26})  # SQLITE_ERROR, SQLITE_CORRUPT, SQLITE_NOTADB

DEFAULT_STATS: dict[str, JsonValue] = {
    "played": 0,
    "wins": 0,
    "losses": 0,
    "draws": 0,
    "best_score": None,
    "last_score": None,
    "streak": 0,  # current run of wins
    "best_streak": 0,
}
OUTCOMES = ("win", "loss", "draw")


log = logging.getLogger("twinfold")


class StoreValueError(StoreError, ValueError):
    """A value to be stored is not plain JSON; nothing was written."""


class NotAStore(StoreError):
    """The path names a file that is not a Twinfold store; it was left as it was."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path} is not a Twinfold store ({why}); it was left untouched")
        self.path = path


class _Damaged(Exception):
    """Internal: the file is not a sound store of ours."""


def check_json(value: Any, where: str = "value") -> None:
    """Raise StoreValueError unless `value` round-trips through JSON exactly.

    Allowed: None, bool, int, finite float, str, list/tuple (read back as lists), dict with
    str keys. Rejected with the path of the offending part: NaN/infinity, other key types
    (JSON would silently turn them into strings), other objects, circular references.
    """
    active: set[int] = set()

    def walk(v: Any, path: str) -> None:
        if v is None or isinstance(v, bool | int | str):
            return
        if isinstance(v, float):
            if not math.isfinite(v):
                raise StoreValueError(f"{path} is {v!r}; only finite numbers can be stored")
            return
        if isinstance(v, list | tuple | dict):
            if id(v) in active:
                raise StoreValueError(f"{path} contains itself (circular reference)")
            active.add(id(v))
            if isinstance(v, dict):
                for k, item in v.items():
                    if not isinstance(k, str):
                        raise StoreValueError(
                            f"{path} has a {type(k).__name__} key {k!r}; keys must be strings"
                        )
                    walk(item, f"{path}[{k!r}]")
            else:
                for i, item in enumerate(v):
                    walk(item, f"{path}[{i}]")
            active.discard(id(v))
            return
        raise StoreValueError(f"{path} is a {type(v).__name__}, which is not JSON-serialisable")

    walk(value, where)


def _dumps(value: Any, where: str) -> str:
    check_json(value, where)
    # ASCII escapes keep lone surrogates (legal in a Python str) storable and exact.
    return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def _loads(text: str, where: str) -> JsonValue:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise StoreError(f"the stored {where} is unreadable: {exc}") from exc


def _check_key(key: Any, what: str) -> str:
    if not isinstance(key, str) or not key:
        raise StoreValueError(f"{what} must be a non-empty string, got {key!r}")
    try:
        key.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise StoreValueError(f"{what} {key!r} is not valid Unicode text") from exc
    return key


def _check_id(game_id: Any) -> str:
    return _check_key(game_id, "game id")


@dataclass(frozen=True, slots=True)
class Suspended:
    """The suspended game: which game, its state and the firmware's metadata about it."""

    game_id: str
    state: JsonValue
    meta: JsonValue
    saved_at: float


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game as stored by `add_record`."""

    id: int
    game_id: str
    created_at: float
    record: JsonValue


def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:  # no code (e.g. raised by Python's own checks): judge by the message
        msg = str(exc).lower()
        return "malformed" in msg or "not a database" in msg
    return (code & 0xFF) in _DAMAGE_CODES


def _connect(path: str, timeout: float) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal")]


def _set_aside(path: Path) -> Path:
    """Rename a damaged store (and its journal files) to `<name>.damaged-<n>`."""
    n = 1
    while True:
        aside = path.with_name(f"{path.name}.damaged-{n}")
        if not aside.exists() and not any(s.exists() for s in _sidecars(aside)):
            break
        n += 1
    if path.exists():
        os.replace(path, aside)
    for side, side_aside in zip(_sidecars(path), _sidecars(aside), strict=True):
        if side.exists():
            os.replace(side, side_aside)
    with contextlib.suppress(OSError):  # make the renames durable where the OS allows it
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return aside


class Store:
    """A handle on the store. Open with `Store.open(path)`; every write is one transaction."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: str,
        notice: StoreNotice | None,
        now: Callable[[], float],
    ) -> None:
        self._conn = conn
        self.path = path
        self.notice = notice
        self._now = now
        self._locked = False  # True once this handle holds the process's lock

    # ---- opening -------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        now: Callable[[], float] = time.time,
        timeout: float = 5.0,
        *,
        ours: bool = False,
    ) -> Store:
        """Open (creating if needed) the store at `path`.

        A damaged Twinfold store is set aside and replaced by a fresh store, with `notice`
        set. A file that is not a Twinfold store raises NotAStore and is left as it was
        (firmware/store_rescue.py says how a store is told apart); `ours=True` vouches that
        whatever lies at `path` is Twinfold's (the data directory's own store), so that even
        a store whose header is destroyed is set aside rather than refused. Errors that are
        not damage (locked, unwritable directory, disk full) raise StoreError and leave the
        file alone. `now` stamps records and saves (seconds); `timeout` is how long to wait
        for another process holding the store (e.g. a second emulator).
        """
        p = Path(path)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the directory for the store {p}: {exc}") from exc
        acquire(p)  # StoreBusy while another process runs on it
        try:
            seen = recognise(p)
            vouched = ours or bool(store_backup.backups(p))  # backups beside it: ours
            refused = {"foreign": not ours, "unknown": not vouched}.get(seen.verdict, False)
            if refused:
                _discard_lock(p)
                raise NotAStore(p, seen.why)
            store = cls._open_locked(p, now, timeout, fresh=seen.verdict == "fresh")
        except BaseException:
            release(p)
            raise
        store._locked = True
        return store

    @classmethod
    def _open_locked(
        cls, p: Path, now: Callable[[], float], timeout: float, *, fresh: bool
    ) -> Store:
        try:
            conn = cls._open_checked(str(p), timeout, now)
        except _Damaged as exc:
            return cls._repair(p, now, timeout, str(exc))
        store = cls(conn, str(p), None, now)
        today = store_backup.stamp(now())[:8]
        # a day's first start (a store made just now holds nothing worth a copy)
        if not fresh and all(b.day != today for b in store_backup.backups(p)):
            store.backup("day")
        return store

    @classmethod
    def _repair(cls, p: Path, now: Callable[[], float], timeout: float, damage: str) -> Store:
        """Set the damaged store aside, restore the newest good backup, salvage every
        readable row of the damaged file into it, and say what came back (P-REL-2)."""
        try:
            aside = _set_aside(p)
        except OSError as move_exc:
            raise StoreError(
                f"the store {p} is damaged and cannot be set aside: {move_exc}"
            ) from move_exc
        restored, conn = None, None
        for backup in store_backup.backups(p):
            if not store_backup.is_good(backup.path, SCHEMA_VERSION):
                continue
            try:
                store_backup.restore(backup.path, p)
                conn = cls._open_checked(str(p), timeout, now)  # (migrates an older one)
            except (OSError, sqlite3.Error, _Damaged) as exc:
                log.warning("store %s: backup %s not restored: %s", p, backup.path.name, exc)
                for leftover in (p, *_sidecars(p)):  # a copy of the backup, which stays
                    leftover.unlink(missing_ok=True)
                continue
            restored = backup
            break
        if conn is None:
            try:
                conn = cls._open_checked(str(p), timeout, now)
            except _Damaged as exc2:  # a fresh file cannot be damaged unless the disk is
                raise StoreError(f"cannot create a fresh store at {p}: {exc2}") from exc2
        found = store_rescue.salvage(aside)
        try:
            store_rescue.merge(conn, found)
        except store_rescue.UNREADABLE as exc:  # the salvaged rows stay in the set-aside file
            log.warning("store %s: salvaged rows not written: %s", p, exc)
        store = cls(conn, str(p), None, now)
        counts = {
            kind: store._read(f"SELECT count(*) FROM {table}")[0][0]
            for kind, table in (
                ("records", "records"),
                ("saved", "saved_games"),
                ("pairings", "pairings"),
                ("settings", "settings"),
                ("scores", "stats"),
            )
        }
        counts["settings"] += store._read("SELECT count(*) FROM calibration")[0][0]
        store.notice = store_rescue.repaired_notice(
            aside.name, damage, counts=counts, found=found, from_backup=restored is not None
        )
        # never silent: one line in the log and (through its console handler) on stderr,
        # the details (SQLite's own words, which backup) in the log only
        log.warning("store %s: %s", p, store.notice.en)
        log.info(
            "store %s: the damage: %s; restored backup: %s; salvaged rows: %s; unreadable: %s",
            p,
            store.notice.detail,
            restored.path.name if restored is not None else "none",
            {t: len(r) for t, r in found.rows.items()},
            sorted(found.failed) or "nothing",
        )
        store.backup("repair")
        return store

    @classmethod
    def open_in_memory(cls, now: Callable[[], float] = time.time) -> Store:
        """A throwaway store (headless runs that must not touch the disk)."""
        return cls(cls._open_checked(":memory:", 5.0, now), ":memory:", None, now)

    @staticmethod
    def _open_checked(
        path: str, timeout: float, now: Callable[[], float]
    ) -> sqlite3.Connection:
        try:
            conn = _connect(path, timeout)
        except sqlite3.DatabaseError as exc:
            if _is_damage(exc):
                raise _Damaged(str(exc)) from exc
            raise StoreError(f"cannot open the store {path}: {exc}") from exc
        try:
            Store._prepare(conn, path, now)
        except _Damaged:
            conn.close()
            raise
        except sqlite3.DatabaseError as exc:
            conn.close()
            if _is_damage(exc):
                raise _Damaged(str(exc)) from exc
            raise StoreError(f"cannot open the store {path}: {exc}") from exc
        except UnicodeDecodeError as exc:  # damaged bytes read back as text
            conn.close()
            raise _Damaged(f"text that is not UTF-8: {exc}") from exc
        except BaseException:
            conn.close()
            raise
        return conn

    @staticmethod
    def _prepare(conn: sqlite3.Connection, path: str, now: Callable[[], float]) -> None:
        if path != ":memory:":
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":  # e.g. a file system without shared memory
                conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        result = conn.execute("PRAGMA quick_check").fetchall()
        if result != [("ok",)]:
            raise _Damaged("integrity check: " + "; ".join(str(r[0]) for r in result[:3]))
        unsound = store_rescue.unsound_row(conn)
        if unsound is not None:
            raise _Damaged(unsound)
        if path != ":memory:":
            try:
                rows = conn.execute("SELECT version FROM schema_version").fetchall()
            except sqlite3.OperationalError:  # no such table: a fresh file
                rows = []
            if len(rows) == 1 and isinstance(rows[0][0], int) and rows[0][0] < SCHEMA_VERSION:
                store_backup.take(conn, Path(path), "migration", now)  # before it migrates
        conn.execute("BEGIN IMMEDIATE")
        try:
            tables = {
                r[0]
                for r in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                    " AND name NOT LIKE 'sqlite_%'"
                )
            }
            if not tables:
                version = 0
            elif "schema_version" not in tables:
                raise _Damaged("not a Twinfold store (no schema version)")
            else:
                rows = conn.execute("SELECT version FROM schema_version").fetchall()
                if len(rows) != 1 or not isinstance(rows[0][0], int):
                    raise _Damaged("schema version table is broken")
                version = rows[0][0]
                if version > SCHEMA_VERSION:
                    raise _Damaged(f"written by newer firmware (schema {version})")
            for step in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[step]:
                    conn.execute(statement)
                conn.execute("UPDATE schema_version SET version = ?", (step + 1,))
            missing = TABLES - {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if missing:
                raise _Damaged("missing tables: " + ", ".join(sorted(missing)))
            if conn.execute("PRAGMA application_id").fetchone()[0] != APP_ID:
                conn.execute(f"PRAGMA application_id = {APP_ID}")  # the mark: store_rescue.py
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    # ---- plumbing ------------------------------------------------------------------------

    def backup(self, why: str) -> Path | None:
        """Take a rolling backup now (firmware/store_backup.py), at a safe moment: `why` is
        one lowercase word (day, game, migration, repair). None: in memory, or skipped."""
        if self.path == ":memory:":
            return None
        return store_backup.take(self._conn, Path(self.path), why, self._now)

    def close(self) -> None:
        self._conn.close()
        if self._locked:
            self._locked = False
            release(self.path)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it."""
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the store cannot be written: {exc}") from exc
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.DatabaseError):
                raise StoreError(f"the store cannot be written: {exc}") from exc
            raise

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._conn.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the store cannot be read: {exc}") from exc

    # ---- settings ------------------------------------------------------------------------

    def get_setting(self, key: str, default: JsonValue = None) -> JsonValue:
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return _loads(rows[0][0], f"setting {key!r}") if rows else default

    def set_setting(self, key: str, value: JsonValue) -> None:
        _check_key(key, "setting key")
        text = _dumps(value, f"setting {key!r}")
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, text))

    def delete_setting(self, key: str) -> None:
        with self._write() as conn:
            conn.execute("DELETE FROM settings WHERE key = ?", (key,))

    def settings(self) -> dict[str, JsonValue]:
        rows = self._read("SELECT key, value FROM settings ORDER BY key")
        return {k: _loads(v, f"setting {k!r}") for k, v in rows}

    # ---- calibration ---------------------------------------------------------------------

    def get_calibration(self) -> dict[str, JsonValue] | None:
        """The stored touch calibration (hal.touch.Calibration.to_json()), or None."""
        rows = self._read("SELECT value FROM calibration WHERE id = 1")
        return _loads(rows[0][0], "calibration") if rows else None

    def set_calibration(self, data: dict[str, JsonValue]) -> None:
        if not isinstance(data, dict):
            raise StoreValueError("calibration must be a dict (Calibration.to_json())")
        text = _dumps(data, "calibration")
        with self._write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO calibration (id, value, saved_at) VALUES (1, ?, ?)",
                (text, self._now()),
            )

    def clear_calibration(self) -> None:
        with self._write() as conn:
            conn.execute("DELETE FROM calibration")

    # ---- statistics ----------------------------------------------------------------------

    def get_stats(self, game_id: str) -> dict[str, JsonValue]:
        """A game's statistics: DEFAULT_STATS's keys plus whatever the game added."""
        rows = self._read("SELECT value FROM stats WHERE game_id = ?", (_check_id(game_id),))
        stats = dict(DEFAULT_STATS)
        if rows:
            stats.update(_loads(rows[0][0], f"statistics of {game_id!r}"))
        return stats

    def all_stats(self) -> dict[str, dict[str, JsonValue]]:
        rows = self._read("SELECT game_id, value FROM stats ORDER BY game_id")
        return {g: {**DEFAULT_STATS, **_loads(v, f"statistics of {g!r}")} for g, v in rows}

    def update_stats(
        self, game_id: str, fn: Callable[[dict[str, JsonValue]], dict[str, JsonValue]]
    ) -> dict[str, JsonValue]:
        """Read-modify-write a game's statistics in one transaction; returns the new dict.

        `fn` gets a copy of the current statistics and returns the new ones (a dict that must
        be plain JSON). If `fn` raises or returns something unstorable, nothing changes.
        """
        _check_id(game_id)
        with self._write() as conn:
            rows = conn.execute("SELECT value FROM stats WHERE game_id = ?", (game_id,)).fetchall()
            current = dict(DEFAULT_STATS)
            if rows:
                current.update(_loads(rows[0][0], f"statistics of {game_id!r}"))
            new = fn(current)
            if not isinstance(new, dict):
                raise StoreValueError(f"statistics of {game_id!r} must be a dict")
            text = _dumps(new, f"statistics of {game_id!r}")
            conn.execute(
                "INSERT OR REPLACE INTO stats (game_id, value) VALUES (?, ?)", (game_id, text)
            )
        stored: dict[str, Any] = json.loads(text)  # what a later read returns
        return stored

    def record_result(
        self,
        game_id: str,
        outcome: str | None,
        score: int | float | None = None,
        *,
        higher_is_better: bool = True,
    ) -> dict[str, JsonValue]:
        """Count one finished game: outcome "win" / "loss" / "draw" (None: no winner, e.g. a
        solo puzzle abandoned), an optional score (best kept by `higher_is_better`)."""
        if outcome is not None and outcome not in OUTCOMES:
            raise StoreValueError(f"outcome must be one of {OUTCOMES} or None, got {outcome!r}")
        if score is not None:
            if isinstance(score, bool) or not isinstance(score, int | float):
                raise StoreValueError(f"score must be a number, got {score!r}")
            check_json(score, "score")

        def apply(s: dict[str, JsonValue]) -> dict[str, JsonValue]:
            s["played"] = int(s.get("played") or 0) + 1
            if outcome is not None:
                key = {"win": "wins", "loss": "losses", "draw": "draws"}[outcome]
                s[key] = int(s.get(key) or 0) + 1
                s["streak"] = int(s.get("streak") or 0) + 1 if outcome == "win" else 0
                s["best_streak"] = max(int(s.get("best_streak") or 0), s["streak"])
            if score is not None:
                best = s.get("best_score")
                better = best is None or (score > best if higher_is_better else score < best)
                if better:
                    s["best_score"] = score
                s["last_score"] = score
            return s

        return self.update_stats(game_id, apply)

    def reset_stats(self, game_id: str | None = None) -> None:
        """Forget statistics and finished-game records (of one game, or of all)."""
        with self._write() as conn:
            if game_id is None:
                conn.execute("DELETE FROM stats")
                conn.execute("DELETE FROM records")
            else:
                conn.execute("DELETE FROM stats WHERE game_id = ?", (_check_id(game_id),))
                conn.execute("DELETE FROM records WHERE game_id = ?", (game_id,))

    # ---- finished-game records -----------------------------------------------------------

    def add_record(self, game_id: str, record: dict[str, JsonValue]) -> int:
        """Store one finished game (e.g. its move list and result); returns its id."""
        _check_id(game_id)
        if not isinstance(record, dict):
            raise StoreValueError("a game record must be a dict")
        text = _dumps(record, f"record of {game_id!r}")
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO records (game_id, created_at, value) VALUES (?, ?, ?)",
                (game_id, self._now(), text),
            )
            rowid = cur.lastrowid
        assert rowid is not None
        return rowid

    def list_records(
        self, game_id: str | None = None, limit: int | None = None
    ) -> list[GameRecord]:
        """Records, newest first (of one game, or of all)."""
        sql = "SELECT id, game_id, created_at, value FROM records"
        args: tuple[Any, ...] = ()
        if game_id is not None:
            sql += " WHERE game_id = ?"
            args = (game_id,)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args = (*args, int(limit))
        return [
            GameRecord(i, g, t, _loads(v, f"record {i}")) for i, g, t, v in self._read(sql, args)
        ]

    def get_record(self, record_id: int) -> GameRecord | None:
        rows = self._read(
            "SELECT id, game_id, created_at, value FROM records WHERE id = ?", (record_id,)
        )
        if not rows:
            return None
        i, g, t, v = rows[0]
        return GameRecord(i, g, t, _loads(v, f"record {i}"))

    def delete_record(self, record_id: int) -> None:
        with self._write() as conn:
            conn.execute("DELETE FROM records WHERE id = ?", (record_id,))

    # ---- radio pairings (peer id and key as hex) ---------------------------------------

    def list_pairings(self) -> list[dict[str, Any]]:
        """Paired units, oldest first: {"peer", "name", "key", "epoch", "paired_at"}."""
        rows = self._read(
            "SELECT peer, name, key, epoch, paired_at FROM pairings ORDER BY paired_at, peer"
        )
        return [
            {"peer": p, "name": n, "key": k, "epoch": e, "paired_at": t} for p, n, k, e, t in rows
        ]

    def save_pairing(self, peer: str, name: str, key: str, epoch: int = -1) -> None:
        """Add or replace one pairing in one transaction."""
        _check_key(peer, "peer id")
        with self._write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO pairings (peer, name, key, epoch, paired_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (peer, str(name), str(key), int(epoch), self._now()),
            )

    def set_pairing_epoch(self, peer: str, epoch: int) -> None:
        with self._write() as conn:
            conn.execute("UPDATE pairings SET epoch = ? WHERE peer = ?", (int(epoch), peer))

    def forget_pairing(self, peer: str) -> None:
        with self._write() as conn:
            conn.execute("DELETE FROM pairings WHERE peer = ?", (peer,))

    # ---- saved (suspended) games: one slot per game ------------------------------------

    def save_suspend(self, game_id: str, state: JsonValue, meta: JsonValue = None) -> None:
        """Replace `game_id`'s saved game (one slot per game) in one transaction; the other
        games' saved games are untouched."""
        _check_id(game_id)
        state_text = _dumps(state, "suspended state")
        meta_text = _dumps(meta, "suspend metadata")
        with self._write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO saved_games (game_id, state, meta, saved_at)"
                " VALUES (?, ?, ?, ?)",
                (game_id, state_text, meta_text, self._now()),
            )

    def load_suspend(self, game_id: str | None = None) -> Suspended | None:
        """`game_id`'s saved game; without a game id the most recently saved of any game."""
        if game_id is None:
            games = self.suspended_games()
            return games[0] if games else None
        rows = self._read(
            "SELECT game_id, state, meta, saved_at FROM saved_games WHERE game_id = ?",
            (_check_id(game_id),),
        )
        return self._suspended(rows[0]) if rows else None

    def suspended_games(self) -> list[Suspended]:
        """Every saved game, the most recently saved first."""
        rows = self._read(
            "SELECT game_id, state, meta, saved_at FROM saved_games ORDER BY saved_at DESC, game_id"
        )
        return [self._suspended(r) for r in rows]

    def suspended_ids(self) -> set[str]:
        """The games that have a saved game (cheap: no states are read)."""
        return {r[0] for r in self._read("SELECT game_id FROM saved_games")}

    @staticmethod
    def _suspended(row: tuple[Any, ...]) -> Suspended:
        g, s, m, t = row
        return Suspended(g, _loads(s, "suspended state"), _loads(m, "suspend metadata"), t)

    def clear_suspend(self, game_id: str) -> None:
        """Forget `game_id`'s saved game (the firmware asks the player first)."""
        with self._write() as conn:
            conn.execute("DELETE FROM saved_games WHERE game_id = ?", (_check_id(game_id),))
