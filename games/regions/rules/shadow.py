"""Knot shadows: closed curves with transverse double points, as rotation systems.

A shadow with n crossings has 4n darts; dart ``4*c + k`` is the k-th arc end at crossing c,
numbered counterclockwise. ``link[d]`` is the dart at the other end of d's arc. Going
straight through a crossing joins opposite darts (k and k+2), so a crossing is always a
transverse double point: a triple point cannot be expressed. Validation checks the rest:
one closed curve (one straight-ahead component) drawn in the plane (Euler: n + 2 faces).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property


class ShadowError(ValueError):
    """A description that is not one closed plane curve with transverse double points."""


def rot(d: int) -> int:
    """The next dart counterclockwise around the same crossing."""
    return (d & ~3) | ((d + 1) & 3)


def unrot(d: int) -> int:
    """The next dart clockwise around the same crossing."""
    return (d & ~3) | ((d - 1) & 3)


def opposite(d: int) -> int:
    """The dart the curve continues on when it goes straight through the crossing."""
    return d ^ 2


@dataclass(frozen=True)
class Shadow:
    """A validated knot shadow (see the module docstring for the dart numbering)."""

    link: tuple[int, ...]

    def __post_init__(self) -> None:
        _validate(self.link)

    @property
    def crossings(self) -> int:
        return len(self.link) // 4

    @cached_property
    def faces(self) -> tuple[tuple[int, ...], ...]:
        """Faces as dart cycles: dart d in a face means the corner just clockwise of d."""
        return _faces(self.link)

    @cached_property
    def face_of(self) -> tuple[int, ...]:
        """face_of[d]: the face owning the corner between unrot(d) and d."""
        owner = [0] * len(self.link)
        for index, cycle in enumerate(self.faces):
            for d in cycle:
                owner[d] = index
        return tuple(owner)

    @cached_property
    def arcs(self) -> tuple[tuple[int, int], ...]:
        """Arcs as (d, link[d]) with d < link[d], in dart order."""
        return tuple((d, e) for d, e in enumerate(self.link) if d < e)

    def arc_sides(self, d: int) -> tuple[int, int]:
        """Faces (right, left) of the arc leaving crossing through dart d."""
        return self.face_of[d], self.face_of[rot(d)]

    def gauss_sequence(self) -> list[int]:
        """Darts met when walking the curve once from dart 0 (outgoing darts only)."""
        out: list[int] = []
        d = 0
        while True:
            out.append(d)
            d = opposite(self.link[d])
            if d == 0:
                return out

    def to_json(self) -> dict[str, object]:
        return {"link": list(self.link)}

    @classmethod
    def from_json(cls, data: object) -> Shadow:
        if not isinstance(data, dict) or not isinstance(data.get("link"), list):
            raise ShadowError("a shadow is an object with a 'link' list")
        link = data["link"]
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in link):
            raise ShadowError("shadow links must be integers")
        return cls(tuple(link))


def _faces(link: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    seen = [False] * len(link)
    faces: list[tuple[int, ...]] = []
    for start in range(len(link)):
        if seen[start]:
            continue
        cycle = []
        d = start
        while not seen[d]:
            seen[d] = True
            cycle.append(d)
            d = rot(link[d])
        faces.append(tuple(cycle))
    return tuple(faces)


def _validate(link: Sequence[int]) -> None:
    size = len(link)
    if size == 0 or size % 4:
        raise ShadowError("a shadow needs at least one crossing, with four arc ends each")
    for d, e in enumerate(link):
        if not 0 <= e < size:
            raise ShadowError(f"arc end {d} points to {e}, outside 0..{size - 1}")
        if e == d or link[e] != d:
            raise ShadowError(f"arc ends {d} and {e} are not paired")
    visited = 0
    d = 0
    while True:
        visited += 1
        d = opposite(link[d])
        if d == 0:
            break
        if visited > size:
            raise ShadowError("the curve does not close")
    if visited != size // 2:
        raise ShadowError("the figure is not one closed curve (it has several components)")
    if len(_faces(link)) != size // 4 + 2:
        raise ShadowError("the curve cannot be drawn in the plane without extra crossings")


def from_pd(code: Sequence[Sequence[int]]) -> Shadow:
    """Shadow of a planar-diagram (PD) code; over/under information is dropped.

    Each crossing lists its four edge labels counterclockwise; each label occurs twice.
    """
    if not code:
        raise ShadowError("a PD code needs at least one crossing")
    ends: dict[int, list[int]] = {}
    for c, crossing in enumerate(code):
        if len(crossing) != 4:
            raise ShadowError(f"crossing {c} has {len(crossing)} labels, not 4")
        for k, label in enumerate(crossing):
            ends.setdefault(label, []).append(4 * c + k)
    link = [0] * (4 * len(code))
    for edge, darts in ends.items():
        if len(darts) != 2:
            raise ShadowError(f"edge label {edge} occurs {len(darts)} times, not twice")
        a, b = darts
        link[a], link[b] = b, a
    return Shadow(tuple(link))


def add_curl(shadow: Shadow, d: int) -> Shadow:
    """Reidemeister I: a curl on the arc leaving dart d, looping into the face on its left."""
    link = list(shadow.link)
    e = link[d]
    x = len(link)
    link.extend([x + 1, x, d, e])  # E<->N loop, W to the arc's start, S to its end
    link[d], link[e] = x + 2, x + 3
    return Shadow(tuple(link))


def add_bigon(shadow: Shadow, d1: int, d2: int) -> Shadow:
    """Reidemeister II: push the arc leaving d1 across the arc leaving d2.

    Both arcs must have the same face on their left (that face is split in two).
    """
    if shadow.face_of[rot(d1)] != shadow.face_of[rot(d2)]:
        raise ShadowError("the two arcs do not share a face")
    e1, e2 = shadow.link[d1], shadow.link[d2]
    if d2 in (d1, e1):
        raise ShadowError("a bigon needs two different arcs")
    link = list(shadow.link)
    x = len(link)
    y = x + 4
    link.extend([0] * 8)
    pairs = [(x + 3, d1), (y + 3, e1), (y + 0, d2), (x + 2, e2), (x + 0, y + 2), (x + 1, y + 1)]
    for a, b in pairs:
        link[a], link[b] = b, a
    return Shadow(tuple(link))


def relabel(shadow: Shadow, order: Sequence[int]) -> Shadow:
    """The same shadow with crossing order[i] renumbered as i (a permutation)."""
    new_of = {old: new for new, old in enumerate(order)}
    link = [0] * len(shadow.link)
    for d, e in enumerate(shadow.link):
        nd = 4 * new_of[d >> 2] + (d & 3)
        ne = 4 * new_of[e >> 2] + (e & 3)
        link[nd] = ne
    return Shadow(tuple(link))
