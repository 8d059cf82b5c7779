"""High-DPI windows (issue 26): the panels are placed in the renderer's output pixels and the
mouse, which SDL reports in window points, is mapped through the points-to-pixels ratio.

Xvfb has no high DPI (points and pixels are equal there, as the real-window tests see), so
these check the mapping with window and output sizes that differ: the pure functions, and
the display's own mapping with its renderer's output size made larger than the window.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from emulator.display import Screen, WindowDisplay
from emulator.layout import LAYOUTS, Layout
from emulator.viewport import MODES, pixel_to_point, place, point_to_pixel
from hal.interfaces import SCREEN_H, SCREEN_W

RATIOS = [(1, 1), (5, 4), (3, 2), (2, 1), (3, 1)]  # pixels per point: 100 %, 125 % ... 300 %


def test_a_point_maps_to_the_pixel_under_its_centre() -> None:
    # 2x: point 10 covers pixels 20 and 21; its centre (10.5 points) is in pixel 21
    assert point_to_pixel(10, 7, (100, 100), (200, 200)) == (21, 15)
    # 1.5x: point 3 covers pixels 4.5..6; its centre (5.25) is in pixel 5
    assert point_to_pixel(3, 3, (100, 100), (150, 150)) == (5, 5)
    assert point_to_pixel(10, 7, (100, 100), (100, 100)) == (10, 7)  # no high DPI
    assert point_to_pixel(-3, 500, (100, 100), (200, 200)) == (0, 199)  # clamped


def test_a_2x_window_maps_points_to_the_panel_pixel_shown_there() -> None:
    """A vertical layout, gap 0, in a 512x768-point window with 1024x1536 output pixels:
    the largest integer scale in the output is 4 (1024 = 256 x 4), so each lower-panel pixel
    is 4x4 output pixels = 2x2 points, and the lower panel starts at point y 384."""
    placement = place(Layout("vertical", 1, 0), (1024, 1536))
    assert placement.lower is not None and placement.lower.as_tuple() == (0, 768, 1024, 768)
    points, pixels = (512, 768), (1024, 1536)
    for (x, y), want in [((0, 384), (0, 0)), ((101, 384 + 51), (50, 25)), ((511, 767), (255, 191))]:
        assert placement.to_lower(*point_to_pixel(x, y, points, pixels)) == want
    # treating points as pixels (what a high-DPI-unaware mapping does) is wrong here
    assert placement.to_lower(101, 384 + 51) is None  # upper half of the output: off the panel


@settings(deadline=None, max_examples=60)  # pure and fast; a loaded shared host must not fail it
@given(
    kind=st.sampled_from([k for k in LAYOUTS if k != "single"]),
    gap=st.integers(0, 40),
    mode=st.sampled_from(MODES),
    ratio=st.sampled_from(RATIOS),
    points=st.tuples(st.integers(300, 1200), st.integers(300, 1200)),
    data=st.data(),
)
def test_every_panel_pixel_is_reached_by_the_point_over_it(
    kind: str,
    gap: int,
    mode: str,
    ratio: tuple[int, int],
    points: tuple[int, int],
    data: st.DataObject,
) -> None:
    """Placed in output pixels; a point aimed at a lower pixel's block maps back to that
    pixel; and any point maps to the pixel whose block holds the point's centre."""
    pixels = (points[0] * ratio[0] // ratio[1], points[1] * ratio[0] // ratio[1])
    placement = place(Layout(kind, 1, gap), pixels, mode)  # type: ignore[arg-type]
    assert placement.size == pixels
    # a window smaller than the layout at scale 1 shows it cut off: nothing to aim at there
    assume(
        all(
            r.x >= 0 and r.y >= 0 and r.right <= pixels[0] and r.bottom <= pixels[1]
            for _, r in placement.panels()
        )
    )
    x = data.draw(st.integers(0, SCREEN_W - 1))
    y = data.draw(st.integers(0, SCREEN_H - 1))
    block = placement.lower_block(x, y)
    point = pixel_to_point(block, points, pixels)
    if point is not None:
        assert placement.to_lower(*point_to_pixel(*point, points, pixels)) == (x, y)
    else:  # only a block narrower than a point has no point centre in it
        assert min(block[2] * points[0] / pixels[0], block[3] * points[1] / pixels[1]) < 1
    px = data.draw(st.integers(0, points[0] - 1))
    py = data.draw(st.integers(0, points[1] - 1))
    got = placement.to_lower(*point_to_pixel(px, py, points, pixels))
    cx, cy = (px + 0.5) * pixels[0] / points[0], (py + 0.5) * pixels[1] / points[1]
    if got is not None:
        bx, by, bw, bh = placement.lower_block(*got)
        assert bx <= cx < bx + bw and by <= cy < by + bh


@pytest.fixture
def doubled(monkeypatch: pytest.MonkeyPatch) -> Iterator[WindowDisplay]:
    """The emulator's display whose renderers report twice the window's size, as on a
    2x high-DPI screen (the window is created with allow_high_dpi)."""
    monkeypatch.setattr(
        Screen, "output_size", lambda self: (2 * self.window.size[0], 2 * self.window.size[1])
    )
    pygame.display.init()
    display = WindowDisplay(Layout("vertical", 1, 0))
    yield display
    display.close()


def test_the_display_places_in_pixels_and_maps_points(doubled: WindowDisplay) -> None:
    doubled.relayout()
    points = doubled.lower_screen.window.size
    assert doubled.geometry.size == (2 * points[0], 2 * points[1])
    lower = doubled.geometry.lower
    assert lower is not None and lower.w == 2 * SCREEN_W  # integer scale 2 in a 1x window
    for x, y in [(0, 0), (17, 120), (255, 191), (128, 96)]:
        point = pixel_to_point(doubled.geometry.lower_block(x, y), points, doubled.geometry.size)
        assert point is not None
        assert doubled.to_lower(*point) == (x, y)
    # each lower pixel is exactly one point here: point (x, lower top + y) is pixel (x, y)
    top_in_points = lower.y // 2
    assert doubled.to_lower(37, top_in_points + 163) == (37, 163)
    assert doubled.to_lower(37, top_in_points - 1) is None  # the gap / upper panel
