"""Reversi's registration with the firmware: titles, icon, options, play and replay."""

from __future__ import annotations

import pygame

from firmware.game_api import Cartridge, Option, SceneAt
from games.reversi.ai import LEVELS
from games.reversi.scene import sprites
from games.reversi.scene import texts as tx

LEVEL_NAMES = tuple(LEVELS[n].name for n in sorted(LEVELS))


def draw_icon(surf: pygame.Surface) -> None:
    """32x32: the centre of the start position on green felt in a wooden frame."""
    pygame.draw.rect(surf, sprites.WOOD, (0, 0, 32, 32), border_radius=6)
    pygame.draw.rect(surf, sprites.GRID, (3, 3, 26, 26))
    for i in range(2):
        for j in range(2):
            surf.fill(sprites.FELT, (4 + i * 13, 4 + j * 13, 12, 12))
            color = "white" if i == j else "black"
            surf.blit(sprites.small_disc(color, 11), (4 + i * 13, 4 + j * 13))


CARTRIDGE = Cartridge(
    id="reversi",
    title="Reversi",
    title_ja="リバーシ",
    description="Bracket your opponent's discs to turn them your colour; most discs at the "
    "end wins. On one unit: against the computer (four levels) or two players. Versus: two "
    "units over the link. Hint shows where you can play and how many discs each move turns.",
    description_ja="あいての いしを はさんで ひっくりかえそう。さいごに いしが おおい ほうの "
    "かち。1だいで コンピューター(4レベル)か ふたりで。たいせん: 2だいで つうしん。"
    "「おしえて!」で おける ばしょが わかります。",
    draw_icon=draw_icon,
    create=SceneAt("games.reversi.scene.play:ReversiScene"),
    players=(1, 2),
    options=(
        Option(
            "mode",
            "Mode",
            ("cpu", "two"),
            "cpu",
            label_ja="モード",
            choice_labels={"cpu": "vs Computer", "two": "2 Players"},
            choice_labels_ja={"cpu": "コンピューター", "two": "ふたりで"},
        ),
        Option(
            "level",
            "Level",
            LEVEL_NAMES,
            "intermediate",
            label_ja="レベル",
            choice_labels_ja={name: ja for name, (_en, ja) in tx.LEVEL_NAMES.items()},
        ),
        Option(
            "color",
            "Your discs",
            ("black", "white"),
            "black",
            label_ja="あなたは",
            choice_labels={"black": "Black (first)", "white": "White"},
            choice_labels_ja={"black": "くろ(せんて)", "white": "しろ"},
        ),
    ),
    replay=SceneAt("games.reversi.scene.play:ReversiScene"),  # opened on a record
    versus=True,
    launcher_order=10,  # where the launcher shows it (Cartridge.launcher_order)
)
