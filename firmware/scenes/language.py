"""The first start's language choice (issue 25): English or 日本語, each written in its own
language and large, so a player who reads only one of them can choose; Settings changes it
later."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scene import Host, Scene, hit
from firmware.settings import LANGUAGES

# Each language named in itself (never translated).
NAMES = {"en": "English", "ja": "日本語"}
BUTTONS = {
    "lang:en": pygame.Rect(28, 40, 200, 52),
    "lang:ja": pygame.Rect(28, 104, 200, 52),
}


def draw_globe(surface: pygame.Surface, center: tuple[int, int], r: int) -> None:
    """A small globe: the sign for 'language' that needs no words."""
    cx, cy = center
    pygame.draw.circle(surface, pal.OUTLINE, center, r + 1)
    pygame.draw.circle(surface, pal.TEAL, center, r)
    for k in (-1, 0, 1):  # two parallels and the equator
        y = cy + k * r // 2
        half = int(math.sqrt(max(0, r * r - (y - cy) ** 2)))
        pygame.draw.line(surface, pal.WHITE, (cx - half, y), (cx + half, y))
    for w in (r, r // 2):  # meridians
        pygame.draw.ellipse(surface, pal.WHITE, (cx - w // 2, cy - r, w, 2 * r), 1)
    pygame.draw.line(surface, pal.WHITE, (cx, cy - r), (cx, cy + r))


class LanguageScene(Scene):
    """Tap (or cursor and A) English or 日本語; `after` then continues the start."""

    name = "language"

    def __init__(self, machine: Host, after: Callable[[], None]) -> None:
        super().__init__(machine)
        self.after = after

    def hotspots(self) -> dict[str, pygame.Rect]:
        return dict(BUTTONS)

    def update(self, inp: InputState) -> None:
        chosen = hit(self.hotspots(), inp)
        if chosen is not None:
            self.choose(chosen.split(":")[1])

    def choose(self, language: str) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"no language {language!r}")
        self.machine.settings.language = language
        self.machine.save_settings()
        self.machine.play("select")
        self.after()

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        widgets.background(top)
        widgets.panel(top, pygame.Rect(16, 16, 224, 160))
        draw_globe(top, (128, 62), 26)
        text.draw(
            top, "Language", (128, 104), pal.ACCENT, scale=2, align="center", shadow=pal.OUTLINE
        )
        text.draw(top, "言語", (128, 140), pal.ACCENT, scale=2, align="center", shadow=pal.OUTLINE)
        widgets.background(bottom)
        for name, rect in BUTTONS.items():
            language = name.split(":")[1]
            widgets.bevel_rect(bottom, rect, pal.BUTTON, depth=2)
            label = NAMES[language]
            y = rect.centery - text.size(label, 2)[1] // 2 - 1
            text.draw(
                bottom,
                label,
                (rect.centerx, y),
                pal.TEXT,
                scale=2,
                align="center",
                shadow=pal.OUTLINE,
                valign="top",
            )

    def dump(self) -> dict[str, Any]:
        return {"choices": list(NAMES)}
