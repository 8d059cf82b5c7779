"""How to play Panel Link (P-GAME-7): four pages with pictures drawn from real cards —
connectors and combining, a turn, the four yaku, the items. Opened with the `?` button."""

from __future__ import annotations

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from games.panels.rules.positions import card
from games.panels.scene import layout, sprites
from games.panels.scene import texts as tx
from hal.interfaces import Button

Tr = tx.Tr
PAGES = 4
TITLES = (
    ("Cards and connectors", "カードと つなぎめ"),
    ("Your turn", "じぶんの ばん"),
    ("Yaku", "やく"),
    ("Items", "アイテム"),
)
BODY = (
    (
        "Each card has a number and 1-4 connectors. Two of your cards side by side are "
        "combined when both connectors meet. Rainbow cards combine with anyone's.",
        "カードには かずと 1~4本の つなぎめ。となりあう じぶんの カードの つなぎめが "
        "つながると「くみあわせ」。にじいろは だれとでも つながる。",
    ),
    (
        "Touch a stock card, then a bright square: it goes there for now. Touch it to turn "
        "it, another square to move it, Back to take it back. Determine fixes it.",
        "てふだを タッチ、あかるい マスを タッチで かりおき。カードを タッチで まわす。"
        "「けってい」で きまり。「もどる」で とりけし。",
    ),
    (
        "Groups from your new card score: 10 points per card for each of the first three, "
        "20 per card for a perfect.",
        "あたらしい カードからの くみあわせで とくてん。1まい 10てん (パーフェクトは 20てん)。",
    ),
    (
        "A yaku of 3+ cards (or any perfect) earns an item. Tap it to read, tap again to use, "
        "before you place a card.",
        "3まい いじょうの やくで アイテム。タッチで せつめい、もういちどで つかう (おく まえ)。",
    ),
)
YAKU_PICTURES = (
    ("same_number", [card(2, "0100"), card(2, "0101"), card(2, "0001")]),
    ("sequence", [card(1, "0100"), card(2, "0101"), card(3, "0001")]),
    ("ring", None),
    ("perfect", [card(4, "0100"), card(1, "0001")]),
)
RING = {(0, 0): card(3, "0110"), (0, 1): card(1, "0011"), (1, 0): card(5, "1100"),
        (1, 1): card(2, "1001")}


def hotspots(page: int) -> dict[str, pygame.Rect]:
    spots = {"button:close": layout.HOWTO_CLOSE_RECT}
    if page > 0:
        spots["button:prev"] = layout.HOWTO_PREV_RECT
    if page < PAGES - 1:
        spots["button:next"] = layout.HOWTO_NEXT_RECT
    return spots


def update(page: int, name: str | None, inp: InputState) -> int | None:
    """The page shown after this tick (None: closed)."""
    if name == "button:close" or Button.B in inp.pressed:
        return None
    if (name == "button:next" or Button.RIGHT in inp.pressed) and page < PAGES - 1:
        return page + 1
    if (name == "button:prev" or Button.LEFT in inp.pressed) and page > 0:
        return page - 1
    return page


def _blit(surf: pygame.Surface, c: object, pos: tuple[int, int]) -> None:
    from games.panels.rules import Card

    assert isinstance(c, Card)
    surf.blit(sprites.card_image(c.number, c.connectors, c.owner), pos)


def draw(top: pygame.Surface, bottom: pygame.Surface, page: int, tr: Tr) -> None:
    widgets.background(top)
    widgets.title_bar(top, tr("How to play", "あそびかた"), f"{page + 1}/{PAGES}")
    text.draw(top, tr(*TITLES[page]), (128, 24), pal.ACCENT, scale=2, align="center",
              shadow=pal.OUTLINE)
    lines = text.wrap(tr(*BODY[page]), 236)
    text.draw_block(top, lines, (10, 52), pal.TEXT)
    widgets.background(bottom, (20, 28, 26), (26, 36, 33))
    if page == 0:
        _page_connectors(bottom, tr)
    elif page == 1:
        _page_turn(bottom, tr)
    elif page == 2:
        _page_yaku(bottom, tr)
    else:
        _page_items(bottom, tr)
    if page > 0:
        widgets.button(bottom, layout.HOWTO_PREV_RECT, "<")
    widgets.button(bottom, layout.HOWTO_CLOSE_RECT, tr("Close", "とじる"))
    if page < PAGES - 1:
        widgets.button(bottom, layout.HOWTO_NEXT_RECT, ">")


def _page_connectors(surf: pygame.Surface, tr: Tr) -> None:
    _blit(surf, card(1, "0100"), (40, 30))
    _blit(surf, card(3, "0001"), (62, 30))
    text.draw(surf, tr("combined", "つながる"), (62, 58), pal.OK, align="center")
    _blit(surf, card(1, "0100"), (150, 30))
    _blit(surf, card(3, "1000"), (172, 30))
    text.draw(surf, tr("not combined", "つながらない"), (172, 58), pal.DANGER, align="center")
    _blit(surf, card(2, "0100", 0), (40, 96))
    _blit(surf, card(4, "0001", 1), (62, 96))
    text.draw(surf, tr("other colour: never", "ちがう いろ: だめ"), (62, 124), pal.DANGER,
              align="center")
    _blit(surf, card(2, "0100", 0), (150, 96))
    _blit(surf, card(5, "0001", "R"), (172, 96))
    text.draw(surf, tr("rainbow: always", "にじいろ: OK"), (172, 124), pal.OK, align="center")


def _page_turn(surf: pygame.Surface, tr: Tr) -> None:
    c = card(3, "1100")
    for k in range(3):
        x = 30 + 70 * k
        _blit(surf, c.rotated(k), (x, 40))
        if k < 2:
            pygame.draw.polygon(surf, pal.ACCENT, [(x + 36, 46), (x + 46, 51), (x + 36, 56)])
    text.draw(surf, tr("touch: turn clockwise", "タッチ: みぎに まわる"), (128, 70), pal.TEXT,
              align="center")
    widgets.button(surf, pygame.Rect(60, 96, 66, 26), tr(*tx.DETERMINE), face=(64, 150, 88))
    widgets.button(surf, pygame.Rect(136, 100, 44, 20), tr(*tx.BACK))


def _page_yaku(surf: pygame.Surface, tr: Tr) -> None:
    for k, (kind, cards) in enumerate(YAKU_PICTURES):
        x0, y0 = 8 + (k % 2) * 124, 8 + (k // 2) * 78
        text.draw(surf, tx.yaku_name(tr, kind), (x0, y0), pal.ACCENT)
        if cards is None:
            for (r, c), cd in RING.items():
                _blit(surf, cd, (x0 + c * 22, y0 + 13 + r * 22))
        else:
            for i, cd in enumerate(cards):
                _blit(surf, cd, (x0 + i * 22, y0 + 20))
        per = 20 if kind == "perfect" else 10
        label = tr(f"{per} pts per card", f"1まい {per}てん")
        text.draw(surf, label, (x0, y0 + 60 if cards is None else y0 + 46), pal.TEXT_DIM)


def _page_items(surf: pygame.Surface, tr: Tr) -> None:
    tall = text.is_tall(tr("a", "あ"))  # Japanese lines are 12 rows: items further apart
    for k, kind in enumerate(("reshuffle", "renumber", "swivel", "prism")):
        y = 8 + (42 if tall else 38) * k
        surf.blit(sprites.item_icon(kind), (8, y))
        text.draw(surf, tx.item_name(tr, kind), (34, y), pal.ACCENT)
        lines = text.wrap(tr(*tx.ITEM_HELP[kind]), 210)
        text.draw_block(surf, lines[:2], (34, y + (13 if tall else 11)), pal.TEXT)
