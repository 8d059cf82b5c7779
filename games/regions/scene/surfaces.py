"""Where a played surface comes from: the catalogue (drawings shipped precomputed), a random
curve of N crossings, or a curve drawn with the stylus. Each is laid out for the lower
screen's surface area (above the button bar)."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from games.regions.rules import export
from games.regions.rules.catalogue import CATALOGUE, entry
from games.regions.rules.freehand import shadow_from_polyline
from games.regions.rules.generate import MAX_CROSSINGS, MIN_CROSSINGS, random_surface
from games.regions.rules.layout import Drawing, draw
from games.regions.rules.surface import Surface
from games.regions.scene.layout import SURFACE_RECT

RANDOM_SIZES = tuple(range(MIN_CROSSINGS, MAX_CROSSINGS + 1))
DATA_FILE = "catalogue_drawings.json"


@dataclass(frozen=True)
class Chosen:
    """A surface ready to play: where it came from, its dual graph and its drawing."""

    sid: str  # catalogue name, "random:N" or "drawn"
    params: dict[str, Any]  # catalogue id or generator parameters (the dump's `surface`)
    surface: Surface
    drawing: Drawing

    @property
    def key(self) -> str:
        """What best records are kept under: the catalogue name, else the curve itself."""
        if "catalogue" in self.params:
            return str(self.params["catalogue"])
        link = ",".join(map(str, self.surface.shadow.link))
        return "curve:" + hashlib.sha256(link.encode()).hexdigest()[:16]

    def to_json(self) -> dict[str, Any]:
        return {
            "sid": self.sid,
            "params": self.params,
            "file": export.to_json(self.surface, self.drawing, self.sid),
        }

    @classmethod
    def from_json(cls, data: Any) -> Chosen:
        if not isinstance(data, dict):
            raise ValueError("a chosen surface is an object")
        surface, drawing = export.from_json(data["file"])
        return cls(str(data["sid"]), dict(data["params"]), surface, drawing)


@cache
def _shipped() -> dict[str, Any]:
    text = resources.files("games.regions.scene").joinpath(DATA_FILE).read_text("utf-8")
    return {item["name"]: item for item in json.loads(text)}


def catalogue_names() -> list[str]:
    """The catalogue by size (crossings, then name)."""
    return [e.name for e in CATALOGUE]


def catalogue_surface(name: str) -> Chosen:
    """A catalogue surface with its shipped drawing (checked on reading)."""
    shipped = _shipped().get(name)
    if shipped is not None:
        surface, drawing = export.from_json(shipped)
        if surface.shadow.link == entry(name).shadow.link:
            return Chosen(name, {"catalogue": name}, surface, drawing)
    surface = Surface(entry(name).shadow)  # not shipped (a new entry): lay it out now
    return Chosen(name, {"catalogue": name}, surface, draw(surface, SURFACE_RECT))


def generated_surface(n: int, seed: int) -> Chosen:
    surface, drawing = random_surface(n, random.Random(seed), SURFACE_RECT)
    return Chosen(f"random:{n}", {"random": n, "seed": seed}, surface, drawing)


def drawn_surface(points: list[tuple[int, int]]) -> Chosen:
    """The player's curve as a surface; raises CurveError (with the place) or DrawingError."""
    surface = Surface(shadow_from_polyline(points))
    drawing = draw(surface, SURFACE_RECT)
    return Chosen("drawn", {"drawn": surface.crossings}, surface, drawing)


def ship_all() -> list[dict[str, Any]]:
    """Every catalogue drawing for the data file (`python -m games.regions.scene.surfaces`)."""
    out = []
    for e in CATALOGUE:
        surface = Surface(e.shadow)
        out.append(export.to_json(surface, draw(surface, SURFACE_RECT), e.name))
    return out


if __name__ == "__main__":
    from pathlib import Path

    target = Path(__file__).with_name(DATA_FILE)
    target.write_text(json.dumps(ship_all(), separators=(",", ":")) + "\n", "utf-8")
    print(f"wrote {target}")
