"""P-FW-3: a game crashed. Say so plainly, keep the firmware alive, go back to the launcher."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scene import Scene, hit
from hal.interfaces import Button

if TYPE_CHECKING:
    from firmware.scene import Host


class ErrorScene(Scene):
    name = "error"

    def __init__(self, machine: Host, where: str, exc: BaseException) -> None:
        super().__init__(machine)
        self.where = where
        self.kind = type(exc).__name__
        self.message = str(exc)[:300]

    def hotspots(self) -> dict[str, pygame.Rect]:
        return {"button:ok": pygame.Rect(68, 120, 120, 30)}

    def update(self, inp: InputState) -> None:
        if hit(self.hotspots(), inp) or inp.pressed & {Button.A, Button.B, Button.START}:
            self.machine.pop()

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        widgets.background(top, (40, 14, 20), (52, 18, 26))
        widgets.panel(top, pygame.Rect(8, 8, 240, 176), (64, 24, 32))
        tr = self.machine.tr
        text.draw(
            top,
            tr("An error occurred", "エラーがおきました"),
            (128, 18),
            pal.DANGER,
            scale=2,
            align="center",
            shadow=pal.OUTLINE,
        )
        text.draw(
            top, tr(f"in {self.where}", f"{self.where} で"), (128, 44), pal.TEXT, align="center"
        )
        rows = text.wrap(f"{self.kind}: {self.message}", 224)[:8]
        text.draw_block(top, rows, (16, 64), pal.TEXT_DIM)
        text.draw(
            top,
            tr("The details are in the log.", "くわしくはログに。"),
            (128, 166),
            pal.TEXT_DIM,
            align="center",
        )
        widgets.background(bottom, (40, 14, 20), (52, 18, 26))
        text.draw(
            bottom,
            tr("The game was stopped.", "ゲームをとめました。"),
            (128, 70),
            pal.TEXT,
            align="center",
        )
        widgets.button(
            bottom, self.hotspots()["button:ok"], tr("Back to menu", "メニューへ"), face=pal.DANGER
        )

    def dump(self) -> dict[str, object]:
        return {"where": self.where, "error": self.kind, "message": self.message}
