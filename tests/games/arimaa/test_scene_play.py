"""R-ARI-HH through the real firmware, by taps only: whole engine games entered step by step,
undo, refused Done, taps that change nothing, clocks and the game limit."""

from __future__ import annotations

import pytest
from arimaa_driver import Driver, boards_after, engine_game, game_with_everything

from games.arimaa.rules import Game
from games.arimaa.rules.notation import write_record, write_short
from games.arimaa.rules.position import named_setup
from games.arimaa.rules.score import score


@pytest.mark.parametrize("start", [0, 500])
def test_two_player_game_entered_by_taps_matches_the_engine(tmp_path, start):
    engine = game_with_everything(start)
    d = Driver(tmp_path, seed=start, draw=False)
    replay = Game()
    for side in (0, 1):
        assert d.game["phase"] == "setup" and d.game["side"] == "gs"[side]
        d.arrange(engine.setups[side])
        d.tap("button:ok")
        replay.setup(engine.setups[side])
        assert d.game["record"] == write_record(replay).splitlines()
    for turn in engine.turns:
        d.enter_turn([(s.frm, s.to) for s in turn])
        replay.play_turn([(s.frm, s.to) for s in turn])
        g = d.game
        assert g["position"] == write_short(replay.position)
        assert g["record"] == write_record(replay).splitlines()
    g = d.game
    assert engine.result is not None
    assert g["phase"] == "over" and g["reason"] == "goal"
    assert g["winner"] == "gs"[engine.result.winner]
    assert "button:play-again" in d.hotspots() and "button:back" in d.hotspots()
    stored = d.m.store.list_records("arimaa")
    assert len(stored) == 1 and stored[0].record["record"] == write_record(engine)


def start_play(d: Driver) -> None:
    d.tap("button:ok")
    d.tap("button:ok")
    assert d.game["phase"] == "play"


def test_undo_restores_the_exact_position(tmp_path):
    d = Driver(tmp_path)
    start_play(d)
    before = d.game
    d.tap("square:d2")  # the elephant
    d.tap("square:d3")
    d.tap("square:c2")  # the cat onto the trap, guarded by the elephant
    d.tap("square:c3")
    assert d.game["steps"] == ["Ed2n", "Cc2n"]
    d.tap("square:d3")  # walking the elephant away would lose the cat: warned before
    assert "c4" not in d.game["targets"] and "d4" in d.game["targets"]
    assert "trap" in d.game["message"]
    d.tap("square:d4")
    assert d.game["steps"] == ["Ed2n", "Cc2n", "Ed3n", "Cc3x"]
    for _ in range(3):
        d.tap("button:undo")
    after = d.game
    assert after["position"] == before["position"] and after["steps"] == []
    assert after["record"] == before["record"]


def test_done_refuses_an_unchanged_position_with_the_reason_on_screen(tmp_path):
    d = Driver(tmp_path)
    start_play(d)
    d.tap("square:d2")
    d.tap("square:d3")
    d.tap("square:d3")
    d.tap("square:d2")
    shown = d.frame_hash()
    d.tap("button:done")
    g = d.game
    assert g["phase"] == "play" and g["side"] == "g" and len(g["record"]) == 2
    assert g["message"] == "The turn must change the position."
    assert d.frame_hash() != shown


def test_done_refuses_a_third_repetition(tmp_path):
    d = Driver(tmp_path)
    start_play(d)
    shuffle = [[(8, 16)], [(48, 40)], [(16, 8)], [(40, 48)]]  # Ha2n ha7s Ha3s ha6n
    for turn in shuffle * 2:
        d.enter_turn(turn)
    g = d.game
    assert len(g["record"]) == 2 + 7 and g["side"] == "s"
    assert g["message"] == "That position would occur a third time."
    assert g["steps"] == ["ha6n"]


def test_done_after_the_fourth_step_and_it_can_be_undone(tmp_path):
    d = Driver(tmp_path)
    start_play(d)
    for a, b in (("a2", "a3"), ("a3", "a4"), ("a4", "a5"), ("a5", "a6")):
        d.tap(f"square:{a}")
        d.tap(f"square:{b}")
    g = d.game
    assert g["side"] == "g" and len(g["steps"]) == 4 and g["movable"] == []
    d.tap("button:undo")
    assert len(d.game["steps"]) == 3
    d.tap("square:a5")
    d.tap("square:b5")
    d.tap("button:done")
    assert d.game["side"] == "s" and d.game["record"][-1] == "2g Ha2n Ha3n Ha4n Ha5e"


def test_taps_that_are_not_allowed_change_nothing(tmp_path):
    d = Driver(tmp_path, setup="default")
    d.frames(2)
    assert d.game["phase"] == "play"
    # The silver elephant walks d7-d6-d5-c5-b5-b4 and freezes the gold horse on a4.
    d.enter_turn([(8, 16)])  # Ha2n
    d.enter_turn([(51, 43), (43, 35), (35, 34), (34, 33)])  # ed7s ed6s ed5w ec5w
    d.enter_turn([(16, 24)])  # Ha3n
    d.enter_turn([(33, 25)])  # eb5s
    g = d.game
    assert g["side"] == "g" and "a4" in g["frozen"]
    # A frozen piece, enemies that cannot be moved now, an empty square: nothing changes.
    for name in ["square:a4", "square:h7", "square:b4", "square:e5"]:
        before, shown = d.game, d.frame_hash()
        d.tap(name)
        assert d.game == before, name
        assert d.frame_hash() == shown, name
    # With a piece selected, a square that is not its target changes nothing either.
    d.tap("square:b2")  # the dog
    assert d.game["selected"] == "b2" and d.game["targets"] == ["a2", "b3"]
    before, shown = d.game, d.frame_hash()
    d.tap("square:h5")
    assert d.game == before and d.frame_hash() == shown


def test_drag_makes_a_step_and_swaps_in_setup(tmp_path):
    d = Driver(tmp_path)
    d.drag("square:a1", "square:d2")  # rabbit and elephant change places
    assert d.game["setup"] == ["ERRRRRRR", "HDCRMCDH"]
    d.tap("button:ok")
    d.tap("button:ok")
    d.drag("square:a2", "square:a3")
    assert d.game["steps"] == ["Ha2n"]


def test_clock_expiry_ends_the_game_with_the_right_winner(tmp_path):
    d = Driver(tmp_path, draw=False, clock="30s")
    d.tap("button:ok")  # gold sets up in time
    assert d.game["side"] == "s"
    d.frames(30 * 60 + 2)  # silver lets 30 s pass
    g = d.game
    assert g["phase"] == "over" and g["reason"] == "time" and g["winner"] == "g"


def test_game_limit_ends_the_game_by_score(tmp_path):
    # "10t": halted once both sides completed ten turns (the setup is turn 1).
    engine = next(g for g in (engine_game(seed) for seed in range(50)) if len(g.turns) > 20
                  and score(boards_after(g, 18), 0) != score(boards_after(g, 18), 1))
    d = Driver(tmp_path, draw=False, clock="0:30/5/100/3/10t/0")
    for side in (0, 1):
        d.arrange(engine.setups[side])
        d.tap("button:ok")
    for turn in engine.turns[:18]:
        assert d.game["phase"] == "play"
        d.enter_turn([(s.frm, s.to) for s in turn])
    g = d.game
    boards = boards_after(engine, 18)
    assert g["phase"] == "over" and g["reason"] == "score"
    assert len(g["record"]) == 20
    gold, silver = score(boards, 0), score(boards, 1)
    assert g["score"] == {"g": gold, "s": silver}
    assert g["winner"] == ("g" if gold > silver else "s")


def test_named_setup_option_skips_the_setup_screen(tmp_path):
    d = Driver(tmp_path, setup="99of9")
    d.frames(2)
    g = d.game
    assert g["phase"] == "play"
    game = Game()
    game.setup(named_setup(0, "99of9"))
    game.setup(named_setup(1, "99of9"))
    assert g["record"] == write_record(game).splitlines()
