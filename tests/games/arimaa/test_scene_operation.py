"""R-ARI-HH operation through the real firmware: the D-pad alone, suspend and resume (setup,
mid-turn, while the computer thinks), games against the computer, records, replay, export,
help pages and resignation."""

from __future__ import annotations

import random
from typing import Any

import pytest
from arimaa_driver import Driver

from firmware.testing import run
from games.arimaa.ai.goal import find_goal
from games.arimaa.rules.notation import write_record
from games.arimaa.rules.randomplay import random_turn
from hal.interfaces import Button, RawInput


def test_dpad_and_a_alone_play_a_whole_turn(tmp_path):
    d = Driver(tmp_path)
    d.cursor_to("square:a1")
    d.press(Button.A)  # select the rabbit on a1 ...
    d.cursor_to("square:d2")
    d.press(Button.A)  # ... and swap it with the elephant
    assert d.game["setup"] == ["ERRRRRRR", "HDCRMCDH"]
    d.cursor_to("button:ok")
    d.press(Button.A)
    d.cursor_to("button:ok")
    d.press(Button.A)
    assert d.game["phase"] == "play"
    for square in ("square:d2", "square:d3", "square:a2", "square:a3"):
        d.cursor_to(square)
        d.press(Button.A)
    assert d.game["steps"] == ["Rd2n", "Ha2n"]
    d.cursor_to("button:done")
    d.press(Button.A)
    g = d.game
    assert g["side"] == "s" and g["record"][-1] == "2g Rd2n Ha2n"


def human_turn(d: Driver, rng: random.Random) -> None:
    """A random legal turn (a goal when there is one) entered by taps."""
    game = d.scene.game
    goal = find_goal(game.position.boards, game.position.side)
    if goal:
        steps = goal
    else:
        twin = game.copy()
        random_turn(twin, rng)
        steps = [(s.frm, s.to) for s in twin.turns[-1]]
    d.enter_turn(steps)


def play_against_computer(d: Driver, seed: int, limit: int = 400) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        d.settle()
        g = d.game
        if g["phase"] == "over":
            return
        if g["phase"] == "setup":
            d.tap("choice:random")
            d.tap("button:ok")
        else:
            human_turn(d, rng)
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("color", ["gold", "silver"])
def test_a_game_against_the_computer_is_recorded_and_replays(tmp_path, color):
    d = Driver(tmp_path, draw=False, mode="cpu", level="1", color=color)
    if color == "silver":
        assert d.scene.thinking  # the computer (gold) sets up first
    play_against_computer(d, 3)
    final = d.game
    assert final["phase"] == "over" and final["mode"] == "cpu" and final["level"] == 1
    stored = d.m.store.list_records("arimaa")
    assert len(stored) == 1
    record = stored[0].record
    assert record["record"].splitlines() == final["record"]
    won = final["winner"] == color[0]
    assert record["outcome"] == ("win" if won else "loss")
    # Replay through the launcher's Records: step by step to the same end.
    d.draw = True
    d.press(Button.START)
    d.tap("item:quit")
    d.tap("button:records")
    d.tap("record:0")
    replay = d.game
    assert replay["mode"] == "replay" and replay["replay"]["index"] == 0
    assert replay["record"] == []
    d.press(Button.R)
    assert d.game["replay"]["index"] == 1 and d.game["record"] == final["record"][:1]
    d.tap("button:last")
    g = d.game
    assert g["record"] == final["record"] and g["winner"] == final["winner"]
    assert g["reason"] == final["reason"] and g["position"] == final["position"]
    d.tap("button:back")
    assert d.game["replay"]["index"] == g["replay"]["total"] - 1
    d.tap("button:first")
    assert d.game["record"] == [] and d.game["replay"]["index"] == 0


def test_an_exported_record_reads_in_the_aei_packages_tools(tmp_path):
    from pyrimaa import board as pboard
    from pyrimaa.analyze import parse_start

    from games.arimaa.records import export_text

    d = Driver(tmp_path, draw=False, mode="cpu", level="1")
    play_against_computer(d, 5)
    record = d.m.store.list_records("arimaa")[0].record
    lines = export_text(record).splitlines()
    # As `analyze FILE LABEL` does: the moves up to the label, replayed with full checks.
    have_board, moves = parse_start(lines, stop_move=lines[-1])
    assert not have_board and len(moves) == len(d.game["record"])
    pos = pboard.Position(pboard.Color.GOLD, 4, pboard.BLANK_BOARD)
    for full_move in moves:
        pos = pos.do_move_str(full_move.split(" ", 1)[1], True)
    assert pos.board_to_str("short") == d.game["position"]


def slot_of(d: Driver) -> dict[str, Any]:
    return {"game": "arimaa", "options": dict(d.scene.ctx.options),
            "state": d.scene.save_state()}


def assert_same_continuation(a: Driver, tmp_path, name: str, script=None, frames: int = 60
                             ) -> None:
    """A fresh machine restored from `a`'s slot continues frame for frame like `a`."""
    c = Driver(tmp_path / name, seed=77, mode="two")  # other seed and options: all restored
    c.m.restore(slot_of(a))
    for d in (a, c):
        d.m.hal.input.script = script or (lambda t: RawInput())
    for _ in range(frames):
        run(a.m, 1)
        run(c.m, 1)
        assert c.game == a.game, name
        assert c.scene.save_state() == a.scene.save_state(), name
        assert c.m.frame_hash() == a.m.frame_hash(), name


def test_suspend_and_resume_in_setup_mid_turn_and_while_the_computer_thinks(tmp_path):
    a = Driver(tmp_path / "a", seed=4, mode="cpu", level="3", color="gold", clock="30s")
    a.tap("square:b1")
    a.tap("square:e2")
    a.tap("square:c1")  # a selection is kept too
    assert a.game["setup"] == ["RMRRRRRR", "HDCERCDH"] and a.game["setup_selected"] == "c1"
    assert_same_continuation(a, tmp_path, "setup")
    a.tap("button:ok")
    a.settle()  # the computer sets up
    a.tap("square:d2")
    a.tap("square:d3")
    a.tap("square:c2")
    a.tap("square:c3")
    a.tap("square:d3")
    assert a.game["steps"] == ["Ed2n", "Cc2n"] and a.game["selected"] == "d3"
    assert_same_continuation(a, tmp_path, "mid-turn")
    a.tap("button:done")
    for _ in range(40):
        a.frames(1)
    assert a.scene.thinking and a.scene.match.seats[1].calls > 10
    assert_same_continuation(a, tmp_path, "thinking", frames=120)


def test_lid_close_suspends_mid_turn_and_opening_continues(tmp_path):
    d = Driver(tmp_path)
    d.tap("button:ok")
    d.tap("button:ok")
    d.tap("square:d2")
    d.tap("square:d3")
    before = d.scene.save_state()
    dump = d.game
    d.m.hal.input.script = lambda t: RawInput(lid_closed=True)
    run(d.m, 20)
    saved = d.m.store.load_suspend()
    assert saved is not None and saved.game_id == "arimaa" and saved.state == before
    d.frames(5)
    assert d.game == dump


def test_help_pages_from_the_help_button(tmp_path):
    d = Driver(tmp_path, setup="default")
    d.frames(2)
    d.tap("button:help")
    assert d.game["help"] == 0 and set(d.hotspots()) == {"button:prev", "button:close",
                                                         "button:next"}
    for page in range(1, 7):
        d.tap("button:next")
        assert d.game["help"] == page
    d.tap("button:next")
    assert d.game["help"] == 6
    d.tap("button:close")
    assert d.game["help"] is None and "square:a1" in d.hotspots()


def test_resign_needs_a_second_tap(tmp_path):
    d = Driver(tmp_path, setup="default")
    d.frames(2)
    d.tap("button:resign")
    assert d.game["phase"] == "play"
    d.tap("button:resign")
    g = d.game
    assert g["phase"] == "over" and g["reason"] == "resignation" and g["winner"] == "s"
    d.tap("button:play-again")
    assert d.game["phase"] == "setup" or d.game["phase"] == "play"
    assert d.game["record"] == [] or len(d.game["record"]) == 2


def test_computer_turn_is_animated_and_a_tap_skips_it(tmp_path):
    d = Driver(tmp_path, mode="cpu", level="1", setup="default")
    d.settle()  # the computer sets up with its own choice
    d.enter_turn([(8, 16)])
    for _ in range(400):
        if d.scene.anim is not None:
            break
        d.frames(1)
    assert d.game["animating"] and len(d.game["record"]) == 4
    position = write_record(d.scene.game)
    d.tap("square:e5")
    assert not d.game["animating"] and write_record(d.scene.game) == position


def test_the_board_turns_for_silver_in_two_player_mode(tmp_path):
    d = Driver(tmp_path, setup="default")
    d.frames(2)
    gold_view = d.hotspots()["square:a1"]
    d.enter_turn([(8, 16)])
    silver_view = d.hotspots()["square:a1"]
    assert gold_view[1] > 150 and silver_view[1] < 10  # a1 bottom-left, then top-right
    assert silver_view[0] > gold_view[0]
    fixed = Driver(tmp_path / "fixed", setup="default", rotate="off")
    fixed.frames(2)
    fixed.enter_turn([(8, 16)])
    assert fixed.hotspots()["square:a1"] == gold_view


def test_last_setup_is_remembered_for_the_next_game(tmp_path):
    d = Driver(tmp_path)
    d.tap("choice:fort")
    d.tap("square:a1")
    d.tap("square:h1")
    mine = d.game["setup"]
    d.tap("button:ok")
    d.tap("button:ok")
    d.tap("button:resign")
    d.tap("button:resign")
    d.tap("button:play-again")
    assert d.game["phase"] == "setup" and d.game["setup"] == mine  # offered first
    d.tap("choice:default")
    assert d.game["setup"] != mine
    d.tap("choice:last")
    assert d.game["setup"] == mine
    # The stored record keeps it for later sessions.
    record = d.m.store.list_records("arimaa")[0].record
    assert record["setups"][0] == mine and record["humans"] == [True, True]
    d.m.start_game("arimaa", {"mode": "two"})  # a new game reads it from the store
    d.frames(1)
    assert d.game["setup"] == mine


def test_bad_saved_states_and_records_are_refused(tmp_path):
    from games.arimaa.cartridge import CARTRIDGE

    d = Driver(tmp_path, setup="default")
    d.frames(2)
    good = d.scene.save_state()
    for bad in (
        {},
        {**good, "version": 9},
        {**good, "mode": "chess"},
        {**good, "draft_steps": [[0, 63]]},
        {**good, "arrangement": {"0": ["RRRRRRRR", "RRRRRRRR"]}},
        {**good, "match": {"rules": {"setups": "x"}}},
    ):
        with pytest.raises(ValueError):
            d.scene.load_state(bad)
    d.scene.load_state(good)
    assert d.scene.save_state() == good
    assert CARTRIDGE.replay is not None
    broken = CARTRIDGE.replay(d.scene.ctx, {"format": "arimaa-record-1", "actions": [[0, "ff"]]})
    assert broken.hotspots() == {}
    assert broken.dump()["message"] == "This record cannot be read."


def test_every_text_has_english_and_japanese():
    from games.arimaa.scene import texts as tx

    pairs = [v for v in vars(tx).values() if isinstance(v, tuple) and len(v) == 2
             and all(isinstance(x, str) for x in v)]
    pairs += list(tx.REFUSALS.values()) + list(tx.REASONS.values())
    pairs += [p for page in tx.HELP_PAGES for p in page]
    assert len(pairs) > 40
    for en, ja in pairs:
        assert en.strip() and ja.strip()
        assert en != ja or en == "Lv"
