"""Small plane-geometry helpers shared by drawings and hand-drawn curves."""

from __future__ import annotations

from collections.abc import Sequence
from math import hypot

Point = tuple[float, float]


def cross(ax: float, ay: float, bx: float, by: float) -> float:
    return ax * by - ay * bx


def orient(a: Point, b: Point, c: Point) -> float:
    """Twice the signed area of triangle abc (positive when counterclockwise, y up)."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def seg_point_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True when closed segments ab and cd share a point."""
    d1, d2 = orient(c, d, a), orient(c, d, b)
    d3, d4 = orient(a, b, c), orient(a, b, d)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True

    def on(p: Point, q: Point, r: Point) -> bool:
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(
            p[1], q[1]
        )

    return (
        (d1 == 0 and on(c, d, a))
        or (d2 == 0 and on(c, d, b))
        or (d3 == 0 and on(a, b, c))
        or (d4 == 0 and on(a, b, d))
    )


def segment_intersection(a: Point, b: Point, c: Point, d: Point) -> tuple[float, float] | None:
    """Parameters (t, u) of a proper crossing of ab and cd, or None."""
    rx, ry = b[0] - a[0], b[1] - a[1]
    sx, sy = d[0] - c[0], d[1] - c[1]
    den = cross(rx, ry, sx, sy)
    if den == 0:
        return None
    qx, qy = c[0] - a[0], c[1] - a[1]
    t = cross(qx, qy, sx, sy) / den
    u = cross(qx, qy, rx, ry) / den
    if 0 <= t < 1 and 0 <= u < 1:
        return t, u
    return None


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    """Even-odd rule (a spike walked out and back cancels itself)."""
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xc > x:
                inside = not inside
    return inside


def clearance(p: Point, poly: Sequence[Point]) -> float:
    """Distance from p to the polygon's boundary."""
    n = len(poly)
    return min(seg_point_distance(p, poly[i], poly[(i + 1) % n]) for i in range(n))


def inscribed_disc(poly: Sequence[Point], start: Point) -> tuple[Point, float]:
    """A large disc inside the polygon, by hill climbing from `start` (which must be inside).

    Same result as testing every step with `point_in_polygon` and `clearance`, with the
    edges prepared once and a candidate's clearance abandoned as soon as it cannot win.
    """
    n = len(poly)
    edges = []
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        edges.append((ax, ay, bx, by, dx, dy, dx * dx + dy * dy))

    def room(x: float, y: float, beat: float) -> float:
        """Clearance of (x, y) if inside and above `beat`, else a value <= beat."""
        inside = False
        for ax, ay, bx, by, _dx, _dy, _l2 in edges:
            if (ay > y) != (by > y) and ax + (y - ay) * (bx - ax) / (by - ay) > x:
                inside = not inside
        if not inside:
            return 0.0
        best = float("inf")
        for ax, ay, _bx, _by, dx, dy, l2 in edges:
            t = 0.0 if l2 == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / l2))
            d = hypot(x - ax - t * dx, y - ay - t * dy)
            if d < best:
                if d <= beat:
                    return d
                best = d
        return best

    best = start
    best_r = room(start[0], start[1], -1.0)
    xs = [q[0] for q in poly]
    ys = [q[1] for q in poly]
    step = max(max(xs) - min(xs), max(ys) - min(ys)) / 4
    dirs = ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7))
    while step > 0.25:
        improved = False
        for dx, dy in dirs:
            q = (best[0] + dx * step, best[1] + dy * step)
            r = room(q[0], q[1], best_r)
            if r > best_r:
                best, best_r, improved = q, r, True
        if not improved:
            step /= 2
    return best, best_r
