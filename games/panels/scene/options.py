"""Panel Link's options turned into the rules' config (the cartridge lists the options;
a linked game builds its config from the host's options the same way)."""

from __future__ import annotations

from games.panels.rules import GameConfig
from games.panels.rules.field import SHAPE_NAMES

TARGETS = ("100", "200", "300", "500")


def config_from_options(opts: dict[str, str], seed: int) -> GameConfig:
    """The rules config the options describe (invalid values fall back to defaults)."""
    target = int(opts["target"]) if opts.get("target") in TARGETS else 300
    shape = opts.get("field") if opts.get("field") in SHAPE_NAMES else None
    return GameConfig(
        seed=seed,
        target=target,
        removal=opts.get("removal") == "on",
        shape=shape,
        first_player=1 if opts.get("first") == "2" else 0,
        items=opts.get("items", "on") != "off",
    )
