"""Drawing the Panel Link scene: the field, stock, items and buttons on the lower screen,
scores, turn, announcements and the game's yaku on the upper one (R-PAN-VIEW)."""

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
class PanelsView:
    """What both screens show this frame, built by the scene from its state (the drawing
    reads nothing else; `state` is the rules state, read only)."""

    state: GameState
    anims: tuple[Anim, ...]  # pending animations, the playing one first
    clock: int  # ticks of this game (blinking, dots)
    view_seat: int  # whose stock the lower screen shows
    mode: str  # "cpu", "two" or "link"
    is_replay: bool
    local_to_move: bool
    thinking: bool
    names: list[str]
    result: MatchResult | None  # once the game is over
    shown_scores: list[int]
    yaku_log: list[list[Any]]
    item_armed: int | None
    item_target: str | None
    drag: int | None
    drag_pos: tuple[int, int] | None
    permitted: set[tuple[int, int]] | None  # where the selected card may go (while idle)
    can_pass: bool  # the person to move may only pass (no stock card fits anywhere)
    record_error: str | None
    replay_turn: tuple[int, int]  # (turn shown, turns) of a replay


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


def _pending(sc: PanelsView, kind: str) -> list[Anim]:
    return [a for a in sc.anims if a.kind == kind]


def draw_bottom(surf: pygame.Surface, sc: PanelsView, tr: Tr) -> None:
    widgets.background(surf, (20, 28, 26), (26, 36, 33))
    st = sc.state
    fld = st.field
    tick = sc.clock
    active = sc.anims[0] if sc.anims else None
    hidden = {tuple(a.data["square"]) for a in sc.anims if a.kind in ("glide", "rotate")}
    origin = (layout.FIELD_X - 2, layout.FIELD_Y - 2)
    surf.blit(field_picture(fld.usable, fld.rows, fld.cols), origin)
    permitted = sc.permitted
    # cards that formed yaku and were removed stay visible until their removal plays
    ghosts: dict[tuple[int, int], Card] = {}
    for a in _pending(sc, "remove"):
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
    if last is not None and not sc.anims and prov is None:
        rect = layout.square_rect(*last["square"])
        pygame.draw.rect(surf, pal.WHITE, rect.inflate(1, 1), 1, border_radius=2)
    if active is not None:
        _draw_active(surf, sc, active)
    _draw_column(surf, sc, tr)
    if sc.drag is not None and sc.drag_pos is not None:
        stock = st.players[sc.view_seat].stock
        if sc.drag < len(stock):
            x, y = sc.drag_pos
            blit_card(surf, stock[sc.drag], (x - layout.CELL // 2, y - layout.CELL // 2))
    if st.over and not sc.anims and not sc.is_replay:
        _draw_result(surf, sc, tr)


def _draw_active(surf: pygame.Surface, sc: PanelsView, anim: Anim) -> None:
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


def _draw_column(surf: pygame.Surface, sc: PanelsView, tr: Tr) -> None:
    st = sc.state
    seat = sc.view_seat
    me = st.players[seat]
    mine = seat == st.current and not st.over
    color = sprites.owner_color(seat)
    text.draw(surf, tr(*tx.STOCK), (layout.STOCK_X, 2), color, shadow=pal.OUTLINE)
    arriving = {a.data["slot"]: a for a in sc.anims if a.kind == "arrive"}
    for i, card in enumerate(me.stock):
        rect = layout.stock_rect(i)
        pygame.draw.rect(surf, pal.PANEL_LO, rect, border_radius=2)
        placed = mine and st.selected == i and st.provisional is not None
        if placed or (i == sc.drag and sc.drag_pos is not None):
            pygame.draw.rect(surf, pal.TEXT_DIM, rect, 1, border_radius=2)
            continue
        if i in arriving:
            anim = arriving[i]
            if anim is not sc.anims[0]:
                continue
            offset = int((1 - anim.progress) * 70)
            blit_card(surf, card, (rect.x + offset, rect.y))
            continue
        lift = 2 if mine and st.selected == i else 0
        blit_card(surf, card, (rect.x, rect.y - lift), dim=not mine and not sc.is_replay)
        if lift:
            pygame.draw.rect(surf, pal.ACCENT, rect.move(0, -lift).inflate(2, 2), 2,
                             border_radius=3)
        if sc.item_target == "stock":
            pygame.draw.rect(surf, pal.TEAL, rect.inflate(2, 2), 1, border_radius=3)
    text.draw(surf, tr(*tx.ITEMS), (layout.STOCK_X, layout.ITEM_Y - 10), pal.TEXT_DIM)
    for slot in range(3):
        rect = layout.item_rect(slot)
        if slot < len(me.items):
            surf.blit(sprites.item_icon(me.items[slot]), rect.topleft)
            if sc.item_armed == slot:
                pygame.draw.rect(surf, pal.ACCENT, rect.inflate(2, 2), 2, border_radius=4)
        else:
            pygame.draw.rect(surf, pal.PANEL_LO, rect, 1, border_radius=4)
    if sc.is_replay:
        labels = {"first": "|<", "last": ">|", "back": "<", "forward": ">"}
        for name, rect in layout.REPLAY_RECTS.items():
            widgets.button(surf, rect, labels[name])
        widgets.button(surf, layout.REPLAY_HELP_RECT, "?")
        return
    if sc.item_target == "delta":
        widgets.button(surf, layout.PLUS_RECT, "+1", face=pal.OK)
        widgets.button(surf, layout.MINUS_RECT, "-1", face=pal.DANGER)
    local = sc.local_to_move and not sc.anims
    can_fix = local and st.provisional is not None
    if local and sc.can_pass:
        widgets.button(surf, layout.DETERMINE_RECT, tr(*tx.PASS), face=pal.ACCENT_LO)
    else:
        widgets.button(surf, layout.DETERMINE_RECT, tr(*tx.DETERMINE), face=(64, 150, 88),
                       disabled=not can_fix)
    can_back = local and (st.selected is not None or sc.item_armed is not None)
    widgets.button(surf, layout.BACK_RECT, tr(*tx.BACK), disabled=not can_back)
    widgets.button(surf, layout.HELP_RECT, "?")


def _draw_result(surf: pygame.Surface, sc: PanelsView, tr: Tr) -> None:
    widgets.dim(surf, 120)
    box = pygame.Rect(40, 56, 176, 100)
    widgets.panel(surf, box)
    result = sc.result
    names = sc.names
    if result is None or result.winner is None:
        title = tr(*tx.DRAW)
        color = pal.TEXT
    else:
        title = f"{names[result.winner]} {tr(*tx.WINS)}"
        color = sprites.owner_color(result.winner)
    text.draw(surf, title, (box.centerx, box.y + 10), color, align="center", shadow=pal.OUTLINE)
    for i, score in enumerate(result.scores if result else ()):
        text.draw(surf, f"{names[i]}  {score}", (box.centerx, box.y + 30 + 12 * i),
                  sprites.owner_color(i), align="center")
    if sc.mode != "link":
        widgets.button(surf, layout.PLAY_AGAIN_RECT, tr(*tx.PLAY_AGAIN), face=pal.ACCENT_LO)


# ------------------------------------------------------------------------------ top
def draw_top(surf: pygame.Surface, sc: PanelsView, tr: Tr) -> None:
    widgets.background(surf)
    st = sc.state
    title = "Panel Link"
    if sc.is_replay:
        turn, total = sc.replay_turn
        title = f"{tr(*tx.REPLAY)} {tr(*tx.TURN)} {turn}/{total}"
    widgets.title_bar(surf, title, f"{tr(*tx.TARGET)} {st.config.target}")
    names = sc.names
    # Linked: the firmware draws the partner's name and link quality at y 36-52, top centre,
    # so the rows are compact, one above that band and one below it.
    compact = sc.mode == "link"
    for seat in range(len(st.players)):
        if compact:
            _player_row_compact(surf, sc, seat, names[seat], tr, 17 + seat * 37)
        else:
            _player_row(surf, sc, seat, names[seat], tr, 20 + seat * 28)
    top = 76 if compact else 20 + len(st.players) * 28 + 2
    _draw_message(surf, sc, tr, pygame.Rect(4, top, 248, 40))
    _draw_yaku_list(surf, sc, tr, top + 44)


def _shown_score(sc: PanelsView, seat: int) -> int:
    """The score as shown: counting up while this seat's yaku are announced."""
    score = sc.shown_scores[seat] if seat < len(sc.shown_scores) else sc.state.players[seat].score
    active = sc.anims[0] if sc.anims else None
    if active is not None and active.kind == "yaku" and active.data["seat"] == seat:
        score = active.data["from"] + int(active.data["points"] * active.progress)
    return score


def _player_row(
    surf: pygame.Surface, sc: PanelsView, seat: int, name: str, tr: Tr, y: int
) -> None:
    st = sc.state
    player = st.players[seat]
    row = pygame.Rect(4, y, 248, 26)
    widgets.panel(surf, row, pal.PANEL_HI if seat == st.current and not st.over else pal.PANEL)
    color = sprites.owner_color(seat)
    pygame.draw.rect(surf, color, (10, y + 6, 12, 14), border_radius=2)
    if seat == st.current and not st.over:
        pygame.draw.polygon(surf, pal.ACCENT, [(26, y + 7), (31, y + 12), (26, y + 17)])
    text.draw(surf, name, (34, y + 2), pal.TEXT)
    text.draw(surf, f"{tr(*tx.STOCK)} {len(player.stock)}", (34, y + 14), pal.TEXT_DIM)
    for k, kind in enumerate(player.items):
        surf.blit(pygame.transform.scale(sprites.item_icon(kind), (14, 12)), (96 + 15 * k, y + 13))
    score = _shown_score(sc, seat)
    text.draw(surf, str(score), (246, y + 4), pal.TEXT, scale=2, align="right",
              shadow=pal.OUTLINE)
    bar = pygame.Rect(150, y + 19, 60, 3)
    pygame.draw.rect(surf, pal.PANEL_LO, bar)
    filled = min(bar.w, bar.w * score // max(1, st.config.target))
    pygame.draw.rect(surf, color, (bar.x, bar.y, filled, bar.h))


def _player_row_compact(
    surf: pygame.Surface, sc: PanelsView, seat: int, name: str, tr: Tr, y: int
) -> None:
    st = sc.state
    player = st.players[seat]
    row = pygame.Rect(4, y, 248, 18)
    widgets.panel(surf, row, pal.PANEL_HI if seat == st.current and not st.over else pal.PANEL)
    color = sprites.owner_color(seat)
    pygame.draw.rect(surf, color, (9, y + 3, 10, 12), border_radius=2)
    if seat == st.current and not st.over:
        pygame.draw.polygon(surf, pal.ACCENT, [(22, y + 4), (27, y + 9), (22, y + 14)])
    text.draw(surf, name, (30, y + 4), pal.TEXT)
    text.draw(surf, f"{tr(*tx.STOCK)} {len(player.stock)}", (112, y + 4), pal.TEXT_DIM)
    for k, kind in enumerate(player.items):
        surf.blit(pygame.transform.scale(sprites.item_icon(kind), (14, 12)), (166 + 15 * k, y + 3))
    score = _shown_score(sc, seat)
    text.draw(surf, str(score), (247, y + 4), pal.TEXT, align="right", shadow=pal.OUTLINE)
    filled = min(240, 240 * score // max(1, st.config.target))
    pygame.draw.rect(surf, color, (8, y + 15, filled, 2))


def _draw_message(surf: pygame.Surface, sc: PanelsView, tr: Tr, box: pygame.Rect) -> None:
    widgets.panel(surf, box, pal.PANEL_LO)
    anim = sc.anims[0] if sc.anims else None
    st = sc.state
    names = sc.names
    if anim is not None and anim.kind == "yaku":
        d = anim.data
        parts = [tx.yaku_name(tr, k) for k in d["kinds"]]
        line = " + ".join(parts)
        scale = 2 if text.size(line, 2)[0] <= box.w - 8 else 1
        text.draw(surf, line, (box.centerx, box.y + 4), pal.ACCENT, scale=scale, align="center",
                  shadow=pal.OUTLINE)
        detail = f"{names[d['seat']]}  {len(d['squares'])} x  +{d['points']} {tr(*tx.PTS)}"
        text.draw(surf, detail, (box.centerx, box.y + 26), pal.TEXT, align="center")
        return
    if anim is not None and anim.kind == "note":
        d = anim.data
        who = names[d["seat"]]
        if d["text"] == "passed":
            line = f"{who} {tr(*tx.PASSED)}"
        elif d["text"] == "item":
            line = f"{who}: {tx.item_name(tr, d['item'])}!"
        else:
            line = f"{who}: {tx.item_name(tr, d['item'])}"
        text.draw(surf, line, (box.centerx, box.y + 14), pal.TEAL, align="center")
        return
    lines: list[str] = []
    if sc.record_error is not None:
        lines = [tr(*tx.BAD_RECORD)]
    elif st.over:
        result = sc.result
        if result is None or result.winner is None:
            lines = [tr(*tx.DRAW)]
        else:
            lines = [f"{names[result.winner]} {tr(*tx.WINS)}"]
    elif sc.item_armed is not None and sc.local_to_move:
        kind = st.players[st.current].items[sc.item_armed]
        prompt = {"stock": tx.PICK_STOCK, "card": tx.PICK_CARD, "delta": tx.PICK_DELTA}
        head = tr(*prompt[sc.item_target]) if sc.item_target else tr(*tx.TAP_AGAIN)
        lines = [f"{tx.item_name(tr, kind)}: {head}", *text.wrap(tr(*tx.ITEM_HELP[kind]), 236)]
    elif sc.thinking or (sc.mode == "cpu" and not sc.is_replay and not sc.local_to_move):
        dots = "." * (1 + (sc.clock // 15) % 3)
        lines = [f"{names[st.current]}: {tr(*tx.THINKING)}{dots}"]
    elif sc.mode == "link" and not sc.local_to_move:
        lines = [tr(*tx.WAITING)]
    elif sc.local_to_move:
        lines = [tr(*tx.YOUR_TURN) if sc.mode == "cpu" else
                 f"{names[st.current]}: {tr(*tx.YOUR_TURN)}"]
    y = box.y + 5
    for line in lines[:3]:
        text.draw(surf, line, (box.centerx, y), pal.TEXT, align="center")
        y += 11


def _draw_yaku_list(surf: pygame.Surface, sc: PanelsView, tr: Tr, y: int) -> None:
    text.draw(surf, tr(*tx.YAKU_LIST), (8, y), pal.ACCENT)
    entries = sc.yaku_log[-5:]
    if not entries:
        text.draw(surf, tr(*tx.NO_YAKU), (8, y + 12), pal.TEXT_DIM)
    for k, (seat, kind, cards, points) in enumerate(reversed(entries)):
        yy = y + 12 + 11 * k
        pygame.draw.rect(surf, sprites.owner_color(seat), (8, yy + 1, 6, 7))
        text.draw(surf, f"{tx.yaku_name(tr, kind)} x{cards}", (18, yy), pal.TEXT)
        text.draw(surf, f"+{points}", (248, yy), pal.TEXT, align="right")
