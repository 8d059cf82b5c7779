"""Curves drawn by hand: crossings found, rotation system built, bad curves rejected."""

from math import cos, pi, sin

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.regions.rules.freehand import CurveError, shadow_from_polyline
from games.regions.rules.layout import draw
from games.regions.rules.puzzle import Board
from games.regions.rules.surface import Surface


def curve(f, n=240):
    return [(round(f(2 * pi * i / n)[0], 3), round(f(2 * pi * i / n)[1], 3)) for i in range(n)]


LEMNISCATE = curve(lambda t: (128 + 90 * sin(t), 96 + 50 * sin(2 * t)))
TREFOIL = curve(
    lambda t: (128 + 26 * (sin(t) + 2 * sin(2 * t)), 96 + 26 * (cos(t) - 2 * cos(2 * t)))
)
FIGURE_EIGHT_KNOT = curve(
    lambda t: (128 + 17 * (2 + cos(2 * t)) * cos(3 * t), 96 + 17 * (2 + cos(2 * t)) * sin(3 * t))
)
# a big loop with a small curl on its right side (limacon with an inner loop)
CURL = curve(lambda t: (128 + (30 + 60 * cos(t)) * cos(t), 96 + (30 + 60 * cos(t)) * sin(t)))


def test_lemniscate_has_one_crossing_and_two_curl_points():
    shadow = shadow_from_polyline(LEMNISCATE)
    surface = Surface(shadow)
    assert shadow.crossings == 1
    assert sorted(surface.degree) == [1, 1, 2]


def test_trefoil_like_three_loop_curve_is_the_trefoil_shadow():
    surface = Surface(shadow_from_polyline(TREFOIL))
    assert surface.crossings == 3
    assert sorted(surface.degree) == [2, 2, 2, 3, 3]  # three lobes, centre and outside
    Board(surface)
    draw(surface)


def test_figure_eight_knot_polyline_has_four_crossings():
    surface = Surface(shadow_from_polyline(FIGURE_EIGHT_KNOT))
    assert surface.crossings == 4
    assert len(surface.hidden_points) == 0
    Board(surface)
    draw(surface)


def test_curl_curve_gives_a_hideable_point_only_when_there_are_other_crossings():
    surface = Surface(shadow_from_polyline(CURL))
    assert surface.crossings == 1
    assert 1 in surface.degree


def test_translated_and_reversed_curves_give_the_same_counts():
    moved = [(x + 7.5, y - 3.25) for x, y in TREFOIL]
    assert shadow_from_polyline(moved).crossings == 3
    assert shadow_from_polyline(list(reversed(TREFOIL))).crossings == 3


def test_open_curve_is_rejected():
    with pytest.raises(CurveError, match="not closed"):
        shadow_from_polyline(LEMNISCATE[:180])


def test_triple_point_is_rejected():
    # three-petal rose r = cos 3t: all three petals pass through the centre
    rose = curve(
        lambda t: (128 + 80 * cos(3 * t / 2) * cos(t / 2), 96 + 80 * cos(3 * t / 2) * sin(t / 2)),
        300,
    )
    with pytest.raises(CurveError, match=r"three strands|too close"):
        shadow_from_polyline(rose)


def test_tangency_is_rejected():
    # a square loop whose inner dent touches the opposite side at one point
    touching = [
        (20, 20),
        (200, 20),
        (200, 150),
        (120, 150),
        (110, 20.0),
        (100, 150),
        (20, 150),
        (20, 20),
    ]
    with pytest.raises(CurveError, match=r"touch|graze|tangen"):
        shadow_from_polyline(touching)


def test_grazing_crossing_is_rejected():
    shallow = [
        (20, 100),
        (230, 104),
        (230, 150),
        (20, 150),
        (20, 110),
        (230, 96),
        (240, 60),
        (10, 60),
        (20, 100),
    ]
    with pytest.raises(CurveError, match=r"grazes|touch"):
        shadow_from_polyline(shallow)


def test_crossings_too_close_together_are_rejected():
    # two strands crossing a third within a few pixels of each other
    zig = [
        (10, 50),
        (200, 50),
        (200, 52),
        (100, 20),
        (103, 90),
        (106, 20),
        (240, 10),
        (240, 180),
        (10, 180),
    ]
    with pytest.raises(CurveError):
        shadow_from_polyline(zig)


def test_bad_input_is_rejected_clearly():
    with pytest.raises(CurveError, match="at least one crossing"):
        shadow_from_polyline(curve(lambda t: (128 + 50 * cos(t), 96 + 40 * sin(t))))
    with pytest.raises(CurveError, match="too short"):
        shadow_from_polyline([(1, 1), (2, 2)])
    with pytest.raises(CurveError, match="finite"):
        shadow_from_polyline([(1, 1), (2, float("nan")), (3, 1), (1, 1)])
    with pytest.raises(CurveError, match="two finite numbers"):
        shadow_from_polyline([(1, 1, 1)] * 5)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.floats(0.5, 1.5), st.floats(0, 6.28))
def test_rosette_curves_have_the_expected_crossings(k, scale, phase):
    # epitrochoid-like rosette r = 40 + 30 cos(k t): closed, simple for these, no crossings;
    # adding a winding (two turns) makes the classic (2, 2m+1)-style loops with crossings
    pts = curve(
        lambda t: (
            128 + scale * (50 + 25 * cos(k * t + phase)) * cos(t),
            96 + scale * (50 + 25 * cos(k * t + phase)) * sin(t) * 0.7,
        ),
        360,
    )
    with pytest.raises(CurveError, match="at least one crossing"):
        shadow_from_polyline(pts)


def test_curve_of_three_curls_needs_its_curl_points():
    # epitrochoid with three small loops: every crossing is a curl
    loops = curve(
        lambda t: (128 + 80 * cos(t) - 30 * cos(4 * t), 96 + 80 * sin(t) - 30 * sin(4 * t))
    )
    surface = Surface(shadow_from_polyline(loops))
    assert surface.crossings == 3
    assert len(surface.hidden_points) == 3
    Board(surface)  # solvable with every point selectable
    from games.regions.rules.puzzle import Rules
    from games.regions.rules.solver import Unsolvable

    with pytest.raises(Unsolvable):
        Board(surface, Rules(hide_curls=True))  # the curl points are needed here


def test_lemniscate_is_drawn_and_playable():
    surface = Surface(shadow_from_polyline(LEMNISCATE))
    draw(surface)
    board = Board(surface)
    assert board.shortest_solution(board.pattern(1))
