"""Cards (bits, rotation, JSON) and the seeded stream's documented distribution."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.panels.rules.cards import (
    DOWN,
    LEFT,
    RAINBOW,
    RIGHT,
    UP,
    Card,
    connectors_from_text,
    connectors_to_text,
    distinct_rotations,
    rotate_bits,
)
from games.panels.rules.field import SHAPE_NAMES, Field, shape_mask
from games.panels.rules.stream import card_at


@given(bits=st.integers(1, 15), turns=st.integers(0, 12))
def test_rotation_keeps_the_connector_count_and_four_turns_are_identity(bits, turns) -> None:
    assert bin(rotate_bits(bits, turns)).count("1") == bin(bits).count("1")
    assert rotate_bits(bits, 4) == bits
    assert rotate_bits(rotate_bits(bits, turns), 4 - turns % 4) == bits


def test_one_turn_moves_each_side_clockwise() -> None:
    assert [rotate_bits(d) for d in (UP, RIGHT, DOWN, LEFT)] == [RIGHT, DOWN, LEFT, UP]
    assert distinct_rotations(UP | RIGHT | DOWN | LEFT) == [0]
    assert distinct_rotations(UP | DOWN) == [0, 1]
    assert distinct_rotations(UP | RIGHT) == [0, 1, 2, 3]


@given(number=st.integers(1, 5), bits=st.integers(1, 15), owner=st.sampled_from([0, 1, 3, RAINBOW]))
def test_card_json_round_trip(number, bits, owner) -> None:
    card = Card(number, bits, owner)
    assert Card.from_json(card.to_json()) == card
    assert connectors_from_text(connectors_to_text(bits)) == bits


@pytest.mark.parametrize(
    "data",
    [
        {"number": 0, "connectors": "1000", "owner": 0},
        {"number": 6, "connectors": "1000", "owner": 0},
        {"number": 3, "connectors": "0000", "owner": 0},
        {"number": 3, "connectors": "10", "owner": 0},
        {"number": 3, "connectors": "10x0", "owner": 0},
        {"number": 3, "connectors": "1000", "owner": "gold"},
        {"number": True, "connectors": "1000", "owner": 0},
        "card",
    ],
)
def test_bad_cards_are_refused(data) -> None:
    with pytest.raises(ValueError):
        Card.from_json(data)


def test_stream_is_a_pure_function_of_seed_and_index() -> None:
    assert [card_at(5, i, 0) for i in range(30)] == [card_at(5, i, 0) for i in range(30)]
    assert [card_at(5, i, 0) for i in range(30)] != [card_at(6, i, 0) for i in range(30)]


def test_stream_follows_the_documented_distribution() -> None:
    cards = [card_at(1, i, 0) for i in range(20_000)]
    n = len(cards)
    numbers = Counter(c.number for c in cards)
    for value in range(1, 6):
        assert abs(numbers[value] / n - 0.20) < 0.02
    assert abs(sum(c.owner == RAINBOW for c in cards) / n - 0.08) < 0.01
    assert all(c.owner in (0, RAINBOW) for c in cards)

    def shape(bits: int) -> str:
        count = bin(bits).count("1")
        if count == 2:
            return "straight" if bits in (UP | DOWN, LEFT | RIGHT) else "corner"
        return {1: "cap", 3: "tee", 4: "cross"}[count]

    shapes = Counter(shape(c.connectors) for c in cards)
    expected = {"cap": 0.15, "straight": 0.20, "corner": 0.25, "tee": 0.30, "cross": 0.10}
    for name, share in expected.items():
        assert abs(shapes[name] / n - share) < 0.02
    # orientations are uniform: every side is equally likely to carry a connector
    sides = Counter(d for c in cards for d in (UP, RIGHT, DOWN, LEFT) if c.connectors & d)
    total = sum(sides.values())
    assert all(abs(sides[d] / total - 0.25) < 0.02 for d in (UP, RIGHT, DOWN, LEFT))


@pytest.mark.parametrize(
    ("shape", "usable"),
    [("square", 64), ("octagon", 52), ("pillars", 60), ("lake", 60), ("cross", 48)],
)
def test_field_shapes(shape, usable) -> None:
    mask = shape_mask(shape)
    assert sum(mask) == usable and len(mask) == 64
    assert shape in SHAPE_NAMES
    # symmetric under a half turn, so neither player's side is favoured
    assert list(mask) == list(reversed(mask))


def test_field_neighbours_skip_unusable_and_outside_squares() -> None:
    fld = Field.from_rows([".#.", "...", "..."])
    assert dict(fld.neighbours[0]) == {DOWN: 3}
    assert dict(fld.neighbours[4]) == {DOWN: 7, LEFT: 3, RIGHT: 5}
    with pytest.raises(ValueError):
        fld.put((0, 1), Card(1, UP, 0))
