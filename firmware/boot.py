"""The boot path: the one place that turns a backend (`Hal`) into a running `Machine`.

Every frontend boots the same way: headless (`twinfold headless`, tests, tools), the
emulator and the handheld build their `Hal` and call `boot(hal, BootConfig(...))`. Here, in
this order, the log is opened, the store is opened (a damaged one is set aside, logged and
announced on stderr), and the machine is built with its seed rule and boot game. Anything
the user got wrong comes back as one `BootError` line, never a trace.

The composition root: the games found in `games/` (firmware/cartridges.py) and the
firmware's own scenes (`system_scenes`) are given to the machine here; the machine imports
neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from firmware import cartridges as registry
from firmware.arguments import CommandError
from firmware.game_api import Cartridge
from firmware.logs import setup_logging
from firmware.machine import Machine, SystemScenes
from firmware.match.profiles import DeviceProfile
from firmware.scene import Host
from firmware.scenes.boot import BootScene, open_boot_game
from firmware.scenes.error import ErrorScene
from firmware.scenes.game_scene import GameScene
from firmware.scenes.launcher import LauncherScene
from firmware.storage import Store, StoreError
from hal.interfaces import Hal
from hal.touch import TouchFilterConfig

STORE_NAME = "store.db"


class BootError(CommandError):
    """The unit cannot boot as asked (bad store path, unknown game or option): one line.

    A `CommandError`, so a command that boots prints it as its one-line error (exit 2).
    """


@dataclass(frozen=True)
class BootConfig:
    """How to boot. Defaults: the store and the log in `hal.data_dir`, a fresh seed per game."""

    store_path: Path | None = None  # default: hal.data_dir / "store.db"
    log_dir: Path | None = None  # default: the store's folder; see `log`
    log: bool = True  # open the log file (tests and tools that keep no log say False)
    game: str | None = None  # boot straight into this game
    options: Mapping[str, str] = field(default_factory=dict)  # its options (needs `game`)
    seed: int | None = None  # None: every game start draws a fresh seed; N: always N
    cartridges: dict[str, Cartridge] | None = None  # default: the games found in games/
    touch_profile: TouchFilterConfig | None = None  # default: exact (emulator, movies)
    profile: DeviceProfile | None = None  # computer players' budget; default: the desktop's
    show_boot: bool = True  # the boot animation (skipped when `game` is given)
    link_name: str = ""  # the radio's name; default: the stored one (settings)
    # Offer the language choice after the boot animation of a first start (a store without
    # settings): the emulator's window and the handheld say True; headless runs and input
    # movies keep False so that a movie's taps mean the same on every store.
    ask_language: bool = False
    # A boot game (`game`) with a saved game of it waiting offers Continue / New game as the
    # launcher does (a person at the unit); False starts it fresh beside the saved one, which
    # is kept (headless runs and movies: the same input means the same on every store).
    offer_resume: bool = False

    def store_file(self, hal: Hal) -> Path:
        return Path(self.store_path) if self.store_path is not None else hal.data_dir / STORE_NAME


def check_store_path(path: Path) -> None:
    """Refuse, in one line, a store path that names a folder, lies under a plain file or
    whose folder cannot be made; the folder is created here (the store would make it)."""
    if path.is_dir():
        raise BootError(f"the store {path} is a folder; name a file, such as {path / STORE_NAME}")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise BootError(f"cannot use the store {path}: {parent} is a file, not a folder")
            break
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise BootError(f"cannot use the store {path}: {path.parent}: {reason}") from None


def open_store(path: Path, *, ours: bool = False) -> Store:
    """Open the store at `path`; a path that cannot hold one, or that names a file that is
    not a Twinfold store (left untouched), is a BootError. `ours`: the path is the data
    directory's own store, so whatever lies there is Twinfold's (see `Store.open`).

    A damaged store is set aside by `Store.open`, which logs it as a warning: in the log
    file and, once `setup_logging` ran, as one line on stderr. It never passes silently.
    """
    check_store_path(path)
    try:
        store = Store.open(path, ours=ours)
    except StoreError as exc:
        raise BootError(str(exc)) from None
    except OSError as exc:  # e.g. a path under a plain file
        raise BootError(f"cannot open the store {path}: {exc.strerror or exc}") from None
    return store


def start_logging(directory: Path) -> Path:
    """Open the log in `directory`; a folder that cannot hold it is a BootError."""
    try:
        return setup_logging(directory)
    except OSError as exc:
        raise BootError(f"cannot write the log in {directory}: {exc.strerror or exc}") from None


def check_request(config: BootConfig) -> None:
    """Refuse a boot game or options that cannot work, before any device or file is touched
    (a backend with hardware calls this before opening it; `boot` calls it too)."""
    if config.options and config.game is None:
        keys = ", ".join(sorted(config.options))
        raise BootError(f"game options ({keys}) need a game: add --game ID")
    if config.store_path is not None:
        check_store_path(Path(config.store_path))
    if config.game is None:
        return
    found = config.cartridges
    if found is None:  # (the boot's own look, once the log is open, reports games left out)
        found = registry.discover_all(report=False)[0]
    cartridge = found.get(config.game)
    if cartridge is None:
        raise BootError(f"no game {config.game!r} (games: {', '.join(sorted(found))})")
    try:
        cartridge.resolve_options(dict(config.options))
    except ValueError as exc:
        raise BootError(str(exc)) from None


def boot(hal: Hal, config: BootConfig, store: Store | None = None) -> Machine:
    """Power on: log, store, machine. Pass `store` to reboot on one already open (a reset)."""
    check_request(config)
    path = config.store_file(hal)
    if store is None:
        check_store_path(path)  # before the log, which goes beside the store
    if config.log:
        start_logging(config.log_dir if config.log_dir is not None else path.parent)
    opened = store is None
    if store is None:
        store = open_store(path, ours=config.store_path is None)
    left_out: list[registry.LeftOut] = []
    if config.cartridges is None:
        cartridges, left_out = registry.discover_all()
    try:
        return Machine(
            hal,
            store,
            cartridges=config.cartridges if config.cartridges is not None else cartridges,
            left_out=len(left_out),
            scenes=system_scenes(),
            seed=config.seed,
            boot_game=config.game,
            boot_options=dict(config.options),
            touch_profile=config.touch_profile,
            profile=config.profile,
            show_boot=config.show_boot,
            link_name=config.link_name,
            ask_language=config.ask_language,
            offer_resume=config.offer_resume,
        )
    except ValueError as exc:
        if opened:
            store.close()
        raise BootError(str(exc)) from None


def system_scenes() -> SystemScenes:
    """The firmware's own scenes, as the machine opens them (boot, launcher, a running game,
    the error screen), and the versus watch it runs every tick while the radio is on."""
    return SystemScenes(
        boot=BootScene,
        launcher=LauncherScene,
        game=GameScene,
        error=ErrorScene,
        watch_link=watch_versus,
        open_boot_game=open_boot_game,
    )


def watch_versus(host: Host) -> None:
    """`firmware.scenes.versus_match.watch`, loaded on first use: only a unit with a radio runs
    it, and the versus screens bring the link stack (and its cryptography) with them."""
    from firmware.scenes.versus_match import watch

    watch(host)
