"""Region Select behind the match protocol: the shared contract, seat and driver (issue 10)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.match import LocalSeat, Match, RemoteSeat
from games.regions.match import WAIT, RaceRules, RegionsRules
from games.regions.rules.catalogue import CATALOGUE
from games.regions.rules.play import UNDO, VARIANTS, Puzzle, Setup
from games.regions.rules.puzzle import PuzzleError
from tests.match_contract import digests_in_subprocess, lockstep, refuses_garbage, refuses_illegal

SMALL = [e for e in CATALOGUE if e.shadow.crossings <= 6]


def make_rules(seed: int) -> RegionsRules:
    rng = random.Random(seed)
    while True:
        entry = rng.choice(SMALL)
        variant = rng.choice(VARIANTS)
        goal = rng.randrange(3) if variant == "three" else 0
        n = entry.shadow.crossings
        k = {"classic": 2, "cyclic4": 4}.get(variant, 3)
        setup = Setup(entry.shadow.link, variant, goal, None, rng.randrange(1, k**n), seed)
        try:
            return RegionsRules(Puzzle(setup))
        except PuzzleError:
            continue  # a cyclic variant this surface cannot take


def contract() -> tuple[Any, Any]:
    def pick(rules: RegionsRules, rng: random.Random) -> Any:
        return rng.choice(list(rules.legal_actions()))

    return make_rules, pick


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_lockstep_through_the_encoding(seed: int) -> None:
    make, pick = contract()
    digests = lockstep(make, pick, seed, max_actions=120)
    assert len(digests) > 1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30), st.binary(max_size=60))
def test_garbage_is_refused_and_changes_nothing(actions: int, data: bytes) -> None:
    rules = make_rules(actions)
    rng = random.Random(actions)
    for _ in range(actions):
        if rules.to_move() is None:
            break
        rules.apply(0, rng.choice(list(rules.legal_actions())))
    refuses_garbage(rules, data)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 1000), st.one_of(st.integers(-5, 40), st.just(UNDO), st.just("x")))
def test_illegal_actions_change_nothing(seed: int, action: Any) -> None:
    refuses_illegal(make_rules(seed), action)


def test_wire_forms() -> None:
    rules = make_rules(1)
    assert rules.encode(7) == b"7" and rules.encode(12) == b"12" and rules.encode(UNDO) == b"u"
    assert rules.decode(b"12") == 12 and rules.decode(b"0") == 0 and rules.decode(b"u") == UNDO
    for bad in (b"", b"-1", b"07", b"1.0", b"uu", b"12345", b"\xff"):
        try:
            rules.decode(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted")


def test_digest_is_the_same_under_other_hash_seeds() -> None:
    a = digests_in_subprocess("tests.games.regions.test_match:contract", 5, 60, "1")
    b = digests_in_subprocess("tests.games.regions.test_match:contract", 5, 60, "777")
    assert a == b and len(a) > 3


def test_a_solution_through_the_driver_clears_and_a_remote_copy_agrees() -> None:
    entry = next(e for e in CATALOGUE if e.name == "5_2")
    setup = Setup(entry.shadow.link, "classic", 0, None, 19, 0)
    seat, remote = LocalSeat[Any](), RemoteSeat[Any]()
    mine = Match(RegionsRules(Puzzle(setup)), [seat])
    mirror = Match(RegionsRules(Puzzle(setup)), [remote])
    mine.listeners.append(lambda played, _ev: remote.deliver(played.data, played.digest))
    solution = mine.rules.puzzle.solution()
    for p in solution:
        seat.offer(p)
        events = mine.step()
        assert events and events[0]["point"] == p
        mirror.step()
    assert mine.over and mirror.over and mirror.divergences == 0
    result = mine.result()
    assert result is not None and result.winner == 0 and result.scores == (len(solution),)
    seat.offer(solution[0])  # nothing is taken after the clear
    assert mine.step() == [] and len(mine.history) == len(solution)


# --- the race (link mode) ------------------------------------------------------------------


def make_race(seed: int) -> RaceRules:
    rules = make_rules(seed)
    return RaceRules(rules.puzzle.setup)


def race_contract() -> tuple[Any, Any]:
    def pick(rules: RaceRules, rng: random.Random) -> Any:
        acts = list(rules.legal_actions())
        return WAIT if rng.random() < 0.3 else rng.choice(acts)

    return make_race, pick


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_race_lockstep_through_the_encoding(seed: int) -> None:
    make, pick = race_contract()
    digests = lockstep(make, pick, seed, max_actions=150)
    assert len(digests) > 1


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 40), st.binary(max_size=10))
def test_race_garbage_is_refused_and_changes_nothing(turns: int, data: bytes) -> None:
    race = make_race(turns)
    rng = random.Random(turns)
    for _ in range(turns):
        seat = race.to_move()
        if seat is None:
            break
        race.apply(seat, rng.choice(list(race.legal_actions())))
    refuses_garbage(race, data)


def test_race_digest_is_the_same_under_other_hash_seeds() -> None:
    a = digests_in_subprocess("tests.games.regions.test_match:race_contract", 3, 60, "5")
    b = digests_in_subprocess("tests.games.regions.test_match:race_contract", 3, 60, "99")
    assert a == b


def test_a_race_between_two_matches_names_the_first_to_clear_on_both() -> None:
    """Two units, each a match with its own local seat and the partner as a remote seat,
    connected by a pipe that delivers every action late: both end with the same winner."""
    entry = next(e for e in CATALOGUE if e.name == "6_2")
    setup = Setup(entry.shadow.link, "classic", 0, None, 41, 0)
    solution = Puzzle(setup).solution()
    units = []
    for me in (0, 1):
        local, remote = LocalSeat[Any](), RemoteSeat[Any]()
        seats: list[Any] = [local, remote] if me == 0 else [remote, local]
        units.append((me, local, remote, Match(RaceRules(setup), seats)))
    pipes: list[list[tuple[int, bytes, str]]] = [[], []]  # to unit 0, to unit 1
    for me, _local, _remote, match in units:
        match.listeners.append(
            lambda played, _ev, me=me: pipes[1 - me].append((2, played.data, played.digest))
            if played.seat == me else None
        )
    plans = {0: list(solution), 1: list(solution)}
    think = {0: 30, 1: 6}  # ticks each player needs per selection: seat 1 is quicker
    ready = {0: 0, 1: 0}
    for _tick in range(3000):
        for me, local, remote, match in units:
            for item in list(pipes[me]):  # every action arrives two ticks after it is sent
                pipes[me].remove(item)
                delay, data, digest = item
                if delay > 0:
                    pipes[me].append((delay - 1, data, digest))
                else:
                    remote.deliver(data, digest)
            ready[me] += 1
            if match.to_move == me:
                if ready[me] >= think[me] and plans[me]:
                    local.offer(plans[me].pop(0))
                    ready[me] = 0
                else:
                    local.offer(WAIT)
            match.step()
        if all(m.over for _s, _l, _r, m in units):
            break
    results = [m.result() for _s, _l, _r, m in units]
    assert results[0] is not None and results[0] == results[1]
    assert results[0].winner == 1  # the quicker player, on both units
    assert units[0][3].rules.digest() == units[1][3].rules.digest()
    assert all(m.divergences == 0 for _s, _l, _r, m in units)
