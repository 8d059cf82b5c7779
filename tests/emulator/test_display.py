"""The window display: what is drawn under each window pixel is the panel pixel the mouse maps
to (so the stylus lands exactly on what the player sees), for every layout, scale and swap."""

from __future__ import annotations

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator.display import WindowDisplay
from emulator.layout import LAYOUTS, Layout
from hal.interfaces import SCREEN_H, SCREEN_SIZE, SCREEN_W

pygame.init()


def coded(blue: int) -> pygame.Surface:
    """A panel image whose every pixel names its own coordinates: (x, y, blue)."""
    surf = pygame.Surface(SCREEN_SIZE)
    pixels = pygame.PixelArray(surf)
    for y in range(SCREEN_H):
        for x in range(SCREEN_W):
            pixels[x, y] = (x, y, blue)
    del pixels
    return surf


UPPER = coded(200)
LOWER = coded(77)


@pytest.fixture
def display() -> WindowDisplay:
    pygame.display.init()
    return WindowDisplay(Layout("vertical", 1, 0))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.sampled_from(LAYOUTS),
    scale=st.integers(1, 3),
    gap=st.integers(0, 9),
    swap=st.booleans(),
    focus=st.sampled_from(["top", "bottom"]),
    points=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), min_size=20),
)
def test_window_shows_the_mapped_lower_pixel(
    display: WindowDisplay,
    kind: str,
    scale: int,
    gap: int,
    swap: bool,
    focus: str,
    points: list[tuple[int, int]],
) -> None:
    display.set_layout(Layout(kind, scale, gap, swap=swap, focus=focus))  # type: ignore[arg-type]
    display.present(UPPER, LOWER)
    geo = display.geometry
    window = display.window_pixels()
    assert window.get_size() == geo.size
    w, h = geo.size
    for px, py in points:
        wx, wy = px % w, py % h
        color = window.get_at((wx, wy))
        mapped = geo.to_lower(wx, wy)
        if mapped is not None:
            assert (color.r, color.g, color.b) == (*mapped, 77)
        else:
            assert color.b != 77  # off the lower panel nothing shows the lower image
    if geo.lower is not None:
        for x, y in ((0, 0), (255, 191), (128, 96)):
            bx, by, bw, bh = geo.lower_block(x, y)
            for cx, cy in ((bx, by), (bx + bw - 1, by + bh - 1)):
                c = window.get_at((cx, cy))
                assert (c.r, c.g, c.b) == (x, y, 77)


def test_screenshot_is_native_upper_above_lower(display: WindowDisplay) -> None:
    display.set_layout(Layout("horizontal", 3, 4))
    display.present(UPPER, LOWER)
    shot = display.screenshot()
    assert shot.get_size() == (SCREEN_W, 2 * SCREEN_H)
    assert tuple(shot.get_at((10, 20)))[:3] == (10, 20, 200)
    assert tuple(shot.get_at((10, SCREEN_H + 20)))[:3] == (10, 20, 77)


def test_flash_whitens_the_window_then_fades(display: WindowDisplay) -> None:
    display.set_layout(Layout("vertical", 1, 0))
    black = pygame.Surface(SCREEN_SIZE)
    display.present(black, black)
    assert tuple(display.window_pixels().get_at((50, 50)))[:3] == (0, 0, 0)
    display.flash()
    display.redraw()
    first = display.window_pixels().get_at((50, 50)).r
    assert first > 200
    for _ in range(20):
        display.redraw()
    assert tuple(display.window_pixels().get_at((50, 50)))[:3] == (0, 0, 0)


def test_blank_and_title(display: WindowDisplay) -> None:
    display.set_layout(Layout("vertical", 1, 0))
    display.present(UPPER, LOWER)
    display.blank()
    assert display.blanked
    assert tuple(display.window_pixels().get_at((10, 10)))[:3] == (0, 0, 0)
    display.set_title("Twinfold - Reversi")
    assert display.screens[0].window.title == "Twinfold - Reversi"


def test_leaving_fullscreen_gives_back_the_size_the_window_had(display: WindowDisplay) -> None:
    """Issue 34, item 8: not the layout's natural size."""
    window = display.screens[0].window
    window.size = (600, 800)
    display.relayout()
    display.set_fullscreen(True)
    assert display.fullscreen
    display.set_fullscreen(False)
    assert tuple(window.size) == (600, 800)
    assert display.screens[0].placement.size == (600, 800)  # laid out for that size again
