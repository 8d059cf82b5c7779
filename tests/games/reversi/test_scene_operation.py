"""R-REV-OP through the real firmware: selecting squares, passes, illegal taps, input during
the flip animation, the hint button's cycle and restart."""

from __future__ import annotations

from reversi_driver import INITIAL_DUMP, Driver, position_before_pass

from games.reversi.rules import Game, Position


def test_initial_state_is_the_specs(tmp_path):
    d = Driver(tmp_path)
    assert d.game == INITIAL_DUMP
    assert d.m.scene.name == "reversi"


def test_a_legal_square_places_flips_and_hands_over(tmp_path):
    # R-REV-OP-1: f5 brackets e5, so black has 4 discs, white 1, and white is to move.
    d = Driver(tmp_path)
    d.play("f5")
    g = d.game
    assert g["board"][3] == "...WB..." and g["board"][4] == "...BBB.."
    assert g["score"] == {"black": 4, "white": 1}
    assert g["turn"] == "white" and g["moves"] == ["f5"]
    assert sorted(g["legal"]) == ["d6", "f4", "f6"]


def test_an_illegal_tap_changes_nothing_at_all(tmp_path):
    # R-REV-OP-3: whole dump and both screens identical after tapping illegal squares.
    d = Driver(tmp_path)
    d.frames(3)
    before, frame = d.game, d.m.frame_hash()
    for square in ("a1", "d4", "e5", "h8", "c3"):
        d.tap(f"square:{square}")
        assert d.game == before
        assert d.m.frame_hash() == frame
    # ... also with hints shown and a preview up: the preview stays where it was.
    d.tap("button:hint")
    d.tap("square:d3")
    before, frame = d.game, d.m.frame_hash()
    assert before["preview"] == "d3"
    d.tap("square:a8")
    assert d.game == before and d.m.frame_hash() == frame


def test_board_input_is_ignored_while_discs_flip(tmp_path):
    # R-REV-OP-4: a tap on a square that is legal for white, during black's flip, is dropped.
    d = Driver(tmp_path)
    d.tap("square:f5", after=1)
    assert d.game["animating"] is True and d.game["turn"] == "white"
    tried = 0
    for square in ("f6", "d6", "f4"):
        if not d.game["animating"]:
            break
        d.tap(f"square:{square}", after=1)  # touches down while the discs still turn
        tried += 1
        assert d.game["moves"] == ["f5"]
    assert tried >= 2
    d.settle()
    g = d.game
    assert g["animating"] is False and g["moves"] == ["f5"] and g["turn"] == "white"
    # With hints on, a preview tap during the animation is dropped as well.
    d.tap("button:hint")
    d.tap("square:f6")
    d.tap("square:f6", after=1)
    assert d.game["animating"] is True
    d.tap("square:c5", after=1)  # legal for black next, still animating
    assert d.game["preview"] is None and d.game["moves"] == ["f5", "f6"]


def test_pass_is_automatic_and_announced(tmp_path):
    # R-REV-OP-2 and R-REV-VIEW-10: after the move, the other side cannot move and passes.
    game, square, passer = position_before_pass(seed=3)
    d = Driver(tmp_path)
    d.restore(game)
    mover = game.turn
    d.play(square)
    g = d.game
    assert g["status"] == "passed"
    assert g["turn"] == mover  # the turn came straight back
    assert g["message"] == f"{passer.capitalize()} passed"
    # The message lasts until the next move.
    d.play(g["legal"][0])
    assert d.game["message"] == "" or d.game["status"] != "playing"


def test_game_ends_when_neither_side_can_move(tmp_path):
    # R-REV-OP-2: black takes the last white disc; nobody can move -> over, black wins.
    rows = ["BW......"] + ["........"] * 7
    d = Driver(tmp_path)
    d.restore(Game(Position.from_rows(rows, "black")))
    d.play("c1")
    g = d.game
    assert g["status"] == "over" and g["winner"] == "black" and g["turn"] is None
    assert g["score"] == {"black": 3, "white": 0}
    assert g["message"] == "Black wins!"
    assert list(d.hotspots()) == ["button:play-again"]


def test_hint_button_cycles_none_placeable_full(tmp_path):
    # R-REV-OP-5.
    d = Driver(tmp_path)
    seen = [d.game["hint_level"]]
    for _ in range(6):
        d.tap("button:hint")
        seen.append(d.game["hint_level"])
    assert seen == ["none", "placeable", "full", "none", "placeable", "full", "none"]


def test_hint_off_clears_the_preview(tmp_path):
    d = Driver(tmp_path)
    d.tap("button:hint")
    d.tap("square:c4")
    assert d.game["preview"] == "c4"
    d.tap("button:hint")
    assert d.game["preview"] == "c4" and d.game["hint_level"] == "full"
    d.tap("button:hint")
    assert d.game["preview"] is None and d.game["hint_level"] == "none"


def test_restart_resets_everything_including_the_hint_level(tmp_path):
    # R-REV-OP-6: to R-REV-STATE's initial state, hint level none, and the same screens.
    d = Driver(tmp_path)
    d.frames(2)
    first_frame = d.m.frame_hash()
    d.play("f5")
    d.play("f6")
    d.tap("button:hint")
    d.tap("button:hint")
    d.tap("square:e6")
    assert d.game["preview"] == "e6" and d.game["hint_level"] == "full"
    d.tap("button:restart")
    d.frames(2)
    assert d.game == INITIAL_DUMP
    assert d.m.frame_hash() == first_frame


def test_restart_during_the_animation_stops_it(tmp_path):
    d = Driver(tmp_path)
    d.tap("square:f5", after=1)
    assert d.game["animating"]
    d.tap("button:restart")
    assert d.game == INITIAL_DUMP
