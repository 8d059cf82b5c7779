"""Against the computer through the firmware: its turn shown step by step, a whole game by
taps to the result, the record and statistics; how to play (issue 16, P-GAME-1/5/6/7)."""

from __future__ import annotations

import random

from panels_driver import Driver

from games.panels.match import decode_action
from games.panels.rules import Determine, Place, Rotate, Select
from hal.interfaces import Button


def test_a_game_against_the_computer_to_the_end(tmp_path) -> None:
    d = Driver(tmp_path, seed=3, mode="cpu", level="2", target="100")
    rng = random.Random(3)
    kinds_seen: set[str] = set()
    for _ in range(20_000):
        scene = d.scene
        if scene.state.over and not scene.anims:
            break
        if scene.anims:
            kinds_seen.add(scene.anims[0].kind)
        if scene.local_to_move() and not scene.anims:
            st = scene.state
            placements = st.placements(0)
            if not placements:
                d.tap("button:pass")
                continue
            stock, index, turns = rng.choice(placements)
            r, c = st.field.square(index)
            d.tap(f"stock:{stock}")
            d.tap(f"square:{r},{c}")
            d.settle()
            for _ in range(turns):
                d.tap(f"square:{r},{c}")
                d.settle()
            d.tap("button:determine")
        else:
            d.frames(1)
    d.frames(2)
    g = d.game
    assert g["phase"] == "over" and g["mode"] == "cpu"
    history = [(p.seat, decode_action(p.data)) for p in d.scene.match.history]
    computer = [a for s, a in history if s == 1]
    # the computer played every turn as steps: select, place, rotations, determine
    assert computer and all(type(a) in (Select, Place, Rotate, Determine) for a in computer)
    assert sum(isinstance(a, Determine) for a in computer) >= 3
    assert {"glide", "arrive"} <= kinds_seen
    stored = d.m.store.list_records("panels")
    assert len(stored) == 1
    winner = g["winner"]
    expected = "draw" if winner is None else "win" if winner == 0 else "loss"
    assert stored[0].record["outcome"] == expected
    assert d.m.store.get_stats("panels")["played"] == 1
    d.tap("button:play-again")
    assert d.game["phase"] == "play" and d.game["scores"] == [0, 0]


def test_how_to_play_pages(tmp_path) -> None:
    d = Driver(tmp_path, draw=True, mode="two")
    before = d.game
    d.tap("button:help")
    assert d.game["help_page"] == 0 and "button:prev" not in d.hotspots()
    for page in (1, 2, 3):
        d.tap("button:next")
        assert d.game["help_page"] == page
    assert "button:next" not in d.hotspots()
    d.tap("button:prev")
    assert d.game["help_page"] == 2
    d.press(Button.B)
    g = d.game
    assert g["help_page"] is None and g["field"] == before["field"]
    assert "stock:0" in d.hotspots()
