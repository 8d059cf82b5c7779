"""The turn machine: stock draws, selection, provisional placement, refusals with reasons."""

from __future__ import annotations

import json

import pytest

from games.panels.rules import items as it
from games.panels.rules.actions import (
    Back,
    Determine,
    Pass,
    Place,
    Rotate,
    Select,
    UseItem,
    action_to_json,
    parse_action,
)
from games.panels.rules.cards import RAINBOW
from games.panels.rules.field import SHAPE_NAMES
from games.panels.rules.game import GameConfig, GameState, IllegalAction
from games.panels.rules.positions import card as c
from games.panels.rules.positions import position


def test_new_game_deals_five_cards_each_and_first_turn_draws_nothing() -> None:
    st = GameState.new(GameConfig(seed=3))
    assert [len(p.stock) for p in st.players] == [5, 5]
    assert st.card_index == 10 and st.current == 0
    assert all(card.owner in (0, RAINBOW) for card in st.players[0].stock)
    assert all(card.owner in (1, RAINBOW) for card in st.players[1].stock)


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    a, b = GameState.new(GameConfig(seed=11)), GameState.new(GameConfig(seed=11))
    assert a.to_json() == b.to_json()
    stocks = {json.dumps(GameState.new(GameConfig(seed=s)).to_json()["players"]) for s in range(8)}
    assert len(stocks) == 8


def test_field_shape_comes_from_the_seed_and_varies() -> None:
    shapes = {GameConfig(seed=s).field_shape for s in range(60)}
    assert shapes == set(SHAPE_NAMES)


def play_first_card(st: GameState, square: tuple[int, int]) -> None:
    p = st.current
    st.apply(Select(p, 0))
    st.apply(Place(p, square))
    st.apply(Determine(p))


def test_stock_gets_a_card_from_the_second_turn_on() -> None:
    st = GameState.new(GameConfig(seed=5, shape="square"))
    play_first_card(st, (0, 0))  # player 1's first turn
    assert len(st.players[0].stock) == 4
    assert len(st.players[1].stock) == 5  # player 2's first turn: nothing added
    play_first_card(st, (7, 7))
    assert len(st.players[0].stock) == 5 and st.card_index == 11  # second turn: one drawn


def test_first_turn_any_empty_square_then_adjacency() -> None:
    st = GameState.new(GameConfig(seed=5, shape="square"))
    assert len(st.permitted_squares(0, 0)) == 64
    play_first_card(st, (0, 0))
    assert len(st.permitted_squares(1, 0)) == 63  # player 2's first turn
    play_first_card(st, (7, 7))
    colour = next(i for i, card in enumerate(st.players[0].stock) if card.owner == 0)
    assert set(st.permitted_squares(0, colour)) == {(0, 1), (1, 0)}


def test_place_move_rotate_back_and_determine() -> None:
    st = position(["...", "..."], {(0, 0): c(1, "0110")}, [c(1, "1000"), c(2, "0100")])
    st.apply(Select(0, 0))
    st.apply(Place(0, (0, 1)))
    st.apply(Rotate(0))
    assert st.provisional == ((0, 1), 1)
    st.apply(Place(0, (1, 0)))  # move: the rotation is kept
    assert st.provisional == ((1, 0), 1)
    assert st.field.get((1, 0)) is None  # provisional cards are not on the field
    st.apply(Back(0))
    assert st.provisional is None and st.selected == 0
    st.apply(Select(0, 1))  # switching the selection
    st.apply(Place(0, (0, 1)))
    st.apply(Select(0, 0))  # selecting another card takes the provisional card back
    assert st.provisional is None and st.selected == 0
    st.apply(Back(0))
    assert st.selected is None
    st.apply(Select(0, 0))
    st.apply(Place(0, (1, 0)))
    st.apply(Rotate(0))
    st.apply(Rotate(0))  # "1000" turned twice: "0010", not joined to (0,0)
    st.apply(Determine(0))
    assert st.field.get((1, 0)) == c(1, "0010")
    assert st.players[0].score == 0 and st.current == 1
    assert st.players[0].stock == [c(2, "0100")]


@pytest.mark.parametrize(
    ("actions", "reason"),
    [
        ([Place(0, (0, 1))], "select a stock card first"),
        ([Select(1, 0)], "it is player 1's turn, not player 2's"),
        ([Select(0, 5)], "no stock card 6 (the stock holds 2)"),
        ([Select(0, 0), Place(0, (0, 0))], "square [0, 0] is taken"),
        ([Select(0, 0), Place(0, (5, 5))], "square [5, 5] is outside the field"),
        ([Select(0, 0), Place(0, (0, 3))], "square [0, 3] is not part of this field"),
        (
            [Select(0, 0), Place(0, (1, 3))],
            "a colour card must go next to your own colour card or a rainbow card",
        ),
        (
            [Select(0, 1), Place(0, (1, 3))],
            "a rainbow card may not go where its only neighbours are opponent cards",
        ),
        ([Rotate(0)], "no card is provisionally placed"),
        ([Determine(0)], "place a card before determining"),
        ([Back(0)], "nothing to take back"),
        ([Pass(0)], "a stock card can still be placed; passing is not allowed"),
        ([Select(0, 0), Select(0, 0)], "that card is already selected"),
        (
            [Select(0, 0), Place(0, (1, 0)), Place(0, (1, 0))],
            "the card is already there (rotate it instead)",
        ),
        ([UseItem(0, 0)], "no item in slot 1"),
    ],
)
def test_refusals_give_reasons_and_change_nothing(actions, reason) -> None:
    # (0, 3) is not part of the field; (1, 3) touches only player 2's card at (1, 2)
    st = position(
        ["...#", "...."],
        {(0, 0): c(1, "0110"), (1, 2): c(3, "1111", 1)},
        [c(1, "1000"), c(2, "1000", "R")],
    )
    for action in actions[:-1]:
        st.apply(action)
    before = st.to_json()
    assert st.check(actions[-1]) == reason
    with pytest.raises(
        IllegalAction,
        match="^"
        + reason.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)").replace("]", r"\]")
        + "$",
    ):
        st.apply(actions[-1])
    assert st.to_json() == before


def test_pass_only_without_any_placement_and_all_passing_ends_the_game() -> None:
    # a colour card whose own cards are boxed in by the opponent: nowhere to go
    cards = {(0, 0): c(1, "0100"), (0, 1): c(2, "0001", 1), (1, 0): c(2, "1000", 1)}
    st = position(["...", "..."], cards, [c(4, "1000")])
    st.players[1].stock = [c(5, "0001", 1)]
    st.field.put((1, 1), c(2, "1000", 1))
    assert not st.can_place_any(0)
    st.apply(Pass(0))
    assert st.current == 1 and not st.over
    st.players[1].stock = [c(5, "0001", 0)]  # player 2 holds only a card it cannot place
    st.players[1].stock = []
    st.apply(Pass(1))
    assert st.over and st.end_reason == "blocked" and st.winner is None


def test_full_field_ends_the_game_higher_score_wins() -> None:
    st = position(
        ["..", ".."],
        {(0, 0): c(1, "0100"), (1, 0): c(2, "1000"), (1, 1): c(4, "1000", 1)},
        [c(3, "0010")],
    )
    st.players[1].score = 10
    st.apply(Select(0, 0))
    st.apply(Place(0, (0, 1)))
    st.apply(Determine(0))
    assert st.field.is_full()
    assert st.over and st.end_reason == "full" and st.winner == 1


def test_actions_round_trip_through_json() -> None:
    actions = [
        Select(1, 2),
        Place(0, (3, 4)),
        Rotate(0),
        Back(1),
        Determine(0),
        Pass(1),
        UseItem(0, 1),
        UseItem(1, 0, square=(2, 2), delta=-1),
        UseItem(0, 2, stock=4),
    ]
    for action in actions:
        assert parse_action(json.loads(json.dumps(action_to_json(action)))) == action


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "an action must be a JSON object"),
        ({"type": "jump", "player": 0}, "unknown action type 'jump'"),
        ({"type": "select", "player": 0}, "action field 'stock' must be an integer: None"),
        ({"type": "place", "player": 0, "square": [1]}, "a square must be [row, col]: [1]"),
        ({"type": "rotate", "player": "0"}, "action field 'player' must be an integer: '0'"),
    ],
)
def test_malformed_actions_are_refused_with_a_reason(data, message) -> None:
    with pytest.raises(ValueError) as info:
        parse_action(data)
    assert str(info.value).startswith(message)


def test_state_round_trip_and_bad_state_refused() -> None:
    st = position(["...", "..."], {(0, 0): c(1, "0110")}, [c(1, "1000")])
    st.players[0].items = [it.SWIVEL]
    st.apply(Select(0, 0))
    st.apply(Place(0, (0, 1)))
    data = json.loads(json.dumps(st.to_json()))
    again = GameState.from_json(data)
    assert again.to_json() == st.to_json()
    again.apply(Determine(0))  # a resumed game goes on exactly
    st.apply(Determine(0))
    assert again.to_json() == st.to_json()
    for bad in (
        {},
        {"config": {"seed": "x"}},
        {**data, "current": 7},
        {**data, "provisional": {"square": [0, 0], "turns": 0}},
    ):
        with pytest.raises(ValueError):
            GameState.from_json(bad)


def test_dump_lists_fixed_and_provisional_cards() -> None:
    st = position(["...", "..."], {(0, 0): c(1, "0110")}, [c(1, "1000")])
    st.apply(Select(0, 0))
    st.apply(Place(0, (1, 0)))
    dump = st.dump()
    states = {tuple(sq["square"]): sq["state"] for sq in dump["field"]["squares"]}
    assert states == {(0, 0): "fixed", (1, 0): "provisional"}
    assert dump["scores"] == [0, 0] and dump["turn"] == 0
