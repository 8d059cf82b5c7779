"""The pause menu on START (P-FW-1): resume, restart, save and quit, quit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scenes.menu import MenuItem, MenuScene
from hal.interfaces import Button

if TYPE_CHECKING:
    from firmware.game_api import Cartridge
    from firmware.scene import Host


class Paused(Protocol):
    """The game scene under the menu (firmware.scenes.game_scene.GameScene, which opens
    this menu on START): drawn beneath it, restarted from it."""

    @property
    def cartridge(self) -> Cartridge: ...
    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None: ...
    def restart(self) -> None: ...


class PauseScene(MenuScene):
    name = "pause"
    top_y = 40
    back_key = "resume"

    def __init__(self, machine: Host, under: Paused) -> None:
        super().__init__(machine)
        self.under = under
        tr = machine.tr
        self.items = [
            MenuItem("resume", lambda: tr("Resume", "つづける"), self.resume, face=pal.ACCENT_LO),
            MenuItem("restart", lambda: tr("Restart", "はじめから"), self.restart),
            MenuItem("save", lambda: tr("Save and quit", "セーブしてやめる"), self.save_quit),
            MenuItem("quit", lambda: tr("Quit to launcher", "やめる"), self.quit),
        ]

    def update(self, inp: InputState) -> None:
        if Button.START in inp.pressed:
            self.resume()
            return
        super().update(inp)

    def resume(self) -> None:
        self.machine.pop()

    def restart(self) -> None:
        self.under.restart()
        self.machine.discard_suspend()
        self.machine.pop()

    def save_quit(self) -> None:
        self.machine.suspend_game()
        self.machine.to_launcher(selected=self.under.cartridge.id)

    def quit(self) -> None:
        self.machine.discard_suspend()
        self.machine.to_launcher(selected=self.under.cartridge.id)

    def draw_top(self, top: pygame.Surface) -> None:
        widgets.dim(top, 170)
        title = self.machine.tr(self.under.cartridge.title, self.under.cartridge.title_ja)
        text.draw(
            top,
            self.machine.tr("PAUSED", "ポーズ"),
            (128, 76),
            pal.ACCENT,
            scale=3,
            align="center",
            shadow=pal.OUTLINE,
        )
        text.draw(top, title, (128, 108), pal.TEXT, align="center")

    def draw_bottom_backdrop(self, bottom: pygame.Surface) -> None:
        widgets.dim(bottom, 170)
        text.draw(
            bottom,
            self.machine.tr("START: resume", "START: つづける"),
            (128, 20),
            pal.TEXT_DIM,
            align="center",
        )

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        self.under.draw(top, bottom)
        super().draw(top, bottom)

    def dump(self) -> dict[str, object]:
        return {"paused": self.under.cartridge.id, **super().dump()}
