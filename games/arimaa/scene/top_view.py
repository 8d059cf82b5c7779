"""The upper screen: both players (name, clock, claim-29 score, captured pieces), the steps
of the current turn, the move list in notation and a message line."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.arimaa.scene import sprites

TITLE_RECT = pygame.Rect(0, 0, 256, 15)
PLAYER_RECTS = (pygame.Rect(3, 18, 123, 66), pygame.Rect(130, 18, 123, 66))
STEPS_RECT = pygame.Rect(3, 87, 250, 16)
MOVES_RECT = pygame.Rect(3, 106, 250, 71)
MESSAGE_Y = 180
MESSAGE_W = 248  # the message line's room, centred under the move list
MOVE_ROWS = 6


@dataclass(frozen=True)
class PlayerView:
    name: str
    clock: str  # "Res 4:30  Turn 0:27", or "no clock"
    low_time: bool
    score: int
    captured: tuple[int, ...]  # kinds of this side's pieces lost, strongest first
    to_move: bool
    thinking: str = ""


@dataclass(frozen=True)
class TopView:
    title: str
    right: str
    players: tuple[PlayerView, PlayerView]
    steps_label: str
    steps: str
    moves: tuple[str, ...]  # record lines, newest last
    message: str
    score_label: str


@functools.cache
def _backdrop() -> pygame.Surface:
    surf = pygame.Surface((256, 192))
    widgets.background(surf, (34, 30, 28), (40, 35, 32))
    return surf


def draw_top(surf: pygame.Surface, view: TopView) -> None:
    surf.blit(_backdrop(), (0, 0))
    widgets.title_bar(surf, view.title, view.right)
    for side, (rect, player) in enumerate(zip(PLAYER_RECTS, view.players, strict=True)):
        _player(surf, rect, side, player, view.score_label)
    widgets.panel(surf, STEPS_RECT, (52, 44, 40))
    # one baseline; a Japanese label (12 rows) fills the strip's inner area
    base = STEPS_RECT.y + (12 if text.is_tall(view.steps_label) else 11)
    label = text.draw(surf, view.steps_label, (STEPS_RECT.x + 5, base), pal.ACCENT,
                      valign="baseline")
    text.draw(surf, view.steps, (label.right + 6, base), pal.TEXT, valign="baseline")
    widgets.panel(surf, MOVES_RECT, (30, 27, 26))
    y = MOVES_RECT.y + 4
    for line in view.moves[-MOVE_ROWS:]:
        shown = text.fit(line, MOVES_RECT.w - 10)
        text.draw(surf, shown, (MOVES_RECT.x + 5, y), pal.TEXT)
        y += 11
    if view.message:
        text.draw(surf, view.message, (128, MESSAGE_Y), pal.ACCENT, align="center")


def _player(surf: pygame.Surface, rect: pygame.Rect, side: int, p: PlayerView, score: str
            ) -> None:
    face = (70, 60, 30) if side == 0 else (56, 60, 72)
    widgets.panel(surf, rect, face)
    if p.to_move:
        pygame.draw.rect(surf, pal.ACCENT, rect, 1, border_radius=3)
    surf.blit(sprites.piece(side, 5, 16), (rect.x + 4, rect.y + 4))
    # The tops of the name, the thinking note, the clock, the score and the captured pieces:
    # Japanese lines are 12 rows (Latin 9), so they start higher and stand further apart.
    rows = (2, 14, 27, 40, 52) if text.is_tall(p.clock + score) else (4, 13, 24, 36, 49)
    name = text.fit(p.name, rect.right - 4 - (rect.x + 24))
    name_top = rows[0] if text.is_tall(name) else 4
    text.draw(surf, name, (rect.x + 24, rect.y + name_top), pal.TEXT, valign="top")
    if p.thinking:
        text.draw(surf, p.thinking, (rect.x + 24, rect.y + rows[1]), pal.TEXT_DIM, valign="top")
    color = pal.DANGER if p.low_time else pal.TEXT
    text.draw(surf, p.clock, (rect.x + 5, rect.y + rows[2]), color, valign="top")
    text.draw(surf, f"{score} {p.score}", (rect.x + 5, rect.y + rows[3]), pal.TEXT_DIM,
              valign="top")
    x = rect.x + 4
    y = rect.y + rows[4]
    for i, kind in enumerate(p.captured):
        surf.blit(sprites.piece(side, kind, 12), (x + (i % 9) * 13, y + (i // 9) * 0))
