"""Region Select behind the match protocol: the shared contract, seat and driver (issue 10)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.match import LocalSeat, Match, RemoteSeat
from games.regions.match import RegionsRules
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
