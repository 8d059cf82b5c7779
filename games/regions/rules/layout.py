"""Drawings of a surface for the 256x192 lower screen (R-REG-GEN-3).

Method. The dual graph is refined into a triangulation T of the sphere: every line gets a
bend vertex at its middle, every game region a centre vertex fanned to its boundary, and a
region whose boundary repeats a point or line (beside curls and nugatory crossings) gets an
extra ring of corner and side vertices so that T stays a simple triangulation. The region
drawn as the surrounding one loses its centre; its ring is pinned to a convex octagon on the
rectangle's border and Tutte's barycentric embedding places everything else, which is a
planar straight-line drawing (Tutte 1963; T is 3-connected). A force-directed pass (springs
along lines, repulsion between points and bends, a pull to the middle, pressure inflating
small regions, clearance between points and lines, room around region centres) then
balances the picture. Planarity is kept by a certificate: every triangle of T stays
positively oriented (with a convex pinned border this makes the drawing an embedding). A
simple region's centre is not a constraint of its own: it is re-placed anywhere in the
kernel of the region's polygon (half-plane clipping), so a move is refused only when no
such point exists. The drawing is then stretched to fill the rectangle (factors >= 1 can only
lengthen distances), a repair pass works on the remaining violations, and the result is
checked (`check_drawing`); other surrounding regions are tried if it fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import hypot, log, sqrt

from games.regions.rules.geometry import (
    Point,
    inscribed_disc,
    point_in_polygon,
    seg_point_distance,
    segments_intersect,
)
from games.regions.rules.surface import Surface

SCREEN: tuple[float, float, float, float] = (0.0, 0.0, 256.0, 192.0)
MIN_POINT_GAP = 14.0
MIN_POINT_LINE_GAP = 6.0
MIN_REGION_RADIUS = 6.0
POINT_MARGIN = 12.0  # points stay this far inside the rectangle (tappable, fully visible)
MAX_ATTEMPTS = 10
EXTRA_REPAIRS = 1  # further repair passes when a drawing still breaks a constraint
MIN_TWICE_AREA = 1.0  # triangles of T keep at least this much (twice) area while moving
MID_WEIGHT = 0.5  # repulsion weight of line bends relative to points
# Line springs pull a point and its bend together by distance / SPRING_LENGTH. (Every game
# region's ring has 8 vertices; an earlier version reused that count here by accident, and
# the layout was tuned with it, so the tuned value is kept as a named constant.)
SPRING_LENGTH = 8.0
STRAIGHTEN = 1.2  # pull of a bend toward the middle of its line


def _box(xs: list[float], ys: list[float]) -> tuple[list[float], list[float]]:
    """The bounding box of the points, as a polygon (xs, ys)."""
    lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
    return [lo_x, hi_x, hi_x, lo_x], [lo_y, lo_y, hi_y, hi_y]


class DrawingError(ValueError):
    """No drawing meeting the constraints was found inside the rectangle."""


@dataclass(frozen=True)
class Drawing:
    """Coordinates (lower-screen pixels) of a surface's points, lines and regions."""

    rect: tuple[float, float, float, float]
    outer: int
    points: tuple[Point, ...]
    lines: tuple[tuple[Point, ...], ...]
    polygons: tuple[tuple[Point, ...] | None, ...]
    anchors: tuple[Point | None, ...]

    def region_at(self, p: Point) -> int:
        """The game region under screen position p (the surrounding one if none is)."""
        for r, poly in enumerate(self.polygons):
            if poly is not None and point_in_polygon(p, poly):
                return r
        return self.outer

    def point_at(self, p: Point, radius: float = MIN_POINT_GAP / 2) -> int | None:
        """The connecting point within `radius` of p, if any (the nearest)."""
        best, best_d = None, radius
        for i, q in enumerate(self.points):
            d = hypot(q[0] - p[0], q[1] - p[1])
            if d <= best_d:
                best, best_d = i, d
        return best


def draw(
    surface: Surface,
    rect: tuple[float, float, float, float] = SCREEN,
    outer: int | None = None,
    attempts: int = MAX_ATTEMPTS,
) -> Drawing:
    """A balanced drawing of `surface` inside `rect` meeting every constraint."""
    if rect[2] < 40 or rect[3] < 40:
        raise DrawingError("the drawing rectangle is too small")
    if outer is not None and not 0 <= outer < surface.region_count:
        raise DrawingError(f"surrounding region must be 0..{surface.region_count - 1}")
    candidates = [outer] if outer is not None else _outer_candidates(surface)
    problems: list[str] = []
    for c0 in candidates[: max(1, attempts)]:
        drawing = _Layout(surface, rect, c0).run()
        problems = check_drawing(surface, drawing)
        if not problems:
            return drawing
    raise DrawingError(f"could not draw this surface legibly: {problems[0]}")


def _outer_candidates(surface: Surface) -> list[int]:
    def key(r: int) -> tuple[int, int, int]:
        corners = set(surface.corners[r])
        return (-len(corners), -sum(surface.degree[p] for p in corners), r)

    return sorted(range(surface.region_count), key=key)


class _Layout:
    """One layout attempt with a given surrounding region."""

    def __init__(self, surface: Surface, rect: tuple[float, float, float, float], outer: int):
        self.s = surface
        self.rect = rect
        self.outer = outer
        self.n_points = surface.point_count
        self.n_mids = len(surface.lines)
        self.count = self.n_points + self.n_mids
        self.tris: list[tuple[int, int, int]] = []
        self.centre: list[int | None] = [None] * surface.region_count
        self.ring: list[int] = []
        self.fan: dict[int, list[int]] = {}
        self._build()
        # centres_at[v]: (centre, its ring's edges, those ending at v, the others), edges as
        # (from, to) pairs. Only the edges at v change when v moves: the rest of the kernel
        # is clipped once per move, then only the two new edges per trial position.
        Edges = tuple[tuple[int, int], ...]
        self.centres_at: list[list[tuple[int, Edges, Edges, Edges]]] = [
            [] for _ in range(self.count)
        ]
        self.ring_edges: dict[int, Edges] = {}
        for f, ring in self.fan.items():
            edges = tuple((ring[i - 1], ring[i]) for i in range(len(ring)))
            self.ring_edges[f] = edges
            for q in ring:
                mine = tuple(e for e in edges if q in e)
                rest = tuple(e for e in edges if q not in e)
                self.centres_at[q].append((f, edges, mine, rest))
        fan_tris = {t for f in self.fan for t in self.inc[f]}
        self.move_tris: list[tuple[int, ...]] = [
            tuple(t for t in self.inc[v] if t not in fan_tris) for v in range(self.count)
        ]

    def _new(self) -> int:
        self.count += 1
        return self.count - 1

    def _build(self) -> None:
        s, tri = self.s, self.tris.append
        for r, walk in enumerate(s.region_walk):
            ps = [p for p, _ in walk]
            ms = [self.n_points + line for _, line in walk]
            simple = r != self.outer and len(set(ps)) == 4 and len(set(ms)) == 4
            if simple:
                f = self._new()
                self.centre[r] = f
                self.fan[f] = [v for i in range(4) for v in (ps[i], ms[i])]
                for i in range(4):
                    tri((f, ps[i], ms[i]))
                    tri((f, ms[i], ps[(i + 1) % 4]))
                continue
            ks = [self._new() for _ in range(4)]
            ss = [self._new() for _ in range(4)]
            for i in range(4):
                j = (i + 1) % 4
                tri((ps[i], ms[i], ss[i]))
                tri((ms[i], ps[j], ss[i]))
                tri((ps[i], ss[i], ks[i]))
                tri((ps[j], ks[j], ss[i]))
            if r == self.outer:
                self.ring = [v for i in range(4) for v in (ks[i], ss[i])]
            else:
                f = self._new()
                self.centre[r] = f
                for i in range(4):
                    tri((f, ks[i], ss[i]))
                    tri((f, ss[i], ks[(i + 1) % 4]))
        nbrs: list[set[int]] = [set() for _ in range(self.count)]
        self.inc: list[list[int]] = [[] for _ in range(self.count)]
        for t, (a, b, c) in enumerate(self.tris):
            nbrs[a].update((b, c))
            nbrs[b].update((a, c))
            nbrs[c].update((a, b))
            self.inc[a].append(t)
            self.inc[b].append(t)
            self.inc[c].append(t)
        self.nbrs = [sorted(x) for x in nbrs]
        fixed = set(self.ring)
        self.ring_set = fixed
        self.free = [v for v in range(self.count) if v not in fixed]
        self.helpers = [v for v in self.free if v >= self.n_points + self.n_mids]
        self.helpers = [v for v in self.helpers if v not in self.fan]
        self.helper_set = set(self.helpers)

    # -- Tutte ------------------------------------------------------------------------

    def _place_ring(self, flip: bool) -> None:
        x0, y0, w, h = self.rect
        bulge = 0.08 * min(w, h)
        spots = [
            (x0, y0),
            (x0 + w / 2, y0 - bulge),
            (x0 + w, y0),
            (x0 + w + bulge, y0 + h / 2),
            (x0 + w, y0 + h),
            (x0 + w / 2, y0 + h + bulge),
            (x0, y0 + h),
            (x0 - bulge, y0 + h / 2),
        ]
        if flip:
            spots = [spots[0], *reversed(spots[1:])]
        cx, cy = x0 + w / 2, y0 + h / 2
        self.xs = [cx] * self.count
        self.ys = [cy] * self.count
        for v, (x, y) in zip(self.ring, spots, strict=True):
            self.xs[v], self.ys[v] = x, y

    def _tutte(self, sweeps: int = 600, tol: float = 0.01) -> None:
        """Barycentric (Tutte) embedding by over-relaxed Gauss-Seidel."""
        xs, ys = self.xs, self.ys
        omega = 1.8
        rows = [(v, self.nbrs[v], len(self.nbrs[v])) for v in self.free]
        for _ in range(sweeps):
            worst = 0.0
            for v, nb, deg in rows:
                dx = omega * (sum([xs[u] for u in nb]) / deg - xs[v])
                dy = omega * (sum([ys[u] for u in nb]) / deg - ys[v])
                xs[v] += dx
                ys[v] += dy
                worst = max(worst, abs(dx) + abs(dy))
            if worst < tol:
                break

    def _orientation(self) -> float:
        xs, ys = self.xs, self.ys
        signs = set()
        for a, b, c in self.tris:
            o = (xs[b] - xs[a]) * (ys[c] - ys[a]) - (ys[b] - ys[a]) * (xs[c] - xs[a])
            signs.add(o > 1e-9 if o > 0 else (False if o < -1e-9 else None))
        if signs == {True}:
            return 1.0
        if signs == {False}:
            return -1.0
        return 0.0

    # -- balancing --------------------------------------------------------------------

    def _ok(self, v: int, x: float, y: float) -> bool:
        if self.unconstrained:
            return True
        xs, ys, sign = self.xs, self.ys, self.sign
        for t in self.inc[v]:
            a, b, c = self.tris[t]
            ax, ay = (x, y) if a == v else (xs[a], ys[a])
            bx, by = (x, y) if b == v else (xs[b], ys[b])
            cx, cy = (x, y) if c == v else (xs[c], ys[c])
            if sign * ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) < MIN_TWICE_AREA:
                return False
        return True

    def _try(self, v: int, dx: float, dy: float) -> bool:
        for scale in (1.0, 0.5, 0.25):
            x, y = self.xs[v] + dx * scale, self.ys[v] + dy * scale
            if self._ok(v, x, y):
                self.xs[v], self.ys[v] = x, y
                return True
        return False

    def _move(self, v: int, dx: float, dy: float) -> None:
        """Move v (less far if need be) unless the drawing would stop being planar.

        Around a simple region the certificate is its centre seeing the whole boundary: the
        centre is re-placed in the kernel of the region's polygon (clipped half-planes),
        and the move is refused when the kernel is empty. Other triangles of T must keep
        their orientation. Only the ring edges at v change, so only they are re-checked
        against an unmoved centre, and the kernel of the other edges is clipped only once.
        """
        if not (dx or dy):
            return
        xs, ys = self.xs, self.ys
        centres = self.centres_at[v]
        tris = self.move_tris[v]
        x0, y0 = xs[v], ys[v]
        saved = [(f, xs[f], ys[f]) for f, _edges, _mine, _rest in centres]
        rest_kernel: dict[int, tuple[list[float], list[float]] | None] = {}
        for scale in (1.0, 0.5, 0.25, 0.1):
            xs[v], ys[v] = x0 + dx * scale, y0 + dy * scale
            ok = self._tris_ok(tris)  # (cheap, so first)
            for f, edges, mine, rest in centres if ok else ():
                if self._sees(xs[f], ys[f], mine):
                    continue
                if f not in rest_kernel:
                    qs = [q for e in edges for q in e if q != v]
                    bx = [xs[q] for q in qs] + [x0, x0 + dx]
                    by = [ys[q] for q in qs] + [y0, y0 + dy]
                    rest_kernel[f] = self._clip(_box(bx, by), rest)
                base = rest_kernel[f]
                poly = None if base is None else self._clip(base, mine)
                if poly is None:
                    ok = False
                    break
                xs[f], ys[f] = sum(poly[0]) / len(poly[0]), sum(poly[1]) / len(poly[1])
            if ok:
                return
            xs[v], ys[v] = x0, y0
            for f, fx, fy in saved:
                xs[f], ys[f] = fx, fy

    def _sees(self, x: float, y: float, edges: tuple[tuple[int, int], ...]) -> bool:
        """(x, y) sees each of the ring edges (from, to) from its positive side."""
        xs, ys, sign = self.xs, self.ys, self.sign
        for a, b in edges:
            ax, ay = xs[a], ys[a]
            if sign * ((xs[b] - ax) * (y - ay) - (ys[b] - ay) * (x - ax)) < MIN_TWICE_AREA:
                return False
        return True

    def _kernel_point(self, f: int) -> tuple[float, float] | None:
        """The middle of the part of centre f's region that sees its whole boundary."""
        xs, ys = self.xs, self.ys
        ring = self.fan[f]
        poly = self._clip(_box([xs[q] for q in ring], [ys[q] for q in ring]), self.ring_edges[f])
        if poly is None:
            return None
        return sum(poly[0]) / len(poly[0]), sum(poly[1]) / len(poly[1])

    def _clip(
        self, poly: tuple[list[float], list[float]], edges: tuple[tuple[int, int], ...]
    ) -> tuple[list[float], list[float]] | None:
        """Convex polygon (xs, ys) cut to the positive sides of the edges, or None if empty.

        Sutherland-Hodgman clipping by each edge's half-plane shrunk by the area margin;
        an edge whose half-plane holds the whole polygon so far clips nothing.
        """
        xs, ys, sign = self.xs, self.ys, self.sign
        px, py = poly
        for a, b in edges:
            ax, ay = xs[a], ys[a]
            ex, ey = sign * (xs[b] - ax), sign * (ys[b] - ay)
            c = ey * ax - ex * ay - MIN_TWICE_AREA
            vals = [ex * y - ey * x + c for x, y in zip(px, py, strict=True)]
            if min(vals) >= 0:
                continue
            if max(vals) < 0:
                return None
            ox: list[float] = []
            oy: list[float] = []
            qx, qy, vq = px[-1], py[-1], vals[-1]  # the previous vertex
            for x, y, v in zip(px, py, vals, strict=True):
                if (vq >= 0) != (v >= 0):
                    t = vq / (vq - v)
                    ox.append(qx + (x - qx) * t)
                    oy.append(qy + (y - qy) * t)
                if v >= 0:
                    ox.append(x)
                    oy.append(y)
                qx, qy, vq = x, y, v
            if len(ox) < 3:
                return None
            px, py = ox, oy
        return px, py

    def _tris_ok(self, tris: tuple[int, ...]) -> bool:
        xs, ys, sign, all_tris = self.xs, self.ys, self.sign, self.tris
        for t in tris:
            a, b, c = all_tris[t]
            if (
                sign * ((xs[b] - xs[a]) * (ys[c] - ys[a]) - (ys[b] - ys[a]) * (xs[c] - xs[a]))
                < MIN_TWICE_AREA
            ):
                return False
        return True

    def _balance(self, rounds: int, repair: bool = False) -> None:
        s, xs, ys = self.s, self.xs, self.ys
        npts, nm = self.n_points, self.n_mids
        x0, y0, w, h = self.rect
        inner_w, inner_h = w - 2 * POINT_MARGIN, h - 2 * POINT_MARGIN
        k = 0.95 * sqrt(inner_w * inner_h / (npts + nm))
        k2 = k * k
        ideal = 2 * k
        gravity = 0.04
        target_area = inner_w * inner_h * 0.8 / max(1, s.region_count - 1)
        pressure = 6.0
        cx, cy = x0 + w / 2, y0 + h / 2
        lines = [(ln.a, ln.b, npts + i) for i, ln in enumerate(s.lines)]
        segs = [(a, m, (a, b)) for a, b, m in lines] + [(b, m, (a, b)) for a, b, m in lines]
        weight = [1.0] * npts + [MID_WEIGHT] * nm
        faces = [
            (centre, [v for p, line in walk for v in (p, npts + line)])
            for r, walk in enumerate(s.region_walk)
            if (centre := self.centre[r]) is not None
        ]
        movers = list(range(npts + nm))
        want_pl = MIN_POINT_LINE_GAP + 5.0
        want_pp = MIN_POINT_GAP + 8.0
        want_pp2 = want_pp * want_pp
        want_face = MIN_REGION_RADIUS + 6.0
        for it in range(rounds):
            temp = 1.5 if repair else max(1.0, 0.12 * ideal * (1 - it / rounds))
            for f_v in self.fan:  # centres to the middle of their kernel
                spot = self._kernel_point(f_v)
                if spot is not None:
                    xs[f_v], ys[f_v] = spot
            fx = [0.0] * (npts + nm)
            fy = [0.0] * (npts + nm)
            # Fruchterman-Reingold on points and bends, plus a gentle pull to the middle
            # (the repair pass only keeps points apart)
            nodes = npts if repair else npts + nm
            for i in range(nodes):
                xi, yi, wi = xs[i], ys[i], weight[i] * k2
                fxi = fyi = 0.0
                for j in range(i + 1, nodes):
                    dx, dy = xi - xs[j], yi - ys[j]
                    d2 = dx * dx + dy * dy + 0.01
                    if d2 < want_pp2 and j < npts:
                        d = sqrt(d2)
                        f = 2.0 * (want_pp - d) / d
                        if not repair:
                            f += wi * weight[j] / d2
                    elif repair:
                        continue
                    else:
                        f = wi * weight[j] / d2
                    fxi += dx * f
                    fyi += dy * f
                    fx[j] -= dx * f
                    fy[j] -= dy * f
                fx[i] += fxi
                fy[i] += fyi
                if not repair:
                    fx[i] += gravity * (cx - xi)
                    fy[i] += gravity * (cy - yi)
            for a, b, m in [] if repair else lines:
                for p in (a, b):
                    dx, dy = xs[m] - xs[p], ys[m] - ys[p]
                    d = sqrt(dx * dx + dy * dy) + 0.01
                    f = d / SPRING_LENGTH
                    fx[p] += dx * f
                    fy[p] += dy * f
                    fx[m] -= dx * f
                    fy[m] -= dy * f
                if a != b:
                    fx[m] += STRAIGHTEN * ((xs[a] + xs[b]) / 2 - xs[m])
                    fy[m] += STRAIGHTEN * ((ys[a] + ys[b]) / 2 - ys[m])
            # points keep clear of lines they are not on
            for a, m, ends in segs:  # (a box test first: most pairs are far apart)
                ax, ay, bx, by = xs[a], ys[a], xs[m], ys[m]
                lo_x, hi_x = min(ax, bx) - want_pl, max(ax, bx) + want_pl
                lo_y, hi_y = min(ay, by) - want_pl, max(ay, by) + want_pl
                ex, ey = bx - ax, by - ay
                l2 = ex * ex + ey * ey + 1e-9
                for p in range(npts):
                    px, py = xs[p], ys[p]
                    if px < lo_x or px > hi_x or py < lo_y or py > hi_y or p in ends:
                        continue
                    t = max(0.0, min(1.0, ((px - ax) * ex + (py - ay) * ey) / l2))
                    dx, dy = px - ax - t * ex, py - ay - t * ey
                    d = sqrt(dx * dx + dy * dy) + 1e-6
                    if d < want_pl:
                        push = 1.5 * (want_pl - d) / d
                        fx[p] += dx * push
                        fy[p] += dy * push
                        fx[a] -= dx * push * (1 - t) * 0.5
                        fy[a] -= dy * push * (1 - t) * 0.5
                        fx[m] -= dx * push * t * 0.5
                        fy[m] -= dy * push * t * 0.5
            # regions keep room around their centre, and small regions push out (pressure)
            for f_v, ring in faces:
                fcx, fcy = xs[f_v], ys[f_v]
                sides = len(ring)
                if not repair:
                    area = 0.0
                    for i in range(sides):
                        a, b = ring[i], ring[(i + 1) % sides]
                        area += xs[a] * ys[b] - xs[b] * ys[a]
                    area = abs(area) / 2 + 1.0
                    press = max(-1.0, min(1.0, log(target_area / area))) * pressure
                    for a in ring:
                        dx, dy = xs[a] - fcx, ys[a] - fcy
                        d = sqrt(dx * dx + dy * dy) + 1e-6
                        fx[a] += dx / d * press
                        fy[a] += dy / d * press
                for i in range(sides):
                    a, b = ring[i], ring[(i + 1) % sides]
                    ax, ay = xs[a], ys[a]
                    ex, ey = xs[b] - ax, ys[b] - ay
                    l2 = ex * ex + ey * ey + 1e-9
                    t = max(0.0, min(1.0, ((fcx - ax) * ex + (fcy - ay) * ey) / l2))
                    dx, dy = ax + t * ex - fcx, ay + t * ey - fcy
                    d = sqrt(dx * dx + dy * dy) + 1e-6
                    if d < want_face:
                        push = 2 * (want_face - d) / d
                        fx[a] += dx * push * (1 - t)
                        fy[a] += dy * push * (1 - t)
                        fx[b] += dx * push * t
                        fy[b] += dy * push * t
            lo_x, hi_x = x0 + POINT_MARGIN, x0 + w - POINT_MARGIN
            lo_y, hi_y = y0 + POINT_MARGIN, y0 + h - POINT_MARGIN
            for v in movers:
                dx, dy = fx[v], fy[v]
                d = sqrt(dx * dx + dy * dy)
                if d > temp:
                    dx, dy = dx * temp / d, dy * temp / d
                nx = min(max(xs[v] + dx, lo_x), hi_x)
                ny = min(max(ys[v] + dy, lo_y), hi_y)
                self._move(v, nx - xs[v], ny - ys[v])
            self._relax_helpers(2)

    def _relax_helpers(self, sweeps: int) -> None:
        xs, ys, nbrs = self.xs, self.ys, self.nbrs
        for _ in range(sweeps):
            for v in self.helpers:
                nb = nbrs[v]
                k = len(nb)
                tx = sum(xs[u] for u in nb) / k
                ty = sum(ys[u] for u in nb) / k
                self._try(v, tx - xs[v], ty - ys[v])

    def run(self) -> Drawing:
        self.sign = 0.0
        self.unconstrained = False
        for flip in (False, True):
            self._place_ring(flip)
            self._tutte()
            self.sign = self._orientation()
            if self.sign:
                break
        if not self.sign:
            raise DrawingError("the surface's triangulation could not be embedded")
        self._balance(rounds=20 + self.s.region_count)
        self._fit()
        self._balance(rounds=20, repair=True)
        self._fit()
        drawing = self._result()
        for _ in range(EXTRA_REPAIRS):
            if not check_drawing(self.s, drawing):
                break
            self._balance(rounds=20, repair=True)
            self._fit()
            drawing = self._result()
        return drawing

    def _fit(self) -> None:
        """Stretch the drawing to fill the rectangle (factors >= 1 only lengthen distances).

        A linear map with both factors at least 1 never brings two things closer, so every
        clearance only grows; it is kept only if no triangle of T turns over against the
        pinned border ring.
        """
        xs, ys = self.xs, self.ys
        drawn = range(self.n_points + self.n_mids)
        lo_x, hi_x = min(xs[v] for v in drawn), max(xs[v] for v in drawn)
        lo_y, hi_y = min(ys[v] for v in drawn), max(ys[v] for v in drawn)
        x0, y0, w, h = self.rect
        sx = (w - 2 * POINT_MARGIN) / max(hi_x - lo_x, 1.0)
        sy = (h - 2 * POINT_MARGIN) / max(hi_y - lo_y, 1.0)
        sx, sy = min(sx, 1.4 * sy), min(sy, 1.4 * sx)
        if sx < 1 or sy < 1:
            return
        cx, cy = (lo_x + hi_x) / 2, (lo_y + hi_y) / 2
        tx, ty = x0 + w / 2, y0 + h / 2
        movable = [v for v in range(self.count) if v not in self.ring_set]
        old = [(xs[v], ys[v]) for v in movable]
        for _ in range(5):
            for v, (x, y) in zip(movable, old, strict=True):
                xs[v] = tx + (x - cx) * sx
                ys[v] = ty + (y - cy) * sy
            if self._orientation() == self.sign:
                return
            sx, sy = (1 + sx) / 2, (1 + sy) / 2
            tx, ty = (tx + cx) / 2, (ty + cy) / 2
        for v, (x, y) in zip(movable, old, strict=True):
            xs[v], ys[v] = x, y

    def _pull_inside(self) -> None:
        """Bring points and bends off the pinned border ring (scaled toward the centre)."""
        x0, y0, w, h = self.rect
        cx, cy = x0 + w / 2, y0 + h / 2
        for v in range(self.n_points + self.n_mids):
            self._move(v, (cx - self.xs[v]) * 0.1, (cy - self.ys[v]) * 0.1)
        self._relax_helpers(3)

    def _result(self) -> Drawing:
        s, xs, ys = self.s, self.xs, self.ys

        def at(v: int) -> Point:
            return (round(xs[v], 3), round(ys[v], 3))

        points = tuple(at(p) for p in range(self.n_points))
        lines = tuple(
            (points[ln.a], at(self.n_points + i), points[ln.b]) for i, ln in enumerate(s.lines)
        )
        polygons: list[tuple[Point, ...] | None] = []
        anchors: list[Point | None] = []
        for r, walk in enumerate(s.region_walk):
            if r == self.outer:
                polygons.append(None)
                anchors.append(None)
                continue
            poly = tuple(q for p, line in walk for q in (points[p], at(self.n_points + line)))
            centre = self.centre[r]
            assert centre is not None
            spot, _radius = inscribed_disc(poly, at(centre))
            polygons.append(poly)
            anchors.append((round(spot[0], 3), round(spot[1], 3)))
        return Drawing(self.rect, self.outer, points, lines, tuple(polygons), tuple(anchors))


def check_drawing(surface: Surface, drawing: Drawing) -> list[str]:
    """Every violated drawing constraint, as readable sentences (empty when all hold)."""
    problems: list[str] = []
    x0, y0, w, h = drawing.rect
    pts = drawing.points
    if len(pts) != surface.point_count or len(drawing.lines) != len(surface.lines):
        return ["the drawing does not match the surface"]
    for i, (x, y) in enumerate(pts):
        if not (x0 <= x <= x0 + w and y0 <= y <= y0 + h):
            problems.append(f"point {i} lies outside the rectangle")
    for line in drawing.lines:
        for x, y in line:
            if not (x0 <= x <= x0 + w and y0 <= y <= y0 + h):
                problems.append("a line leaves the rectangle")
    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            d = hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1])
            if d < MIN_POINT_GAP:
                problems.append(f"points {i} and {j} are {d:.1f} px apart")
    segs = []
    for i, (ln, path) in enumerate(zip(surface.lines, drawing.lines, strict=True)):
        ends = [("p", ln.a), ("m", i), ("p", ln.b)]
        for k in range(len(path) - 1):
            segs.append((i, path[k], path[k + 1], ends[k] if k < 2 else None, ends[k + 1]))
    for p, q in enumerate(pts):
        for i, ln in enumerate(surface.lines):
            if p in (ln.a, ln.b):
                continue
            path = drawing.lines[i]
            for k in range(len(path) - 1):
                a, b = path[k], path[k + 1]
                if (
                    q[0] < min(a[0], b[0]) - MIN_POINT_LINE_GAP
                    or q[0] > max(a[0], b[0]) + MIN_POINT_LINE_GAP
                    or q[1] < min(a[1], b[1]) - MIN_POINT_LINE_GAP
                    or q[1] > max(a[1], b[1]) + MIN_POINT_LINE_GAP
                ):
                    continue  # farther than the gap from the segment's box
                d = seg_point_distance(q, a, b)
                if d < MIN_POINT_LINE_GAP:
                    problems.append(f"point {p} is {d:.1f} px from line {i}")
    boxes = [
        (min(a[0], b[0]), max(a[0], b[0]), min(a[1], b[1]), max(a[1], b[1]))
        for _i, a, b, _ea, _eb in segs
    ]
    for x in range(len(segs)):
        li, a, b, _ea, _eb = segs[x]
        lo_x, hi_x, lo_y, hi_y = boxes[x]
        for y in range(x + 1, len(segs)):
            lj, c, e, _ec, _ed = segs[y]
            if a in (c, e) or b in (c, e):
                if _overlap_at(a, b, c, e):
                    problems.append(f"lines {li} and {lj} overlap")
                continue
            bx = boxes[y]
            if bx[0] > hi_x or bx[1] < lo_x or bx[2] > hi_y or bx[3] < lo_y:
                continue  # disjoint boxes: the segments cannot meet
            if segments_intersect(a, b, c, e):
                problems.append(f"lines {li} and {lj} cross")
    for r, poly in enumerate(drawing.polygons):
        if r == drawing.outer:
            if poly is not None:
                problems.append("the surrounding region has a polygon")
            continue
        anchor = drawing.anchors[r]
        if poly is None or anchor is None:
            problems.append(f"region {r} has no polygon")
            continue
        if not point_in_polygon(anchor, poly):
            problems.append(f"region {r}'s disc centre is outside it")
            continue
        room = min(
            seg_point_distance(anchor, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))
        )
        if room < MIN_REGION_RADIUS:
            problems.append(f"region {r} has room for a disc of radius {room:.1f} px only")
    return problems


def _overlap_at(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Two segments sharing an end overlap when they leave it in the same direction."""
    if a in (c, d):
        s, e1 = a, b
    else:
        s, e1 = b, a
    e2 = d if c == s else c
    ux, uy = e1[0] - s[0], e1[1] - s[1]
    vx, vy = e2[0] - s[0], e2[1] - s[1]
    return abs(ux * vy - uy * vx) < 1e-9 and ux * vx + uy * vy > 0
