"""Curves drawn by hand (R-REG-GEN-2): a stylus polyline becomes a shadow.

The polyline is closed (its ends must meet within CLOSE_GAP px), its self-intersections are
found segment by segment, and it is rejected with a message naming the place when a
crossing is not a clean transverse double point: three strands through one spot, strands
touching without crossing (a tangency) or crossing at a very shallow angle, or two crossings
too close together to be told apart on the screen. The crossings, ordered along the curve,
then give the rotation system: at each crossing the four directions are sorted by angle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import atan2, degrees, hypot, isfinite, pi

from games.regions.rules.geometry import (
    Point,
    orient,
    seg_point_distance,
    segment_intersection,
)
from games.regions.rules.shadow import Shadow, ShadowError

CLOSE_GAP = 12.0  # the pen must come back this close to where it started
MIN_CROSSING_GAP = 8.0  # crossings closer than this cannot be told apart
TOUCH_GAP = 2.0  # strands nearer than this without crossing are a tangency
MIN_ANGLE = 20.0  # degrees; shallower crossings count as tangencies
MAX_POINTS = 4000
MAX_CROSSINGS = 15


class CurveError(ValueError):
    """A drawn curve that cannot be used as a surface (the message says why and where;
    `at` is the offending place in screen coordinates, for marking it, when there is one)."""

    def __init__(self, message: str, at: Point | None = None) -> None:
        super().__init__(message)
        self.at = at


@dataclass(frozen=True)
class Crossing:
    at: Point
    first: float  # curve parameter (segment index + fraction) of the first pass
    second: float


def shadow_from_polyline(raw: Sequence[Sequence[float]]) -> Shadow:
    """Shadow of a closed hand-drawn polyline (screen coordinates)."""
    pts = _clean(raw)
    crossings = find_crossings(pts)
    if not crossings:
        raise CurveError("the curve does not cross itself: it needs at least one crossing")
    if len(crossings) > MAX_CROSSINGS:
        raise CurveError(
            f"the curve crosses itself {len(crossings)} times (at most {MAX_CROSSINGS})"
        )
    return _shadow(pts, crossings)


def _clean(raw: Sequence[Sequence[float]]) -> list[Point]:
    if len(raw) > MAX_POINTS:
        raise CurveError(f"too many points ({len(raw)}; at most {MAX_POINTS})")
    pts: list[Point] = []
    for item in raw:
        if len(item) != 2 or not all(isinstance(v, int | float) and isfinite(v) for v in item):
            raise CurveError(f"a point must be two finite numbers, not {item!r}")
        p = (float(item[0]), float(item[1]))
        if not pts or p != pts[-1]:
            pts.append(p)
    if len(pts) < 4:
        raise CurveError("the curve is too short (draw a closed loop)")
    gap = hypot(pts[0][0] - pts[-1][0], pts[0][1] - pts[-1][1])
    if gap > CLOSE_GAP:
        raise CurveError(
            f"the curve is not closed: its end is {gap:.0f} px from its start", at=pts[-1]
        )
    if gap == 0:
        pts.pop()
    if len(pts) < 3:
        raise CurveError("the curve is too short (draw a closed loop)")
    return pts


def find_crossings(pts: Sequence[Point]) -> list[Crossing]:
    """All transverse self-crossings of the closed polyline, after checking for trouble."""
    m = len(pts)
    segs = [(pts[i], pts[(i + 1) % m]) for i in range(m)]
    boxes = [(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])) for a, b in segs]
    arc = [0.0]
    for a, b in segs:
        arc.append(arc[-1] + hypot(b[0] - a[0], b[1] - a[1]))
    total = arc[-1]
    found: list[Crossing] = []
    near_pairs: list[tuple[Point, int, int]] = []
    for i in range(m):
        a, b = segs[i]
        bi = boxes[i]
        for j in range(i + 1, m):
            bj = boxes[j]
            if bi[0] > bj[2] + TOUCH_GAP or bj[0] > bi[2] + TOUCH_GAP:
                continue
            if bi[1] > bj[3] + TOUCH_GAP or bj[1] > bi[3] + TOUCH_GAP:
                continue
            along = min(abs(arc[j] - arc[i + 1]), total - (arc[j + 1] - arc[i]))
            if j == i + 1 or (i == 0 and j == m - 1):
                continue
            c, d = segs[j]
            hit = segment_intersection(a, b, c, d)
            if hit is None:
                if along < 4 * TOUCH_GAP:
                    continue
                near = min(
                    seg_point_distance(a, c, d),
                    seg_point_distance(b, c, d),
                    seg_point_distance(c, a, b),
                    seg_point_distance(d, a, b),
                )
                if near < TOUCH_GAP:
                    near_pairs.append((a if seg_point_distance(a, c, d) == near else b, i, j))
                continue
            t, u = hit
            at = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
            if (u == 0 and not _passes(a, b, pts[j - 1], pts[(j + 1) % m])) or (
                t == 0 and not _passes(c, d, pts[i - 1], pts[(i + 1) % m])
            ):
                raise CurveError(f"the curve touches itself without crossing near {_fmt(at)}", at)
            angle = abs(atan2(b[1] - a[1], b[0] - a[0]) - atan2(d[1] - c[1], d[0] - c[0])) % pi
            angle = degrees(min(angle, pi - angle))
            if angle < MIN_ANGLE:
                raise CurveError(
                    f"the curve grazes itself near {_fmt(at)} (crossing at {angle:.0f} degrees)",
                    at,
                )
            found.append(Crossing(at, i + t, j + u))
    for spot, _i, _j in near_pairs:
        if all(hypot(spot[0] - x.at[0], spot[1] - x.at[1]) > 3 * TOUCH_GAP for x in found):
            raise CurveError(f"the curve touches itself without crossing near {_fmt(spot)}", spot)
    _check_spacing(found)
    return found


def _passes(a: Point, b: Point, before: Point, after: Point) -> bool:
    """A strand through a vertex lying on line ab goes from one side of it to the other."""
    return orient(a, b, before) * orient(a, b, after) < 0


def _check_spacing(found: list[Crossing]) -> None:
    for x in range(len(found)):
        for y in range(x + 1, len(found)):
            p, q = found[x].at, found[y].at
            if hypot(p[0] - q[0], p[1] - q[1]) >= MIN_CROSSING_GAP:
                continue
            third = [
                z
                for z in range(len(found))
                if z not in (x, y)
                and hypot(found[z].at[0] - p[0], found[z].at[1] - p[1]) < MIN_CROSSING_GAP
            ]
            if third:
                raise CurveError(f"three strands meet near {_fmt(p)} (a triple point)", p)
            if _same_pair(found[x], found[y]):
                raise CurveError(f"the curve touches itself near {_fmt(p)} (a tangency)", p)
            raise CurveError(
                f"two crossings near {_fmt(p)} are too close together "
                f"({hypot(p[0] - q[0], p[1] - q[1]):.0f} px; at least {MIN_CROSSING_GAP:.0f})",
                p,
            )


def _same_pair(a: Crossing, b: Crossing) -> bool:
    """Both crossings involve the same two stretches of the curve (a wiggle across)."""
    return (abs(a.first - b.first) < 3 and abs(a.second - b.second) < 3) or (
        abs(a.first - b.second) < 3 and abs(a.second - b.first) < 3
    )


def _fmt(p: Point) -> str:
    return f"({p[0]:.0f}, {p[1]:.0f})"


def _shadow(pts: Sequence[Point], crossings: list[Crossing]) -> Shadow:
    m = len(pts)
    events = []  # (parameter, crossing index, which pass)
    for c, x in enumerate(crossings):
        events.append((x.first, c, 0))
        events.append((x.second, c, 1))
    events.sort()

    def direction(param: float) -> float:
        i = int(param) % m
        a, b = pts[i], pts[(i + 1) % m]
        return atan2(-(b[1] - a[1]), b[0] - a[0])  # y up, so counterclockwise is math's

    # four arc ends per crossing: (angle, pass, outgoing?)
    ends: list[list[tuple[float, int, bool]]] = [[] for _ in crossings]
    for param, c, which in events:
        out = direction(param)
        back = out + pi if out <= 0 else out - pi
        ends[c].append((out, which, True))
        ends[c].append((back, which, False))
    dart: dict[tuple[int, int, bool], int] = {}
    for c, lst in enumerate(ends):
        lst.sort()
        for k, (_angle, which, outgoing) in enumerate(lst):
            dart[(c, which, outgoing)] = 4 * c + k
    link = [0] * (4 * len(crossings))
    for e in range(len(events)):
        _p, c, which = events[e]
        _q, c2, which2 = events[(e + 1) % len(events)]
        a = dart[(c, which, True)]
        b = dart[(c2, which2, False)]
        link[a], link[b] = b, a
    for lst in ends:
        order = [(w, o) for _a, w, o in lst]
        for k in range(4):
            if order[k][0] != order[(k + 2) % 4][0]:
                raise CurveError("the curve does not cross itself cleanly (a tangency)")
    try:
        return Shadow(tuple(link))
    except ShadowError as exc:
        raise CurveError(f"the drawn curve is not usable: {exc}") from None
