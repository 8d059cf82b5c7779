"""Region Select through the real firmware, by taps only: solutions from the dump's own
incidence clear the puzzle exactly at their last selection; taps out of reach or on the
unselectable point change nothing; undo; the choice screens; bests across a restart;
suspend and resume."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from regions_driver import Driver

from firmware.testing import run
from games.regions.records import Best
from hal.interfaces import RawInput


def independent_solution(game: dict[str, Any]) -> list[int]:
    """Fewest points whose regions, each switched once per point, turn every white region
    grey: a brute-force search over subsets of the selectable points, from the dump alone."""
    masks = {p["n"]: sum(1 << r for r in p["regions"]) for p in game["points"]}
    target = sum(1 << r for r, s in enumerate(game["states"]) if s == 1)
    points = list(game["selectable"])
    for size in range(1, len(points) + 1):
        for combo in combinations(points, size):
            acc = 0
            for p in combo:
                acc ^= masks[p]
            if acc == target:
                return list(combo)
    raise AssertionError("no solution found")


def solve_by_taps(d: Driver) -> int:
    g = d.game
    assert g["phase"] == "play"
    before = g["selections"]
    solution = independent_solution(g)
    for i, p in enumerate(solution):
        assert d.game["phase"] == "play", "cleared before the last selection"
        d.select(p)
        assert d.game["selections"] == before + i + 1
    d.settle()
    g = d.game
    assert g["phase"] == "clear" and g["solved"] and all(s == 0 for s in g["states"])
    assert g["selections"] == before + len(solution)
    return len(solution)


@pytest.mark.parametrize(
    ("surface", "pattern"),
    [("3_1", "5"), ("4_1_curl", "11"), ("6_2", "random"), ("7_4", "100"), ("8_19", "random")],
)
def test_catalogue_puzzles_are_cleared_by_an_independent_solution(tmp_path, surface, pattern):
    d = Driver(tmp_path, draw=False, surface=surface, pattern=pattern)
    d.settle()
    assert d.game["surface"] == {"catalogue": surface}
    if pattern != "random":
        assert d.game["pattern"] == int(pattern)
    solve_by_taps(d)


@pytest.mark.parametrize(("n", "seed"), [(3, 1), (6, 2), (9, 3)])
def test_random_surfaces_are_cleared_by_an_independent_solution(tmp_path, n, seed):
    d = Driver(tmp_path, seed=seed, draw=False, surface=f"random:{n}", pattern="random")
    d.settle()
    assert d.game["surface"]["random"] == n and d.game["n"] == n
    solve_by_taps(d)


def test_the_clear_screen_shows_exactly_at_the_clear_with_its_buttons(tmp_path):
    d = Driver(tmp_path, surface="4_1", pattern="3")
    d.settle()
    assert "choice:another" not in d.hotspots()
    solve_by_taps(d)
    spots = d.hotspots()
    assert {"choice:another", "choice:new-pattern", "choice:quit"} <= set(spots)
    assert not any(name.startswith("point:") for name in spots)
    # The background changed: the upper screen's corner is the clear colour, not the usual.
    assert tuple(d.m.top.get_at((2, 30)))[:3] != (18, 22, 38)
    d.tap("choice:new-pattern")
    g = d.game
    assert g["phase"] == "choose" and g["step"] == "pattern" and g["pattern"] == 4
    d.tap("choice:start")
    assert d.game["phase"] == "play" and d.game["pattern"] == 4
    solve_by_taps(d)
    d.tap("choice:another")
    assert d.game["phase"] == "choose" and d.game["step"] == "surface"
    d.choose_surface("3_1")
    assert d.game["step"] == "pattern"


def test_quit_on_the_clear_screen_returns_to_the_launcher(tmp_path):
    d = Driver(tmp_path, surface="3_1", pattern="1")
    d.settle()
    solve_by_taps(d)
    d.tap("choice:quit")
    assert d.m.scene.name == "launcher"


def far_spot(game: dict[str, Any], reach: float) -> tuple[int, int]:
    """A spot on the surface farther than `reach` from every connecting point."""
    best, spot = 0.0, (0, 0)
    for y in range(4, 164, 2):
        for x in range(4, 252, 2):
            d = min(((p["x"] - x) ** 2 + (p["y"] - y) ** 2) ** 0.5 for p in game["points"])
            if d > best:
                best, spot = d, (x, y)
    assert best > reach
    return spot


def test_taps_out_of_reach_and_on_the_unselectable_point_change_nothing(tmp_path):
    d = Driver(tmp_path, surface="6_1", pattern="21", unselectable="on")
    d.settle()
    before = d.game
    blocked = [p["n"] for p in before["points"] if p["n"] not in before["selectable"]]
    assert len(blocked) == 1
    x, y = far_spot(before, 12)
    d.tap_xy(x, y)
    after = d.game
    assert after["states"] == before["states"] and after["selections"] == 0
    p = before["points"][blocked[0]]
    d.tap_xy(p["x"] + 1, p["y"] - 1)
    after = d.game
    assert after["states"] == before["states"] and after["selections"] == 0
    assert "cannot be selected" in after["message"]
    assert f"point:{blocked[0]}" not in d.hotspots()
    # The puzzle is still solvable without it.
    solve_by_taps(d)


def test_a_tap_near_a_point_selects_the_nearest_within_reach(tmp_path):
    d = Driver(tmp_path, surface="5_2", pattern="9", targets="large")
    d.settle()
    g = d.game
    p = g["points"][2]
    d.tap_xy(p["x"] + 10, p["y"] + 6)  # 11.7 px away: inside the large reach of 18
    assert d.game["moves"] == [2]


def test_undo_takes_the_selection_back_and_counts(tmp_path):
    d = Driver(tmp_path, surface="4_1", pattern="6")
    d.settle()
    start = d.game["states"]
    d.select(1)
    assert d.game["states"] != start
    d.tap("button:undo")
    d.settle()
    g = d.game
    assert g["states"] == start and g["selections"] == 2 and g["moves"] == []
    d.tap("button:undo")  # nothing left to undo: nothing happens
    assert d.game["selections"] == 2


def test_hint_and_solution_lead_to_the_clear(tmp_path):
    d = Driver(tmp_path, surface="7_7", pattern="77")
    d.settle()
    d.tap("button:solution")
    shown = d.game["solution"]
    assert shown == independent_solution(d.game) or len(shown) == len(independent_solution(d.game))
    while d.game["phase"] == "play":
        d.tap("button:hint")
        d.select(d.game["hint"])
        d.settle()
    g = d.game
    assert g["phase"] == "clear" and g["selections"] == len(shown) and g["hints"] == len(shown)
    record = d.m.store.list_records("regions")[0].record
    assert record["hints"] == len(shown) and record["solution_shown"] is True


def test_choosing_by_taps_catalogue_random_and_pattern(tmp_path):
    d = Driver(tmp_path, draw=False)
    assert d.game["phase"] == "choose" and d.game["step"] == "surface"
    d.tap("choice:page:next")
    assert d.game["page"] == 1
    d.tap("choice:page:prev")
    d.tap("choice:random:more")
    d.tap("choice:random:more")
    assert d.game["random_n"] == 7
    d.tap("choice:random")
    assert d.game["working"] and d.hotspots() == {}
    d.settle()
    g = d.game
    assert g["step"] == "pattern" and g["surface"]["random"] == 7 and g["n"] == 7
    d.tap("choice:pattern:more10")
    d.tap("choice:pattern:less")
    assert d.game["pattern"] == 10
    d.tap("choice:pattern:less10")
    d.tap("choice:pattern:less10")
    assert d.game["pattern"] == 117  # 10 - 10 wraps to 127 (numbers 1..127), then 117
    d.tap("choice:back")
    d.choose_surface("5_1")
    d.tap("choice:pattern:random")
    number = d.game["pattern"]
    d.tap("choice:start")
    g = d.game
    assert g["phase"] == "play" and g["pattern"] == number and g["surface"] == {"catalogue": "5_1"}


def test_an_unusable_pattern_option_asks_for_the_pattern(tmp_path):
    d = Driver(tmp_path, surface="3_1", pattern="999")
    d.settle()
    g = d.game
    assert g["phase"] == "choose" and g["step"] == "pattern" and "999" in g["message"]


def test_best_records_persist_across_a_restart(tmp_path):
    store = tmp_path / "store.db"
    d = Driver(tmp_path / "a", draw=False, store=store, surface="4_1", pattern="7")
    d.settle()
    d.frames(90)
    solve_by_taps(d)
    first = d.game
    assert first["new_best"] and first["best"] is None
    d.m.store.close()
    e = Driver(tmp_path / "b", draw=False, store=store, surface="4_1", pattern="7")
    e.settle()
    best = e.game["best"]
    assert best == {"ticks": first["ticks"], "selections": first["selections"]}
    solve_by_taps(e)  # faster this time: a new best for time
    second = e.game
    assert second["ticks"] < first["ticks"] and second["new_best"]
    e.tap("choice:another")
    assert e.scene.surface_best("4_1") == Best(second["ticks"], first["selections"])


def test_suspend_and_resume_mid_puzzle_continues_identically(tmp_path):
    taps = [(1, 3)]

    def play(d: Driver) -> None:
        for p, wait in taps:
            d.select(p)
            d.frames(wait)

    a = Driver(tmp_path / "a", seed=5, surface="6_3", pattern="45", variant="three-random")
    a.settle()
    a.select(2)  # mid-animation when saved
    slot = a.m.snapshot()
    assert slot is not None and a.scene.anim is not None
    b = Driver(tmp_path / "b", seed=5)
    b.m.restore(slot)
    for d in (a, b):
        play(d)
        d.tap("button:hint")
        d.frames(7)
    ga, gb = a.game, b.game
    assert ga == gb
    assert a.m.top.get_view("2").raw == b.m.top.get_view("2").raw
    assert a.m.bottom.get_view("2").raw == b.m.bottom.get_view("2").raw


def test_suspend_while_working_lands_at_the_same_tick(tmp_path):
    a = Driver(tmp_path / "a", seed=3, draw=False, surface="random:8", pattern="5")
    a.frames(4)
    slot = a.m.snapshot()
    assert a.scene.job is not None
    b = Driver(tmp_path / "b", seed=3, draw=False)
    b.m.restore(slot)
    waited = []
    for d in (a, b):
        for ticks in range(200):
            if d.game["phase"] == "play":
                waited.append(ticks)
                break
            d.frames(1)
    assert a.game == b.game and waited[0] == waited[1] > 10


def test_lid_close_and_open_resumes_exactly(tmp_path):
    d = Driver(tmp_path, surface="5_1", pattern="12")
    d.settle()
    d.select(0)
    before = d.game
    d.m.hal.input.script = lambda t: RawInput(lid_closed=True)  # type: ignore[attr-defined]
    run(d.m, 5)
    d.frames(3)
    after = d.game
    assert after["states"] == before["states"] and after["selections"] == before["selections"]


def test_a_stored_clear_replays_from_the_launchers_records(tmp_path):
    d = Driver(tmp_path, surface="random:5", pattern="random", seed=4)
    d.settle()
    first = next(q for q in d.game["selectable"] if q not in d.scene.solution())
    d.select(first)
    d.tap("button:undo")
    d.settle()
    n = solve_by_taps(d)
    final = d.game
    d.tap("choice:quit")
    assert d.m.scene.name == "launcher"
    d.tap("button:records")
    d.tap("record:0")
    g = d.game
    assert g["phase"] == "replay" and g["replay"] == {"index": 0, "total": n + 2}
    assert g["surface"] == final["surface"] and g["selections"] == 0
    d.tap("button:forward")
    d.tap("button:forward")
    assert d.game["selections"] == 2 and d.game["moves"] == []  # a selection and its undo
    d.tap("button:last")
    g = d.game
    assert g["states"] == final["states"] and g["solved"] and g["replay"]["index"] == n + 2
    d.tap("button:first")
    assert d.game["replay"]["index"] == 0
    # Suspended mid-replay, it comes back at the same step.
    d.tap("button:forward")
    slot = d.m.snapshot()
    e = Driver(tmp_path / "e")
    e.m.restore(slot)
    assert e.game["replay"]["index"] == 1 and e.game["states"] == d.game["states"]


def test_a_damaged_record_opens_as_a_message(tmp_path):
    d = Driver(tmp_path)
    from games.regions.cartridge import CARTRIDGE

    assert CARTRIDGE.replay is not None
    broken = CARTRIDGE.replay(d.scene.ctx, {"puzzle": {"setup": {}, "actions": []}})
    assert broken.hotspots() == {} and "cannot be read" in broken.dump()["message"]


def test_how_to_play_pages_from_the_list_and_from_play(tmp_path):
    d = Driver(tmp_path)
    d.tap("button:help")
    assert d.game["help"] == 0 and set(d.hotspots()) == {
        "button:help-prev", "button:help-next", "button:help-close"}
    for page in (1, 2, 3, 3):
        d.tap("button:help-next")
        assert d.game["help"] == page
    d.tap("button:help-close")
    assert d.game["help"] is None and d.game["phase"] == "choose"
    d.choose_surface("3_1")
    d.tap("choice:start")
    d.tap("button:help")
    before = d.game
    assert before["help"] == 0
    d.tap_xy(128, 84)  # the picture is not the puzzle: nothing is selected
    d.tap("button:help-close")
    assert d.game["selections"] == 0 and d.game["phase"] == "play"


def test_the_dpad_cursor_and_a_select_points_and_buttons(tmp_path):
    from hal.interfaces import Button

    d = Driver(tmp_path, surface="4_1", pattern="5")
    d.settle()

    def press(button: Button) -> None:
        start = d.m.tick
        d.m.hal.input.script = lambda t: RawInput(  # type: ignore[attr-defined]
            held=frozenset({button}) if start <= t < start + 2 else frozenset()
        )
        run(d.m, 4)

    press(Button.RIGHT)
    for _ in range(12):  # walk the cursor until it is on a point
        if str(d.m.dump()["cursor"]).startswith("point:"):
            break
        press(Button.UP)
    cursor = d.m.dump()["cursor"]
    assert cursor.startswith("point:")
    press(Button.A)
    d.settle()
    assert d.game["moves"] == [int(cursor.split(":")[1])]
    for _ in range(12):  # and down to the button bar: A on Undo takes it back
        if d.m.dump()["cursor"] == "button:undo":
            break
        press(Button.DOWN if not str(d.m.dump()["cursor"]).startswith("button:") else Button.LEFT)
    assert d.m.dump()["cursor"] == "button:undo"
    press(Button.A)
    d.settle()
    assert d.game["moves"] == [] and d.game["selections"] == 2


def test_tapping_regions_sets_the_start_pattern(tmp_path):
    d = Driver(tmp_path, surface="5_2")
    d.settle()
    assert d.game["pattern"] == 1 and d.game["states"] == [1, 0, 0, 0, 0]
    d.tap("region:2")
    assert d.game["pattern"] == 1 + 4 and d.game["states"] == [1, 0, 1, 0, 0]
    d.tap("region:0")
    assert d.game["pattern"] == 4
    d.tap("region:2")  # all grey is not a puzzle: refused with a message
    assert d.game["pattern"] == 4 and d.game["message"]
    d.tap("choice:start")
    assert d.game["phase"] == "play" and d.game["states"] == [0, 0, 1, 0, 0]
