"""One process at a time on a store (issue 24): the lock file beside it.

`Store.open` takes an exclusive lock on `<store>.lock` beside the file
(`fcntl.flock`, `msvcrt.locking` on Windows) and writes its process id into it; a second
process is refused with `StoreBusy`, which names the holder. Why a lock file and not
SQLite's own locking: SQLite locks a database only for the length of a transaction, so two
processes could both run on one store, each overwriting the other's radio identity, epochs
and saved games between its transactions (issue 24: two emulators on one data directory
were one radio unit). An exclusive SQLite lock for the whole run (`locking_mode=EXCLUSIVE`)
would keep the file, but a refused process could not say who holds it, and the lock lives
only while a write transaction has happened. The kernel drops a flock when its process
ends in any way (a crash, kill -9), so a lock is never stale. Within one process the store
may be opened again (an emulator reset, tests reading what a machine wrote): the lock is
counted per process.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

LOCK_SUFFIX = ".lock"


class StoreError(Exception):
    """The store cannot be used (locked, unwritable, ...); the message says why."""



class StoreBusy(StoreError):
    """Another process holds the store; `holder` is its process id when it could be read."""

    def __init__(self, path: Path, holder: int | None) -> None:
        who = f"process {holder}" if holder is not None else "another process"
        super().__init__(f"the store {path} is in use by {who}")
        self.path, self.holder = path, holder


class _Lock:
    """This process's exclusive lock on one store (see the module's docstring). `created`:
    the lock file did not exist before; `discard`: remove it at the last release (the path
    named a file that is not a store, which leaves no trace beside it)."""

    def __init__(self, path: Path, fd: int, created: bool) -> None:
        self.path, self.fd, self.count = path, fd, 1
        self.created, self.discard = created, False


_HELD: dict[str, _Lock] = {}  # lock file (resolved) -> this process's lock on it


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + LOCK_SUFFIX)


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - the desktop emulator on Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def lock_holder(path: str | os.PathLike[str]) -> int | None:
    """The process id written into the store's lock file (None: none readable)."""
    try:
        text = _lock_path(Path(path)).read_text(encoding="ascii").strip()
        return int(text) if text else None
    except (OSError, ValueError):
        return None


def acquire(path: str | os.PathLike[str]) -> None:
    """Hold the store at `path` for this process (counted: call `release` as often); raises
    StoreBusy when another process holds it, StoreError when no lock file can be made."""
    lock_file = _lock_path(Path(path))
    key = str(lock_file.resolve())
    held = _HELD.get(key)
    if held is not None:
        held.count += 1
        return
    created = not lock_file.exists()
    try:
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreError(f"cannot lock the store {path}: {exc.strerror or exc}") from None
    if not _try_lock(fd):
        os.close(fd)
        raise StoreBusy(Path(path), lock_holder(path))
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    _HELD[key] = _Lock(lock_file, fd, created)


def release(path: str | os.PathLike[str]) -> None:
    """Give up one hold of `acquire`; the last one unlocks (the lock file stays)."""
    key = str(_lock_path(Path(path)).resolve())
    held = _HELD.get(key)
    if held is None:
        return
    held.count -= 1
    if held.count == 0:
        del _HELD[key]
        with contextlib.suppress(OSError):
            os.ftruncate(held.fd, 0)
            if held.discard:
                held.path.unlink()
        os.close(held.fd)  # closing the descriptor drops the flock


def _discard_lock(path: Path) -> None:
    """Remove the lock file at the last release if this process made it."""
    held = _HELD.get(str(_lock_path(path).resolve()))
    if held is not None and held.created:
        held.discard = True


def holds(path: str | os.PathLike[str]) -> bool:
    """True while this process holds the store at `path`."""
    return str(_lock_path(Path(path)).resolve()) in _HELD
