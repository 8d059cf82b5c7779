"""The upper screen of Panel Link: the players' scores, stocks and items, whose turn, the
announcements and the game's yaku (R-PAN-VIEW). Drawn from a `TopView` the scene builds each
frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.match import MatchResult
from games.panels.rules import GameState
from games.panels.scene import sprites
from games.panels.scene import texts as tx
from games.panels.scene.animation import Anim

Tr = tx.Tr


@dataclass(frozen=True)
class TopView:
    """What the upper screen shows this frame (`state` is the rules state, read only)."""

    state: GameState
    anims: tuple[Anim, ...]  # pending animations, the playing one first
    clock: int  # ticks of this game (the thinking dots)
    mode: str  # "cpu", "two" or "link"
    is_replay: bool
    local_to_move: bool
    thinking: bool
    names: list[str]
    result: MatchResult | None  # once the game is over
    shown_scores: list[int]
    yaku_log: list[list[Any]]  # [seat, kind, cards, points] of the whole game
    item_armed: int | None
    item_target: str | None
    record_error: str | None
    replay_turn: tuple[int, int]  # (turn shown, turns) of a replay


def draw_top(surf: pygame.Surface, view: TopView, tr: Tr) -> None:
    widgets.background(surf)
    st = view.state
    title = tr("Panel Link", "パネルリンク")
    if view.is_replay:
        turn, total = view.replay_turn
        title = f"{tr(*tx.REPLAY)} {tr(*tx.TURN)} {turn}/{total}"
    widgets.title_bar(surf, title, f"{tr(*tx.TARGET)} {st.config.target}")
    names = view.names
    # One row a player (a Japanese line is 12 rows: two lines a player left the message and
    # the yaku list too little room). Linked: the firmware draws the partner's name and link
    # quality at y 36-52, top centre, so one row is above that band and one below it.
    linked = view.mode == "link"
    for seat in range(len(st.players)):
        _player_row(surf, view, seat, names[seat], tr, 17 + seat * 37 if linked else 18 + seat * 20)
    top = 76 if linked else 18 + len(st.players) * 20 + 2
    _draw_message(surf, view, tr, pygame.Rect(4, top, 248, 46))
    _draw_yaku_list(surf, view, tr, top + 50)


def _shown_score(view: TopView, seat: int) -> int:
    """The score as shown: counting up while this seat's yaku are announced."""
    shown = view.shown_scores
    score = shown[seat] if seat < len(shown) else view.state.players[seat].score
    active = view.anims[0] if view.anims else None
    if active is not None and active.kind == "yaku" and active.data["seat"] == seat:
        score = active.data["from"] + int(active.data["points"] * active.progress)
    return score


def _player_row(
    surf: pygame.Surface, view: TopView, seat: int, name: str, tr: Tr, y: int
) -> None:
    st = view.state
    player = st.players[seat]
    row = pygame.Rect(4, y, 248, 18)
    widgets.panel(surf, row, pal.PANEL_HI if seat == st.current and not st.over else pal.PANEL)
    color = sprites.owner_color(seat)
    pygame.draw.rect(surf, color, (9, y + 3, 10, 12), border_radius=2)
    if seat == st.current and not st.over:
        pygame.draw.polygon(surf, pal.ACCENT, [(22, y + 4), (27, y + 9), (22, y + 14)])
    stock = f"{tr(*tx.STOCK)} {len(player.stock)}"
    # One baseline for the row: with Japanese (12 rows) in it, the line fills the row's inner
    # area; a Latin one sits a row higher.
    base = y + (12 if text.is_tall(name + stock) else 11)
    text.draw(surf, name, (30, base), pal.TEXT, valign="baseline")
    text.draw(surf, stock, (112, base), pal.TEXT_DIM, valign="baseline")
    for k, kind in enumerate(player.items):
        surf.blit(pygame.transform.scale(sprites.item_icon(kind), (14, 12)), (166 + 15 * k, y + 3))
    score = _shown_score(view, seat)
    text.draw(surf, str(score), (247, base), pal.TEXT, align="right", shadow=pal.OUTLINE,
              valign="baseline")
    filled = min(240, 240 * score // max(1, st.config.target))
    pygame.draw.rect(surf, color, (8, y + 15, filled, 2))


def _draw_message(surf: pygame.Surface, view: TopView, tr: Tr, box: pygame.Rect) -> None:
    widgets.panel(surf, box, pal.PANEL_LO)
    anim = view.anims[0] if view.anims else None
    st = view.state
    names = view.names
    if anim is not None and anim.kind == "yaku":
        d = anim.data
        parts = [tx.yaku_name(tr, k) for k in d["kinds"]]
        line = " + ".join(parts)
        scale = 2 if text.size(line, 2)[0] <= box.w - 8 else 1
        tall = text.is_tall(line)  # Japanese: 24 rows at scale 2, from the inner area's top
        text.draw(surf, line, (box.centerx, box.y + (2 if tall else 4)), pal.ACCENT,
                  scale=scale, align="center", shadow=pal.OUTLINE, valign="top")
        detail = f"{names[d['seat']]}  {len(d['squares'])} x  +{d['points']} {tr(*tx.PTS)}"
        text.draw(surf, detail, (box.centerx, box.y + (28 if tall else 26)), pal.TEXT,
                  align="center", valign="top")
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
    if view.record_error is not None:
        lines = [tr(*tx.BAD_RECORD)]
    elif st.over:
        result = view.result
        if result is None or result.winner is None:
            lines = [tr(*tx.DRAW)]
        else:
            lines = [tx.win_line(tr, names[result.winner])]
    elif view.item_armed is not None and view.local_to_move:
        kind = st.players[st.current].items[view.item_armed]
        prompt = {"stock": tx.PICK_STOCK, "card": tx.PICK_CARD, "delta": tx.PICK_DELTA}
        head = tr(*prompt[view.item_target]) if view.item_target else tr(*tx.TAP_AGAIN)
        lines = [f"{tx.item_name(tr, kind)}: {head}", *text.wrap(tr(*tx.ITEM_HELP[kind]), 236)]
    elif view.thinking or (view.mode == "cpu" and not view.is_replay and not view.local_to_move):
        dots = "." * (1 + (view.clock // 15) % 3)
        lines = [f"{names[st.current]}: {tr(*tx.THINKING)}{dots}"]
    elif view.mode == "link" and not view.local_to_move:
        lines = [tr(*tx.WAITING)]
    elif view.local_to_move:
        lines = [tr(*tx.YOUR_TURN) if view.mode == "cpu" else
                 f"{names[st.current]}: {tr(*tx.YOUR_TURN)}"]
    tall = any(map(text.is_tall, lines))
    y = box.y + (3 if tall else 5)  # three Japanese lines (14 apart) fill the inner area
    for line in lines[:3]:
        text.draw(surf, line, (box.centerx, y), pal.TEXT, align="center", valign="top")
        y += 14 if tall else 11


def _draw_yaku_list(surf: pygame.Surface, view: TopView, tr: Tr, y: int) -> None:
    head = tr(*tx.YAKU_LIST)
    text.draw(surf, head, (8, y), pal.ACCENT)
    tall = text.is_tall(head)  # Japanese lines (12 rows) two rows further apart
    first, pitch = y + (13 if tall else 12), 13 if tall else 11
    shown = min(5, (192 - 2 - first) // pitch)  # the rows that stay on the screen
    entries = view.yaku_log[-shown:]
    if not entries:
        text.draw(surf, tr(*tx.NO_YAKU), (8, first), pal.TEXT_DIM)
    for k, (seat, kind, cards, points) in enumerate(reversed(entries)):
        yy = first + pitch * k
        pygame.draw.rect(surf, sprites.owner_color(seat), (8, yy + 1, 6, 7))
        text.draw(surf, f"{tx.yaku_name(tr, kind)} x{cards}", (18, yy), pal.TEXT)
        text.draw(surf, f"+{points}", (248, yy), pal.TEXT, align="right")
