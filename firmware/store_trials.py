"""Damage a store at random and see what comes back (issue 35): shared by the store's tests
(tests/firmware/test_store_rescue.py, a short seeded series) and its benchmark
(bench/store_rescue.py, hundreds of trials).

One trial: a store is filled (settings, a calibration, statistics, game records of mixed
sizes, saved games, pairings), a backup is taken part way, more is written, then the file is
damaged in one of four ways and opened again as the data directory's store:

- `bytes`: 1 to 40 random bytes anywhere in the file get random values;
- `pages`: 1 to 3 whole pages get random bytes or zeros (the first page, which holds the
  schema, included);
- `truncate`: the file is cut at a random length;
- `wal`: the unit lost power with commits in the write-ahead log (the files are copied while
  the store is open), and the log is torn: cut at a random point, or a random stretch of it
  overwritten.

What counts: every row (by its key) that the backup held must be in the repaired store
(`backup_kept`), and the share of all the rows written before the damage that are back with
exactly their values (`exact / total`). A row is compared as SQLite stores it.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from firmware.storage import Store
from firmware.store_rescue import TABLES, UNREADABLE, StoreNotice

KINDS = ("bytes", "pages", "truncate", "wal")
PAGE = 4096

Rows = dict[tuple[str, object], tuple[object, ...]]


@dataclass(frozen=True)
class Trial:
    """The outcome of one damaged store."""

    kind: str
    seed: int
    total: int  # rows written before the damage
    present: int  # of them, rows whose key is in the repaired store
    exact: int  # of them, rows back with exactly their values
    backup_total: int  # rows (keys) the backup held
    backup_kept: bool  # every one of them is in the repaired store
    notice: StoreNotice | None  # None: the damage went unseen (SQLite found nothing wrong)


def snapshot(path: Path) -> Rows:
    """Every row of the store at `path` (with its write-ahead log) as SQLite holds it, by
    (table, key); rows that cannot be read are left out. Read from a copy: reading a store
    with a log would fold the log into it."""
    rows: Rows = {}
    with tempfile.TemporaryDirectory(prefix="twinfold-snapshot-") as tmp:
        copy = Path(tmp) / "copy.db"
        shutil.copyfile(path, copy)
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, copy.with_name("copy.db-wal"))
        try:
            conn = sqlite3.connect(copy)
        except UNREADABLE:
            return rows
        conn.text_factory = bytes  # text damaged into bad UTF-8 still compares
        try:
            for table, (key, columns, _kind) in TABLES.items():
                at = columns.index(key)
                try:
                    for row in conn.execute(f"SELECT {', '.join(columns)} FROM {table}"):
                        rows[(table, row[at])] = tuple(row)
                except UNREADABLE:
                    continue
        finally:
            conn.close()
    return rows


def _write(store: Store, rng: random.Random, n: int, start: int) -> None:
    """`n` rounds of what a unit writes: records (some larger than a page), saved games,
    statistics, settings and now and then a pairing."""
    for i in range(start, start + n):
        game = rng.choice(["pop", "reversi", "sevens", "arimaa", "panels"])
        pad = "x" * rng.choice([20, 300, 1500, 5000])
        store.add_record(game, {"i": i, "moves": list(range(i % 30)), "pad": pad})
        store.record_result(game, rng.choice(["win", "loss", "draw"]), i)
        if i % 3 == 0:
            store.save_suspend(game, {"turn": i, "board": [i] * rng.randint(1, 400)}, {"i": i})
        if i % 4 == 0:
            store.set_setting(f"option-{i % 7}", {"value": i})
        if i % 9 == 0:
            store.save_pairing(f"{i:08x}", f"Unit {i}", f"{i:064x}", i)


def run_trial(folder: Path, kind: str, seed: int) -> Trial:
    """One trial in `folder` (made empty first)."""
    rng = random.Random(f"{kind}-{seed}")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    live = folder / "live" / "store.db"
    clock = iter(range(1_800_000_000, 1_900_000_000, 7))
    store = Store.open(live, now=lambda: float(next(clock)), ours=True)
    store.set_setting("language", rng.choice(["en", "ja"]))
    store.set_calibration({"matrix": [1, 0, 0, 0, 1, 0], "n": seed})
    first = rng.randint(5, 40)
    _write(store, rng, first, 0)
    backup = store.backup("game")
    assert backup is not None
    held = snapshot(backup)
    _write(store, rng, rng.randint(0, 40), first)
    path = folder / "store.db"
    if kind == "wal":  # the power goes: the files as they are, the store still open
        for name in ("store.db", "store.db-wal"):
            if (live.parent / name).exists():
                shutil.copyfile(live.parent / name, folder / name)
        expected = snapshot(path)
        store.close()
    else:
        store.close()
        shutil.copyfile(live, path)
        expected = snapshot(path)
    shutil.copytree(live.parent / "store.db.backups", folder / "store.db.backups")
    damage(path, kind, rng)
    with Store.open(path, ours=True) as repaired:
        notice = repaired.notice
    back = snapshot(path)
    return Trial(
        kind=kind,
        seed=seed,
        total=len(expected),
        present=sum(1 for k in expected if k in back),
        exact=sum(1 for k, v in expected.items() if back.get(k) == v),
        backup_total=len(held),
        backup_kept=all(k in back for k in held),
        notice=notice,
    )


def damage(path: Path, kind: str, rng: random.Random) -> None:
    """Damage the store at `path` in the way `kind` names (see the module's docstring)."""
    if kind == "wal":
        wal = path.with_name(path.name + "-wal")
        data = bytearray(wal.read_bytes()) if wal.exists() else bytearray()
        if len(data) > 32:
            if rng.random() < 0.5:
                data = data[: rng.randrange(32, len(data))]
            else:
                at = rng.randrange(32, len(data))
                span = rng.randint(1, 4096)
                data[at : at + span] = rng.randbytes(len(data[at : at + span]))
            wal.write_bytes(bytes(data))
        return
    data = bytearray(path.read_bytes())
    if kind == "bytes":
        for _ in range(rng.randint(1, 40)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == "pages":
        pages = len(data) // PAGE
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(pages) * PAGE
            data[at : at + PAGE] = rng.randbytes(PAGE) if rng.random() < 0.7 else bytes(PAGE)
    elif kind == "truncate":
        data = data[: rng.randrange(1, len(data))]
    else:
        raise ValueError(f"no damage {kind!r} (kinds: {', '.join(KINDS)})")
    path.write_bytes(bytes(data))
