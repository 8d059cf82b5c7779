"""The pause menu on START (P-FW-1): resume, restart, save and quit, quit."""

from __future__ import annotations

from collections.abc import Callable
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
    this menu on START): named by it, restarted from it (not drawn: the menu blanks both
    screens)."""

    @property
    def cartridge(self) -> Cartridge: ...
    def restart(self) -> None: ...


TOP_PANEL = pygame.Rect(24, 54, 208, 76)  # "PAUSED" and the game's name
HINT_PANEL = pygame.Rect(60, 8, 136, 22)  # "START: resume", above the menu


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
        self._unless_saved(self.machine.tr("Restart", "はじめから"), self._restart_now)

    def _restart_now(self) -> None:
        self._discard_saved()
        self.under.restart()
        self.machine.pop()

    def save_quit(self) -> None:
        self.machine.suspend_game()
        self.machine.to_launcher(selected=self.under.cartridge.id)

    def quit(self) -> None:
        self._unless_saved(self.machine.tr("Quit", "やめる"), self._quit_now)

    def _quit_now(self) -> None:
        self._discard_saved()
        self.machine.to_launcher(selected=self.under.cartridge.id)

    def _discard_saved(self) -> None:
        at_risk = self.machine.saved_game_at_risk()
        if at_risk is not None:
            self.machine.discard_suspend(at_risk)

    def _unless_saved(self, what: str, act: Callable[[], None]) -> None:
        """Do `act` now, or, when it would discard this game's saved game, after the
        player agreed (no saved game is ever discarded without a word)."""
        if self.machine.saved_game_at_risk() is None:
            act()
            return
        from firmware.scenes.prompts import ConfirmScene

        cart = self.under.cartridge
        title = self.machine.tr(cart.title, cart.title_ja)
        question = self.machine.tr(
            f"{what}: the saved game of {title} is discarded. (Save and quit keeps it.)",
            f"{what}: セーブした {title} の ゲームは きえます。",
        )
        self.machine.push(ConfirmScene(self.machine, question, act))

    def draw_top(self, top: pygame.Surface) -> None:
        # Both screens are blanked under the overlay (the firmware's backdrop): nothing of
        # the game (move lists, speech bubbles, the board) shows through or overlaps it, and
        # a paused game cannot be studied for free.
        widgets.background(top)
        widgets.panel(top, TOP_PANEL)
        title = self.machine.tr(self.under.cartridge.title, self.under.cartridge.title_ja)
        text.draw(
            top,
            self.machine.tr("PAUSED", "ポーズ"),
            (128, TOP_PANEL.y + 14),
            pal.ACCENT,
            scale=3,
            align="center",
            shadow=pal.OUTLINE,
        )
        text.draw(top, title, (128, TOP_PANEL.y + 48), pal.TEXT, align="center")

    def draw_bottom_backdrop(self, bottom: pygame.Surface) -> None:
        widgets.background(bottom)
        widgets.panel(bottom, HINT_PANEL)
        text.draw(
            bottom,
            self.machine.tr("START: resume", "START: つづける"),
            (128, HINT_PANEL.y + 6),
            pal.TEXT_DIM,
            align="center",
        )


    def dump(self) -> dict[str, object]:
        return {"paused": self.under.cartridge.id, **super().dump()}
