"""Arimaa behind the match protocol: the shared contract, clocks through actions, the
computer seat (issues 10 and 13)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.match import MAX_ACTION_BYTES, ActionError, ComputerSeat, LocalSeat, Match
from games.arimaa.match import (
    ArimaaAction,
    ArimaaComputer,
    ArimaaRules,
    ClockedSeat,
    decode_action,
    encode_action,
    setup_action,
    turn_action,
)
from games.arimaa.rules import Game
from games.arimaa.rules.notation import write_record
from games.arimaa.rules.position import named_setup, random_setup
from games.arimaa.rules.randomplay import random_game, random_turn
from tests.match_contract import digests_in_subprocess, lockstep, refuses_garbage, refuses_illegal

CONTROL = "0:30/1/100/2/0/0"  # 30 s a turn, 1 min reserve, 2 min limit (ticks: 1800, 3600)


def random_action(rules: ArimaaRules, rng: random.Random) -> ArimaaAction:
    """A random legal action of the side to move, now and then a resignation or a flag."""
    game = rules.game
    side = game.side_to_move
    roll = rng.random()
    if game.clock is not None and roll < 0.01:
        return ArimaaAction("flag", game.clock.allowed(side) + 1)
    if roll < 0.015:
        return ArimaaAction("resign", rng.randrange(60) if game.clock is not None else 0)
    used = rng.randrange(0, 1900) if game.clock is not None else 0
    if game.in_setup:
        return setup_action(side, random_setup(side, rng), used)
    twin = game.copy()
    random_turn(twin, rng)
    return turn_action(twin.turns[-1] and [(s.frm, s.to) for s in twin.turns[-1]], used)


def contract() -> tuple[Any, Any]:
    def make(seed: int) -> ArimaaRules:
        return ArimaaRules.new(CONTROL if seed % 2 else None)

    return make, random_action


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32))
def test_lockstep_through_the_encoding(seed: int) -> None:
    make, pick = contract()
    digests = lockstep(make, pick, seed, max_actions=120)
    assert len(digests) >= 2


def played(plies: int, seed: int, control: str | None = CONTROL) -> ArimaaRules:
    rules = ArimaaRules.new(control)
    rng = random.Random(seed)
    for _ in range(plies):
        seat = rules.to_move()
        if seat is None:
            break
        action = random_action(rules, rng)
        if action.kind in ("resign", "flag"):
            continue
        rules.apply(seat, action)
    return rules


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 12), st.integers(0, 99), st.binary(max_size=60))
def test_garbage_is_refused_and_changes_nothing(plies: int, seed: int, data: bytes) -> None:
    refuses_garbage(played(plies, seed), data)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 12),
    st.integers(0, 99),
    st.lists(st.tuples(st.integers(0, 63), st.integers(0, 63)), min_size=1, max_size=4),
    st.integers(0, 5000),
)
def test_illegal_turns_change_nothing(plies: int, seed: int, steps: list, used: int) -> None:
    refuses_illegal(played(plies, seed), turn_action(steps, used))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=16, max_size=16), st.integers(0, 1))
def test_illegal_setups_change_nothing(kinds: list[int], plies: int) -> None:
    refuses_illegal(played(plies, 3), ArimaaAction("setup", 0, tuple(kinds)))


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["setup", "turn", "resign", "flag"]),
    st.integers(0, 2**32 - 1),
    st.lists(st.tuples(st.integers(0, 63), st.integers(0, 63)), min_size=1, max_size=4),
    st.lists(st.integers(0, 5), min_size=16, max_size=16),
)
def test_every_encoding_round_trips_within_one_frame(kind, used, steps, kinds) -> None:
    action = ArimaaAction(kind, used, tuple(kinds) if kind == "setup" else (),
                          tuple(steps) if kind == "turn" else ())
    data = encode_action(action)
    assert len(data) <= MAX_ACTION_BYTES
    assert decode_action(data) == action


def test_worst_case_sizes_are_as_documented() -> None:
    assert len(encode_action(turn_action([(8, 16), (16, 24), (24, 32), (32, 40)], 2**32 - 1))) == 14
    assert len(encode_action(setup_action(0, named_setup(0, "default"), 99))) == 13
    assert len(encode_action(ArimaaAction("resign", 5))) == 5


@pytest.mark.parametrize(
    "data",
    [b"", b"\x01\x00\x00\x00", b"\x04\x00\x00\x00\x00", b"\x01\x00\x00\x00\x00\x05" + bytes(10),
     b"\x01\x00\x00\x00\x00\x01\x08\x40", b"\x00\x00\x00\x00\x00" + bytes([0x60] * 8),
     b"\x02\x00\x00\x00\x00\x00"],
)
def test_malformed_wire_forms_are_refused_with_a_reason(data: bytes) -> None:
    with pytest.raises(ActionError) as err:
        decode_action(data)
    assert str(err.value)


def test_digest_is_the_same_under_other_hash_seeds() -> None:
    a = digests_in_subprocess("tests.games.arimaa.test_match:contract", 7, 40, "1")
    b = digests_in_subprocess("tests.games.arimaa.test_match:contract", 7, 40, "2024")
    assert a == b and len(a) > 20


def test_the_turn_carries_its_time_and_the_clock_follows_it() -> None:
    # M = 30 s (1800 ticks), reserve 60 s, P = 100 %, L = 120 s: a 600-tick turn adds 1200.
    rules = ArimaaRules.new(CONTROL)
    rules.tick_clock(5000)  # what this unit showed meanwhile does not matter
    rules.apply(0, setup_action(0, named_setup(0, "default"), 600))
    assert rules.game.clock is not None
    assert rules.game.clock.reserves == [3600 + 1200, 3600]
    assert rules.game.clock.game_used == 600
    rules.apply(1, setup_action(1, named_setup(1, "default"), 1800 + 100))
    assert rules.game.clock.reserves[1] == 3600 - 100
    # A turn claiming more than M + reserve is refused: the clock had run out.
    too_late = turn_action([(11, 19)], 1800 + 4800 + 1)
    assert "run out" in (rules.check(0, too_late) or "")


def test_flag_ends_the_game_on_time_only_when_the_clock_ran_out() -> None:
    rules = ArimaaRules.new("0:30/0")
    rules.apply(0, setup_action(0, named_setup(0, "default")))
    assert rules.check(1, ArimaaAction("flag", 1800)) == "the clock has not run out"
    events = rules.apply(1, ArimaaAction("flag", 1801))
    assert events[-1] == {"type": "over", "winner": 0, "reason": "time"}
    result = rules.result()
    assert result is not None and result.winner == 0 and result.reason == "time"


def test_flag_at_the_game_limit_decides_by_score() -> None:
    rules = ArimaaRules.new("0:30/5/100/0/0:01/0")  # G = one minute of play
    rules.apply(0, setup_action(0, named_setup(0, "default"), 1700))
    rules.apply(1, setup_action(1, named_setup(1, "default"), 1700))
    rules.apply(0, turn_action([(8, 16), (0, 8)], 100))  # Ha2n Ra1n
    assert rules.check(1, ArimaaAction("flag", 99)) is not None  # 3599 of 3600 ticks
    rules.apply(1, ArimaaAction("flag", 100))  # 1700 + 1700 + 100 + 100 = G
    result = rules.result()
    assert result is not None and result.reason == "score"
    assert result.winner == 0  # gold advanced a rabbit
    assert result.scores[0] > result.scores[1]


def test_casual_games_refuse_time_used() -> None:
    rules = ArimaaRules.new(None)
    assert rules.check(0, setup_action(0, named_setup(0, "default"), 5)) is not None
    assert rules.check(0, ArimaaAction("flag", 5)) is not None


def test_events_name_steps_captures_and_the_turn() -> None:
    rules = ArimaaRules.new(None)
    rules.apply(0, setup_action(0, named_setup(0, "default")))
    rules.apply(1, setup_action(1, named_setup(1, "default")))
    # Default front row HDCEMCDH: the elephant guards c3 from d3 while the cat steps onto
    # the trap, then walks away: the cat is captured by the third step.
    events = rules.apply(0, turn_action([(11, 19), (10, 18), (19, 27)]))
    steps = [e for e in events if e["type"] == "step"]
    assert [s["piece"] for s in steps] == ["E", "C", "E"]
    assert steps[1]["captured"] is None and steps[2]["captured"] == [18, "C"]
    turn = events[-1]
    assert turn["type"] == "turn" and turn["label"] == "2g"
    assert turn["notation"] == "Ed2n Cc2n Ed3n Cc3x"


def test_computer_against_computer_to_the_end() -> None:
    """From a game 40 random turns in (since issue 36 levels 1 and 2 defend their pieces and
    goal lines well enough to play each other for hundreds of turns from the setup)."""
    rules = ArimaaRules.new(None)
    rules.game = random_game(3, 40)
    assert rules.game.result is None
    before = len(rules.game.turns)
    match = Match(
        rules,
        [
            ClockedSeat(ComputerSeat(ArimaaComputer(1, 3))),
            ClockedSeat(ComputerSeat(ArimaaComputer(2, 4))),
        ],
    )
    for _ in range(200_000):
        if match.over:
            break
        match.step()
    result = match.result()
    assert result is not None and result.reason in ("goal", "elimination", "immobilisation")
    assert len(match.history) == len(rules.game.turns) - before > 0
    # The record replays through the engine's notation to the same end.
    from games.arimaa.rules.notation import parse_record

    again = parse_record(write_record(rules.game))
    assert again.result == rules.game.result


def test_computer_decision_does_not_depend_on_slicing() -> None:
    rules = ArimaaRules.new(None)
    rules.apply(0, setup_action(0, named_setup(0, "99of9")))
    rules.apply(1, setup_action(1, named_setup(1, "default")))
    answers = set()
    units = set()
    for budget in (300, 4000, 25_000):
        thinker = ArimaaComputer(2, 1).start(rules, 0)
        action = None
        while action is None:
            action = thinker.think(budget)
        answers.add(action)
        units.add(thinker.units)
    assert len(answers) == 1 and len(units) == 1
    assert rules.check(0, answers.pop()) is None


def test_computer_seat_stamps_the_time_its_turn_took() -> None:
    rules = ArimaaRules.new(CONTROL)
    computer = ClockedSeat(ComputerSeat(ArimaaComputer(1, 2)))
    match = Match(rules, [LocalSeat[ArimaaAction](), computer])
    match.seats[0].offer(setup_action(0, named_setup(0, "default")))  # type: ignore[attr-defined]
    match.step()
    ticks = 0
    while len(match.history) < 2:
        rules.tick_clock(1)
        match.step()
        ticks += 1
    assert decode_action(match.history[-1].data).used == ticks
    assert rules.game.clock is not None and rules.game.clock.reserves[1] == 3600 + 1800 - ticks


def test_a_game_won_by_its_last_turn_saves_and_restores() -> None:
    # Found by the lockstep test: the winning turn's steps stayed "in progress" in to_json.
    rules = ArimaaRules.new(None)
    rules.apply(0, setup_action(0, named_setup(0, "default")))
    rules.apply(1, setup_action(1, named_setup(1, "default")))
    rules.game = Game.from_json(rules.to_json())
    rules.apply(0, ArimaaAction("resign"))
    assert rules.to_json()["current"] == []
    rules2 = played(300, 5, None)
    assert rules2.to_move() is None
    assert ArimaaRules.from_json(rules2.to_json()).digest() == rules2.digest()


def test_copy_is_independent() -> None:
    game = Game()
    game.setup(named_setup(0, "default"))
    game.setup(named_setup(1, "default"))
    twin = game.copy()
    twin.step(8, 16)
    twin.end_turn()
    assert game.turns == [] and len(twin.turns) == 1
    assert game.to_json() != twin.to_json()
    assert Game.from_json(game.to_json()).to_json() == game.copy().to_json()
