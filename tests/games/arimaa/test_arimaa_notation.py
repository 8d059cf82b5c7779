"""Notation (R-ARI-NOTE): round trips over random games, diagrams, the AEI short form, and
malformed input rejected with the offending token named."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.arimaa.rules.game import Game
from games.arimaa.rules.notation import (
    NotationError,
    apply_move,
    parse_diagram,
    parse_record,
    parse_setup,
    parse_short,
    parse_step_token,
    write_diagram,
    write_record,
    write_short,
)
from games.arimaa.rules.position import named_setup
from games.arimaa.rules.randomplay import random_game


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), turns=st.integers(0, 30))
def test_record_round_trip_over_random_games(seed: int, turns: int) -> None:
    game = random_game(seed, turns)
    text = write_record(game)
    again = parse_record(text)
    assert again.current == game.current
    assert again.result == game.result
    assert write_record(again) == text
    # old colour letters are accepted too
    old = "\n".join(
        line.replace("g ", "w ", 1)
        if line.split()[0].endswith("g")
        else line.replace("s ", "b ", 1)
        for line in text.splitlines()
    )
    assert parse_record(old).current == game.current
    # and the JSON save replays to the same game
    saved = json.loads(json.dumps(game.to_json()))
    assert Game.from_json(saved).current == game.current


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), turns=st.integers(0, 30))
def test_diagram_and_short_form_round_trip(seed: int, turns: int) -> None:
    game = random_game(seed, turns)
    pos = game.current
    back, label = parse_diagram(write_diagram(pos, game.turn_label))
    assert back == pos and label == game.turn_label
    side = "gs"[pos.side]
    assert parse_short(side, write_short(pos)) == pos


def test_setup_and_step_tokens() -> None:
    side, placement = parse_setup("Ra1 Rb1 Ed2")
    assert side == 0 and placement == {0: 0, 1: 0, 11: 5}
    assert parse_step_token("Ed2n") == (0, 5, 11, "n")
    assert parse_step_token("rc3x") == (1, 0, 18, "x")


@pytest.mark.parametrize(
    ("text", "token", "why"),
    [
        ("Ed2q", "Ed2q", "direction"),
        ("Xd2n", "Xd2n", "piece letter"),
        ("Ei2n", "Ei2n", "square"),
        ("Ed2", "Ed2", "step"),
        ("Ea8n", "Ea8n", "leaves the board"),
        ("Ed4x", "Ed4x", "traps"),
        ("Ed2n Ee3x", "Ee3x", "capture"),
        ("Ma2n", "Ma2n", "holds"),
        ("Ed2n Ed3n Ed4n Ed5n Ed6n", "Ed6n", "no steps left"),
        ("Rd1s", "Rd1s", "leaves the board"),
        ("Ha2n Ra1n Ra2s", "Ra2s", "backwards"),
    ],
)
def test_malformed_or_illegal_moves_name_the_token(text: str, token: str, why: str) -> None:
    game = Game()
    game.setup(named_setup(0, "default"))
    game.setup(named_setup(1, "default"))
    before = game.to_json()
    with pytest.raises(NotationError) as info:
        apply_move(game, text)
    assert info.value.token == token
    assert why in str(info.value)
    assert game.to_json() == before  # nothing changed


@pytest.mark.parametrize(
    ("record", "token"),
    [
        ("1g Ra1 Rb1", "Ra1 Rb1"),  # incomplete setup
        ("1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Ed2 Me2 Cf2 Dg2 Ra2", "Ra2"),
        ("1s ra8", "1s"),  # wrong turn label
        ("x1g Ra1", "x1g"),
        ("1g Ra1 rb1", "rb1"),
    ],
)
def test_malformed_records(record: str, token: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_record(record)
    assert info.value.token == token


@pytest.mark.parametrize(
    "diagram",
    [
        "",
        " +-----------------+\n8| . . |",
        "\n".join(
            [
                " +-----------------+",
                *[f"{r}| . . . . . . . . |" for r in range(8, 0, -1)],
                " +-----------------+",
            ]
        ).replace("7| .", "7| Q"),
        "\n".join(
            [
                " +-----------------+",
                *[f"{r}| . . . . . . . . |" for r in range(8, 0, -1)],
                " +-----------------+",
            ]
        ).replace("3| . . .", "3| . . E"),
    ],
)
def test_malformed_diagrams(diagram: str) -> None:
    with pytest.raises(NotationError):
        parse_diagram(diagram)


def test_short_form_errors() -> None:
    with pytest.raises(NotationError, match="side"):
        parse_short("x", "[" + " " * 64 + "]")
    with pytest.raises(NotationError, match="64"):
        parse_short("g", "[   ]")
