"""The lower screen: the board with what the player may do, the side panel, overlays."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.arimaa.rules.board import TRAP_SQUARES
from games.arimaa.rules.position import Position
from games.arimaa.rules.steps import Boards
from games.arimaa.scene import layout, sprites
from games.arimaa.scene import texts as tx
from games.arimaa.scene.animation import FADE_TICKS, Fade

BACKDROP = (40, 34, 30)


@dataclass(frozen=True)
class BottomView:
    """Everything the board shows in one frame."""

    boards: Boards
    bottom_side: int
    selected: int | None = None
    targets: frozenset[int] = frozenset()
    capture_targets: frozenset[int] = frozenset()
    movable: frozenset[int] = frozenset()
    frozen: frozenset[int] = frozenset()
    push_into: int = -1
    last: frozenset[int] = frozenset()
    hidden: frozenset[int] = frozenset()  # squares whose piece is drawn elsewhere (sliding)
    slide: tuple[int, int, int, int, float] | None = None  # side, kind, from, to, progress
    fades: tuple[Fade, ...] = field(default_factory=tuple)


def draw_board(surf: pygame.Surface, view: BottomView) -> None:
    surf.fill(BACKDROP)
    pygame.draw.rect(surf, (90, 70, 50), layout.BOARD_RECT.inflate(4, 4), border_radius=2)
    pos = Position(view.boards)
    for sq in range(64):
        rect = layout.square_rect(sq, view.bottom_side)
        surf.blit(sprites.square(sq in TRAP_SQUARES, layout.SQ), rect)
        if sq in view.last:
            pygame.draw.rect(surf, sprites.LAST, rect.inflate(-2, -2), 1)
    for sq in range(64):
        piece = pos.piece_at(sq)
        rect = layout.square_rect(sq, view.bottom_side)
        if piece is not None and sq not in view.hidden:
            surf.blit(sprites.piece(piece[0], piece[1], 20), rect.move(1, 1))
            if sq in view.frozen:
                sprites.frozen_mark(surf, rect)
            elif sq in view.movable and sq != view.selected:
                pygame.draw.circle(surf, sprites.TARGET, rect.center, 10, 1)
        if sq == view.selected:
            sprites.frame(surf, rect, sprites.SELECT)
        if sq == view.push_into:
            sprites.frame(surf, rect.inflate(-4, -4), sprites.PUSH)
        if sq in view.targets:
            sprites.target_mark(surf, rect, sq in view.capture_targets)
    for fade in view.fades:
        rect = layout.square_rect(fade.square, view.bottom_side)
        size = max(2, 20 * (FADE_TICKS - fade.tick) // FADE_TICKS)
        img = pygame.transform.scale(sprites.piece(fade.side, fade.kind, 20), (size, size))
        surf.blit(img, img.get_rect(center=rect.center))
    if view.slide is not None:
        side, kind, frm, to, t = view.slide
        a = layout.square_rect(frm, view.bottom_side)
        b = layout.square_rect(to, view.bottom_side)
        x = round(a.x + (b.x - a.x) * t)
        y = round(a.y + (b.y - a.y) * t)
        surf.blit(sprites.piece(side, kind, 20), (x + 1, y + 1))


def draw_message(surf: pygame.Surface, message: str, warn: bool = False) -> None:
    rect = pygame.Rect(0, layout.MESSAGE_Y - 1, 256, 192 - layout.MESSAGE_Y + 1)
    pygame.draw.rect(surf, (24, 20, 18), rect)
    if message:
        color = pal.ACCENT if warn else pal.TEXT
        text.draw(surf, message, (4, layout.MESSAGE_Y), color)


def draw_play_panel(
    surf: pygame.Surface,
    tr: tx.Tr,
    steps_left: int,
    can_undo: bool,
    can_done: bool,
    mover: int | None,
    resign_armed: bool,
) -> None:
    widgets.button(surf, layout.UNDO_RECT, tr(*tx.UNDO), disabled=not can_undo)
    widgets.button(surf, layout.DONE_RECT, tr(*tx.DONE), face=pal.OK if can_done else pal.BUTTON,
                   fg=pal.TEXT_DARK if can_done else pal.TEXT, disabled=mover is None)
    box = layout.STEPS_RECT
    widgets.panel(surf, box)
    if mover is not None:
        steps = tr(*tx.STEPS)  # (a Japanese line, 12 rows, starts higher: inside the box)
        text.draw(surf, steps, (box.centerx, box.y + (2 if text.is_tall(steps) else 4)),
                  pal.TEXT_DIM, align="center", valign="top")
        for i in range(4):
            dot = pygame.Rect(box.x + 7 + i * 14, box.y + 18, 10, 10)
            used = i >= steps_left
            face = sprites.FACES[mover][0] if not used else (70, 70, 80)
            pygame.draw.rect(surf, face, dot, border_radius=2)
        text.draw(surf, f"{steps_left} {tr(*tx.LEFT)}", (box.centerx, box.y + 31), pal.TEXT,
                  align="center")
    face = pal.DANGER if resign_armed else pal.BUTTON_LO
    label = tr(*tx.SURE) if resign_armed else tr(*tx.RESIGN)
    lines = text.wrap(label, layout.RESIGN_RECT.w - 4)
    widgets.button(surf, layout.RESIGN_RECT, lines, face=face, disabled=mover is None)
    widgets.button(surf, layout.HELP_RECT, tr(*tx.HELP), face=pal.BUTTON_LO)


def draw_setup_panel(
    surf: pygame.Surface, tr: tx.Tr, has_last: bool, active: bool = True
) -> None:
    """The setups to choose from and OK; greyed while the other side sets up (a computer,
    or the partner's unit in a versus match): they do nothing then."""
    for name, rect in layout.SETUP_RECTS.items():
        if name == "random":
            label = tr(*tx.RANDOM)
        elif name == "last":
            label = tr(*tx.LAST)
        else:
            label = tr(*tx.SETUP_NAMES.get(name, (name, name)))
        widgets.button(surf, rect, label, face=pal.BUTTON_LO,
                       disabled=not active or (name == "last" and not has_last))
    widgets.button(surf, layout.OK_RECT, tr(*tx.OK), face=pal.OK, fg=pal.TEXT_DARK,
                   disabled=not active)


def draw_result(
    surf: pygame.Surface, tr: tx.Tr, headline: str, reason: str, again: bool = True
) -> None:
    widgets.dim(surf, 120)
    widgets.panel(surf, layout.RESULT_PANEL, pal.PANEL)
    r = layout.RESULT_PANEL
    text.draw(surf, headline, (r.centerx, r.y + 10), pal.ACCENT, scale=2, align="center",
              shadow=pal.OUTLINE)
    y = r.y + 36
    for line in text.wrap(reason, r.w - 16):
        text.draw(surf, line, (r.centerx, y), pal.TEXT, align="center")
        y += text.LINE_H + 1
    if again:
        widgets.button(surf, layout.PLAY_AGAIN_RECT, tr(*tx.PLAY_AGAIN), face=pal.OK,
                       fg=pal.TEXT_DARK)
    widgets.button(surf, layout.BACK_RECT, tr(*tx.BACK))


def draw_replay_panel(surf: pygame.Surface, at_start: bool, at_end: bool) -> None:
    labels = {"first": "|<", "back": "<", "forward": ">", "last": ">|"}
    for name, rect in layout.REPLAY_RECTS.items():
        off = at_start if name in ("first", "back") else at_end
        widgets.button(surf, rect, labels[name], disabled=off)
