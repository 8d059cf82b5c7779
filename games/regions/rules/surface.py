"""The game surface: the planar dual of a shadow (R-REG-SURF).

Connecting point p <-> face p of the shadow; connecting line l <-> arc l of the shadow;
game region r <-> crossing r (the face of the dual around that crossing). A region's four
corners are the four faces around its crossing, counterclockwise; a face met twice (beside
a curl or a nugatory crossing) is still one point the region touches (R-REG-PLAY-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from games.regions.rules.shadow import Shadow, rot


@dataclass(frozen=True)
class Line:
    """A connecting line between points a and b, crossing shadow arc `arc` once."""

    a: int
    b: int
    arc: int


@dataclass(frozen=True)
class Surface:
    """Dual graph of a shadow with its rotation system, incidence and hideable parts."""

    shadow: Shadow

    @property
    def crossings(self) -> int:
        return self.shadow.crossings

    @property
    def point_count(self) -> int:
        return len(self.shadow.faces)

    @property
    def region_count(self) -> int:
        return self.shadow.crossings

    @cached_property
    def lines(self) -> tuple[Line, ...]:
        sh = self.shadow
        return tuple(
            Line(sh.face_of[d], sh.face_of[rot(d)], index) for index, (d, _e) in enumerate(sh.arcs)
        )

    @cached_property
    def line_of_dart(self) -> tuple[int, ...]:
        out = [0] * len(self.shadow.link)
        for index, (d, e) in enumerate(self.shadow.arcs):
            out[d] = out[e] = index
        return tuple(out)

    @cached_property
    def corners(self) -> tuple[tuple[int, int, int, int], ...]:
        """corners[r]: the points around region r, counterclockwise around its crossing."""
        fo = self.shadow.face_of
        return tuple(
            (fo[4 * c + 1], fo[4 * c + 2], fo[4 * c + 3], fo[4 * c]) for c in range(self.crossings)
        )

    @cached_property
    def region_walk(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Boundary of each region as (point, line to the next point) pairs, in order.

        Around crossing c the corner between darts k and k+1 is followed by the line of
        dart k+1, so the walk alternates corner points and the lines between them.
        """
        fo = self.shadow.face_of
        lod = self.line_of_dart
        walks = []
        for c in range(self.crossings):
            walk = []
            for k in range(4):
                d = 4 * c + ((k + 1) & 3)
                walk.append((fo[d], lod[d]))
            walks.append(tuple(walk))
        return tuple(walks)

    @cached_property
    def touches(self) -> tuple[frozenset[int], ...]:
        """touches[p]: the game regions that selecting point p switches."""
        sets: list[set[int]] = [set() for _ in range(self.point_count)]
        for r, corner in enumerate(self.corners):
            for p in corner:
                sets[p].add(r)
        return tuple(frozenset(s) for s in sets)

    @cached_property
    def degree(self) -> tuple[int, ...]:
        """Number of line ends at each point (= sides of the shadow's face)."""
        return tuple(len(face) for face in self.shadow.faces)

    @cached_property
    def hidden_lines(self) -> frozenset[int]:
        """Lines to a hidden point: the same game region lies on both of their sides."""
        hidden = self.hidden_points
        return frozenset(
            i for i, line in enumerate(self.lines) if line.a in hidden or line.b in hidden
        )

    @cached_property
    def hidden_points(self) -> frozenset[int]:
        """Points inside a curl (a one-sided face): they bound no game region."""
        if self.crossings < 2:
            return frozenset()
        return frozenset(p for p in range(self.point_count) if self.degree[p] == 1)

    def touch_masks(self) -> list[int]:
        """Bit masks of touches, bit r for region r."""
        return [sum(1 << r for r in regions) for regions in self.touches]
