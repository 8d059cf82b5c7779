"""Arimaa's registration with the firmware: titles, icon, options, play and replay."""

from __future__ import annotations

import pygame

from firmware.game_api import Cartridge, Option, SceneAt
from games.arimaa.ai.levels import DEFAULT_LEVEL, LEVELS
from games.arimaa.scene import sprites
from games.arimaa.scene.setup_names import SETUP_NAMES

#: Time controls offered: the two presets and a few controls in the standard M/R/P/L/G/T
#: notation (a game limit of 10 turns each, decided by score, is the last).
CLOCKS = ("casual", "30s", "0:30/5/100/3/0/0", "1/3/100/6/0/0", "0:30/5/100/3/10t/0")


def draw_icon(surf: pygame.Surface) -> None:
    """32x32: a trap square with a gold elephant and a silver rabbit."""
    pygame.draw.rect(surf, sprites.LIGHT, (0, 0, 32, 32), border_radius=6)
    pygame.draw.rect(surf, sprites.TRAP, (16, 16, 14, 14))
    surf.blit(sprites.piece(0, 5, 16), (2, 2))
    surf.blit(sprites.piece(1, 0, 14), (16, 16))


CARTRIDGE = Cartridge(
    id="arimaa",
    title="Arimaa",
    title_ja="アリマア",
    description="Set up 16 pieces, then take up to four steps a turn: push and pull weaker "
    "enemies, trap them, and bring a rabbit to the far row. On one unit: against the "
    "computer (five levels) or two players. Versus: two units over the link.",
    description_ja="16この駒を並べ、1手に4ステップまで動かす。弱い敵を押したり引いたりして"
    "わなで取り、ウサギを奥の列へ。1だいで コンピューター(5レベル)か ふたりで。"
    "たいせん: 2だいで つうしん。",
    draw_icon=draw_icon,
    create=SceneAt("games.arimaa.scene.play:ArimaaScene"),
    players=(1, 2),
    options=(
        Option("mode", "Mode", ("cpu", "two"), "cpu", label_ja="モード",
               choice_labels={"cpu": "vs Computer", "two": "2 Players"},
               choice_labels_ja={"cpu": "コンピューター", "two": "二人で"}),
        Option("level", "Level", tuple(str(n) for n in sorted(LEVELS)), str(DEFAULT_LEVEL),
               label_ja="レベル"),
        Option("color", "Your side", ("gold", "silver"), "gold", label_ja="あなたの色",
               choice_labels={"gold": "Gold (first)", "silver": "Silver"},
               choice_labels_ja={"gold": "金(先手)", "silver": "銀"}),
        Option("rotate", "Turn board for Silver", ("on", "off"), "on", label_ja="銀の番で回転"),
        Option("clock", "Clock", CLOCKS, "casual", label_ja="時計",
               choice_labels={"casual": "casual (no clock)", "30s": "30 s a turn"},
               choice_labels_ja={"casual": "なし", "30s": "1手30秒"}),
        Option("setup", "Setup", ("choose", *SETUP_NAMES), "choose", label_ja="配置",
               choice_labels_ja={"default": "基本", "classic": "古典", "wing-rabbits": "ウイング",
                                 "fort": "とりで"}),
    ),
    replay=SceneAt("games.arimaa.scene.play:ArimaaScene"),  # opened on a record
    versus=True,  # `link` mode: the launcher's versus menu hosts or joins a match
    versus_options=("clock", "setup"),
    # the link bars alone, in the title bar between the title and whose turn it is: the
    # player panels name both players, and a badge between them hid the right one's clock
    versus_badge=(128, -1),
    versus_badge_names=False,
    launcher_order=20,  # where the launcher shows it (Cartridge.launcher_order)
)
