"""Finding the games: every `games/<id>/cartridge.py` that defines `CARTRIDGE`."""

from __future__ import annotations

import importlib
import importlib.util
import logging

from firmware.game_api import Cartridge

log = logging.getLogger("twinfold")

# The launcher's order: the five games, then anything else alphabetically.
PREFERRED_ORDER = ("reversi", "arimaa", "sevens", "regions", "panels")


def discover() -> dict[str, Cartridge]:
    from firmware.cli import discover_game_packages

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
