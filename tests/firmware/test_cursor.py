"""P-FW-4: the D-pad cursor moves between hotspots and A taps the one under it."""

import pygame

from firmware.cursor import HotspotCursor, nearest_in_direction
from firmware.input import InputState
from hal.interfaces import Button

GRID = {f"sq:{c}{r}": pygame.Rect(c * 20, r * 20, 18, 18) for c in range(3) for r in range(3)}


def press(button, held=None):
    held = frozenset(held if held is not None else {button})
    return InputState(held=held, pressed=frozenset({button}), repeated=frozenset({button}))


def test_nearest_in_each_direction():
    assert nearest_in_direction(GRID, "sq:11", (1, 0)) == "sq:21"
    assert nearest_in_direction(GRID, "sq:11", (-1, 0)) == "sq:01"
    assert nearest_in_direction(GRID, "sq:11", (0, -1)) == "sq:10"
    assert nearest_in_direction(GRID, "sq:11", (0, 1)) == "sq:12"
    assert nearest_in_direction(GRID, "sq:21", (1, 0)) is None


def test_first_press_shows_cursor_then_moves_and_a_taps_centre():
    cur = HotspotCursor()
    out = cur.filter(press(Button.RIGHT), GRID)
    assert cur.visible and cur.current == "sq:00"
    assert Button.RIGHT not in out.pressed  # consumed
    cur.filter(press(Button.RIGHT), GRID)
    cur.filter(press(Button.DOWN), GRID)
    assert cur.current == "sq:11"
    down = cur.filter(press(Button.A), GRID)
    assert down.touch_down and (down.touch.x, down.touch.y) == GRID["sq:11"].center
    assert Button.A not in down.pressed
    held = cur.filter(InputState(held=frozenset({Button.A})), GRID)
    assert held.touch is not None and not held.touch_down
    up = cur.filter(InputState(released=frozenset({Button.A})), GRID)
    assert up.touch is None and up.touch_up


def test_a_without_cursor_passes_through():
    cur = HotspotCursor()
    out = cur.filter(press(Button.A), GRID)
    assert Button.A in out.pressed and out.touch is None
