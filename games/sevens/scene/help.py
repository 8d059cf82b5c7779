"""How to play (P-GAME-7): four pages, each a picture on the upper screen drawn with the
game's own sprites and a few lines on the lower one. Opened with `button:help` from the
members dialog and during play (the game waits meanwhile)."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.sevens.rules import parse_card
from games.sevens.scene import layout, sprites

Tr = Callable[[str, str], str]

PAGES: tuple[tuple[tuple[str, str], tuple[str, str]], ...] = (
    (
        ("Playing", "出し方"),
        (
            "Each turn, play one card next to a card on the table: beside, above, below or "
            "diagonally (yellow frames). Any 7 may be played once the 7♦ is out. With no card "
            "to play, you pass.",
            "手番には、場札のとなり(上下左右・ななめ)に1枚出します(黄色の枠)。ダイヤの7が出たあとは、"
            "7はいつでも出せます。出せる札がなければパスします。",
        ),
    ),
    (
        ("Kills", "殺し"),
        (
            "A card not yet played dies when all four of its sides are cards or the edge. Its "
            "holder must show it; it stays on the table in pink. A closed rectangle of a few "
            "cards dies whole (see the options).",
            "まだ出ていない札は、上下左右が札か壁になると殺されます。持ち主は公開し、場にピンクで"
            "残ります。囲まれた小さな長方形はまとめて殺されます(オプション参照)。",
        ),
    ),
    (
        ("Winning", "勝ち負け"),
        (
            "Fewest of your cards killed wins. A tie goes to the most kills made, then to "
            "whoever went out first. The upper screen shows all three, live.",
            "殺された札が一番少ない人の勝ち。同じなら殺した枚数が多い人、それも同じなら先に"
            "あがった人。上の画面にいつも表示されます。",
        ),
    ),
    (
        ("On this unit", "操作"),
        (
            "Tap a card to see its place: yellow, it can be played; red, not yet. Tap it again "
            "to play. × marks a card that kills now, ! a card of yours in danger. Tap a speech "
            "bubble to skip it.",
            "カードを1回タッチで場所を表示(黄色: 出せる、赤: 出せない)、もう1回で出します。"
            "×は殺せるカード、!は危ないカード。セリフはタッチで次へ。",
        ),
    ),
)

BACK_RECT = pygame.Rect(8, 166, 70, 22)
NEXT_RECT = pygame.Rect(88, 166, 70, 22)
CLOSE_RECT = pygame.Rect(168, 166, 80, 22)
HELP_RECT = pygame.Rect(230, 166, 22, 22)  # the "?" button during play
HELP_DIALOG_RECT = pygame.Rect(8, 166, 60, 22)  # on the members dialog


def hotspots(page: int) -> dict[str, pygame.Rect]:
    spots = {"button:ok": CLOSE_RECT}
    if page > 0:
        spots["button:back"] = BACK_RECT
    if page < len(PAGES) - 1:
        spots["button:next"] = NEXT_RECT
    return spots


def _cards(names: str) -> list[int]:
    return [parse_card(n) for n in names.split()]


def _table(surf: pygame.Surface, played: list[int], killed: list[int]) -> None:
    sprites.felt(surf, layout.TABLE_RECT)
    for card in range(52):
        state = "killed" if card in killed else "played" if card in played else "empty"
        surf.blit(sprites.table_card(card, state), layout.cell_rect(card))


def _captions(surf: pygame.Surface, tr: Tr, lines: tuple[tuple[str, str], ...]) -> None:
    y = 128
    for en, ja in lines:
        text.draw(surf, tr(en, ja), (10, y), pal.TEXT)
        y += 16


def draw_top(surf: pygame.Surface, tr: Tr, page: int) -> None:
    widgets.background(surf)
    title = f"{page + 1}/{len(PAGES)}  {tr(*PAGES[page][0])}"
    text.draw(surf, title, (5, layout.strip_top(title)), pal.ACCENT, shadow=pal.OUTLINE,
              valign="top")
    if page == 0:
        played = _cards("7S 7H 8H 7D 8D 9D 6D")
        _table(surf, played, [])
        for card in _cards("6S 8S 6H 9H TD 5D 6C 7C 8C 9C TH TC 5H 5C"):
            sprites.frame(surf, layout.cell_rect(card), sprites.PLAYABLE, 1)
        sprites.frame(surf, layout.cell_rect(parse_card("3D")), sprites.BLOCKED, 1)
        _captions(
            surf,
            tr,
            (
                ("Yellow: a card may go there now.", "黄色: いま出せる場所"),
                ("Red: not yet (nothing next to it).", "赤: まだ出せない"),
            ),
        )
    elif page == 1:
        played = _cards(
            "6S 7S 8S 6H 8H 6D 7D 8D 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC "
            "AD 2D 3D 4D 5D 9D TD JD QD KD"
        )
        _table(surf, played, _cards("7H AC"))
        sprites.frame(surf, layout.cell_rect(parse_card("7H")), sprites.BLOCKED, 1)
        _captions(
            surf,
            tr,
            (
                ("7♥: cards on all four sides: killed.", "ハートの7: 四方を囲まれて死亡"),
                ("A♣: the edge counts as a wall.", "クラブのA: 端は壁になる"),
            ),
        )
    elif page == 2:
        rows = (
            (tr("Cool", "冷静"), 1, 4, "2"),
            (tr("Hitman", "殺し屋"), 1, 2, "1"),
            (tr("You", "あなた"), 3, 3, "3"),
            (tr("Brute", "凶暴"), 5, 1, "4"),
        )
        y = 30
        for label, x in (
            (tr("Dead", "殺され"), 120),
            (tr("Kills", "殺し"), 170),
            (tr("Out", "あがり"), 220),
        ):
            text.draw(surf, label, (x, y), pal.TEXT_DIM, align="center")
        for i, (name, dead, kills, out) in enumerate(rows):
            ry = y + 20 + 22 * i
            color = pal.ACCENT if i == 0 else pal.TEXT
            text.draw(surf, f"{i + 1}. {name}", (16, ry), color, scale=1)
            for value, x in ((str(dead), 120), (str(kills), 170), (out, 220)):
                text.draw(surf, value, (x, ry), color, align="center")
        caption = tr(
            "Cool and Hitman: 1 dead; Cool made more kills.",
            "冷静と殺し屋は1枚ずつ。殺した数で冷静の勝ち。",
        )
        text.draw_block(surf, text.wrap(caption, 236), (128, 146), pal.TEAL, align="center")
    else:
        labels = (("tap, tap:", "play"), ("red:", "not yet"), ("!:", "in danger"))
        labels_ja = (("2回タッチ:", "出す"), ("赤:", "まだ"), ("!:", "危ない"))
        for i, (name, dim) in enumerate((("9H", False), ("3C", True), ("KS", False))):
            rect = pygame.Rect(28 + i * 80, 44, layout.CARD_W, layout.CARD_H)
            surf.blit(sprites.hand_card(parse_card(name), dim), rect)
            if i == 0:
                sprites.frame(surf, rect, sprites.PLAYABLE)
                sprites.badge(surf, (rect.right - 5, rect.y + 5), sprites.BLOCKED, "×")
            elif i == 1:
                sprites.frame(surf, rect, sprites.BLOCKED)
            else:
                sprites.badge(surf, (rect.right - 5, rect.bottom - 6), (240, 140, 20), "!")
            lines = [tr(labels[i][j], labels_ja[i][j]) for j in range(2)]
            pitch = 12 if not any(map(text.is_tall, lines)) else 14  # Japanese: 12 rows tall
            for j, line in enumerate(lines):
                text.draw(surf, line, (rect.centerx, 102 + pitch * j), pal.TEXT, align="center")


def draw_bottom(surf: pygame.Surface, tr: Tr, page: int) -> None:
    widgets.background(surf)
    widgets.title_bar(surf, tr("How to play", "あそびかた"), f"{page + 1}/{len(PAGES)}")
    body = text.wrap(tr(*PAGES[page][1]), 236)
    text.draw_block(surf, body, (10, 26), pal.TEXT)
    if page > 0:
        widgets.button(surf, BACK_RECT, tr("◀ Back", "◀ もどる"))
    if page < len(PAGES) - 1:
        widgets.button(surf, NEXT_RECT, tr("Next ▶", "つぎ ▶"))
    widgets.button(surf, CLOSE_RECT, tr("Close", "とじる"), face=pal.ACCENT_LO)
