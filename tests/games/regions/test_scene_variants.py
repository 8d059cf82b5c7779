"""The variants on the handheld: the seed's three-state rule (only starts its search proved
solvable are offered; hints from that search clear them), the Z/k cycle, large targets and
sounds for state changes (R-REG-VAR)."""

from __future__ import annotations

import pytest
from regions_driver import Driver

from games.regions.rules import threestate as ts
from games.regions.rules.play import Setup, start_phases


def follow_hints(d: Driver, limit: int = 60) -> None:
    for _ in range(limit):
        if d.game["phase"] != "play":
            return
        d.tap("button:hint")
        d.select(d.game["hint"])
        d.settle()
    raise AssertionError("the hints did not lead to the clear")


@pytest.mark.parametrize("goal", ["A", "B", "C"])
def test_three_state_offered_starts_are_cleared_by_the_hints(tmp_path, goal):
    d = Driver(tmp_path, draw=False, variant="three", goal=goal, surface="5_2")
    assert d.game["working"]  # the search runs behind the working animation
    d.settle()
    scene = d.scene
    assert scene.search is not None and scene.search.done
    offered = [n for n in range(1, 3**5) if scene.offered(n)]
    for n in range(1, 3**5):
        proved = scene.search.distance(start_phases(Setup((), "three", ts.GOALS_BY_NAME[goal],
                                                          None, n), 5))
        assert (n in offered) == (proved is not None)
    # Pattern buttons step only through offered starts.
    seen = set()
    for _ in range(5):
        seen.add(d.game["pattern"])
        d.tap("choice:pattern:more")
    assert seen <= set(offered)
    d.tap("choice:start")
    follow_hints(d)
    g = d.game
    assert g["phase"] == "clear" and all(s == ts.GOALS_BY_NAME[goal] for s in g["states"])


def test_three_state_random_rule_cleared_by_hints_and_reproducible(tmp_path):
    runs = []
    for i in range(2):
        d = Driver(tmp_path / str(i), seed=8, draw=False, variant="three-random",
                   surface="6_1", pattern="random")
        d.settle()
        follow_hints(d)
        runs.append(d.game)
    assert runs[0]["phase"] == "clear" and runs[0]["moves"] == runs[1]["moves"]


def test_three_state_refuses_a_surface_too_large_for_its_search(tmp_path):
    d = Driver(tmp_path, draw=False, variant="three", surface="9_40")
    d.settle()
    g = d.game
    assert g["phase"] == "choose" and g["step"] == "surface" and "at most 8" in g["message"]


def test_cyclic_variant_plays_to_the_clear(tmp_path):
    d = Driver(tmp_path, draw=False, variant="cyclic3", surface="4_1", pattern="41")
    d.settle()
    assert d.game["phase"] == "play" and max(d.game["states"]) == 2
    follow_hints(d)
    assert d.game["phase"] == "clear"


def test_state_changes_are_heard(tmp_path):
    d = Driver(tmp_path, draw=False, surface="3_1", pattern="7")
    d.settle()
    played: list[str] = []
    d.m.play = played.append  # type: ignore[method-assign]
    sol = d.scene.solution()
    d.select(sol[0])
    assert played and played[-1] in ("pop", "miss", "select", "win")
