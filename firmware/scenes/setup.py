"""Before a game starts: choose its options (mode, level, variant) with the stylus or D-pad."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from firmware.game_api import Cartridge, Option
from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.scenes.menu import MenuItem, MenuScene

if TYPE_CHECKING:
    from firmware.scene import Host


class SetupScene(MenuScene):
    name = "setup"
    back_key = "back"

    def __init__(self, machine: Host, cartridge: Cartridge) -> None:
        super().__init__(machine)
        self.cartridge = cartridge
        self.title = machine.tr(cartridge.title, cartridge.title_ja)
        self.values = cartridge.resolve_options({})
        self.remembered = cartridge.remembers(machine.store)  # "last time" means something
        tr = machine.tr
        self.items = [self._option_item(opt) for opt in cartridge.options]
        self.items.append(
            MenuItem("start", lambda: tr("Start ▶", "スタート ▶"), self.start, face=pal.ACCENT_LO)
        )
        self.items.append(MenuItem("back", lambda: tr("Back", "もどる"), machine.pop))

    def _option_item(self, opt: Option) -> MenuItem:
        def step(delta: int) -> None:
            i = opt.choices.index(self.values[opt.key])
            self.values[opt.key] = opt.choices[(i + delta) % len(opt.choices)]

        return MenuItem(
            opt.key,
            lambda: self.machine.tr(opt.label, opt.label_ja),
            value=lambda: opt.shown(
                self.values[opt.key], self.machine.settings.language, self.remembered
            ),
            on_step=step,
        )

    def start(self) -> None:
        self.machine.start_game(self.cartridge.id, dict(self.values))

    def draw_top(self, top: pygame.Surface) -> None:
        widgets.background(top)
        widgets.panel(top, pygame.Rect(6, 6, 244, 180))
        text.draw(
            top, self.title, (128, 20), pal.ACCENT, scale=2, align="center", shadow=pal.OUTLINE
        )
        desc = self.machine.tr(self.cartridge.description, self.cartridge.description_ja)
        text.draw_block(top, text.wrap(desc, 226)[:10], (16, 50), pal.TEXT)

    def dump(self) -> dict[str, object]:
        return {"game": self.cartridge.id, "options": dict(self.values)}
