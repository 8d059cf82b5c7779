"""Pacing of worker answers (issue 26): live, the poll a worker's answer was applied at is
recorded; replayed, the seat applies it at exactly that poll (waiting for the worker there),
and holds when the record says it had not been applied yet."""

from __future__ import annotations

import time

from firmware.match import ComputerSeat, Match
from firmware.match.pacing import PENDING, Pacing
from firmware.match.worker import close_all
from games.reversi.match import ReversiComputer, ReversiRules
from tests.firmware.match.test_computer_seat import _seats, position_with_empties


class Log:
    def __init__(self) -> None:
        self.landings: dict[int, tuple[int, int, bool]] = {}

    def landed(self, request: int, polls: int, late: bool, tick: int) -> None:
        self.landings[request] = (polls, tick, late)

    def landing(self, request: int) -> int:
        found = self.landings.get(request)
        return found[0] if found is not None else PENDING


def played_at(
    seat: ComputerSeat[str], rules: ReversiRules, polls: int, match: Match[str] | None = None
) -> int | None:
    """The poll (1-based) at which `seat` plays, within `polls` polls; None if it does not."""
    match = match or Match(rules, _seats(rules, seat))
    for poll in range(1, polls + 1):
        before = len(match.history)
        match.step()
        if len(match.history) > before:
            return poll
        time.sleep(0.001)  # real time passes between live polls: the worker can answer
    return None


def test_a_replayed_seat_plays_at_the_recorded_poll_or_holds() -> None:
    log = Log()
    pacing = Pacing(lambda: 500)  # every request is made at tick 500 here
    pacing.log = log
    game = position_with_empties(30, seed=4)
    try:
        live = ComputerSeat(ReversiComputer(2, 3), 5_000, worker=True, block=True, pacing=pacing)
        live_poll = played_at(live, ReversiRules(game), 1000)
        assert live_poll is not None and log.landings[500][0] == live_poll  # recorded
        pacing.replaying = True
        for recorded in (live_poll + 7, live_poll + 40):  # as if the worker had been late
            log.landings[500] = (recorded, 0, True)
            seat = ComputerSeat(
                ReversiComputer(2, 3), 5_000, worker=True, block=False, pacing=pacing
            )
            assert played_at(seat, ReversiRules(game), 1000) == recorded
        del log.landings[500]  # not applied live (yet): the replay holds
        seat = ComputerSeat(ReversiComputer(2, 3), 5_000, worker=True, block=False, pacing=pacing)
        rules = ReversiRules(game)
        match = Match(rules, _seats(rules, seat))
        assert played_at(seat, rules, live_poll + 100, match) is None
        pacing.replaying = False  # live again: the seat's own rule (the answer when it comes)
        assert played_at(seat, rules, 10_000, match) is not None
        assert 500 in log.landings  # and that landing is recorded
    finally:
        close_all()
