"""Tic-tac-toe's registration: the firmware finds `CARTRIDGE` through the entry point this
package declares (pyproject.toml, group `twinfold.games`)."""

from __future__ import annotations

import pygame

from firmware.game_api import Cartridge, Option, SceneAt

# imported when a game starts or a record opens, not at every start of the unit
SCENE = SceneAt("twinfold_tictactoe.scene:TicTacToeScene")


def draw_icon(surf: pygame.Surface) -> None:
    pygame.draw.rect(surf, (40, 40, 70), (0, 0, 32, 32), border_radius=6)
    for k in (11, 21):
        pygame.draw.line(surf, (200, 200, 220), (k, 4), (k, 28), 2)
        pygame.draw.line(surf, (200, 200, 220), (4, k), (28, k), 2)
    pygame.draw.line(surf, (255, 200, 90), (4, 4), (9, 9), 2)
    pygame.draw.circle(surf, (90, 220, 200), (16, 16), 3, 1)


CARTRIDGE = Cartridge(
    id="tictactoe",
    title="Tic-tac-toe",
    title_ja="まるばつ",
    description="Three in a row wins. Against the computer or two players on one unit. "
    "Versus: two units over the link.",
    description_ja="たて よこ ななめに 3つ ならべたら かち。1だいで コンピューターと、"
    "または ふたりで。たいせん: 2だいで つうしん。",
    draw_icon=draw_icon,
    create=SCENE,
    players=(1, 2),
    options=(
        Option("mode", "Players", ("cpu", "two"), "cpu", label_ja="プレイヤー",
               choice_labels={"cpu": "vs computer", "two": "two players"},
               choice_labels_ja={"cpu": "コンピューター", "two": "ふたり"}),
    ),
    replay=SCENE,
    versus=True,
)
