"""The pause overlay leaves nothing overlapping (issue 24, item 5): both screens are blanked
under it, so no move list, speech bubble or board shows through its words."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from firmware.machine import Machine
from firmware.scenes.pause import HINT_PANEL, TOP_PANEL
from firmware.testing import machine_from_movie, run
from hal.interfaces import Button, RawInput


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


def paused(tmp_path: Path, game: str, options: dict[str, str]) -> Machine:
    m = machine_from_movie(tmp_path / game, game=game, seed=7)
    m.start_game(game, options)
    run(m, 150)
    press_start(m)
    assert m.scene.name == "pause"
    m.render()
    return m


def pixels(surface: pygame.Surface, rect: pygame.Rect | None = None) -> bytes:
    part = surface.subsurface(rect) if rect is not None else surface
    return pygame.image.tobytes(part, "RGB")


def test_nothing_of_the_game_shows_under_the_pause_overlay(tmp_path: Path) -> None:
    # the issue's cases: Reversi's move list and board, Killing Sevens' speech bubble
    reversi = paused(tmp_path, "reversi", {"mode": "cpu"})
    sevens = paused(tmp_path, "sevens", {})
    panels = paused(tmp_path, "panels", {})
    # the lower screens are the same pixel for pixel whatever game is paused ...
    assert pixels(reversi.bottom) == pixels(sevens.bottom) == pixels(panels.bottom)
    # ... and so are the upper ones, except the game's name inside the title panel
    name_row = pygame.Rect(TOP_PANEL.x + 2, TOP_PANEL.y + 44, TOP_PANEL.w - 4, 16)
    for y in range(192):
        for x in range(256):
            if not name_row.collidepoint(x, y):
                assert reversi.top.get_at((x, y)) == sevens.top.get_at((x, y)), (x, y)
    # the overlay's words are on solid panels (one face colour around the text)
    face = reversi.top.get_at((TOP_PANEL.x + 6, TOP_PANEL.bottom - 6))
    assert reversi.top.get_at((TOP_PANEL.right - 6, TOP_PANEL.y + 6)) == face
    hint_face = reversi.bottom.get_at((HINT_PANEL.x + 4, HINT_PANEL.bottom - 4))
    assert reversi.bottom.get_at((HINT_PANEL.right - 4, HINT_PANEL.y + 4)) == hint_face


def press_start(m: Machine) -> None:
    start = m.tick
    m.hal.input.script = lambda t, start=start: RawInput(
        held=frozenset({Button.START}) if start <= t < start + 2 else frozenset()
    )
    run(m, 4)
    m.hal.input.script = lambda t: RawInput()


def test_resuming_shows_the_game_exactly_as_it_was(tmp_path: Path) -> None:
    m = machine_from_movie(tmp_path, game="reversi", seed=7, options={"mode": "two"})
    run(m, 60)
    m.render()
    before = m.frame_hash()
    press_start(m)
    assert m.scene.name == "pause" and m.frame_hash() != before
    press_start(m)
    assert m.scene.name == "reversi"
    m.render()
    assert m.frame_hash() == before
