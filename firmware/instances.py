"""Several units on one desktop: every running emulator is its own unit.

A unit is its store (radio id, pairings, settings, saved games) plus what lies beside it
(log, screenshots, movies, save states), so each running emulator needs its own data
directory. The first one started on the user's data directory uses it; while it runs, the
next one becomes instance 2 in `<data dir>/instance-2/`, and so on, like the local
multiplayer instances of melonDS. Which instance a process is follows from the store's lock
(`firmware.storage.acquire`): the lowest numbered data directory whose store no running
process holds. Instance 2 always finds its own store again, so its radio id and pairings
last from one run to the next.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from firmware import storage

STORE_NAME = "store.db"
MOST_INSTANCES = 16  # more emulators than this on one desktop is a mistake, not a plan


@dataclass(frozen=True)
class Instance:
    """A claimed data directory: `number` 1 is the user's data directory itself."""

    number: int
    data_dir: Path
    base: Path

    @property
    def store_path(self) -> Path:
        return self.data_dir / STORE_NAME

    @property
    def label(self) -> str:
        """How the window title and messages name it ("" for the first)."""
        return "" if self.number == 1 else f"instance {self.number}"

    def release(self) -> None:
        storage.release(self.store_path)


def user_data_dir() -> Path:
    """The per-user data directory: `$XDG_DATA_HOME/twinfold` (normally
    `~/.local/share/twinfold`; `%APPDATA%\\twinfold` on Windows, `~/Library/Application
    Support/twinfold` on macOS)."""
    if os.name == "nt":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "twinfold"


def instance_dir(base: Path, number: int) -> Path:
    return base if number == 1 else base / f"instance-{number}"


def claim(base: Path) -> Instance:
    """Hold the first data directory under `base` whose store no running process holds.

    Raises `storage.StoreError` when a directory cannot be made or all are in use.
    """
    holders: list[str] = []
    for number in range(1, MOST_INSTANCES + 1):
        directory = instance_dir(base, number)
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise storage.StoreError(
                f"cannot create the data directory {directory}: {exc.strerror or exc}"
            ) from None
        try:
            storage.acquire(directory / STORE_NAME)
        except storage.StoreBusy as busy:
            holders.append(str(busy.holder) if busy.holder is not None else "?")
            continue
        return Instance(number, directory, base)
    raise storage.StoreError(
        f"all {MOST_INSTANCES} data directories under {base} are in use"
        f" (processes {', '.join(holders)})"
    )
