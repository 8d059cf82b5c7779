"""What the machine runs: a stack of scenes, each updated per tick and drawn per frame; and
`Host`, the machine as its scenes see it.

The firmware's scenes (firmware/scenes/) type against `Host`, never against the machine, so
the machine can be given its scenes (firmware/boot.py) without importing them: the same
seam as a game's `GameContext` (whose `GameHost` the `Host` extends).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from firmware.game_api import Cartridge, Game, GameContext, GameHost, Versus
from firmware.input import InputState
from firmware.store_rescue import StoreNotice

if TYPE_CHECKING:
    from firmware.link.service import LinkService
    from firmware.wifi import WifiService
    from hal.touch import Calibration, TouchFilterConfig


class RunningGame(Protocol):
    """A scene running a game (the firmware's GameScene): what the machine and the system
    scenes read of it to suspend, dump, pause or badge the game (and a restart replaces)."""

    cartridge: Cartridge
    ctx: GameContext
    game: Game
    owns_slot: bool  # saving it may replace its game's saved game (Machine.start_game)


class Host(GameHost, Protocol):
    """The machine as a scene sees it: the scene stack, the games, the radio, the settings
    and the store (from `GameHost`). `firmware.machine.Machine` satisfies it."""

    notice: StoreNotice | None  # for the boot screen to show once (e.g. a repaired store)
    # the launcher's corner: which version runs, when it is not the unit's own (an update,
    # or the version an update was rolled back to), in (English, Japanese); None: nothing
    version_note: tuple[str, str] | None
    left_out: int  # games that could not be loaded: the boot screen says so once
    ask_language: bool  # a first start: the boot screen offers the language choice first
    offer_resume: bool  # a boot game offers its waiting saved game first (Continue / New)
    saved: set[str]  # the games with a saved game waiting
    wifi: WifiService  # a match's own Wi-Fi network (issue 32)

    @property
    def scene(self) -> Scene: ...
    @property
    def cartridges(self) -> Mapping[str, Cartridge]: ...
    @property
    def link(self) -> LinkService | None: ...
    @property
    def touch_profile(self) -> TouchFilterConfig: ...

    def push(self, scene: Scene) -> None: ...
    def pop(self) -> None: ...
    def replace(self, scene: Scene) -> None: ...
    def game_scene(self) -> RunningGame | None: ...
    def new_context(
        self, cartridge: Cartridge, options: dict[str, str], seed: int | None = None
    ) -> GameContext: ...
    def start_game(
        self,
        game_id: str,
        options: dict[str, str],
        state: dict[str, Any] | None = None,
        seed: int | None = None,
        versus: Versus | None = None,
        resumed: bool = False,
    ) -> None: ...
    def suspend_game(self) -> bool: ...
    def saved_game_at_risk(self) -> str | None: ...
    def save_settings(self) -> None: ...
    def set_calibration(self, calibration: Calibration) -> None: ...


class Scene:
    """A screen pair with behaviour. The top scene of the stack gets the input.

    `name` is what the state dump calls it (P-DUMP `scene`). `uses_dpad` turns the firmware's
    hotspot cursor off for scenes that steer with the D-pad themselves.
    """

    name = "scene"
    uses_dpad = False

    def __init__(self, machine: Host) -> None:
        self.machine = machine

    def update(self, inp: InputState) -> None:
        """Advance one tick."""

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        """Draw both screens completely."""

    def hotspots(self) -> dict[str, pygame.Rect]:
        """Named touch targets in bottom-screen pixels (P-FW-4)."""
        return {}

    def dump(self) -> dict[str, Any]:
        """The scene's own description for the state dump."""
        return {}

    def on_enter(self) -> None:
        """Called when the scene becomes the top of the stack again."""

    def running_game(self) -> RunningGame | None:
        """The game this scene runs (the firmware's GameScene: itself); None for the system's
        own screens. The machine finds the running game through it."""
        return None


def hit(hotspots: dict[str, pygame.Rect], inp: InputState) -> str | None:
    """Name of the hotspot the stylus touched down on this tick, if any."""
    point = inp.tapped_at()
    if point is None:
        return None
    for name, rect in hotspots.items():
        if rect.collidepoint(point.x, point.y):
            return name
    return None
