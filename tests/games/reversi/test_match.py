"""Reversi behind the match protocol: the shared contract, seats and driver (issue 10)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.match import (
    ComputerSeat,
    LocalSeat,
    Match,
    RemoteSeat,
    ReplaySeat,
    ReplaySource,
)
from games.reversi.match import ReversiComputer, ReversiRules
from games.reversi.records import GameRecord
from games.reversi.rules import Game
from tests.match_contract import digests_in_subprocess, lockstep, refuses_garbage, refuses_illegal


def contract() -> tuple[Any, Any]:
    def make(seed: int) -> ReversiRules:
        return ReversiRules()

    def pick(rules: ReversiRules, rng: random.Random) -> str:
        return rng.choice(sorted(rules.legal_actions()))

    return make, pick


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_lockstep_through_the_encoding(seed: int) -> None:
    make, pick = contract()
    digests = lockstep(make, pick, seed)
    assert len(set(digests)) == len(digests)  # every move changes the state


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 40), st.binary(max_size=60))
def test_garbage_is_refused_and_changes_nothing(plies: int, data: bytes) -> None:
    rules = ReversiRules()
    rng = random.Random(plies)
    for _ in range(plies):
        if rules.to_move() is None:
            break
        rules.apply(rules.to_move() or 0, rng.choice(sorted(rules.legal_actions())))
    refuses_garbage(rules, data)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([f"{f}{r}" for f in "abcdefgh" for r in "12345678"]))
def test_illegal_square_changes_nothing(square: str) -> None:
    refuses_illegal(ReversiRules(), square)


def test_digest_is_the_same_under_other_hash_seeds() -> None:
    a = digests_in_subprocess("tests.games.reversi.test_match:contract", 7, 80, "1")
    b = digests_in_subprocess("tests.games.reversi.test_match:contract", 7, 80, "2024")
    assert a == b and len(a) > 50


def test_computer_against_computer_to_the_end() -> None:
    rules = ReversiRules()
    match = Match(rules, [ComputerSeat(ReversiComputer(1, 3)), ComputerSeat(ReversiComputer(2, 4))])
    for _ in range(100_000):
        if match.over:
            break
        match.step()
    result = match.result()
    assert result is not None
    assert sum(result.scores) == rules.game.score()["black"] + rules.game.score()["white"]
    assert len(match.history) == len(rules.game.moves)


def test_illegal_action_from_any_seat_is_refused_counted_and_changes_nothing() -> None:
    local, remote = LocalSeat[str](), RemoteSeat[str]()
    match = Match(ReversiRules(), [local, remote])
    before = match.rules.digest()
    local.offer("a1")  # not a legal square at the start
    assert match.step() == []
    remote.deliver(b"zz")  # garbled, and out of turn besides
    match.submit(1, "d3", "remote")
    assert match.rules.digest() == before
    assert match.refused == {"local": 1, "remote": 1}
    local.offer("f5")
    assert match.step()[0]["square"] == "f5"
    remote.deliver(b"zz")
    assert match.step() == []
    # both garbled deliveries (the first waited in the inbox for seat 1's turn) and the
    # out-of-turn submission
    assert match.refused["remote"] == 3 and len(match.history) == 1


def test_remote_seat_reports_a_divergence() -> None:
    local, remote = LocalSeat[str](), RemoteSeat[str]()
    match = Match(ReversiRules(), [local, remote])
    seen: list[tuple[int, str, str]] = []
    match.divergence_listeners.append(lambda seat, want, got: seen.append((seat, want, got)))
    local.offer("f5")
    match.step()
    remote.deliver(b"f6", digest="0" * 64)
    match.step()
    assert match.divergences == 1 and seen[0][0] == 1 and seen[0][2] == match.rules.digest()


def test_replay_seat_reaches_the_same_final_digest() -> None:
    # A stored record (as the Records screen keeps it) of a computer game.
    played = ReversiRules()
    seats = [ComputerSeat(ReversiComputer(2, 9)), ComputerSeat(ReversiComputer(1, 8))]
    match = Match(played, seats)
    while not match.over:
        match.step()
    stored = GameRecord.from_game(played.game, "A", "B").to_json()
    record = GameRecord.from_json(stored)
    replayed = ReversiRules(Game(record.game.start))
    actions: list[tuple[int, bytes]] = []
    probe = ReversiRules(Game(record.game.start))
    for square in record.game.moves:
        seat = probe.to_move()
        assert seat is not None
        actions.append((seat, probe.encode(square)))
        probe.apply(seat, square)
    source = ReplaySource(actions)
    replay = Match(replayed, [ReplaySeat[str](source), ReplaySeat[str](source)])
    replay.step()
    assert replay.history == []  # nothing released yet: the viewer steps forward
    source.release(len(actions))
    while not replay.over:
        replay.step()
    assert replayed.digest() == played.digest()
    assert [p.digest for p in replay.history] == [p.digest for p in match.history]


def test_suspend_mid_search_continues_identically() -> None:
    def fresh() -> Match[str]:
        return Match(ReversiRules(), [LocalSeat[str](), ComputerSeat(ReversiComputer(4, 5))])

    straight, resumed = fresh(), fresh()
    for m in (straight, resumed):
        m.seats[0].offer("f5")  # type: ignore[attr-defined]
        m.step()
    for _ in range(7):
        straight.step()
        resumed.step()
    saved = resumed.save()
    again = fresh()
    again.load(saved)
    ticks_a = ticks_b = 0
    while len(straight.history) < 2:
        straight.step()
        ticks_a += 1
    while len(again.history) < 2:
        again.step()
        ticks_b += 1
    assert ticks_a == ticks_b
    assert straight.rules.digest() == again.rules.digest()
