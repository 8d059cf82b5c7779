"""A running game inside the firmware: START opens the pause menu, everything else is the game's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from firmware.game_api import THINKING_INDICATOR_TICKS, Cartridge, Game, GameContext
from firmware.gfx.widgets import draw_thinking
from firmware.input import InputState
from firmware.match.worker import close_all as stop_workers
from firmware.scene import Scene
from hal.interfaces import Button

if TYPE_CHECKING:
    from firmware.scene import Host

class GameScene(Scene):
    def __init__(
        self, machine: Host, cartridge: Cartridge, ctx: GameContext, game: Game
    ) -> None:
        super().__init__(machine)
        self.cartridge = cartridge
        self.ctx = ctx
        self.game = game
        self.name = cartridge.id
        self.uses_dpad = game.uses_dpad
        # True when saving this game may replace its game's saved game (Machine.start_game)
        self.owns_slot = True

    def update(self, inp: InputState) -> None:
        if Button.START in inp.pressed:
            from firmware.scenes.pause import PauseScene

            self.machine.push(PauseScene(self.machine, self))
            return
        self.game.update(inp)

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        self.game.draw(top, bottom)
        thinking = self.game.thinking_ticks()
        if thinking >= THINKING_INDICATOR_TICKS and not self.game.draws_thinking:
            draw_thinking(top, thinking)
        if self.ctx.versus is not None:
            from firmware.scenes.versus_match import draw_announcement, draw_link_overlay

            draw_link_overlay(self.machine, top)
            draw_announcement(self.machine, top)

    def hotspots(self) -> dict[str, pygame.Rect]:
        return self.game.hotspots()

    def dump(self) -> dict[str, Any]:
        return self.game.dump()

    def running_game(self) -> GameScene:
        return self

    def restart(self) -> None:
        """A new game with the same options: a game start, so a fresh seed unless pinned."""
        stop_workers()  # the old game's search ends now; a late answer has nowhere to go
        self.ctx = self.machine.new_context(self.cartridge, self.ctx.options)
        self.game = self.cartridge.create(self.ctx)
        self.uses_dpad = self.game.uses_dpad
