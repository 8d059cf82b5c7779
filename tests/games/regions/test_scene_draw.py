"""Drawing a curve with the stylus (R-REG-GEN-2) through the real firmware: input movies of
touch samples become surfaces, or are rejected with a message and the place marked."""

from __future__ import annotations

from math import cos, pi, sin

import pytest
from regions_driver import Driver

from firmware.testing import machine_from_movie, run
from games.regions.scene import layout

Curve = list[tuple[int, int]]


def curve(f, n: int = 160) -> Curve:  # type: ignore[no-untyped-def]
    pts = [f(2 * pi * i / n) for i in range(n + 1)]
    return [(round(x), round(y)) for x, y in pts]


FIGURE_EIGHT = curve(lambda t: (128 + 90 * sin(t), 84 + 50 * sin(2 * t)))
TREFOIL = curve(
    lambda t: (128 + 24 * (sin(t) + 2 * sin(2 * t)), 84 + 24 * (cos(t) - 2 * cos(2 * t)))
)
# Two circles touching at (128, 84): one stroke that comes back tangent to itself.
TANGENT = curve(lambda t: (128 + 40 * sin(t), 84 - 40 + 40 * cos(t)), 80)[:-1] + curve(
    lambda t: (128 - 40 * sin(t), 84 + 40 - 40 * cos(t)), 80
)
# A three-petal rose: all three petals pass through its centre (a triple point).
ROSE = curve(
    lambda t: (128 + 70 * cos(3 * t / 2) * cos(t / 2), 84 + 70 * cos(3 * t / 2) * sin(t / 2)),
    240,
)


def movie_for(points: Curve) -> str:
    """Tap "Draw your own", then the stylus down along the points, one sample per frame."""
    bx, by, bw, bh = layout.LIST_BUTTONS["choice:draw"]
    lines = ["# twinfold movie 1", f"2 tap {bx + bw // 2} {by + bh // 2}"]
    frame = 10
    for x, y in points:
        lines.append(f"{frame} touch {x} {y}")
        frame += 1
    lines.append(f"{frame} untouch")
    return "\n".join(lines) + "\n"


def run_movie(tmp_path, points: Curve):  # type: ignore[no-untyped-def]
    m = machine_from_movie(tmp_path, movie_for(points), game="regions", seed=2)
    run(m, 12 + len(points) + 40, draw=False)
    return m


@pytest.mark.parametrize(("points", "crossings"), [(FIGURE_EIGHT, 1), (TREFOIL, 3)])
def test_a_drawn_curve_becomes_a_surface(tmp_path, points, crossings):
    m = run_movie(tmp_path, points)
    g = m.dump()["game"]
    assert g["phase"] == "choose" and g["step"] == "pattern" and not g["working"]
    assert g["surface"] == {"drawn": crossings} and g["n"] == crossings
    assert len(g["points"]) == crossings + 2
    assert g["patterns"] == 2**crossings - 1


@pytest.mark.parametrize(
    ("points", "words"),
    [
        (TREFOIL[:-30], "not closed"),
        (TANGENT, "touches itself"),
        (ROSE, "three strands"),
    ],
)
def test_a_bad_curve_is_rejected_with_its_message_and_place(tmp_path, points, words):
    m = run_movie(tmp_path, points)
    g = m.dump()["game"]
    assert g["phase"] == "draw" and g["surface"] is None
    assert words in g["message"]
    assert g["mark"] is not None
    x, y = g["mark"]
    assert any(abs(x - px) <= 12 and abs(y - py) <= 12 for px, py in points)


def test_a_drawn_surface_is_played_to_the_clear(tmp_path):
    d = Driver(tmp_path)
    d.tap("choice:draw")
    d.stroke(TREFOIL)
    d.settle()
    d.tap("choice:pattern:more")
    d.tap("choice:start")
    sol = d.scene.solution()
    for p in sol:
        d.select(p)
    d.settle()
    assert d.game["phase"] == "clear" and d.game["selections"] == len(sol)


def test_erase_and_back(tmp_path):
    d = Driver(tmp_path)
    d.tap("choice:draw")
    d.stroke(TREFOIL[:40])
    d.settle()
    assert d.game["stroke"] > 0 and d.game["message"]
    d.tap("choice:draw:clear")
    assert d.game["stroke"] == 0 and d.game["message"] == "" and d.game["mark"] is None
    d.tap("choice:back")
    assert d.game["phase"] == "choose" and d.game["step"] == "surface"
