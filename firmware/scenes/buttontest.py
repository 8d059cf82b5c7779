"""Button test (P-FW-2): every button lights on a drawing of the handheld; the stylus draws."""

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

HOLD_TO_EXIT = 60  # ticks of B held

_LAYOUT: dict[Button, tuple[str, pygame.Rect]] = {
    Button.UP: ("↑", pygame.Rect(42, 92, 14, 14)),
    Button.DOWN: ("↓", pygame.Rect(42, 120, 14, 14)),
    Button.LEFT: ("←", pygame.Rect(28, 106, 14, 14)),
    Button.RIGHT: ("→", pygame.Rect(56, 106, 14, 14)),
    Button.X: ("X", pygame.Rect(200, 90, 15, 15)),
    Button.Y: ("Y", pygame.Rect(184, 106, 15, 15)),
    Button.A: ("A", pygame.Rect(216, 106, 15, 15)),
    Button.B: ("B", pygame.Rect(200, 122, 15, 15)),
    Button.L: ("L", pygame.Rect(14, 44, 40, 10)),
    Button.R: ("R", pygame.Rect(202, 44, 40, 10)),
    Button.START: ("START", pygame.Rect(180, 148, 34, 13)),
    Button.SELECT: ("SEL", pygame.Rect(180, 163, 34, 13)),
}


class ButtonTestScene(Scene):
    name = "buttontest"
    uses_dpad = True

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        self.held: frozenset[Button] = frozenset()
        self.seen: set[Button] = set()
        self.trail: list[tuple[int, int]] = []
        self.b_ticks = 0

    def hotspots(self) -> dict[str, pygame.Rect]:
        return {"button:done": pygame.Rect(196, 168, 56, 20)}

    def update(self, inp: InputState) -> None:
        self.held = inp.held
        self.seen |= inp.held
        self.b_ticks = self.b_ticks + 1 if Button.B in inp.held else 0
        if self.b_ticks >= HOLD_TO_EXIT or hit(self.hotspots(), inp):
            self.machine.pop()
            return
        if inp.touch is not None:
            self.trail.append((inp.touch.x, inp.touch.y))
            del self.trail[:-120]

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.machine.tr
        widgets.background(top)
        body = pygame.Rect(8, 50, 240, 136)
        widgets.bevel_rect(top, body, (60, 66, 92), radius=10, depth=3)
        pygame.draw.rect(top, pal.OUTLINE, (76, 60, 104, 78), border_radius=3)
        pygame.draw.rect(top, (30, 60, 70), (80, 64, 96, 70))
        text.draw(
            top,
            tr("BUTTON TEST", "ボタンテスト"),
            (128, 8),
            pal.ACCENT,
            scale=2,
            align="center",
            shadow=pal.OUTLINE,
        )
        text.draw(
            top,
            tr("Hold B to leave", "B ながおしで もどる"),
            (128, 30),
            pal.TEXT_DIM,
            align="center",
        )
        for button, (label, rect) in _LAYOUT.items():
            on = button in self.held
            face = pal.ACCENT if on else (pal.BUTTON_HI if button in self.seen else pal.BUTTON_LO)
            widgets.bevel_rect(top, rect, face, radius=4 if rect.w < 20 else 2)
            if rect.h >= 14 or len(label) > 1:
                text.draw(
                    top,
                    label,
                    (rect.centerx, rect.centery - 4),
                    pal.TEXT_DARK if on else pal.TEXT,
                    align="center",
                )
        count = len(self.seen)
        text.draw(
            top,
            f"{count}/{len(Button)}",
            (128, 94),
            pal.OK if count == len(Button) else pal.TEXT,
            scale=2,
            align="center",
        )
        bottom.fill((236, 238, 244))
        for gx in range(0, 256, 16):
            pygame.draw.line(bottom, (214, 218, 228), (gx, 0), (gx, 191))
        for gy in range(0, 192, 16):
            pygame.draw.line(bottom, (214, 218, 228), (0, gy), (255, gy))
        for i, point in enumerate(self.trail):
            shade = 200 - int(160 * i / max(1, len(self.trail)))
            pygame.draw.circle(bottom, (shade, shade // 3, 40), point, 2)
        if self.trail:
            x, y = self.trail[-1]
            text.draw(bottom, f"x {x:3d}  y {y:3d}", (6, 6), pal.TEXT_DARK)
        else:
            text.draw(
                bottom,
                tr("Draw here with the stylus", "ここにタッチ"),
                (128, 90),
                (120, 124, 140),
                align="center",
            )
        widgets.button(bottom, self.hotspots()["button:done"], tr("Done", "おわる"))

    def dump(self) -> dict[str, object]:
        return {
            "held": sorted(b.value for b in self.held),
            "seen": len(self.seen),
            "trail": len(self.trail),
        }
