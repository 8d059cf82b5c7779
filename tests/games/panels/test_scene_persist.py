"""Suspend and resume (lid) with a provisional card placed and rotated, and in the middle of
the computer's turn; records replayed turn by turn from Records (issue 16, P-GAME-6)."""

from __future__ import annotations

from pathlib import Path

from panels_driver import Driver

from firmware.testing import machine_from_movie, run
from hal.interfaces import RawInput


def continue_both(a: Driver, b: Driver, script, ticks: int) -> None:
    """Feed both machines the same input for `ticks`; dumps and frames stay identical."""
    for t in range(ticks):
        for d in (a, b):
            d.m.hal.input.script = lambda _t, t=t: script(t)  # type: ignore[attr-defined]
            run(d.m, 1, draw=True)
        da, db = a.m.dump(), b.m.dump()
        da.pop("frame"), db.pop("frame")
        assert da == db, f"tick {t}"
        assert a.m.frame_hash() == b.m.frame_hash(), f"tick {t}"


def resumed_copy(d: Driver, tmp: Path) -> Driver:
    """Close the lid (suspend to the store), then a fresh machine on the same store resumes."""
    d.m.hal.input.script = lambda t: RawInput(lid_closed=True)  # type: ignore[attr-defined]
    run(d.m, 2, draw=True)
    d.m.hal.input.script = lambda t: RawInput()  # type: ignore[attr-defined]
    run(d.m, 1, draw=True)  # the opening tick only wakes the unit
    slot = d.m.store.load_suspend()
    assert slot is not None
    other = Driver.__new__(Driver)
    other.draw = True
    other.m = machine_from_movie(tmp / "b", game=None, seed=d.m.seed)
    game_id, state, meta = slot.game_id, slot.state, slot.meta
    other.m.restore({"game": game_id, "options": meta["options"], "state": state})
    return other


def test_suspend_with_a_provisional_card_placed_and_rotated(tmp_path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    d = Driver(tmp_path / "a", seed=2, draw=True, mode="two", field="square")
    d.tap("stock:1")
    d.tap("square:4,4")
    d.settle()
    d.tap("square:4,4", after=0)  # in the middle of the rotation
    assert d.game["animation"] == "rotate"
    other = resumed_copy(d, tmp_path)
    g = other.game
    assert g["field"][4][4]["state"] == "provisional" and g["animation"] == "rotate"
    # the same taps from here: rotate again, determine, player 2 plays; identical frames
    x, y = 4 + 4 * 22 + 11, 8 + 4 * 22 + 11

    def script(t: int) -> RawInput:
        from hal.interfaces import RawTouch

        taps = {20: (x, y), 40: (219, 137), 90: (197, 25), 110: (30, 30), 130: (219, 137)}
        for start, (px, py) in taps.items():
            if start <= t < start + 3:
                return RawInput(touch=RawTouch(px, py))
        return RawInput()

    continue_both(d, other, script, 240)
    assert d.game["scores"] == other.game["scores"] and d.game["turn"] == 0


def test_suspend_while_the_computer_plays_its_turn(tmp_path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    d = Driver(tmp_path / "a", seed=3, draw=True, mode="cpu", level="4", first="2")
    for _ in range(2000):  # until the computer has selected and placed its card
        if d.game["field"] and any(
            isinstance(cell, dict) and cell["state"] == "provisional"
            for row in d.game["field"] for cell in row
        ):
            break
        d.frames(1)
    d.frames(5)
    other = resumed_copy(d, tmp_path)
    continue_both(d, other, lambda t: RawInput(), 200)
    assert d.game["turn"] == 0 and d.game["field"] == other.game["field"]


def test_a_finished_game_replays_turn_by_turn_from_records(tmp_path) -> None:
    import random

    from panels_driver import play_turn_by_taps

    from games.panels.rules import GameConfig, GameState

    d = Driver(tmp_path, seed=9, mode="two", target="100")
    mirror = GameState.new(GameConfig(seed=d.scene.game_seed, target=100))
    rng = random.Random(1)
    fields = [d.game["field"]]
    while not mirror.over:
        play_turn_by_taps(d, mirror, rng)
        fields.append(d.game["field"])
    d.frames(2)
    record = d.m.store.list_records("panels")[0].record
    # open it the way the Records screen does
    from firmware.game_api import GameContext
    from firmware.scenes.game_scene import GameScene

    cart = d.m.cartridges["panels"]
    ctx = GameContext(d.m, cart, cart.resolve_options({}), d.m.seed)
    d.m.push(GameScene(d.m, cart, ctx, cart.replay(ctx, record)))
    d.frames(1)
    g = d.game
    assert g["mode"] == "replay" and g["replay"]["turn"] == 0 and g["replay"]["turns"] >= 6
    assert g["field"] == fields[0]
    for turn in range(1, 4):
        d.tap("button:forward")
        seen_yaku = []
        for _ in range(600):  # the turn plays step by step, its yaku announced as they formed
            g = d.game
            if g["announce"]:
                seen_yaku.append(g["announce"])
            if g["replay"]["turn"] == turn and not g["animating"] and d.scene.replay_wait == 0:
                break
            d.frames(1)
        assert d.game["field"] == fields[turn]
    d.tap("button:back")
    assert d.game["field"] == fields[2]
    d.tap("button:last")
    assert d.game["field"] == fields[-1] and d.game["phase"] == "over"
    d.tap("button:first")
    assert d.game["field"] == fields[0]
