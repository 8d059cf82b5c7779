"""The lower screen of Panel Link: the field with its cards and animations, the stock, the
items and the buttons, and the result over it (R-PAN-VIEW). Drawn from a `BottomView` the
scene builds each frame."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.match import MatchResult
from games.panels.rules import Card, GameState
from games.panels.scene import layout, sprites
from games.panels.scene import texts as tx
from games.panels.scene.animation import Anim

Tr = tx.Tr


@dataclass(frozen=True)
class BottomView:
    """What the lower screen shows this frame (`state` is the rules state, read only)."""

    state: GameState
    anims: tuple[Anim, ...]  # pending animations, the playing one first
    clock: int  # ticks of this game (blinking)
    view_seat: int  # whose stock is shown
    mode: str  # "cpu", "two" or "link"
    is_replay: bool
    local_to_move: bool
    names: list[str]
    result: MatchResult | None  # once the game is over
    item_armed: int | None
    item_target: str | None
    drag: int | None
    drag_pos: tuple[int, int] | None
    permitted: set[tuple[int, int]] | None  # where the selected card may go (while idle)
    can_pass: bool  # the person to move may only pass (no stock card fits anywhere)


def card_from(data: dict[str, Any]) -> Card:
    return Card.from_json(data)


def blit_card(surf: pygame.Surface, card: Card, pos: tuple[int, int], dim: bool = False) -> None:
    surf.blit(sprites.card_image(card.number, card.connectors, card.owner, dim=dim), pos)


@functools.lru_cache(maxsize=8)
def field_picture(usable: tuple[bool, ...], rows: int, cols: int) -> pygame.Surface:
    """The empty field of one shape (cached: it never changes during a game)."""
    surf = pygame.Surface((cols * layout.CELL + 4, rows * layout.CELL + 4))
    surf.fill(pal.OUTLINE)
    for i, ok in enumerate(usable):
        r, c = divmod(i, cols)
        rect = pygame.Rect(2 + c * layout.CELL, 2 + r * layout.CELL, layout.CELL, layout.CELL)
        if not ok:
            surf.fill(sprites.UNUSABLE, rect)
            pygame.draw.line(surf, (40, 48, 46), rect.topleft, rect.bottomright)
            continue
        face = sprites.SQUARE if (r + c) % 2 == 0 else sprites.SQUARE_HI
        surf.fill(face, rect.inflate(-1, -1))
    return surf


def _pending(view: BottomView, kind: str) -> list[Anim]:
    return [a for a in view.anims if a.kind == kind]


def draw_bottom(surf: pygame.Surface, view: BottomView, tr: Tr) -> None:
    widgets.background(surf, (20, 28, 26), (26, 36, 33))
    st = view.state
    fld = st.field
    tick = view.clock
    active = view.anims[0] if view.anims else None
    hidden = {tuple(a.data["square"]) for a in view.anims if a.kind in ("glide", "rotate")}
    origin = (layout.FIELD_X - 2, layout.FIELD_Y - 2)
    surf.blit(field_picture(fld.usable, fld.rows, fld.cols), origin)
    permitted = view.permitted
    # cards that formed yaku and were removed stay visible until their removal plays
    ghosts: dict[tuple[int, int], Card] = {}
    for a in _pending(view, "remove"):
        for r, c, data in a.data["cards"]:
            ghosts[(r, c)] = card_from(data)
    for i, card in enumerate(fld.cells):
        square = fld.square(i)
        if card is None and square in ghosts and not (active and active.kind == "remove"):
            card = ghosts[square]
        if not fld.usable[i] or square in hidden:
            continue
        rect = layout.square_rect(*square)
        if card is not None:
            blit_card(surf, card, rect.topleft)
        elif permitted is not None and square not in permitted:
            veil = pygame.Surface(rect.size, pygame.SRCALPHA)
            veil.fill(sprites.SHADE)
            surf.blit(veil, rect.topleft)
        elif permitted is not None:
            pygame.draw.rect(surf, sprites.PERMITTED, rect.inflate(-3, -3), 1)
    prov = st.provisional_card()
    if prov is not None and st.provisional is not None and st.provisional[0] not in hidden:
        rect = layout.square_rect(*st.provisional[0])
        blit_card(surf, prov, rect.topleft)
        sprites.provisional_frame(surf, rect, tick)
    last = st.last_placement
    if last is not None and not view.anims and prov is None:
        rect = layout.square_rect(*last["square"])
        pygame.draw.rect(surf, pal.WHITE, rect.inflate(1, 1), 1, border_radius=2)
    if active is not None:
        _draw_active(surf, view, active)
    _draw_column(surf, view, tr)
    if view.drag is not None and view.drag_pos is not None:
        stock = st.players[view.view_seat].stock
        if view.drag < len(stock):
            x, y = view.drag_pos
            blit_card(surf, stock[view.drag], (x - layout.CELL // 2, y - layout.CELL // 2))
    if st.over and not view.anims and not view.is_replay:
        _draw_result(surf, view, tr)


def _draw_active(surf: pygame.Surface, view: BottomView, anim: Anim) -> None:
    d = anim.data
    p = anim.progress
    ease = 1 - (1 - p) * (1 - p)
    if anim.kind == "glide":
        dest = layout.square_rect(*d["square"]).topleft
        x = round(d["from"][0] + (dest[0] - d["from"][0]) * ease)
        y = round(d["from"][1] + (dest[1] - d["from"][1]) * ease)
        blit_card(surf, card_from(d["card"]), (x, y))
    elif anim.kind == "rotate":
        rect = layout.square_rect(*d["square"])
        card = card_from(d["card"])
        img = sprites.card_image(card.number, card.connectors, card.owner)
        turned = pygame.transform.rotate(img, -90 * ease)
        surf.blit(turned, turned.get_rect(center=rect.center))
    elif anim.kind == "yaku":
        pulse = 30 + int(60 * (1 - abs(2 * p - 1)))
        color = sprites.owner_color(d["seat"])
        for r, c in d["squares"]:
            sprites.glow(surf, layout.square_rect(r, c), pal.ACCENT, pulse)
        at = layout.square_rect(*d["at"])
        pygame.draw.rect(surf, color, at.inflate(4, 4), 2, border_radius=3)
        label = f"+{d['points']}"
        y = at.y - 4 - int(8 * ease)
        text.draw(surf, label, (at.centerx, max(0, y)), pal.ACCENT, align="center",
                  shadow=pal.OUTLINE)
    elif anim.kind == "remove":
        for r, c, data in d["cards"]:
            card = card_from(data)
            rect = layout.square_rect(r, c)
            size = max(2, int(layout.CELL * (1 - ease)))
            img = sprites.card_image(card.number, card.connectors, card.owner)
            small = pygame.transform.smoothscale(img, (size, size))
            surf.blit(small, small.get_rect(center=rect.center))


def _draw_column(surf: pygame.Surface, view: BottomView, tr: Tr) -> None:
    st = view.state
    seat = view.view_seat
    me = st.players[seat]
    mine = seat == st.current and not st.over
    color = sprites.owner_color(seat)
    head = tr(*tx.STOCK)  # (a Japanese line, 12 rows, starts higher: clear of the edge)
    text.draw(surf, head, (layout.STOCK_X, 1 if text.is_tall(head) else 3), color,
              shadow=pal.OUTLINE, valign="top")
    arriving = {a.data["slot"]: a for a in view.anims if a.kind == "arrive"}
    for i, card in enumerate(me.stock):
        rect = layout.stock_rect(i)
        pygame.draw.rect(surf, pal.PANEL_LO, rect, border_radius=2)
        placed = mine and st.selected == i and st.provisional is not None
        if placed or (i == view.drag and view.drag_pos is not None):
            pygame.draw.rect(surf, pal.TEXT_DIM, rect, 1, border_radius=2)
            continue
        if i in arriving:
            anim = arriving[i]
            if anim is not view.anims[0]:
                continue
            offset = int((1 - anim.progress) * 70)
            blit_card(surf, card, (rect.x + offset, rect.y))
            continue
        lift = 2 if mine and st.selected == i else 0
        blit_card(surf, card, (rect.x, rect.y - lift), dim=not mine and not view.is_replay)
        if lift:
            pygame.draw.rect(surf, pal.ACCENT, rect.move(0, -lift).inflate(2, 2), 2,
                             border_radius=3)
        if view.item_target == "stock":
            pygame.draw.rect(surf, pal.TEAL, rect.inflate(2, 2), 1, border_radius=3)
    text.draw(surf, tr(*tx.ITEMS), (layout.STOCK_X, layout.ITEM_Y - 10), pal.TEXT_DIM)
    for slot in range(3):
        rect = layout.item_rect(slot)
        if slot < len(me.items):
            surf.blit(sprites.item_icon(me.items[slot]), rect.topleft)
            if view.item_armed == slot:
                pygame.draw.rect(surf, pal.ACCENT, rect.inflate(2, 2), 2, border_radius=4)
        else:
            pygame.draw.rect(surf, pal.PANEL_LO, rect, 1, border_radius=4)
    if view.is_replay:
        labels = {"first": "|<", "last": ">|", "back": "<", "forward": ">"}
        for name, rect in layout.REPLAY_RECTS.items():
            widgets.button(surf, rect, labels[name])
        widgets.button(surf, layout.REPLAY_HELP_RECT, "?")
        return
    if view.item_target == "delta":
        widgets.button(surf, layout.PLUS_RECT, "+1", face=pal.OK)
        widgets.button(surf, layout.MINUS_RECT, "-1", face=pal.DANGER)
    local = view.local_to_move and not view.anims
    can_fix = local and st.provisional is not None
    if local and view.can_pass:
        widgets.button(surf, layout.DETERMINE_RECT, tr(*tx.PASS), face=pal.ACCENT_LO)
    else:
        widgets.button(surf, layout.DETERMINE_RECT, tr(*tx.DETERMINE), face=(64, 150, 88),
                       disabled=not can_fix)
    can_back = local and (st.selected is not None or view.item_armed is not None)
    widgets.button(surf, layout.BACK_RECT, tr(*tx.BACK), disabled=not can_back)
    widgets.button(surf, layout.HELP_RECT, "?")


def _draw_result(surf: pygame.Surface, view: BottomView, tr: Tr) -> None:
    widgets.dim(surf, 120)
    box = pygame.Rect(40, 56, 176, 100)
    widgets.panel(surf, box)
    result = view.result
    names = view.names
    if result is None or result.winner is None:
        title = tr(*tx.DRAW)
        color = pal.TEXT
    else:
        title = tx.win_line(tr, names[result.winner])
        color = sprites.owner_color(result.winner)
    text.draw(surf, title, (box.centerx, box.y + 10), color, align="center", shadow=pal.OUTLINE)
    for i, score in enumerate(result.scores if result else ()):
        text.draw(surf, f"{names[i]}  {score}", (box.centerx, box.y + 30 + 12 * i),
                  sprites.owner_color(i), align="center")
    if view.mode != "link":
        widgets.button(surf, layout.PLAY_AGAIN_RECT, tr(*tx.PLAY_AGAIN), face=pal.ACCENT_LO)
