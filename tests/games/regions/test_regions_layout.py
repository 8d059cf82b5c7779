"""Drawings meet every geometric constraint (checked here independently of the engine)."""

import random
from math import hypot

import pytest

from games.regions.rules.catalogue import CATALOGUE
from games.regions.rules.generate import random_surface
from games.regions.rules.layout import Drawing, check_drawing, draw
from games.regions.rules.surface import Surface

W, H = 256, 192


def _seg_dist(p, a, b):
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    den = dx * dx + dy * dy
    t = 0 if den == 0 else max(0, min(1, ((p[0] - ax) * dx + (p[1] - ay) * dy) / den))
    return hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _ccw(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _proper_or_touching(a, b, c, d):
    d1, d2, d3, d4 = _ccw(c, d, a), _ccw(c, d, b), _ccw(a, b, c), _ccw(a, b, d)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    # touching: an end on the other segment
    return (
        min(_seg_dist(a, c, d), _seg_dist(b, c, d), _seg_dist(c, a, b), _seg_dist(d, a, b)) < 1e-6
    )


def _inside(p, poly):
    x, y = p
    inside = False
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
        if (y1 > y) != (y2 > y) and x1 + (y - y1) * (x2 - x1) / (y2 - y1) > x:
            inside = not inside
    return inside


def assert_legible(surface: Surface, d: Drawing) -> None:
    pts = d.points
    assert all(0 <= x <= W and 0 <= y <= H for x, y in pts)
    for path in d.lines:
        assert all(0 <= x <= W and 0 <= y <= H for x, y in path)
    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            assert hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]) >= 14
    segs = []
    for i, (ln, path) in enumerate(zip(surface.lines, d.lines, strict=True)):
        assert path[0] == pts[ln.a] and path[-1] == pts[ln.b]
        for k in range(len(path) - 1):
            segs.append((i, path[k], path[k + 1]))
    for p, q in enumerate(pts):
        for i, path in enumerate(d.lines):
            if p in (surface.lines[i].a, surface.lines[i].b):
                continue
            for k in range(len(path) - 1):
                assert _seg_dist(q, path[k], path[k + 1]) >= 6, (p, i)
    for x in range(len(segs)):
        for y in range(x + 1, len(segs)):
            _i, a, b = segs[x]
            _j, c, e = segs[y]
            if {a, b} & {c, e}:
                continue  # segments meeting at a shared point or bend
            assert not _proper_or_touching(a, b, c, e), (segs[x][0], segs[y][0])
    for r, poly in enumerate(d.polygons):
        if r == d.outer:
            assert poly is None
            continue
        centre = d.anchors[r]
        assert _inside(centre, poly)
        room = min(_seg_dist(centre, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))
        assert room >= 6
        assert d.region_at(centre) == r
        # the region's polygon is walked through its corner points in order
        assert [poly[2 * k] for k in range(4)] == [pts[p] for p in surface.corners[r]]


@pytest.mark.parametrize("name", [e.name for e in CATALOGUE])
def test_catalogue_drawings_are_legible(name):
    entry = next(e for e in CATALOGUE if e.name == name)
    surface = Surface(entry.shadow)
    d = draw(surface)
    assert check_drawing(surface, d) == []
    assert_legible(surface, d)


@pytest.mark.parametrize("n", range(3, 16))
def test_random_drawings_are_legible(n):
    surface, d = random_surface(n, random.Random(1000 + n))
    assert surface.crossings == n
    assert_legible(surface, d)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("n", [6, 9, 12, 15])
def test_more_random_drawings_are_legible(n, seed):
    surface, d = random_surface(n, random.Random(seed))
    assert_legible(surface, d)


def test_drawings_use_the_screen():
    surface = Surface(next(e for e in CATALOGUE if e.name == "8_19").shadow)
    d = draw(surface)
    xs = [x for x, _ in d.points]
    ys = [y for _, y in d.points]
    assert max(xs) - min(xs) > W * 0.6 and max(ys) - min(ys) > H * 0.6


def test_check_drawing_reports_broken_drawings():
    surface = Surface(CATALOGUE[0].shadow)
    d = draw(surface)
    squeezed = Drawing(
        d.rect, d.outer, (d.points[1], *d.points[1:]), d.lines, d.polygons, d.anchors
    )
    assert check_drawing(surface, squeezed)


def test_point_and_region_hit_testing():
    surface = Surface(CATALOGUE[0].shadow)
    d = draw(surface)
    for p, q in enumerate(d.points):
        assert d.point_at((q[0] + 2, q[1] - 2)) == p
    assert d.point_at((-50, -50)) is None
    assert d.region_at((1, 1)) == d.outer or d.polygons[d.region_at((1, 1))] is not None
