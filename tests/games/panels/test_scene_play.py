"""Panel Link through the real firmware, by taps only (issue 16): whole games in mode `two`
checked against the engine after every determine; rotation, back, refused taps."""

from __future__ import annotations

import random

import pytest
from panels_driver import Driver, engine_rows, play_turn_by_taps

from games.panels.rules import GameConfig, GameState


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (3, {"target": "100"}),
        (8, {"target": "100", "removal": "on", "field": "cross", "first": "2"}),
    ],
)
def test_whole_games_by_taps_match_the_engine(tmp_path, seed, options) -> None:
    d = Driver(tmp_path, seed=seed, mode="two", **options)
    scene = d.scene
    mirror = GameState.new(GameConfig(
        seed=scene.game_seed,
        target=int(options["target"]),
        removal=options.get("removal") == "on",
        shape=options.get("field"),
        first_player=1 if options.get("first") == "2" else 0,
    ))
    rng = random.Random(seed)
    turns = 0
    while not mirror.over:
        assert turns < 400
        play_turn_by_taps(d, mirror, rng)
        turns += 1
        g = d.game
        assert g["field"] == engine_rows(mirror)
        assert g["scores"] == [pl.score for pl in mirror.players]
        assert g["turn"] == mirror.current
        assert g["stock_counts"] == [len(pl.stock) for pl in mirror.players]
        if not mirror.over:
            assert g["stock"] == [c.to_json() for c in mirror.players[mirror.current].stock]
            assert g["yaku"] == [
                {"name": y.kind, "cards": [list(s) for s in y.squares], "points": y.points}
                for y in mirror.last_yaku
            ]
    d.frames(2)
    g = d.game
    assert turns >= 6
    assert g["phase"] == "over" and g["winner"] == mirror.winner
    assert max(g["scores"]) >= 100 or mirror.end_reason != "target"
    assert "button:play-again" in d.hotspots()
    stored = d.m.store.list_records("panels")
    assert len(stored) == 1 and stored[0].record["scores"] == g["scores"]


def test_rotation_cycles_connectors_and_back_restores_the_stock(tmp_path) -> None:
    d = Driver(tmp_path, seed=4, mode="two", field="square")
    before = d.game
    stock = before["stock"]
    # a card whose rotations all differ (not a straight or a cross)
    index = next(i for i, c in enumerate(stock) if c["connectors"] not in (
        "1010", "0101", "1111"))
    bits = stock[index]["connectors"]
    d.tap(f"stock:{index}")
    assert d.game["selected"] == index
    d.tap("square:3,3")
    d.settle()
    seen = []
    for _ in range(4):
        cell = d.game["field"][3][3]
        assert cell["state"] == "provisional" and cell["number"] == stock[index]["number"]
        seen.append(cell["connectors"])
        d.tap("square:3,3")
        d.settle()
    expected = [bits]
    for _ in range(3):  # clockwise: up -> right -> down -> left -> up
        b = expected[-1]
        expected.append(b[3] + b[:3])
    assert seen == expected
    assert d.game["field"][3][3]["connectors"] == bits  # four turns: back where it started
    d.tap("button:back")
    g = d.game
    assert g["field"] == before["field"] and g["stock"] == stock and g["selected"] == index
    d.tap("button:back")
    assert d.game["selected"] is None and d.game["stock"] == stock


def test_refused_taps_change_nothing(tmp_path) -> None:
    d = Driver(tmp_path, seed=5, draw=True, mode="two", field="square")
    # player 1 fixes a card; then player 2 places next to nothing of theirs: shaded squares
    d.tap("stock:0")
    d.tap("square:2,2")
    d.settle()
    d.tap("button:determine")
    d.settle()
    d.tap("stock:0")
    d.tap("square:6,6")  # player 2's first turn: any empty square
    d.settle()
    d.tap("button:determine")
    d.settle()
    g = d.game
    assert g["turn"] == 0
    d.tap("stock:0")
    d.settle()
    g = d.game
    assert g["stock"][0]["owner"] == 0  # a colour card (seed 5): it must go next to its own
    shaded = (7, 0)  # far from every card: not permitted, drawn shaded
    # R-PAN-TURN-4: the square is drawn shaded, darker than a permitted one of its checker
    shaded_px = sum(d.m.bottom.get_at((4 + 0 * 22 + 3, 8 + 7 * 22 + 3))[:3])
    permitted_px = sum(d.m.bottom.get_at((4 + 1 * 22 + 3, 8 + 2 * 22 + 3))[:3])
    assert shaded_px < permitted_px - 60
    before, frame = d.game, d.m.frame_hash()
    d.tap(f"square:{shaded[0]},{shaded[1]}")
    assert d.game == before and d.m.frame_hash() == frame
    # a tap beside the field and the stock (on nothing) changes nothing either
    d.tap_xy(183, 100)
    assert d.game == before and d.m.frame_hash() == frame


def test_taps_on_the_stock_during_the_computers_turn_change_nothing(tmp_path) -> None:
    d = Driver(tmp_path, seed=6, draw=True, mode="cpu", level="1", first="2")
    assert d.scene.state.current == 1 and d.scene.thinking
    before = d.game
    d.tap("stock:0", after=0)
    d.tap("stock:3", after=0)
    g = d.game
    assert g["selected"] is None and g["stock"] == before["stock"]
    assert g["field"] == before["field"] and g["refused"] == {}
    d.settle()
    assert d.game["turn"] == 0  # the computer played its turn, step by step
    steps = [p.data[:1] for p in d.scene.match.history]
    assert steps[0] == b"S" and steps[1] == b"P" and steps[-1] == b"D"


def test_a_quick_tap_during_the_own_glide_still_rotates(tmp_path) -> None:
    d = Driver(tmp_path, seed=4, mode="two", field="square")
    stock = d.game["stock"]
    index = next(i for i, c in enumerate(stock) if c["connectors"] not in ("1111",))
    d.tap(f"stock:{index}")
    d.tap("square:2,2", after=1)
    assert d.game["animation"] == "glide"
    d.tap("square:2,2", after=0)  # the glide is cut short and the tap turns the card
    bits = stock[index]["connectors"]
    assert d.game["field"][2][2]["connectors"] == bits[3] + bits[:3]


def test_the_opponents_animation_swallows_a_tap(tmp_path) -> None:
    d = Driver(tmp_path, seed=6, mode="cpu", level="1", first="2")
    for _ in range(600):
        if d.game["animation"] == "glide":
            break
        d.frames(1)
    assert d.game["animation"] == "glide" and d.game["turn"] == 1
    before = d.game
    d.tap("stock:0", after=1)  # skips the computer's glide; selects nothing
    g = d.game
    assert g["selected"] is None and g["field"] == before["field"] and not g["animating"]


@pytest.mark.parametrize("shape", ["square", "octagon", "pillars", "lake", "cross"])
def test_every_field_shape_is_shown_with_its_squares(tmp_path, shape) -> None:
    from games.panels.rules.field import shape_mask

    d = Driver(tmp_path, draw=True, mode="two", field=shape)
    mask = shape_mask(shape)
    squares = {n for n in d.hotspots() if n.startswith("square:")}
    assert squares == {f"square:{i // 8},{i % 8}" for i, ok in enumerate(mask) if ok}
    rows = d.game["field"]
    assert [cell == "unusable" for row in rows for cell in row] == [not ok for ok in mask]
    # an unusable square is drawn dark: darker than any usable square's face
    if not all(mask):
        i = mask.index(False)
        x, y = 4 + (i % 8) * 22 + 11, 8 + (i // 8) * 22 + 6
        j = mask.index(True)
        ux, uy = 4 + (j % 8) * 22 + 11, 8 + (j // 8) * 22 + 6
        assert sum(d.m.bottom.get_at((x, y))[:3]) < sum(d.m.bottom.get_at((ux, uy))[:3])


def test_hotspots_never_overlap(tmp_path) -> None:
    import pygame

    d = Driver(tmp_path, draw=True, mode="two", field="square")
    d.tap("stock:0")
    d.tap("square:2,2")
    d.settle()
    d.tap("button:determine")
    d.settle()
    views = [d.hotspots()]
    d.scene.item_target = "delta"  # the renumber choice adds +1 / -1
    d.scene.item_square = (2, 2)
    views.append(d.hotspots())
    d.scene.item_target = None
    record = {"config": d.scene.state.config.to_json(),
              "actions": [[p.seat, p.data.hex()] for p in d.scene.match.history]}
    from games.panels.scene.play import PanelsScene

    views.append(PanelsScene(d.scene.ctx, record=record).hotspots())
    for spots in views:
        rects = [(n, pygame.Rect(*r) if isinstance(r, list) else r) for n, r in spots.items()]
        for i, (a, ra) in enumerate(rects):
            for b, rb in rects[i + 1:]:
                assert not ra.colliderect(rb), (a, b)
