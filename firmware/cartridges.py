"""Finding the games: the packages under `games/` (by location, without importing them) and
every `games/<id>/cartridge.py` that defines `CARTRIDGE`, then every game installed as a
package of its own (the entry-point group `twinfold.games`, read with importlib.metadata).

Part of the boot path: `firmware.boot` hands what `discover()` finds to the machine, and
the `twinfold` command registers each game's `commands.py`; the machine imports neither.
The launcher's order is the cartridges' own (`Cartridge.launcher_order`, then the id): the
firmware names no game. A game that fails to load (raises at import, or its entry point
gives no `Cartridge`, or takes an id already in use) is logged and left out
(`discover_all` says which); it never stops the unit.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import logging
import pkgutil
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the cartridges' type only: listing games must not load pygame
    from firmware.game_api import Cartridge

log = logging.getLogger("twinfold")

ENTRY_POINT_GROUP = "twinfold.games"  # `name = "package.module:CARTRIDGE"` in a game's package

_told: set[tuple[str, str]] = set()  # failures already logged (discover runs more than once)


@dataclass(frozen=True)
class LeftOut:
    """A game that could not be loaded: where it came from and why, in one line."""

    source: str  # "games.<package>", or an entry point: "<name> (<distribution>)"
    reason: str


def discover_game_packages() -> list[str]:
    """Names of the game packages under `games/`, sorted.

    Found by location, without importing `games`: the firmware depends on no game's code.
    """
    spec = importlib.util.find_spec("games")
    if spec is None or spec.submodule_search_locations is None:
        return []
    return sorted(m.name for m in pkgutil.iter_modules(spec.submodule_search_locations) if m.ispkg)


def _one_line(exc: BaseException) -> str:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def _leave_out(
    out: list[LeftOut], source: str, reason: str, exc: BaseException | None, report: bool
) -> None:
    """Log a game left out once per process (`report`): one line (stderr too, once logging
    is set up) and, at INFO, the trace for the log file."""
    out.append(LeftOut(source, reason))
    if not report or (source, reason) in _told:
        return
    _told.add((source, reason))
    log.warning("game %s left out: %s", source, reason)
    if exc is not None:
        log.info("game %s: the failure", source, exc_info=exc)


_scanned: dict[tuple[str, ...], list[importlib.metadata.EntryPoint]] = {}


def _entry_points() -> list[importlib.metadata.EntryPoint]:
    """The group's entry points, read once per import path: reading every installed
    distribution's metadata costs milliseconds, and every boot (each test's machine)
    discovers the games; a package installed later is found after a restart (or on a path
    added since)."""
    key = tuple(sys.path)
    if key not in _scanned:
        _scanned.clear()
        _scanned[key] = sorted(
            importlib.metadata.entry_points(group=ENTRY_POINT_GROUP),
            key=lambda ep: (ep.name, ep.value),
        )
    return _scanned[key]


def discover_all(report: bool = True) -> tuple[dict[str, Cartridge], list[LeftOut]]:
    """Every game found (in the launcher's order) and those left out; `report` False: log
    nothing (a look before the log is open, which the boot's own look reports)."""
    from firmware.game_api import Cartridge

    found: dict[str, Cartridge] = {}
    left_out: list[LeftOut] = []

    def add(cartridge: Any, source: str) -> None:
        if not isinstance(cartridge, Cartridge):
            reason = f"{type(cartridge).__name__} is not a Cartridge"
            _leave_out(left_out, source, reason, None, report)
        elif cartridge.id in found:
            reason = f"the id {cartridge.id!r} is another game's"
            _leave_out(left_out, source, reason, None, report)
        else:
            found[cartridge.id] = cartridge

    for name in discover_game_packages():
        module_name = f"games.{name}.cartridge"
        if importlib.util.find_spec(module_name) is None:
            continue
        try:
            module = importlib.import_module(module_name)
            cartridge = module.CARTRIDGE
        except Exception as exc:
            _leave_out(left_out, f"games.{name}", _one_line(exc), exc, report)
            continue
        add(cartridge, f"games.{name}")
    for ep in _entry_points():
        dist = ep.dist.name if ep.dist is not None else "?"
        source = f"{ep.name} ({dist})"
        try:
            loaded = ep.load()
        except Exception as exc:
            _leave_out(left_out, source, _one_line(exc), exc, report)
            continue
        add(getattr(loaded, "CARTRIDGE", loaded), source)  # the Cartridge, or its module

    def order(cid: str) -> tuple[int, str]:
        return (found[cid].launcher_order, cid)

    return {cid: found[cid] for cid in sorted(found, key=order)}, left_out


def discover() -> dict[str, Cartridge]:
    """Every game found, in the launcher's order (see `discover_all`)."""
    return discover_all()[0]
