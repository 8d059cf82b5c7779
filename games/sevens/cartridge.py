"""Killing Sevens' registration with the firmware: titles, icon, options, play and replay.

Members are options too (`seat1`..`seat3`), so `--game sevens --option seat1=cool ...`
boots straight into play; every member and option defaults to `last` (the choice remembered
from the last game; shown as "default" until a game has stored one), and a seat left at
`last` opens the members dialog first. The hint marks
and the bubble speed are set in the game's own options dialog (and remembered): the
launcher's option list stays short enough to read.
"""

from __future__ import annotations

import pygame

from firmware.game_api import Cartridge, GameContext, Option, SceneAt
from games.sevens.rules import MAX_KILL_CHOICES
from games.sevens.scene import sprites
from games.sevens.scene.setup import LAST, SEAT_CHOICES, SETUP_KEY, from_options

LAST_LABEL = "last"  # the choice remembered from the last game
# `last` on a unit that never played: the first game's members and rules (Setup's defaults).
FIRST_TIME = {LAST: ("default", "標準")}


def draw_icon(surf: pygame.Surface) -> None:
    """32x32: a 7 of diamonds on felt in front of its neighbour, killed (pink)."""
    pygame.draw.rect(surf, sprites.FELT, (0, 0, 32, 32), border_radius=6)
    surf.blit(sprites.table_card(2 * 13 + 7, "killed"), (12, 6))
    surf.blit(sprites.table_card(2 * 13 + 6, "played"), (3, 3))


def _versus_resolve(options: dict[str, str], ctx: GameContext) -> dict[str, str]:
    """The host's rules for a linked game: `last` is this unit's remembered choice, made
    concrete so every unit builds the same game (and the lobby shows real values)."""
    setup, _ = from_options(options, ctx.load_data(SETUP_KEY), "cpu")
    flag = {True: "on", False: "off"}
    return {
        "max_kill": str(setup.max_kill),
        "three_walls": flag[setup.three_walls],
        "sevens_first": flag[setup.sevens_first],
        "extra_turn": flag[setup.extra_turn],
    }


# The computer personalities as the game names them in Japanese.
SEAT_CHOICES_JA = {
    "simpleton": "単細胞",
    "cool": "冷静",
    "hitman": "殺し屋",
    "coward": "臆病",
    "brute": "凶暴",
    "human": "人間",
}


def _seat(n: int) -> Option:
    return Option(
        f"seat{n}",
        f"Seat {n + 1}",
        (LAST, *SEAT_CHOICES),
        LAST,
        label_ja=f"席{n + 1}",
        choice_labels={LAST: LAST_LABEL},
        choice_labels_ja=SEAT_CHOICES_JA,
        unremembered=FIRST_TIME,
    )


def _flag(key: str, label: str, label_ja: str) -> Option:
    return Option(
        key, label, (LAST, "off", "on"), LAST, label_ja=label_ja,
        choice_labels={LAST: LAST_LABEL}, unremembered=FIRST_TIME,
    )


CARTRIDGE = Cartridge(
    id="sevens",
    title="Killing Sevens",
    title_ja="殺しの7並べ",
    description="Sevens with kills: a card closed in on all four sides dies in its holder's "
    "hand; fewest cards killed wins. On one unit: you against three computer personalities, "
    "or pass it round two to four people. Versus: two to four units over the link.",
    description_ja="7並べに「殺し」をくわえたゲーム。上下左右を囲まれた札は殺されます。"
    "殺された札が一番少ない人の勝ち。1だいで 性格のちがう コンピュータと、または2〜4人で"
    "まわして。たいせん: 2〜4だいで つうしん。",
    draw_icon=draw_icon,
    create=SceneAt("games.sevens.scene.play:SevensScene"),
    players=(1, 4),
    options=(
        Option(
            "mode",
            "Mode",
            ("cpu", "two"),
            "cpu",
            label_ja="モード",
            choice_labels={"cpu": "vs CPUs", "two": "Pass unit"},
            choice_labels_ja={"cpu": "CPUと", "two": "本体を回す"},
        ),
        _seat(1),
        _seat(2),
        _seat(3),
        Option(
            "max_kill",
            "Max kill",
            (LAST, *map(str, MAX_KILL_CHOICES)),
            LAST,
            label_ja="最大枚数",
            choice_labels={LAST: LAST_LABEL},
            unremembered=FIRST_TIME,
        ),
        _flag("three_walls", "3 walls", "3方向壁"),
        _flag("sevens_first", "7s first", "7札を並べる"),
        _flag("extra_turn", "Extra turn", "もう一度手番"),
    ),
    replay=SceneAt("games.sevens.scene.play:SevensScene"),  # opened on a record
    versus=True,
    # The rules only (the welcome message is one radio frame); the computers in empty seats
    # are the first time's Cool, Hitman and Coward, the same on every unit.
    versus_options=("max_kill", "three_walls", "sevens_first", "extra_turn"),
    versus_sealed=True,  # no unit but the dealer sees a hand before it is played
    versus_resolve=_versus_resolve,
    versus_badge=(186, -1),  # the link bars in the title bar, clear of the table's cards
    versus_badge_names=False,  # the information area names every player
    memory_key=SETUP_KEY,  # `last` is last time's choice once a game has stored its setup
    launcher_order=30,  # where the launcher shows it (Cartridge.launcher_order)
)
