"""Killing Sevens' upper screen: the table with the card just played sliding in (and kills
flashing), the status strip and the players' counts; the members and options dialogs'
explanations. Drawn from a `TopView` the scene builds each frame."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.sevens.ai.personalities import PERSONALITIES
from games.sevens.rules import Game as Table
from games.sevens.rules import board
from games.sevens.scene import layout, sprites
from games.sevens.scene import texts as tx
from games.sevens.scene.animation import Anim
from games.sevens.scene.layout import SLIDE_TICKS

Tr = Callable[[str, str], str]


@dataclass(frozen=True)
class TopView:
    """What the upper screen shows this frame (`table` is the rules state, read only)."""

    phase: str  # "play", "over" or "replay"
    table: Table
    names: list[str]
    anim: Anim | None
    you: int | None  # the one person's seat against the computers (not in a replay)
    human_to_move: bool
    selected: int | None  # the card tapped once
    replay_index: int
    replay_total: int


def turn_of(tr: Tr, names: list[str], seat: int, you: int | None) -> str:
    """ "Cool's turn"; alone against the computers, "Your turn"."""
    if seat == you or names[seat] == tr("You", "あなた"):  # (a replay of a game with one person)
        return tr("Your turn", "あなたの番")
    return names[seat] + tr(*tx.TURN_OF)


def win_line(tr: Tr, names: list[str], seat: int, you: int | None) -> str:
    """ "Cool wins!"; the one person at this unit: "You win!" (not "You wins!")."""
    if seat == you or names[seat] == tr("You", "あなた"):
        return tr("You win!", "あなたの勝ち!")
    return names[seat] + tr(*tx.WINS)


def draw_table_top(surf: pygame.Surface, tr: Tr, view: TopView) -> None:
    widgets.background(surf)
    game = view.table
    assert game is not None
    names = view.names
    anim = view.anim
    # status strip
    if game.over:
        status = win_line(tr, names, game.ranking()[0], view.you)
    elif game.current is not None:
        status = "▶ " + turn_of(tr, names, game.current, view.you)
        if game.events and game.events[-1]["type"] == "extra_turn":
            status += tr(": extra turn!", ": もう一度!")
    else:
        status = ""
    if view.phase == "replay":
        status = f"{tr(*tx.REPLAY)} {view.replay_index}/{view.replay_total}  " + status
    text.draw(surf, status, (5, layout.strip_top(status)), pal.ACCENT, shadow=pal.OUTLINE,
              valign="top")
    o = game.options
    flags = (
        tr(f"max {o.max_kill}", f"最大{o.max_kill}")
        + (" 3W" if o.three_walls else "")
        + (" 7s" if o.sevens_laid_out else "")
        + (" +1" if o.extra_turn else "")
    )
    text.draw(surf, flags, (251, layout.strip_top(flags)), pal.TEXT_DIM, align="right",
              valign="top")
    # the table
    sliding = anim is not None and anim.card is not None and anim.age < SLIDE_TICKS
    flash = anim is not None and anim.killed and not sliding and (anim.age // 4) % 2 == 0
    sprites.felt(surf, layout.TABLE_RECT)
    if flash:
        pygame.draw.rect(surf, sprites.BLOCKED, layout.TABLE_RECT, 2, border_radius=3)
    for card in range(52):
        bit = board.BIT[card]
        state = "killed" if game.killed & bit else "played" if game.played & bit else "empty"
        rect = layout.cell_rect(card)
        if anim is not None and sliding:
            if card == anim.card:
                state = "empty"  # not landed yet
            elif card in anim.killed:
                state = "empty"  # still in a hand until the card lands
        if anim is not None and card in anim.killed and flash:
            pygame.draw.rect(surf, sprites.FLASH, rect, border_radius=2)
            continue
        surf.blit(sprites.table_card(card, state), rect)
    if view.selected is not None and view.human_to_move:
        color = sprites.PLAYABLE if game.is_playable(view.selected) else sprites.BLOCKED
        sprites.frame(surf, layout.cell_rect(view.selected), color)
    draw_info(surf, tr, view, names)
    if anim is not None and anim.card is not None:
        end = layout.cell_rect(anim.card)
        if sliding:
            seat = anim.seat if anim.seat is not None else 0
            start = pygame.Rect(
                layout.INFO_COLS["name"],
                layout.info_row_y(seat) - 9,
                end.w,
                end.h,
            )
            t = (anim.age + 1) / SLIDE_TICKS
            x = round(start.x + (end.x - start.x) * t)
            y = round(start.y + (end.y - start.y) * t)
            surf.blit(sprites.table_card(anim.card, "played"), (x, y))
        else:
            glow = max(1, 3 - (anim.age - SLIDE_TICKS) // 6)
            sprites.frame(surf, end, pal.WHITE, glow)


def draw_info(surf: pygame.Surface, tr: Tr, view: TopView, names: list[str]) -> None:
    game = view.table
    assert game is not None
    y = layout.INFO_Y
    cols = layout.INFO_COLS
    widgets.panel(surf, layout.INFO_RECT)
    for key, label in (
        ("left", tx.HEAD_LEFT),
        ("killed", tx.HEAD_KILLED_SHORT),
        ("kills", tx.HEAD_KILLS),
        ("out", tx.HEAD_OUT_SHORT),
    ):
        text.draw(surf, tr(*label), (cols[key], y), pal.TEXT_DIM, align="center")
    text.draw(surf, tr(*tx.HEAD_NAME), (cols["name"], y), pal.TEXT_DIM)
    for s in range(4):
        ry = layout.info_row_y(s) - 1
        if game.current == s:
            pygame.draw.rect(
                surf, pal.PANEL_HI, (4, ry - 2, 248, layout.INFO_ROW_H - 1), border_radius=2
            )
            text.draw(surf, "▶", (6, ry + 1), pal.ACCENT)
        pygame.draw.rect(surf, sprites.SEAT_COLORS[s], (14, ry + 1, 5, 8))
        text.draw(surf, names[s], (cols["name"], ry + 1), pal.TEXT)
        place = game.finish_order.index(s) + 1 if s in game.finish_order else None
        values = {
            "left": (str(game.cards_left(s)), pal.TEXT),
            "killed": (str(game.killed_count[s]), pal.DANGER if game.killed_count[s] else pal.TEXT),
            "kills": (str(game.kills_count[s]), pal.OK if game.kills_count[s] else pal.TEXT),
            "out": (str(place) if place else "-", pal.ACCENT if place else pal.TEXT_DIM),
        }
        for key, (value, color) in values.items():
            text.draw(surf, value, (cols[key], ry + 1), color, align="center")


def draw_intro_top(surf: pygame.Surface, tr: Tr, phase: str, focus: str) -> None:
    widgets.background(surf)
    title = tr(*tx.TITLE)
    # Japanese is 24 rows at this size (Latin 18): its top 3 rows under the screen's edge
    y = 3 if text.is_tall(title) else 6
    text.draw(surf, title, (128, y), pal.ACCENT, scale=2, align="center", shadow=pal.OUTLINE,
              valign="top")
    if phase == "members":
        for i, key in enumerate(PERSONALITIES):
            y = 30 + i * 31
            surf.blit(sprites.face(key, 0, 28), (8, y))
            kind = tr(*tx.SEAT_KIND[key])
            text.draw(surf, kind, (42, y + 3), pal.TEXT)
            # a row under a Japanese name (12 rows, not 9) starts one lower, clear of it
            text.draw(surf, tr(*tx.SEAT_ABOUT[key]), (42, y + 15 + text.is_tall(kind)),
                      pal.TEXT_DIM)
        return
    # the option last touched, explained in full; then the game in three sentences
    widgets.panel(surf, pygame.Rect(6, 30, 244, 78))
    label = tr(*tx.OPTION_LABEL[focus])
    text.draw(surf, label, (14, 36), pal.ACCENT)
    about = text.wrap(tr(*tx.OPTION_ABOUT[focus]), 226)
    text.draw_block(surf, about[:4], (14, 36 + text.line_pitch([label]) + 2), pal.TEXT)
    lines = text.wrap(tr(*tx.HOW_TO[0]), 236)
    text.draw_block(surf, lines[:5], (10, 116), pal.TEXT_DIM)
