"""Records: a finished game saved as JSON replays move by move to the same final position."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.reversi.ai import choose_move
from games.reversi.records import GameRecord, RecordError
from games.reversi.rules import Game


def finished_game(seed: int) -> Game:
    rng = random.Random(seed)
    g = Game()
    while not g.over:
        g.play(rng.choice(sorted(g.legal())))
    return g


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_saved_record_replays_to_same_final_position(seed):
    g = finished_game(seed)
    record = GameRecord.from_game(g, "Player", "Computer (strong)", "2026-11-23T02:00:00Z")
    loaded = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    replay = loaded.replay()
    steps = 0
    while replay.forward() is not None:
        steps += 1
    assert steps == len(g.moves) and replay.at_end
    assert replay.game.position == g.position
    assert loaded.final_position().rows() == g.position.rows()
    assert loaded.winner == g.winner and loaded.black == "Player"
    # Stepping back and forth lands on the same positions.
    replay.back()
    replay.back()
    replay.forward()
    replay.forward()
    assert replay.game.position == g.position
    replay.seek(0)
    assert replay.at_start and replay.game.position == g.start
    # GGF export and import agree.
    again = GameRecord.from_ggf(loaded.to_ggf())
    assert again.game == g and (again.black, again.white) == (record.black, record.white)


def test_computer_game_record():
    g = Game()
    seed = 5
    while not g.over:
        g.play(choose_move(g.position, 1 if g.turn == "black" else 2, seed))
    record = GameRecord.from_game(g, "Computer (beginner)", "Computer (novice)")
    loaded = GameRecord.from_json(record.to_json())
    assert loaded.final_position() == g.position and loaded.moves == g.moves


def test_unfinished_or_inconsistent_records_are_refused():
    with pytest.raises(RecordError):
        GameRecord.from_game(Game(moves=["f5"]), "a", "b")
    good = GameRecord.from_game(finished_game(1), "a", "b").to_json()
    for broken in [
        {**good, "version": 99},
        {**good, "players": {"black": "a"}},
        {**good, "result": {"winner": "draw", "black": 32, "white": 32}},
        {**good, "game": {"moves": good["game"]["moves"][:-3]}},
        {**good, "game": {"moves": ["a1"]}},
        {**good, "date": 5},
        "nonsense",
    ]:
        if broken == good:
            continue
        with pytest.raises(RecordError):
            GameRecord.from_json(broken)
