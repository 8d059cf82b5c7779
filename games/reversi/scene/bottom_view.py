"""The lower screen: the board with discs, hints, preview and the flip animation, the
restart / hint buttons (or the replay controls) and the result overlay."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.gfx.text import Color
from games.reversi.scene import layout, sprites
from games.reversi.scene import texts as tx
from games.reversi.scene.animation import FlipAnimation
from games.reversi.scene.texts import Tr

HINT_FACES = {
    "none": sprites.HINT_GREY,
    "placeable": sprites.HINT_BLUE,
    "full": sprites.HINT_ORANGE,
}
OFFSET = (layout.CELL - sprites.DISC) // 2 + 1  # disc sprite offset inside its square


@dataclass
class BottomView:
    """What the board shows this frame (built by the scene from its state)."""

    rows: list[str]  # rows 1..8 of "B" / "W" / "."
    mover: str | None = None  # whose hints and preview are shown
    hints: dict[str, int] = field(default_factory=dict)  # legal square -> flip count
    hint_level: str = "none"
    preview: str | None = None
    preview_flips: frozenset[str] = frozenset()
    anim: FlipAnimation | None = None
    last_move: str | None = None  # marked with a small dot so the last move is easy to see


def _color_at(rows: list[str], square: str) -> str | None:
    ch = rows[int(square[1]) - 1]["abcdefgh".index(square[0])]
    return "black" if ch == "B" else "white" if ch == "W" else None


def draw_board(surf: pygame.Surface, view: BottomView) -> None:
    surf.blit(sprites.board_image(), (0, 0))
    anim = view.anim
    flipping = anim.flip_view() if anim else {}
    opponent = None if view.mover is None else ("white" if view.mover == "black" else "black")
    for square, rect in layout.SQUARE_RECTS.items():
        color = _color_at(view.rows, square)
        inner = (rect.x + 1, rect.y + 1)
        greyed = False
        if view.preview is not None and color == opponent:
            if square in view.preview_flips:
                surf.blit(sprites.square_fill(sprites.LIGHT_PINK), inner)
            else:
                surf.blit(sprites.square_fill(sprites.GREY_OUT), inner)
                greyed = True
        if color is None:
            continue
        x, y = rect.x + OFFSET, rect.y + OFFSET
        width = sprites.DISC
        if anim is not None and square == anim.square:
            width = max(2, round(sprites.DISC * anim.placed_scale()))
            size = width
            img = (
                pygame.transform.scale(sprites.disc(color), (size, size))
                if size < 16
                else sprites.disc(color)
            )
            surf.blit(img, (x + (sprites.DISC - size) // 2, y + (sprites.DISC - size) // 2))
            continue
        if square in flipping:
            new, w = flipping[square]
            shown = color if new else ("white" if color == "black" else "black")
            width = max(2, round(sprites.DISC * w))
            img = sprites.disc(shown, width)
            surf.blit(img, (x + (sprites.DISC - img.get_width()) // 2, y))
            continue
        surf.blit(sprites.shadow(), (x + 1, y + 1))
        surf.blit(sprites.disc(color), (x, y))
        if greyed:
            surf.blit(sprites.grey_veil(), inner)
    if view.last_move is not None and anim is None:
        r = layout.SQUARE_RECTS[view.last_move]
        surf.fill(sprites.LAST_MOVE, (r.centerx, r.centery, 2, 2))
    if view.mover is not None:
        _draw_hints(surf, view)


def _draw_hints(surf: pygame.Surface, view: BottomView) -> None:
    assert view.mover is not None
    for square, count in view.hints.items():
        rect = layout.SQUARE_RECTS[square]
        if square == view.preview:
            continue
        if view.hint_level == "placeable":
            surf.blit(sprites.hint_mark(view.mover), (rect.x + OFFSET, rect.y + OFFSET))
        elif view.hint_level == "full":
            img = sprites.hint_number(count, view.mover)
            surf.blit(img, img.get_rect(center=(rect.centerx + 1, rect.centery + 1)))
    if view.preview is not None:
        rect = layout.SQUARE_RECTS[view.preview]
        surf.blit(sprites.ghost(view.mover), (rect.x + OFFSET, rect.y + OFFSET))
        pygame.draw.rect(surf, sprites.PINK_FRAME, rect.inflate(1, 1).move(0, 0), 2)


def draw_buttons(surf: pygame.Surface, tr: Tr, hint_level: str) -> None:
    """Restart and hint: two-line labels, equal height; the hint face shows the level."""
    widgets.button(surf, layout.RESTART_RECT, tx.restart_label(tr), face=(92, 104, 132))
    widgets.button(
        surf, layout.HINT_RECT, tx.hint_label(tr, hint_level), face=HINT_FACES[hint_level]
    )


def draw_replay_buttons(surf: pygame.Surface, at_start: bool, at_end: bool) -> None:
    """First / back / forward / last, drawn as arrows (the font has ◀ and ▶)."""
    labels = {"first": "|◀", "back": "◀", "forward": "▶", "last": "▶|"}
    for name, rect in layout.REPLAY_RECTS.items():
        off = at_start if name in ("first", "back") else at_end
        widgets.button(surf, rect, labels[name], disabled=off)


def disc_sentence(
    surf: pygame.Surface,
    color: str,
    tail: str,
    center: tuple[int, int],
    fg: Color,
    *,
    scale: int = 1,
    big: bool = False,
) -> pygame.Rect:
    """A disc picture followed by text (the seed's "(disc) to move" style), centred."""
    img = sprites.disc(color) if big else sprites.small_disc(color, 10)
    gap = 2 if tail[:1] == " " else 1  # English has a space after the picture, Japanese none
    tail = tail.lstrip()
    tw, th = text.size(tail, scale)
    total = img.get_width() + gap + 2 + tw
    x = center[0] - total // 2
    cy = center[1]
    surf.blit(img, (x, cy - img.get_height() // 2))
    r = text.draw(
        surf,
        tail,
        (x + img.get_width() + gap + 2, cy - th // 2),
        fg,
        scale=scale,
        shadow=pal.OUTLINE,
    )
    return r.union(pygame.Rect(x, cy - img.get_height() // 2, img.get_width(), img.get_height()))


def draw_result(surf: pygame.Surface, tr: Tr, winner: str, score: dict[str, int]) -> None:
    """The translucent full-screen overlay with the centred result and Play again."""
    widgets.dim(surf, 140)
    panel = layout.RESULT_PANEL
    widgets.panel(surf, panel)
    if winner == "draw":
        text.draw(
            surf,
            tr(*tx.DRAW),
            (panel.centerx, panel.y + 14),
            pal.ACCENT,
            scale=2,
            align="center",
            shadow=pal.OUTLINE,
        )
    else:
        disc_sentence(
            surf, winner, tr(*tx.WINS), (panel.centerx, panel.y + 20), pal.ACCENT, scale=2, big=True
        )
    line = f"{score['black']} - {score['white']}"
    y = panel.y + 40
    w = text.size(line)[0]
    x = panel.centerx - w // 2
    surf.blit(sprites.small_disc("black", 9), (x - 13, y - 1))
    text.draw(surf, line, (x, y), pal.TEXT)
    surf.blit(sprites.small_disc("white", 9), (x + w + 4, y - 1))
    widgets.button(surf, layout.PLAY_AGAIN_RECT, tr(*tx.PLAY_AGAIN), face=pal.ACCENT_LO)


def draw_versus_slot(surf: pygame.Surface, rect: pygame.Rect, label: str) -> None:
    """An inert plate where a button would be in single-unit play (versus), widened about
    its centre for a label longer than the button (full-width "ＳＴＡＲＴ： メニュー")."""
    rect = rect.inflate(max(0, text.size(label)[0] + 12 - rect.w), 0)
    widgets.bevel_rect(surf, rect, pal.PANEL_LO, radius=3, depth=1)
    text.draw(surf, label, (rect.centerx, rect.centery - 4), pal.TEXT_DIM, align="center")
