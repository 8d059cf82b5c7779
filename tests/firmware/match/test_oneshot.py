"""The game API's ready one-shot computer player (issue 37, item 2): its decision lands at
the tick its reported work fixes, the same in the loop and in a worker process."""

from __future__ import annotations

import random

import pytest

from firmware.game_api import OneShotPlayer
from firmware.match import ComputerSeat, LocalSeat, Match
from firmware.match.oneshot import ONE_SHOT_UNITS
from firmware.match.seats import MIN_THINK_TICKS
from games.reversi.match import ReversiRules
from games.reversi.rules import Game


def random_square(rules: ReversiRules, seat: int) -> str:
    """A random legal move, drawn from the position alone (deterministic, picklable)."""
    return random.Random(rules.digest()).choice(sorted(rules.legal_actions() or ()))


def _landing(seat: ComputerSeat[str]) -> tuple[str, int]:
    rules = ReversiRules(Game())
    match = Match(rules, [seat, LocalSeat[str]()])
    for poll in range(1, 10_000):
        match.step()
        if match.history:
            return match.history[0].data.decode(), poll
    raise AssertionError("the one-shot player never decided")


@pytest.mark.parametrize("units", [ONE_SHOT_UNITS, 250_000])
def test_a_one_shot_decision_lands_at_the_tick_its_units_fix(units: int) -> None:
    player = OneShotPlayer(random_square, units=units)
    sliced = ComputerSeat(player, 5_000)
    in_worker = ComputerSeat(player, 5_000, worker=True, block=True)
    try:
        move, poll = _landing(sliced)
        assert (move, poll) == _landing(in_worker)
        assert poll == max(MIN_THINK_TICKS, -(-units // 5_000))
        assert move == random_square(ReversiRules(Game()), 0)
    finally:
        in_worker.close()


def test_the_thinker_reports_its_units_once_decided() -> None:
    thinker = OneShotPlayer(random_square, units=42).start(ReversiRules(Game()), 0)
    assert thinker.units == 0
    assert thinker.think(1) is not None and thinker.units == 42
