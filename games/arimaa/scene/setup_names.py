"""The named setups as option values (spaces made dashes): the cartridge's Setup option and
the scene's controls read the same table. Its own module, so the cartridge, which every start
of the unit reads, does not import the scene."""

from __future__ import annotations

from games.arimaa.rules.position import NAMED_SETUPS

SETUP_NAMES = {name.replace(" ", "-"): name for name in NAMED_SETUPS}
