"""Properties (hypothesis): legal play keeps the game consistent, refusals change nothing,
evaluation agrees with the definitions, states survive JSON exactly."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.panels.rules import items as it
from games.panels.rules.actions import (
    Back,
    Determine,
    Pass,
    Place,
    Rotate,
    Select,
    UseItem,
)
from games.panels.rules.cards import OPPOSITE, RAINBOW, Card
from games.panels.rules.combination import POINTS_PER_CARD, SEQUENCE, evaluate, find_groups
from games.panels.rules.field import SHAPE_NAMES, Field
from games.panels.rules.game import STOCK_SIZE, GameConfig, GameState, IllegalAction

configs = st.builds(
    GameConfig,
    seed=st.integers(0, 10**6),
    target=st.integers(10, 400),
    removal=st.booleans(),
    shape=st.one_of(st.none(), st.sampled_from(SHAPE_NAMES)),
    first_player=st.integers(0, 1),
)


def check_consistent(state: GameState) -> None:
    fld = state.field
    for i, card in enumerate(fld.cells):
        assert card is None or fld.usable[i], "card on an unusable square"
    for p in state.players:
        assert len(p.stock) <= STOCK_SIZE
        assert len(p.items) <= it.ITEM_CAPACITY
        assert all(card.owner in (state.players.index(p), RAINBOW) for card in p.stock)
    if state.selected is not None:
        assert 0 <= state.selected < len(state.players[state.current].stock)
    if state.provisional is not None:
        assert state.selected is not None
        square, turns = state.provisional
        assert fld.is_usable(square) and fld.get(square) is None and 0 <= turns < 4
        card = state.players[state.current].stock[state.selected]
        assert fld.index(square) in state.permitted_indices(state.current, card)
    if state.over:
        assert state.selected is None and state.provisional is None
    assert GameState.from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=150))
def test_any_sequence_of_legal_actions_keeps_the_game_consistent(config, picks) -> None:
    state = GameState.new(config)
    cards_placed = 0
    points = [0, 0]
    for pick in picks:
        legal = state.legal_actions()
        if not legal:
            assert state.over
            break
        action = legal[pick % len(legal)]
        mover = state.current
        score_before = state.players[mover].score
        events = state.apply(action)
        if isinstance(action, Determine):
            cards_placed += 1
            fixed = events[0]
            assert fixed["event"] == "fixed"
            assert state.players[mover].score - score_before == fixed["points"]
            assert fixed["points"] == sum(y["points"] for y in fixed["yaku"])
        points[mover] += state.players[mover].score - score_before
        check_consistent(state)
    assert [p.score for p in state.players] == points
    on_field = sum(card is not None for card in state.field.cells)
    if not config.removal:
        assert on_field == cards_placed


def any_action(player: int):
    squares = st.tuples(st.integers(-1, 9), st.integers(-1, 9))
    return st.one_of(
        st.builds(Select, st.just(player), st.integers(-1, 6)),
        st.builds(Place, st.just(player), squares),
        st.builds(Rotate, st.just(player)),
        st.builds(Back, st.just(player)),
        st.builds(Determine, st.just(player)),
        st.builds(Pass, st.just(player)),
        st.builds(
            UseItem,
            st.just(player),
            st.integers(-1, 3),
            st.one_of(st.none(), squares),
            st.sampled_from([None, -1, 1, 2]),
            st.one_of(st.none(), st.integers(-1, 6)),
        ),
    )


@settings(max_examples=30, deadline=None)
@given(config=configs, data=st.data())
def test_refused_actions_change_nothing(config, data) -> None:
    state = GameState.new(config)
    state.players[0].items = data.draw(st.lists(st.sampled_from(it.ITEM_KINDS), max_size=3))
    for _ in range(20):
        if state.over:
            break
        player = data.draw(st.sampled_from([state.current, 1 - state.current]))
        action = data.draw(any_action(player))
        before = state.to_json()
        reason = state.check(action)
        if reason is None:
            state.apply(action)
        else:
            try:
                state.apply(action)
            except IllegalAction as exc:
                assert str(exc) == reason
            else:
                raise AssertionError("refused action was applied")
            assert state.to_json() == before
        check_consistent(state)


cards = st.builds(
    Card,
    number=st.integers(1, 5),
    connectors=st.integers(1, 15),
    owner=st.sampled_from([0, 1, RAINBOW]),
)


@settings(max_examples=200, deadline=None)
@given(
    placed=st.lists(st.one_of(st.none(), cards), min_size=25, max_size=25),
    new=cards.filter(lambda c: c.owner != 1),
    where=st.integers(0, 24),
)
def test_evaluation_matches_the_definitions(placed, new, where) -> None:
    fld = Field.from_rows(["....."] * 5)
    fld.cells = list(placed)
    fld.cells[where] = new
    groups = find_groups(fld, where, 0)
    members = [set(m) for _, m in groups]
    for i, a in enumerate(members):  # groups share only the new card
        for b in members[i + 1 :]:
            assert a & b == {where}
    for _, group in groups:
        for i in group:
            assert fld.cells[i].owner in (0, RAINBOW)  # type: ignore[union-attr]
            if i == where:
                continue
            # every card combined with a group card (other than the new card) is in the group
            for d, j in fld.neighbours[i]:
                a, b = fld.cells[i], fld.cells[j]
                if (
                    b is not None
                    and j != where
                    and a.connectors & d  # type: ignore[union-attr]
                    and b.connectors & OPPOSITE[d]
                    and b.owner in (0, RAINBOW)
                ):
                    assert j in group
    for yaku in evaluate(fld, where, 0):
        assert yaku.squares[0] == fld.square(where)
        assert {fld.index(s) for s in yaku.squares} in members
        assert yaku.points == POINTS_PER_CARD[yaku.kind] * len(yaku.squares)
        numbers = [fld.get(s).number for s in yaku.squares]  # type: ignore[union-attr]
        if yaku.kind == SEQUENCE:
            steps = {b - a for a, b in zip(sorted(numbers), sorted(numbers)[1:], strict=False)}
            assert steps == {1} and len(numbers) <= 5


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


def mutate(data, path_picks: list[int], value):
    """`data` with one nested value (chosen by `path_picks`) replaced by `value`."""
    if not path_picks or not isinstance(data, dict | list) or not data:
        return value
    if isinstance(data, dict):
        key = sorted(data)[path_picks[0] % len(data)]
        return {**data, key: mutate(data[key], path_picks[1:], value)}
    index = path_picks[0] % len(data)
    return [*data[:index], mutate(data[index], path_picks[1:], value), *data[index + 1 :]]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 1000),
    picks=st.lists(st.integers(0, 100), min_size=1, max_size=5),
    value=json_values,
)
def test_damaged_states_are_refused_with_value_error_only(seed, picks, value) -> None:
    state = GameState.new(GameConfig(seed=seed))
    data = mutate(json.loads(json.dumps(state.to_json())), picks, value)
    try:
        again = GameState.from_json(data)
    except ValueError as exc:
        assert str(exc)
    else:
        json.dumps(again.to_json())


@settings(max_examples=150, deadline=None)
@given(
    data=json_values
    | st.dictionaries(
        st.sampled_from(["type", "player", "stock", "square", "slot", "delta"]), json_values
    )
)
def test_any_json_is_an_action_or_a_value_error(data) -> None:
    from games.panels.rules.actions import action_to_json, parse_action

    try:
        action = parse_action(data)
    except ValueError as exc:
        assert str(exc)
    else:
        assert parse_action(action_to_json(action)) == action


def test_linked_units_stay_in_sync_through_json_actions() -> None:
    import random

    from games.panels.ai.player import choose_turn
    from games.panels.rules.actions import action_to_json, parse_action

    config = GameConfig(seed=99)
    unit_a, unit_b = GameState.new(config), GameState.new(config)
    rng = random.Random(3)
    while not unit_a.over:
        for action in choose_turn(unit_a, 3, rng):
            unit_a.apply(action)
            unit_b.apply(parse_action(json.loads(json.dumps(action_to_json(action)))))
            assert unit_a.to_json() == unit_b.to_json()
    assert unit_b.over and unit_b.winner == unit_a.winner
