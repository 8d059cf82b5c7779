"""Bad input of any kind gets a clear error and changes nothing (hypothesis fuzzing)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.sevens.rules import (
    Game,
    Options,
    RecordError,
    RuleError,
    SeatView,
    Tally,
    card_name,
    parse_card,
    record_of,
    replay,
    seat_view,
)
from games.sevens.simulator import play_game

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
RECORD = record_of(play_game(["cool", "hitman", "simpleton", "brute"], 8))


@given(st.integers(0, 51))
def test_card_names_round_trip(card: int) -> None:
    assert parse_card(card_name(card)) == card
    assert parse_card(card_name(card).lower()) == card


@given(st.text(max_size=5))
def test_parse_card_only_raises_value_error(text: str) -> None:
    try:
        card = parse_card(text)
    except ValueError:
        return
    assert card_name(card) == text.strip().upper().replace("10", "T", 1)


@settings(max_examples=150, deadline=None)
@given(action=json_values)
def test_bad_actions_change_nothing(action: object) -> None:
    game = Game.new(random.Random(3))
    game.play(game.legal_cards()[0])
    before = json.dumps(game.to_json())
    try:
        game.apply(action)  # type: ignore[arg-type]
    except RuleError as exc:
        assert str(exc)
        assert json.dumps(game.to_json()) == before


@settings(max_examples=150, deadline=None)
@given(data=json_values)
def test_arbitrary_records_are_refused_cleanly(data: object) -> None:
    try:
        replay(data)
    except RecordError as exc:
        assert str(exc)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(["options", "hands", "events", "played", "current"]), value=json_values)
def test_records_with_one_bad_field_are_refused_cleanly(key: str, value: object) -> None:
    data = json.loads(json.dumps(RECORD))
    data[key] = value
    try:
        game = replay(data)
    except RecordError as exc:
        assert str(exc)
    else:
        # only a harmless change can load: the replay must then match the record
        assert game.events == data["events"]


@settings(max_examples=100, deadline=None)
@given(index=st.integers(0, len(RECORD["events"]) - 1), value=json_values)
def test_records_with_one_bad_event_are_refused_cleanly(index: int, value: object) -> None:
    data = json.loads(json.dumps(RECORD))
    data["events"][index] = value
    try:
        replay(data)
    except RecordError as exc:
        assert str(exc)


@settings(max_examples=100, deadline=None)
@given(data=json_values)
def test_bad_options_and_tallies_raise_value_error(data: object) -> None:
    for load in (Options.from_json, Tally.from_json, SeatView.from_json):
        try:
            load(data)  # type: ignore[arg-type]
        except ValueError as exc:
            assert str(exc)


def test_view_json_with_a_bad_field_raises_value_error() -> None:
    game = Game.new(random.Random(1))
    good = seat_view(game, 0).to_json()
    for key, value in [("hand", ["ZZ"]), ("seat", "x"), ("killed", [["AS"]]), ("options", 3)]:
        data = dict(good)
        data[key] = value
        try:
            SeatView.from_json(data)
        except ValueError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{key}={value!r} was accepted")
