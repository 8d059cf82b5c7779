"""Bubble Pop's registration with the firmware."""

from __future__ import annotations

import pygame

from firmware.game_api import Cartridge, SceneAt


def draw_icon(surf: pygame.Surface) -> None:
    pygame.draw.rect(surf, (16, 60, 110), (0, 0, 32, 32), border_radius=6)
    for (x, y, r), color in zip(
        ((12, 18, 8), (23, 10, 5), (24, 24, 4)),
        ((120, 200, 255), (255, 140, 190), (150, 240, 150)),
        strict=True,
    ):
        pygame.draw.circle(surf, color, (x, y), r)
        pygame.draw.circle(surf, (255, 255, 255), (x - r // 3, y - r // 3), max(1, r // 4))


CARTRIDGE = Cartridge(
    id="pop",
    title="Bubble Pop",
    title_ja="バブル ポップ",
    description="Tap the bubbles before they float away. Pop them in a row for combos; "
    "three escapes and the game is over. With buttons: D-pad to aim, A to pop. One player "
    "on one unit (no versus).",
    description_ja="うかんでいく あわを タッチして わろう。つづけて わると コンボ！"
    "3つ にがすと ゲームオーバー。1だいで ひとりで。",
    draw_icon=draw_icon,
    create=SceneAt("games.pop.scene:PopScene"),
    players=(1, 1),
)
