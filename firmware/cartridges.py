"""Finding the games: the packages under `games/` (by location, without importing them) and
every `games/<id>/cartridge.py` that defines `CARTRIDGE`.

Part of the boot path: `firmware.boot` hands what `discover()` finds to the machine, and
the `twinfold` command registers each game's `commands.py`; the machine imports neither.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the cartridges' type only: listing games must not load pygame
    from firmware.game_api import Cartridge

log = logging.getLogger("twinfold")

# The launcher's order: the five games, then anything else alphabetically.
PREFERRED_ORDER = ("reversi", "arimaa", "sevens", "regions", "panels")


def discover_game_packages() -> list[str]:
    """Names of the game packages under `games/`, sorted.

    Found by location, without importing `games`: the firmware depends on no game's code.
    """
    spec = importlib.util.find_spec("games")
    if spec is None or spec.submodule_search_locations is None:
        return []
    return sorted(m.name for m in pkgutil.iter_modules(spec.submodule_search_locations) if m.ispkg)


def discover() -> dict[str, Cartridge]:
    found: dict[str, Cartridge] = {}
    for name in discover_game_packages():
        module_name = f"games.{name}.cartridge"
        if importlib.util.find_spec(module_name) is None:
            continue
        try:
            cartridge = importlib.import_module(module_name).CARTRIDGE
        except Exception:
            log.exception("game package %s failed to load; it is left out", name)
            continue
        found[cartridge.id] = cartridge

    def order(cid: str) -> tuple[int, str]:
        return (PREFERRED_ORDER.index(cid) if cid in PREFERRED_ORDER else 99, cid)

    return {cid: found[cid] for cid in sorted(found, key=order)}
