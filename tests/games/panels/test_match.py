"""Panel Link behind the match protocol: the shared contract, Fix = its steps, the computer
player sliced over ticks, suspend in the middle of a computer turn (issue 10, issue 16)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.match import MAX_ACTION_BYTES, ActionError, ComputerSeat, LocalSeat, Match
from games.panels.ai.player import choose_turn, plan_turn
from games.panels.match import Fix, PanelsComputer, PanelsRules, decode_action, encode_action
from games.panels.rules import (
    Back,
    Determine,
    GameConfig,
    GameState,
    Pass,
    Place,
    Rotate,
    Select,
    UseItem,
)
from tests.match_contract import digests_in_subprocess, lockstep, refuses_garbage, refuses_illegal


def pick_action(rules: PanelsRules, rng: random.Random) -> Any:
    """Mostly whole placements (so games end), with every kind of step mixed in."""
    legal = list(rules.legal_actions())
    fixes = [a for a in legal if isinstance(a, Fix)]
    steps = [a for a in legal if not isinstance(a, Fix | Pass)]
    if rules.state.provisional is not None and rng.random() < 0.5:
        return Determine(rules.state.current)
    if fixes and rng.random() < 0.6:
        return rng.choice(fixes)
    if steps:
        return rng.choice(steps)
    return rng.choice(legal)


def contract() -> tuple[Any, Any]:
    def make(seed: int) -> PanelsRules:
        return PanelsRules.new(GameConfig(seed=seed, target=120))

    return make, pick_action


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_lockstep_through_the_encoding(seed: int) -> None:
    make, pick = contract()
    digests = lockstep(make, pick, seed, max_actions=300)
    assert len(digests) > 10


def test_lockstep_reaches_the_end_of_a_game() -> None:
    make, pick = contract()
    rules = make(5)
    lockstep(make, pick, 5, max_actions=2000)
    # the same picks on a third instance: the game did finish within the actions allowed
    rng = random.Random(5)
    for _ in range(2000):
        seat = rules.to_move()
        if seat is None:
            break
        rules.apply(seat, pick(rules, rng))
    result = rules.result()
    assert result is not None and result.scores == tuple(p.score for p in rules.state.players)


def played(plies: int) -> PanelsRules:
    rules = PanelsRules.new(GameConfig(seed=plies, target=150))
    rng = random.Random(plies)
    for _ in range(plies):
        seat = rules.to_move()
        if seat is None:
            break
        rules.apply(seat, pick_action(rules, rng))
    return rules


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 60), st.binary(max_size=60))
def test_garbage_is_refused_and_changes_nothing(plies: int, data: bytes) -> None:
    refuses_garbage(played(plies), data)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 60), st.sampled_from("SPFU"), st.lists(st.integers(-1, 9), min_size=6))
def test_wire_like_garbage_is_refused_and_changes_nothing(
    plies: int, letter: str, fields: list[int]
) -> None:
    text = letter + "0," + ",".join(str(f) for f in fields[:5])
    refuses_garbage(played(plies), text.encode())


ILLEGAL = st.one_of(
    st.builds(Select, st.integers(0, 1), st.integers(-2, 7)),
    st.builds(Place, st.integers(0, 1), st.tuples(st.integers(-1, 8), st.integers(-1, 8))),
    st.builds(Rotate, st.integers(0, 1)),
    st.builds(Back, st.integers(0, 1)),
    st.builds(Determine, st.integers(0, 1)),
    st.builds(Pass, st.integers(0, 1)),
    st.builds(
        Fix,
        st.integers(0, 1),
        st.integers(-1, 6),
        st.tuples(st.integers(-1, 8), st.integers(-1, 8)),
        st.integers(-1, 4),
    ),
    st.builds(UseItem, st.integers(0, 1), st.integers(-1, 3)),
)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 40), ILLEGAL)
def test_illegal_actions_change_nothing(plies: int, action: Any) -> None:
    rules = played(plies)
    refuses_illegal(rules, action)
    seat = rules.to_move()
    if seat is not None and action.player != seat:
        assert rules.check(seat, action) is not None


def test_digest_is_the_same_under_other_hash_seeds() -> None:
    a = digests_in_subprocess("tests.games.panels.test_match:contract", 7, 120, "1")
    b = digests_in_subprocess("tests.games.panels.test_match:contract", 7, 120, "2024")
    assert a == b and len(a) > 50


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 30), st.integers(0, 2**16))
def test_fix_is_its_steps(plies: int, salt: int) -> None:
    rules = played(plies)
    if rules.to_move() is None or rules.state.provisional is not None:
        return
    rules.state.selected = None  # steps begin with their own selection
    fixes = [a for a in rules.legal_actions() if isinstance(a, Fix)]
    if not fixes:
        return
    fix = random.Random(salt).choice(fixes)
    stepwise = PanelsRules.from_json(rules.to_json())
    events: list[dict[str, Any]] = []
    for step in fix.steps():
        events += stepwise.apply(fix.player, step)
    assert rules.apply(fix.player, fix) == events
    assert rules.digest() == stepwise.digest()


def test_encodings_fit_one_frame_and_round_trip() -> None:
    worst = UseItem(3, 2, (99, 99), -1, 4)
    assert encode_action(worst) == b"U3,2,99,99,-1,4"
    cases = [
        Select(0, 4), Place(1, (7, 0)), Rotate(0), Back(1), Determine(0), Pass(1),
        UseItem(0, 0), UseItem(1, 2, stock=3), UseItem(0, 1, (2, 3), 1),
        Fix(1, 4, (7, 7), 3), worst,
    ]
    for action in cases:
        data = encode_action(action)
        assert len(data) <= MAX_ACTION_BYTES
        assert decode_action(data) == action
    for bad in (b"", b"S0", b"S0,05", b"P0,1", b"F0,1,2,3,4", b"U0,1,2,,,", b"\xff", b"Z0"):
        with pytest.raises(ActionError):
            decode_action(bad)


def test_sliced_planning_is_the_same_however_sliced() -> None:
    rng_state = GameState.new(GameConfig(seed=11))
    for level in (1, 2, 3, 4):
        whole = choose_turn(rng_state, level, random.Random(3))
        for budget in (1, 7, 1000):
            work = plan_turn(rng_state, level, random.Random(3))
            units = 0
            while True:
                try:
                    for _ in range(budget):
                        next(work)
                        units += 1
                except StopIteration as done:
                    assert list(done.value) == whole
                    break
        assert whole[-1] == Determine(rng_state.current)


def computer_match(levels: tuple[int, int], seed: int, target: int = 150) -> Match[Any]:
    rules = PanelsRules.new(GameConfig(seed=seed, target=target))
    seats = [ComputerSeat(PanelsComputer(lv, seed + i), min_ticks=1) for i, lv in enumerate(levels)]
    return Match(rules, seats)


@pytest.mark.parametrize("levels", [(4, 1), (2, 3)])
def test_computer_against_computer_to_the_end(levels: tuple[int, int]) -> None:
    match = computer_match(levels, 21)
    for _ in range(200_000):
        if match.over:
            break
        match.step()
    result = match.result()
    rules = match.rules
    assert isinstance(rules, PanelsRules)
    assert result is not None and result.scores == tuple(p.score for p in rules.state.players)
    # every turn was played step by step: a select, a place, rotations, a determine
    kinds = [decode_action(p.data).__class__.__name__ for p in match.history]
    assert kinds.count("Determine") >= 10 and "Fix" not in kinds
    assert kinds.count("Select") >= kinds.count("Determine")


def test_the_computer_plays_the_turn_it_plans() -> None:
    match = computer_match((4, 4), 3)
    state = match.rules.state  # type: ignore[attr-defined]
    expected = choose_turn(
        state, 4, PanelsComputer(4, 3).rng_for(state)
    )
    while len(match.history) < len(expected):
        match.step()
    assert [decode_action(p.data) for p in match.history] == expected


def test_suspend_in_the_middle_of_a_computer_turn_continues_identically() -> None:
    def fresh() -> Match[Any]:
        rules = PanelsRules.new(GameConfig(seed=8, target=200))
        return Match(rules, [LocalSeat(), ComputerSeat(PanelsComputer(4, 8), min_ticks=5)])

    straight, suspended = fresh(), fresh()
    for m in (straight, suspended):
        fix = next(a for a in m.rules.legal_actions() if isinstance(a, Fix))
        m.submit(0, fix)
    ticks = 0
    while len(suspended.history) < 4:  # the computer has selected and placed, maybe rotated
        suspended.step()
        straight.step()
        ticks += 1
    for _ in range(2):
        suspended.step()
        straight.step()
    saved = suspended.save()
    assert saved["rules"]["selected"] is not None and saved["rules"]["current"] == 1
    resumed = fresh()
    computer = resumed.seats[1].player  # type: ignore[attr-defined]
    computer.warm(PanelsRules.from_json(saved["rules"]))
    resumed.load(saved)
    for _ in range(400):
        if straight.to_move == 0:
            break
        straight.step()
        resumed.step()
    assert straight.to_move == 0
    assert [p.to_json() for p in resumed.history] == [p.to_json() for p in straight.history]


def test_a_plan_is_thought_in_slices_of_the_budget() -> None:
    from games.panels.ai.player import LIST_UNITS

    rules = PanelsRules.new(GameConfig(seed=12))
    rules.state.players[0].items = ["renumber", "swivel", "prism"]  # the item search runs
    for _ in range(6):  # a few turns in, so candidates are many and items have targets
        fix = sorted((a for a in rules.legal_actions() if isinstance(a, Fix)), key=str)[0]
        rules.apply(rules.state.current, fix)
    thinker = PanelsComputer(4, 1).start(rules, rules.state.current)
    budget, calls, action = 1000, 0, None
    while action is None:
        before = thinker.units
        action = thinker.think(budget)
        calls += 1
        assert thinker.units - before <= budget + LIST_UNITS  # one slice never runs over
    assert calls >= 3 and thinker.units >= 2 * budget
    # later steps of the planned turn cost one unit each, and come from the same plan
    rules.apply(rules.state.current, action)
    follow = PanelsComputer(4, 1).start(rules, rules.state.current)  # no cache: replanned
    assert follow.think(budget) is not None and follow.units == 1
