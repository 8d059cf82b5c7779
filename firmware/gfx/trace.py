"""Where texts and boxes land on a screen, for the checks that ask what a person sees.

The drawing helpers report what they put on a surface: `text.draw` each line (its ink, the
pixels that are not clear), `widgets.panel`, `widgets.bevel_rect` (so every button and
menu row) each box with the area its content may use. A game that frames a box of its own
with `pygame.draw` says so with `box`. Nothing is kept unless a check holds a `Trace` open
(`recording()`): drawing pays one `is None` test per call, and the pictures are the same.

A text's own box is the box it lies on: the last box drawn on its surface before it that
its ink reaches (a label over a row that sits on a panel belongs to the row). The text fits
when its ink lies inside that box's inner area (`Trace.own_box`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pygame


@dataclass(frozen=True)
class Box:
    """A framed box: all of it (what it covers) and its inner area, one pixel of face
    clear of its frame on every side, where its texts belong."""

    surface: pygame.Surface
    rect: pygame.Rect
    inner: pygame.Rect
    seq: int


@dataclass(frozen=True)
class Text:
    """One line of text as drawn: its ink's bounding rect, the row under its baseline."""

    surface: pygame.Surface
    text: str
    ink: pygame.Rect
    base: int
    scale: int
    seq: int


@dataclass
class Trace:
    """Every text and box drawn while it is open, in drawing order (`seq`)."""

    texts: list[Text] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)

    def _seq(self) -> int:
        return len(self.texts) + len(self.boxes)

    def own_box(self, t: Text) -> Box | None:
        """The box `t` was drawn on: the last one before it, on its surface, that its ink
        reaches; None when it lies on the bare screen."""
        for b in reversed(self.boxes):
            if b.seq < t.seq and b.surface is t.surface and b.rect.colliderect(t.ink):
                return b
        return None


_active: Trace | None = None


def inner_of(rect: pygame.Rect, frame: int = 1) -> pygame.Rect:
    """The inner area of a box whose frame is `frame` pixels wide: one more pixel of face
    kept clear, so nothing in it touches the frame."""
    return pygame.Rect(rect).inflate(-2 * (frame + 1), -2 * (frame + 1))


def box(surface: pygame.Surface, rect: pygame.Rect, inner: pygame.Rect | None = None) -> None:
    """Note a framed box (a 1-pixel frame unless `inner` says where its content goes)."""
    if _active is not None:
        rect = pygame.Rect(rect)
        inner = inner_of(rect) if inner is None else pygame.Rect(inner)
        _active.boxes.append(Box(surface, rect, inner, _active._seq()))


def drew_text(
    surface: pygame.Surface, s: str, ink: pygame.Rect, base: int, scale: int
) -> None:
    """Note one line of text (called by `text.draw` while a trace is open)."""
    if _active is not None:
        _active.texts.append(Text(surface, s, pygame.Rect(ink), base, scale, _active._seq()))


def active() -> bool:
    """True while a trace is open (`text.draw` then measures each line's ink)."""
    return _active is not None


@contextmanager
def recording() -> Iterator[Trace]:
    """Keep every text and box drawn while the block runs (not re-entrant)."""
    global _active
    if _active is not None:
        raise RuntimeError("a trace is already open")
    _active = Trace()
    try:
        yield _active
    finally:
        _active = None
