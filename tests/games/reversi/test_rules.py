"""Rules: perft, the game object's state machine, notation and JSON, against a reference."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reversi_reference import count, legal, play, rows, start_board

from games.reversi.rules import (
    BLACK,
    PASS,
    WHITE,
    Game,
    GameDataError,
    IllegalMoveError,
    NotationError,
    Position,
    parse_move_list,
    parse_square,
    square_name,
)
from games.reversi.rules import bitboard as bb

# Published perft counts from the start position (passes count as a ply).
PERFT = [4, 12, 56, 244, 1396, 8200, 55092, 390216]


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft(depth):
    assert bb.perft(bb.START_BLACK, bb.START_WHITE, depth) == PERFT[depth - 1]


@pytest.mark.slow
def test_perft_depth_8():
    assert bb.perft(bb.START_BLACK, bb.START_WHITE, 8) == PERFT[7]


def test_start_state_matches_spec():
    g = Game()
    s = g.state()
    assert s["board"][3] == "...WB..." and s["board"][4] == "...BW..."
    assert s["turn"] == BLACK and s["status"] == "playing" and s["winner"] is None
    assert s["score"] == {"black": 2, "white": 2}
    assert sorted(s["legal"]) == ["c4", "d3", "e6", "f5"]


def test_illegal_move_changes_nothing():
    g = Game(moves=["f5"])
    before = (g.to_json(), g.state(), list(g.plies))
    for bad in ["a1", "f5", "zz", "", "e4"]:
        with pytest.raises((IllegalMoveError, NotationError)):
            g.play(bad)
        assert not g.is_legal(bad)
    assert (g.to_json(), g.state(), list(g.plies)) == before


def test_last_move_ends_game_when_loser_has_no_disc():
    start = Position.from_rows(
        [
            "BBBBBBBB",
            "BBBBBBBB",
            "BBBBBBBB",
            "BBBBBBBB",
            "BBBBBBBB",
            "BBBBBBBB",
            "BBBBBBW.",
            "BBBBBB..",
        ],
        BLACK,
    )
    g = Game(start)
    assert set(g.legal()) == {"g8", "h7", "h8"}
    out = g.play("h7")
    assert out.flipped == ["g7"]
    assert out.over and g.status == "over" and g.turn is None and g.winner == BLACK
    assert g.legal() == {}


def test_passes_found_in_seeded_playouts_match_reference():
    """Random games (seeded) contain passes; each one must be a real forced pass."""
    rng = random.Random(4)
    seen = 0
    for _ in range(300):
        g = Game()
        while not g.over:
            before = g.position
            out = g.play(rng.choice(list(g.legal())))
            if out.passed:
                seen += 1
                board = [list(r) for r in g.position.rows()]
                passer = "B" if out.passed == BLACK else "W"
                mover = "W" if passer == "B" else "B"
                assert not legal(board, passer) and legal(board, mover)
                assert g.status == "passed" and g.turn == before.turn
                assert g.plies[-1] == PASS
        if seen >= 5:
            break
    assert seen >= 5


def test_notation_round_trip_and_errors():
    for sq in range(64):
        assert parse_square(square_name(sq)) == sq
        assert parse_square(square_name(sq).upper()) == sq
    for bad in ["", "a", "a9", "i1", "a0", "11", "a1b"]:
        with pytest.raises(NotationError):
            parse_square(bad)
    assert parse_move_list("F5d6 C3-d3") == ["f5", "d6", "c3", "d3"]
    with pytest.raises(NotationError):
        parse_move_list("f5d")


@st.composite
def random_games(draw, max_plies=70):
    """A game played with moves chosen by hypothesis, checked against the reference on the way."""
    choices = draw(st.lists(st.integers(0, 1000), max_size=max_plies))
    return choices


@settings(max_examples=60, deadline=None)
@given(random_games())
def test_game_agrees_with_reference(choices):
    g = Game()
    board, me = start_board(), "B"
    for pick in choices:
        ref = legal(board, me)
        if not ref:
            other = "W" if me == "B" else "B"
            if not legal(board, other):
                break  # reference: game over
            me = other
            ref = legal(board, me)
        # Same side to move, same legal squares, same flips.
        assert g.turn == (BLACK if me == "B" else WHITE)
        ours = g.legal()
        assert {k: set(v) for k, v in ours.items()} == ref
        square = sorted(ref)[pick % len(ref)]
        out = g.play(square)
        assert set(out.flipped) == ref[square]
        board = play(board, me, square)
        me = "W" if me == "B" else "B"
        assert g.position.rows() == rows(board)
        assert g.score() == {"black": count(board, "B"), "white": count(board, "W")}
    over = not legal(board, "B") and not legal(board, "W")
    assert g.over == over
    if over:
        b, w = count(board, "B"), count(board, "W")
        assert g.winner == ("draw" if b == w else BLACK if b > w else WHITE)


@settings(max_examples=40, deadline=None)
@given(random_games())
def test_json_round_trip(choices):
    g = Game()
    for pick in choices:
        legal_now = list(g.legal())
        if not legal_now:
            break
        g.play(legal_now[pick % len(legal_now)])
    data = json.loads(json.dumps(g.to_json()))
    h = Game.from_json(data)
    assert h == g and h.state() == g.state() and h.plies == g.plies
    assert h.plies.count(PASS) == g.plies.count(PASS)


@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=5),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
        max_leaves=12,
    )
)
def test_from_json_rejects_garbage_cleanly(data):
    try:
        result = Game.from_json(data)
    except GameDataError as exc:
        assert str(exc)
    else:
        assert isinstance(result, Game) and result == Game.from_json(result.to_json())


def test_from_json_rejects_illegal_moves():
    with pytest.raises(GameDataError):
        Game.from_json({"moves": ["a1"]})
    with pytest.raises(GameDataError):
        Game.from_json({"start": {"board": ["x"], "turn": "black"}, "moves": []})
