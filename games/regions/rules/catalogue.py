"""The built-in surfaces (R-REG-GEN-1): knot-table diagrams and a few composite curves.

PD codes are the standard diagrams of the Rolfsen table as published by KnotInfo and the
Knot Atlas (over/under information is irrelevant to a shadow and dropped). The composite
entries are built here from them with curls (Reidemeister I) and pushed-over arcs
(Reidemeister II), which gives reducible and non-alternating curves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from games.regions.rules.layout import Drawing, draw
from games.regions.rules.shadow import Shadow, add_bigon, add_curl, from_pd, rot
from games.regions.rules.surface import Surface

PD_CODES: dict[str, list[list[int]]] = {
    "3_1": [[1, 5, 2, 4], [3, 1, 4, 6], [5, 3, 6, 2]],
    "4_1": [[4, 2, 5, 1], [8, 6, 1, 5], [6, 3, 7, 4], [2, 7, 3, 8]],
    "5_1": [[10, 5, 1, 6], [6, 1, 7, 2], [2, 7, 3, 8], [8, 3, 9, 4], [4, 9, 5, 10]],
    "5_2": [[5, 1, 6, 10], [1, 7, 2, 6], [9, 3, 10, 2], [3, 9, 4, 8], [7, 5, 8, 4]],
    "6_1": [
        [7, 12, 8, 1],
        [1, 6, 2, 7],
        [11, 3, 12, 2],
        [3, 11, 4, 10],
        [9, 5, 10, 4],
        [5, 9, 6, 8],
    ],
    "6_2": [
        [12, 8, 1, 7],
        [8, 2, 9, 1],
        [2, 10, 3, 9],
        [6, 4, 7, 3],
        [4, 11, 5, 12],
        [10, 5, 11, 6],
    ],
    "6_3": [
        [9, 12, 10, 1],
        [1, 5, 2, 4],
        [7, 3, 8, 2],
        [3, 9, 4, 8],
        [5, 10, 6, 11],
        [11, 6, 12, 7],
    ],
    "7_4": [
        [14, 8, 1, 7],
        [6, 2, 7, 1],
        [2, 12, 3, 11],
        [10, 4, 11, 3],
        [4, 10, 5, 9],
        [12, 6, 13, 5],
        [8, 14, 9, 13],
    ],
    "7_7": [
        [7, 14, 8, 1],
        [1, 6, 2, 7],
        [11, 2, 12, 3],
        [3, 10, 4, 11],
        [13, 5, 14, 4],
        [5, 9, 6, 8],
        [9, 13, 10, 12],
    ],
    "8_5": [
        [11, 1, 12, 16],
        [1, 13, 2, 12],
        [13, 3, 14, 2],
        [3, 9, 4, 8],
        [9, 5, 10, 4],
        [5, 11, 6, 10],
        [15, 6, 16, 7],
        [7, 14, 8, 15],
    ],
    "8_18": [
        [11, 16, 12, 1],
        [1, 7, 2, 6],
        [13, 3, 14, 2],
        [3, 8, 4, 9],
        [15, 4, 16, 5],
        [5, 11, 6, 10],
        [7, 12, 8, 13],
        [9, 15, 10, 14],
    ],
    "8_19": [
        [16, 6, 1, 5],
        [6, 2, 7, 1],
        [11, 3, 12, 2],
        [3, 15, 4, 14],
        [4, 10, 5, 9],
        [12, 8, 13, 7],
        [8, 14, 9, 13],
        [15, 11, 16, 10],
    ],
    "8_20": [
        [16, 7, 1, 8],
        [1, 12, 2, 13],
        [9, 2, 10, 3],
        [14, 3, 15, 4],
        [4, 15, 5, 16],
        [10, 6, 11, 5],
        [6, 12, 7, 11],
        [13, 9, 14, 8],
    ],
    "8_21": [
        [7, 1, 8, 16],
        [1, 12, 2, 13],
        [2, 10, 3, 9],
        [14, 3, 15, 4],
        [4, 15, 5, 16],
        [5, 10, 6, 11],
        [11, 6, 12, 7],
        [8, 13, 9, 14],
    ],
    "9_40": [
        [1, 6, 2, 7],
        [11, 3, 12, 2],
        [3, 16, 4, 17],
        [9, 4, 10, 5],
        [5, 15, 6, 14],
        [7, 12, 8, 13],
        [17, 9, 18, 8],
        [15, 10, 16, 11],
        [13, 18, 14, 1],
    ],
    "9_42": [
        [1, 4, 2, 5],
        [9, 3, 10, 2],
        [3, 9, 4, 8],
        [5, 10, 6, 11],
        [6, 15, 7, 16],
        [14, 7, 15, 8],
        [16, 12, 17, 11],
        [12, 18, 13, 17],
        [18, 14, 1, 13],
    ],
    "10_17": [
        [6, 2, 7, 1],
        [2, 12, 3, 11],
        [12, 4, 13, 3],
        [4, 14, 5, 13],
        [14, 6, 15, 5],
        [16, 7, 17, 8],
        [8, 17, 9, 18],
        [18, 9, 19, 10],
        [10, 19, 11, 20],
        [20, 15, 1, 16],
    ],
}

NON_ALTERNATING = frozenset({"8_19", "8_20", "8_21", "9_42"})


@dataclass(frozen=True)
class Entry:
    """One catalogue surface: a name, a one-line description and the shadow."""

    name: str
    description: str
    shadow: Shadow


def _curled(name: str, arcs: int) -> Callable[[], Shadow]:
    def build() -> Shadow:
        sh = from_pd(PD_CODES[name])
        for _ in range(arcs):
            sh = add_curl(sh, 0)
        return sh

    return build


def _pushed(name: str) -> Callable[[], Shadow]:
    def build() -> Shadow:
        sh = from_pd(PD_CODES[name])
        face = sh.face_of[rot(0)]
        other = next(
            d
            for d in range(len(sh.link))
            if sh.face_of[rot(d)] == face and d not in (0, sh.link[0])
        )
        return add_bigon(sh, 0, other)

    return build


def _build_all() -> list[Entry]:
    entries = []
    for name, code in PD_CODES.items():
        kind = "non-alternating" if name in NON_ALTERNATING else "alternating"
        entries.append(Entry(name, f"knot {name} ({kind} table diagram)", from_pd(code)))
    entries.append(Entry("3_1_curl", "trefoil with a curl (reducible)", _curled("3_1", 1)()))
    entries.append(Entry("4_1_curl", "figure-eight with a curl (reducible)", _curled("4_1", 1)()))
    entries.append(Entry("5_1_curl", "5_1 with a curl (reducible)", _curled("5_1", 1)()))
    entries.append(Entry("6_3_curl", "6_3 with a curl (reducible)", _curled("6_3", 1)()))
    entries.append(Entry("7_4_pushed", "7_4 with one arc pushed over another", _pushed("7_4")()))
    entries.append(Entry("6_2_pushed", "6_2 with one arc pushed over another", _pushed("6_2")()))
    entries.append(
        Entry("3_1_pushed", "trefoil with one arc pushed over another", _pushed("3_1")())
    )
    entries.append(Entry("5_2_pushed", "5_2 with one arc pushed over another", _pushed("5_2")()))
    entries.append(Entry("6_1_curl", "6_1 with a curl (reducible)", _curled("6_1", 1)()))
    entries.sort(key=lambda e: (e.shadow.crossings, e.name))
    return entries


CATALOGUE: tuple[Entry, ...] = tuple(_build_all())


def entry(name: str) -> Entry:
    for e in CATALOGUE:
        if e.name == name:
            return e
    raise KeyError(name)


def names() -> list[str]:
    return [e.name for e in CATALOGUE]


@cache
def drawing(name: str) -> Drawing:
    """The lower-screen drawing of a catalogue surface (computed once, then cached)."""
    return draw(Surface(entry(name).shadow))
