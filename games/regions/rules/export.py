"""The surface file format of `regions-gen` (plain JSON-ready dicts; no I/O here).

{"crossings": n, "shadow": {"link": [...]}, "outer": r,
 "points": [{"id", "x", "y", "hidden"}], "lines": [{"id", "a", "b", "hidden", "path"}],
 "regions": [{"id", "outer", "polygon" (null for the surrounding region), "anchor",
              "points"}]}  -- coordinates in lower-screen pixels.
"""

from __future__ import annotations

from math import isfinite

from games.regions.rules.layout import SCREEN, Drawing, check_drawing
from games.regions.rules.shadow import Shadow, ShadowError
from games.regions.rules.surface import Surface

FORMAT = "twinfold-regions-surface/1"


class SurfaceFileError(ValueError):
    """A surface file that is not valid (the message names the problem)."""


def to_json(surface: Surface, drawing: Drawing, name: str = "") -> dict[str, object]:
    return {
        "format": FORMAT,
        "name": name,
        "crossings": surface.crossings,
        "shadow": surface.shadow.to_json(),
        "rect": list(drawing.rect),
        "outer": drawing.outer,
        "points": [
            {"id": p, "x": x, "y": y, "hidden": p in surface.hidden_points}
            for p, (x, y) in enumerate(drawing.points)
        ],
        "lines": [
            {
                "id": i,
                "a": ln.a,
                "b": ln.b,
                "hidden": i in surface.hidden_lines,
                "path": [list(q) for q in drawing.lines[i]],
            }
            for i, ln in enumerate(surface.lines)
        ],
        "regions": [
            {
                "id": r,
                "outer": r == drawing.outer,
                "polygon": None if poly is None else [list(q) for q in poly],
                "anchor": None if (anchor := drawing.anchors[r]) is None else list(anchor),
                "points": sorted(set(surface.corners[r])),
            }
            for r, poly in enumerate(drawing.polygons)
        ],
    }


def from_json(data: object) -> tuple[Surface, Drawing]:
    """Read a surface file back, checking it against its own shadow and the constraints."""
    if not isinstance(data, dict):
        raise SurfaceFileError("a surface file holds one JSON object")
    if data.get("format") != FORMAT:
        raise SurfaceFileError(f"not a surface file (format should be {FORMAT!r})")
    try:
        surface = Surface(Shadow.from_json(data["shadow"]))
        if data["crossings"] != surface.crossings:
            raise SurfaceFileError("'crossings' does not match the shadow")
        rect = tuple(_num(v) for v in data["rect"])
        if len(rect) != 4:
            raise SurfaceFileError("'rect' must be [x, y, width, height]")
        outer = data["outer"]
        points = data["points"]
        lines = data["lines"]
        regions = data["regions"]
        if len(points) != surface.point_count or len(lines) != len(surface.lines):
            raise SurfaceFileError("point or line count does not match the shadow")
        if len(regions) != surface.region_count:
            raise SurfaceFileError("region count does not match the shadow")
        pts = tuple((_num(p["x"]), _num(p["y"])) for p in points)
        paths = tuple(tuple((_num(q[0]), _num(q[1])) for q in ln["path"]) for ln in lines)
        for i, ln in enumerate(lines):
            if (ln["a"], ln["b"]) != (surface.lines[i].a, surface.lines[i].b):
                raise SurfaceFileError(f"line {i} does not join the points of the shadow")
        polygons = tuple(
            None if r["polygon"] is None else tuple((_num(q[0]), _num(q[1])) for q in r["polygon"])
            for r in regions
        )
        anchors = tuple(
            None if r["anchor"] is None else (_num(r["anchor"][0]), _num(r["anchor"][1]))
            for r in regions
        )
    except ShadowError as exc:
        raise SurfaceFileError(f"bad shadow: {exc}") from None
    except (KeyError, TypeError, IndexError) as exc:
        raise SurfaceFileError(f"missing or malformed field: {exc}") from None
    if not isinstance(outer, int) or not 0 <= outer < surface.region_count:
        raise SurfaceFileError("'outer' must be a region id")
    drawing = Drawing(rect, outer, pts, paths, polygons, anchors)
    problems = check_drawing(surface, drawing)
    if problems:
        raise SurfaceFileError(f"the drawing breaks a constraint: {problems[0]}")
    return surface, drawing


def _num(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not isfinite(value):
        raise SurfaceFileError(f"expected a number, got {value!r}")
    return float(value)


__all__ = ["FORMAT", "SCREEN", "SurfaceFileError", "from_json", "to_json"]
