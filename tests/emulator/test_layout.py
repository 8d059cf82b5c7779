"""Layout geometry: every window pixel over the lower panel maps to exactly one panel pixel."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.layout import LAYOUTS, MAX_SCALE, Layout, LayoutError, fit_scale
from hal.interfaces import SCREEN_H, SCREEN_W

layouts = st.builds(
    Layout,
    kind=st.sampled_from(LAYOUTS),
    scale=st.integers(1, MAX_SCALE),
    gap=st.integers(0, 64),
    swap=st.booleans(),
    focus=st.sampled_from(["top", "bottom"]),
)


def _shows_lower(layout: Layout) -> bool:
    if layout.kind != "single":
        return True
    # single shows one screen: the lower panel is it when the focused logical screen is the
    # one the lower panel shows (bottom without swap, top with swap).
    return (layout.focus == "bottom") != layout.swap


@settings(deadline=None)  # pure and fast; a loaded shared host must not fail it
@given(layouts, st.data())
def test_window_pixel_maps_into_its_block(layout: Layout, data: st.DataObject) -> None:
    geo = layout.geometry()
    w, h = geo.size
    wx = data.draw(st.integers(0, w - 1))
    wy = data.draw(st.integers(0, h - 1))
    got = geo.to_lower(wx, wy)
    if got is None:
        assert geo.lower is None or not (
            geo.lower.x <= wx < geo.lower.x + geo.lower.w
            and geo.lower.y <= wy < geo.lower.y + geo.lower.h
        )
        return
    x, y = got
    assert 0 <= x < SCREEN_W and 0 <= y < SCREEN_H
    bx, by, bw, bh = geo.lower_block(x, y)
    assert bx <= wx < bx + bw and by <= wy < by + bh


@settings(deadline=None)  # pure and fast; a loaded shared host must not fail it
@given(layouts, st.integers(0, SCREEN_W - 1), st.integers(0, SCREEN_H - 1))
def test_every_pixel_of_a_block_maps_back(layout: Layout, x: int, y: int) -> None:
    geo = layout.geometry()
    if not _shows_lower(layout):
        assert geo.lower is None
        with pytest.raises(ValueError):
            geo.to_window(x, y)
        return
    bx, by, bw, bh = geo.lower_block(x, y)
    assert bw == bh == geo.lower.scale
    for wx in (bx, bx + bw - 1):
        for wy in (by, by + bh - 1):
            assert geo.to_lower(wx, wy) == (x, y)
    assert geo.to_lower(*geo.to_window(x, y)) == (x, y)
    # the pixels just outside the block belong to the neighbours (or to nothing)
    left = geo.to_lower(bx - 1, by)
    assert left == ((x - 1, y) if x > 0 else None)
    below = geo.to_lower(bx, by + bh)
    assert below == ((x, y + 1) if y < SCREEN_H - 1 else None)


@settings(deadline=None)  # pure and fast; a loaded shared host must not fail it
@given(layouts)
def test_panels_inside_window_and_disjoint(layout: Layout) -> None:
    geo = layout.geometry()
    w, h = geo.size
    rects = [r for _, r in geo.panels()]
    assert len(rects) == (1 if layout.kind == "single" else 2)
    for r in rects:
        assert r.x >= 0 and r.y >= 0 and r.right <= w and r.bottom <= h
    if len(rects) == 2:
        a, b = rects
        overlap_x = a.x < b.right and b.x < a.right
        overlap_y = a.y < b.bottom and b.y < a.bottom
        assert not (overlap_x and overlap_y)
        # the gap is exactly the distance between the panels along the layout's axis
        if layout.kind == "vertical":
            assert b.y - a.bottom == layout.gap
        else:
            assert min(abs(b.x - a.right), abs(a.x - b.right)) == layout.gap


@pytest.mark.parametrize("scale", [1, 2, 3, 4])
@pytest.mark.parametrize("gap", [0, 7])
def test_vertical_and_horizontal_positions(scale: int, gap: int) -> None:
    v = Layout("vertical", scale, gap).geometry()
    assert v.size == (SCREEN_W * scale, 2 * SCREEN_H * scale + gap)
    assert v.to_lower(0, SCREEN_H * scale + gap) == (0, 0)
    assert v.to_lower(0, SCREEN_H * scale + gap - 1) is None  # the last gap row (or upper)
    assert v.to_lower(SCREEN_W * scale - 1, 2 * SCREEN_H * scale + gap - 1) == (255, 191)
    hz = Layout("horizontal", scale, gap).geometry()
    assert hz.size == (2 * SCREEN_W * scale + gap, SCREEN_H * scale)
    assert hz.to_lower(SCREEN_W * scale + gap, 0) == (0, 0)
    assert hz.to_lower(SCREEN_W * scale + gap - 1, 0) is None


@pytest.mark.parametrize("swap", [False, True])
def test_swap_never_moves_the_touch_panel_in_fixed_layouts(swap: bool) -> None:
    for kind in ("vertical", "horizontal"):
        plain = Layout(kind, 2, 4).geometry()
        assert Layout(kind, 2, 4, swap=swap).geometry() == plain


def test_hybrid_enlarges_the_focused_screen_and_follows_swap() -> None:
    geo = Layout("hybrid", 4, 0, focus="bottom").geometry()
    assert geo.lower.scale == 4 and geo.upper.scale == 2
    assert geo.lower.x == 0 and geo.upper.x == SCREEN_W * 4
    geo = Layout("hybrid", 4, 0, focus="top").geometry()
    assert geo.upper.scale == 4 and geo.lower.scale == 2
    assert geo.lower.bottom == geo.size[1]  # the small lower panel sits at the bottom
    # with swap the game's top screen is on the lower panel: focusing it enlarges that panel
    geo = Layout("hybrid", 4, 0, focus="top", swap=True).geometry()
    assert geo.lower.scale == 4
    assert geo.to_lower(4 * 10 + 3, 4 * 20) == (10, 20)


def test_single_shows_one_screen_and_a_key_switches_it() -> None:
    lower = Layout("single", 3, 5).geometry()
    assert lower.upper is None and lower.size == (SCREEN_W * 3, SCREEN_H * 3)
    assert lower.to_lower(3 * 100 + 2, 3 * 50) == (100, 50)
    upper = Layout("single", 3, 5).toggle_focus().geometry()
    assert upper.lower is None and upper.to_lower(10, 10) is None


def test_cycle_goes_through_every_layout() -> None:
    layout = Layout("vertical")
    seen = []
    for _ in LAYOUTS:
        seen.append(layout.kind)
        layout = layout.next_kind()
    assert seen == list(LAYOUTS) and layout.kind == "vertical"


@pytest.mark.parametrize(
    "kwargs", [{"kind": "diagonal"}, {"scale": 0}, {"scale": 99}, {"gap": -1}, {"focus": "x"}]
)
def test_bad_layouts_are_refused(kwargs: dict) -> None:
    with pytest.raises(LayoutError):
        Layout(**kwargs)


def test_fit_scale_picks_the_largest_that_fits() -> None:
    assert fit_scale("vertical", 0, (1920, 1080)) == 2  # scale 3 is 3*2*192 = 1152 rows
    assert fit_scale("vertical", 0, (100, 100)) == 1
    s = fit_scale("horizontal", 8, (1920, 1080))
    w, h = Layout("horizontal", s, 8).geometry().size
    assert w <= 1920 and h <= 1080
    w, h = Layout("horizontal", s + 1, 8).geometry().size
    assert w > 1920 or h > 1080
