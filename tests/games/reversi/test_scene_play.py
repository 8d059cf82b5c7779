"""R-REV-HH through the real firmware: D-pad play, games against the computer, records and
their replay from the launcher, suspend and resume, and random input (chaos)."""

from __future__ import annotations

import random

import pytest
from reversi_driver import Driver

from firmware.testing import machine_from_movie, run
from games.reversi.records import GameRecord
from games.reversi.rules import Game
from games.reversi.scene import layout
from hal.interfaces import Button, RawInput, RawTouch


def test_dpad_and_a_alone_play_a_move(tmp_path):
    # R-REV-HH-3: the firmware cursor walks the squares, A taps the one under it.
    d = Driver(tmp_path)
    d.press(Button.RIGHT)  # shows the cursor on the first hotspot (a1)
    assert d.m.dump()["cursor"] == "square:a1"
    for button in (Button.RIGHT, Button.RIGHT, Button.RIGHT, Button.DOWN, Button.DOWN):
        d.press(button)
    assert d.m.dump()["cursor"] == "square:d3"
    d.press(Button.A)
    d.settle()
    assert d.game["moves"] == ["d3"]
    # The buttons are reachable too: down from the board to the hint button, A cycles it.
    for _ in range(5):
        d.press(Button.DOWN)
    assert d.m.dump()["cursor"] == "square:d8"
    d.press(Button.DOWN)
    assert d.m.dump()["cursor"] == "button:restart"
    d.press(Button.UP)
    for _ in range(3):
        d.press(Button.RIGHT)
    assert d.m.dump()["cursor"] == "square:e8"
    d.press(Button.DOWN)
    assert d.m.dump()["cursor"] == "button:hint"
    d.press(Button.A)
    assert d.game["hint_level"] == "placeable"


def finish_against_computer(d: Driver, limit: int = 20000) -> None:
    """Play the first legal square (in notation order) whenever it is the player's turn."""
    for _ in range(limit):
        g = d.game
        if g["status"] == "over" and not g["animating"]:
            return
        s = d.scene
        if s.human_to_move() and s.anim is None:
            d.play(sorted(g["legal"])[0])
        else:
            d.frames(1)
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("human", ["black", "white"])
def test_a_game_against_the_computer_to_the_end_is_recorded(tmp_path, human):
    d = Driver(tmp_path, draw=False, mode="cpu", level="novice", color=human)
    if human == "white":
        assert d.scene.computer_to_move()
    finish_against_computer(d)
    g = d.game
    assert g["winner"] in ("black", "white", "draw") and g["turn"] is None
    # The stored record replays to the same final position and result (R-REV-HH-4).
    stored = d.m.store.list_records("reversi")
    assert len(stored) == 1
    record = GameRecord.from_json(stored[0].record)
    assert record.final_position().rows() == g["board"] and record.moves == g["moves"]
    expected = "draw" if g["winner"] == "draw" else "win" if g["winner"] == human else "loss"
    assert stored[0].record["outcome"] == expected
    stats = d.m.store.get_stats("reversi")
    assert stats["played"] == 1
    # Every computer decision waited for the minimum delay, so no move was instant: the
    # number of ticks is at least the delay times the computer's moves.
    assert d.m.tick > 24 * (len(g["moves"]) // 2 - 2)


def test_the_computer_is_deterministic_for_seed_and_level(tmp_path):
    games = []
    for i in range(2):
        d = Driver(tmp_path / str(i), seed=11, draw=False, mode="cpu", level="strong")
        for _ in range(2):
            d.play(sorted(d.game["legal"])[0])
            d.settle()
        games.append(d.game["moves"])
    assert games[0] == games[1] and len(games[0]) >= 4


def test_record_replays_from_the_launchers_records(tmp_path):
    d = Driver(tmp_path, draw=False, mode="cpu", level="beginner")
    finish_against_computer(d)
    final = d.game
    d.draw = True
    d.press(Button.START)
    assert d.m.scene.name == "pause"
    d.tap("item:quit")
    assert d.m.scene.name == "launcher"
    d.tap("button:records")
    assert d.m.scene.name == "records"
    d.tap("record:0")
    replay = d.m.dump()["game"]
    assert replay["replay"] == {"index": 0, "total": len(final["moves"])}
    assert replay["board"] == Game().position.rows()
    # R steps forward (with the flip animation), L back, the buttons go to the ends.
    d.press(Button.R)
    d.settle()
    assert d.game["moves"] == final["moves"][:1] and d.game["replay"]["index"] == 1
    d.press(Button.R)
    d.press(Button.L)
    d.settle()
    assert d.game["replay"]["index"] == 1
    d.tap("button:last")
    assert d.game["board"] == final["board"] and d.game["winner"] == final["winner"]
    assert d.game["moves"] == final["moves"]
    d.tap("button:forward")  # at the end: nothing further
    assert d.game["replay"]["index"] == len(final["moves"])
    d.tap("button:first")
    assert d.game["board"] == Game().position.rows()
    d.tap("button:forward")
    d.settle()
    assert d.game["moves"] == final["moves"][:1]


def test_a_damaged_record_opens_as_a_message_not_a_crash(tmp_path):
    d = Driver(tmp_path)
    scene = d.scene
    from games.reversi.cartridge import CARTRIDGE

    broken = CARTRIDGE.replay(scene.ctx, {"version": 1, "game": {"moves": ["a1"]}})
    assert broken.hotspots() == {}
    assert broken.dump()["message"] == "This record cannot be read."


def run_with(d: Driver, script, frames: int) -> None:
    d.m.hal.input.script = script
    run(d.m, frames)


def test_suspend_and_resume_is_exact_mid_thought_and_mid_animation(tmp_path):
    # A game resumed on a fresh machine from a saved slot continues frame for frame like the
    # uninterrupted one: while the computer thinks (its decision restarted), while discs
    # flip, and on the player's turn with full hints and a preview up.
    a = Driver(tmp_path / "a", seed=4, mode="cpu", level="strong", color="white")
    checkpoints = {
        "thinking": lambda s: s.thinking and s.think_calls > 10,  # well into a thought
        "animating": lambda s: s.anim is not None and s.anim.age > 2,
        "preview": lambda s: s.preview is not None,
    }
    for name, reached in checkpoints.items():
        for _ in range(3000):
            if reached(a.scene):
                break
            if name == "preview" and a.scene.human_to_move() and a.scene.anim is None:
                a.tap("button:hint")
                a.tap("button:hint")
                a.tap(f"square:{sorted(a.game['legal'])[0]}")
            elif name != "preview" and a.scene.human_to_move() and a.scene.anim is None:
                # discs turn over again / the computer thinks again (how long a decision
                # takes depends on the evaluation's weights)
                a.tap(f"square:{sorted(a.game['legal'])[0]}")
            else:
                a.frames(1)
        assert reached(a.scene), name
        slot = {
            "game": "reversi",
            "options": dict(a.scene.ctx.options),
            "state": a.scene.save_state(),
        }
        c = Driver(tmp_path / name, seed=99, mode="two")  # other seed and options: all restored
        c.m.restore(slot)
        c.frames(1)
        a.frames(1)
        for _ in range(40):
            assert c.game == a.game, name
            assert c.scene.save_state() == a.scene.save_state(), name
            assert c.m.frame_hash() == a.m.frame_hash(), name
            a.frames(1)
            c.frames(1)


def test_lid_suspend_stores_the_exact_state_with_hints_and_preview(tmp_path):
    d = Driver(tmp_path)
    d.play("f5")
    d.tap("button:hint")
    d.tap("button:hint")
    d.tap("square:f6")
    before = d.scene.save_state()
    dump, frame = d.game, d.m.frame_hash()
    run_with(d, lambda t: RawInput(lid_closed=True), 20)
    saved = d.m.store.load_suspend()
    assert saved is not None and saved.game_id == "reversi" and saved.state == before
    run_with(d, lambda t: RawInput(), 5)
    assert d.game == dump and d.m.frame_hash() == frame
    assert dump["preview"] == "f6" and dump["hint_level"] == "full"


def test_bad_saved_states_are_refused(tmp_path):
    d = Driver(tmp_path)
    good = d.scene.save_state()
    for bad in (
        {},
        {**good, "version": 99},
        {**good, "hint_level": "lots"},
        {**good, "preview": "a1"},
        {**good, "game": {"moves": ["a1"]}},
        {**good, "level": 42},
        {**good, "anim": {"square": "f5"}},
    ):
        with pytest.raises(ValueError):
            d.scene.load_state(bad)


@pytest.mark.parametrize("mode", ["two", "cpu"])
def test_chaos_random_input_never_crashes(tmp_path, mode):
    """Bursts of random input for 3000 frames: taps on legal squares (so games progress),
    on any square, anywhere, buttons held briefly or long; never a crash, never a state
    that is not the legal game of its own move list."""
    rng = random.Random(f"chaos-{mode}")
    buttons = [b for b in Button if b is not Button.START]
    m = machine_from_movie(tmp_path, game="reversi", seed=3, options={"mode": mode})
    burst = {"end": 0, "raw": RawInput()}

    def script(t: int) -> RawInput:
        if t < burst["end"]:
            return burst["raw"]
        if t < burst["end"] + 2:  # a gap, so the next touch is a new touch-down
            return RawInput()
        roll, length = rng.random(), rng.choice((1, 3, 3, 3, 8, 40))
        legal = m.game_scene().game.game.legal()
        if roll < 0.45 and legal:
            x, y = layout.SQUARE_RECTS[rng.choice(sorted(legal))].center
            raw = RawInput(touch=RawTouch(x, y))
        elif roll < 0.6:
            x, y = rng.choice(list(layout.SQUARE_RECTS.values())).center
            raw = RawInput(touch=RawTouch(x + rng.randint(-8, 8), y + rng.randint(-8, 8)))
        elif roll < 0.75:
            raw = RawInput(touch=RawTouch(rng.randrange(256), rng.randrange(192)))
        elif roll < 0.95:
            raw = RawInput(held=frozenset({rng.choice(buttons)}))
        else:
            raw = RawInput()
        burst.update(end=t + length, raw=raw)
        return raw

    m.hal.input.script = script
    most = 0
    for i in range(3000):
        run(m, 1, draw=i % 5 == 0)
        assert m.scene.name == "reversi", m.scene.name
        most = max(most, len(m.game_scene().game.game.moves))
    assert most >= 10, most  # the random input did play (and restart, and cycle the hints)
    dump = m.dump()["game"]
    assert dump["status"] in ("playing", "passed", "over")
    replayed = Game(moves=dump["moves"])
    assert dump["board"] == replayed.position.rows() and dump["turn"] == replayed.turn
    assert dump["preview"] is None or dump["preview"] in dump["legal"]


def test_taps_on_the_computers_turn_change_nothing(tmp_path):
    d = Driver(tmp_path, mode="cpu", level="strong", color="white")  # thinks for a while
    assert d.scene.thinking
    before = d.game
    for square in before["legal"]:  # legal for the computer (black), not for the player
        d.tap(f"square:{square}")
        assert d.game == before and d.scene.thinking
    d.tap("button:hint")  # the hint level can change, but no marks show on its turn
    assert d.game["hint_level"] == "placeable" and d.scene.human_to_move() is False
