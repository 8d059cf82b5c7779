"""firmware.gfx.trace: what the drawing helpers report while a check holds a trace open."""

from __future__ import annotations

import pygame
import pytest

from firmware.gfx import palette as pal
from firmware.gfx import text, trace, widgets


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


def test_nothing_is_kept_without_a_trace_and_the_pixels_are_the_same() -> None:
    plain, traced = pygame.Surface((64, 32)), pygame.Surface((64, 32))
    for surface in (plain, traced):
        surface.fill((0, 0, 0))
    widgets.button(plain, pygame.Rect(2, 2, 60, 20), "OK")
    with trace.recording() as seen:
        widgets.button(traced, pygame.Rect(2, 2, 60, 20), "OK")
    assert not trace.active()
    assert pygame.image.tobytes(plain, "RGB") == pygame.image.tobytes(traced, "RGB")
    assert [t.text for t in seen.texts] == ["OK"] and len(seen.boxes) == 1


def test_a_text_belongs_to_the_last_box_under_it_and_its_ink_is_measured() -> None:
    surface = pygame.Surface((256, 64))
    with trace.recording() as seen:
        widgets.panel(surface, pygame.Rect(0, 0, 256, 64))
        widgets.bevel_rect(surface, pygame.Rect(10, 10, 100, 16), pal.PANEL_HI)
        text.draw(surface, "ことば", (16, 12), pal.TEXT, valign="top")  # inside the row
        text.draw(surface, "Name", (150, 12), pal.TEXT)  # beside it, on the panel
    words, name = seen.texts
    row = seen.own_box(words)
    assert row is not None and row.rect == pygame.Rect(10, 10, 100, 16)
    assert row.inner == pygame.Rect(12, 12, 96, 12)  # one pixel of face clear of the frame
    assert row.inner.contains(words.ink) and words.ink.h == 11  # the glyphs' ink, not the cell
    panel = seen.own_box(name)
    assert panel is not None and panel.rect == pygame.Rect(0, 0, 256, 64)


def test_a_japanese_line_rising_into_its_frame_is_seen() -> None:
    """The Latin capitals' top (valign latin) lets a Japanese line rise 3 rows: on a 16-row
    menu row that is the frame (issue 34, item 1)."""
    surface = pygame.Surface((128, 32))
    with trace.recording() as seen:
        widgets.bevel_rect(surface, pygame.Rect(0, 8, 128, 16), pal.PANEL_HI)
        text.draw(surface, "日本語", (6, 11), pal.TEXT)
    (t,) = seen.texts
    box = seen.own_box(t)
    assert box is not None and not box.inner.contains(t.ink)


def test_a_trace_is_not_opened_twice() -> None:
    with trace.recording(), pytest.raises(RuntimeError), trace.recording():
        pass
    assert not trace.active()
