"""Panel Link's registration with the firmware: titles, icon, options, play and replay."""

from __future__ import annotations

import pygame

from firmware.game_api import Cartridge, Option, SceneAt
from games.panels.rules.field import SHAPE_NAMES
from games.panels.scene import sprites
from games.panels.scene.options import TARGETS


def draw_icon(surf: pygame.Surface) -> None:
    """32x32: a blue and a red card combined with a rainbow card between them."""
    pygame.draw.rect(surf, sprites.FIELD_BG, (0, 0, 32, 32), border_radius=6)
    surf.blit(sprites.card_image(3, 0b0110, 0, size=15), (1, 1))
    surf.blit(sprites.card_image(4, 0b1010, -1, size=15), (1, 16))
    surf.blit(sprites.card_image(5, 0b1001, 1, size=15), (16, 16))


CARTRIDGE = Cartridge(
    id="panels",
    title="Panel Link",
    title_ja="パネル リンク",
    description="Place numbered cards so your connectors meet: same numbers, sequences, "
    "rings and perfect groups score. First to the target wins. On one unit: against the "
    "computer (four levels) or two players. Versus: two units over the link.",
    description_ja="かずの カードを おいて つなぎめを つなげよう。おなじかず・れんばん・わっか・"
    "パーフェクトで とくてん。1だいで コンピューター(4レベル)か ふたりで。"
    "たいせん: 2だいで つうしん。",
    draw_icon=draw_icon,
    create=SceneAt("games.panels.scene.play:PanelsScene"),
    players=(1, 2),
    options=(
        Option("mode", "Mode", ("cpu", "two"), "cpu", label_ja="モード",
               choice_labels={"cpu": "vs Computer", "two": "2 Players"},
               choice_labels_ja={"cpu": "コンピューター", "two": "ふたりで"}),
        Option("level", "Level", ("1", "2", "3", "4"), "3", label_ja="レベル"),
        Option("target", "Target score", TARGETS, "300", label_ja="もくひょう"),
        Option("field", "Field", ("random", *SHAPE_NAMES), "random", label_ja="フィールド",
               choice_labels_ja={"square": "しかく", "octagon": "はっかく", "pillars": "はしら",
                                 "lake": "みずうみ", "cross": "じゅうじ"}),
        Option("removal", "Remove yaku cards", ("off", "on"), "off", label_ja="やくを けす"),
        Option("items", "Items", ("on", "off"), "on", label_ja="アイテム"),
        Option("first", "Goes first", ("1", "2"), "1", label_ja="せんこう",
               choice_labels={"1": "Player 1 (you)", "2": "Player 2"},
               choice_labels_ja={"1": "あなた", "2": "あいて"}),
    ),
    replay=SceneAt("games.panels.scene.play:PanelsScene"),  # opened on a record
    versus=True,  # two units over the peer link: the seed's main case
    versus_options=("target", "field", "removal", "items", "first"),
    launcher_order=50,  # where the launcher shows it (Cartridge.launcher_order)
)
