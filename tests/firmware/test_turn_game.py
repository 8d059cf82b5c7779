"""The turn-game base (firmware/turn_game.py, issue 37 item 1): what every turn-based game
shares, tested once on a tiny game of its own (the five games' own tests and their movies'
byte-identical frames cover it in use)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pygame
import pytest

from firmware.game_api import GameResult
from firmware.input import InputState
from firmware.match import (
    ActionError,
    ComputerSeat,
    LocalSeat,
    Match,
    MatchResult,
    OneShotPlayer,
    RemoteSeat,
    ReplayCursor,
    canonical_digest,
)
from firmware.turn_game import (
    FrameCache,
    TurnGame,
    check_version,
    offer_local,
    outcome,
    play_seats,
    replay_hotspots,
    replay_save,
    replay_step,
    result_due,
    save_reader,
    start_match,
    thinking_calls,
)
from hal.interfaces import Button


class Pile:
    """Take 1 or 2 from a pile of 4 in turns; whoever takes the last one wins."""

    game_id = "pile"
    seats = 2

    def __init__(self, left: int = 4, taken: int = 0) -> None:
        self.left, self.taken = left, taken

    def to_move(self) -> int | None:
        return None if self.left == 0 else self.taken % 2

    def legal_actions(self) -> list[int]:
        return [n for n in (1, 2) if n <= self.left]

    def check(self, seat: int, action: int) -> str | None:
        if self.to_move() != seat:
            return "not this seat's turn"
        return None if action in self.legal_actions() else "take 1 or 2"

    def apply(self, seat: int, action: int) -> list[dict[str, Any]]:
        reason = self.check(seat, action)
        if reason is not None:
            raise ActionError(reason)
        self.left, self.taken = self.left - action, self.taken + 1
        return [{"type": "take", "seat": seat, "n": action}]

    def result(self) -> MatchResult | None:
        return None if self.left else MatchResult((self.taken - 1) % 2, "took the last")

    def digest(self) -> str:
        return canonical_digest(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {"left": self.left, "taken": self.taken}

    @classmethod
    def from_json(cls, data: Any) -> Pile:
        return cls(int(data["left"]), int(data["taken"]))

    def encode(self, action: int) -> bytes:
        return bytes([action])

    def decode(self, data: bytes) -> int:
        return data[0]


class FakeVersus:
    """A link session as the base uses it: seats made, the match attached, agreement."""

    def __init__(self) -> None:
        self.seat, self.agreed = 0, False
        self.attached: list[tuple[Any, Any, Any]] = []

    def make_seats(self) -> list[Any]:
        return [LocalSeat[int](), RemoteSeat[int]()]

    def attach(self, match: Any, dealer: Any = None, computer: Any = None) -> None:
        self.attached.append((match, dealer, computer))


class FakeContext:
    """What the base reads of a GameContext: versus, a computer seat, finish."""

    def __init__(self, versus: FakeVersus | None = None) -> None:
        self.versus = versus
        self.finished: list[GameResult] = []

    def computer_seat(self, player: Any, min_ticks: int = 1) -> ComputerSeat[int]:
        return ComputerSeat(player, None, min_ticks)

    def finish(self, result: GameResult) -> None:
        self.finished.append(result)


def _ctx(versus: FakeVersus | None = None) -> Any:
    return FakeContext(versus)


def test_frame_cache_copies_a_still_screen_and_redraws_a_moving_one() -> None:
    cache, drawn = FrameCache(), []
    surf = pygame.Surface((4, 4))

    def draw(s: pygame.Surface) -> None:
        drawn.append(1)
        s.fill((len(drawn), 0, 0))

    cache.draw(surf, "top", "still", draw)
    surf.fill((0, 0, 0))
    cache.draw(surf, "top", "still", draw)  # copied, not drawn: the first picture again
    assert drawn == [1] and surf.get_at((0, 0))[:3] == (1, 0, 0)
    cache.draw(surf, "top", None, draw)
    cache.draw(surf, "top", None, draw)
    assert len(drawn) == 3  # moving (key None): drawn every time


def test_seats_are_local_computer_or_the_sessions() -> None:
    ctx = _ctx()
    computer = lambda seat: ctx.computer_seat(OneShotPlayer(lambda r, s: r.legal_actions()[0]))  # noqa: E731
    assert [s.kind for s in play_seats(ctx, 2)] == ["local", "local"]
    assert [s.kind for s in play_seats(ctx, 2, computer, (1,))] == ["local", "computer"]
    versus = FakeVersus()
    seats = play_seats(_ctx(versus), 2, computer, (1,))
    assert [s.kind for s in seats] == ["local", "remote"]  # the session's, whatever asked


def test_a_match_is_attached_to_the_link_only_in_versus() -> None:
    alone = start_match(_ctx(), Pile(), [LocalSeat[int](), LocalSeat[int]()])
    assert alone.to_move == 0
    versus = FakeVersus()

    def computer(seat: int) -> Any:
        return None

    match = start_match(_ctx(versus), Pile(), versus.make_seats(), computer, dealer="deal")
    assert versus.attached == [(match, "deal", computer)]


def test_a_tap_is_offered_only_to_a_local_seat_to_move() -> None:
    ctx = _ctx()
    player = OneShotPlayer(lambda rules, seat: 1)
    match = Match(Pile(), [LocalSeat[int](), ctx.computer_seat(player, 3)])
    assert offer_local(match, 2) and match.step()[0]["n"] == 2
    assert not offer_local(match, 1)  # the computer's turn: nothing offered
    assert match.step() == [] and thinking_calls(match) == 1  # answers after 3 slices
    while match.to_move == 1:
        match.step()
    assert match.rules.to_json() == {"left": 1, "taken": 2} and thinking_calls(match) == 0


@pytest.mark.parametrize(
    ("winner", "me", "draw", "expected"),
    [(0, 0, False, "win"), (1, 0, False, "loss"), (None, 0, True, "draw"),
     (None, 1, False, "draw"), (0, None, False, None), (None, None, True, None)],
)
def test_the_outcome_is_from_this_units_side(winner, me, draw, expected) -> None:
    assert outcome(winner, me, draw) == expected


def test_a_result_is_due_once_and_in_versus_only_once_agreed() -> None:
    assert not result_due(_ctx(), False, False)
    assert result_due(_ctx(), True, False) and not result_due(_ctx(), True, True)
    versus = FakeVersus()
    assert not result_due(_ctx(versus), True, False)
    versus.agreed = True
    assert result_due(_ctx(versus), True, False)


def test_the_replay_buttons_and_l_r_step_the_cursor() -> None:
    cursor = ReplayCursor(Pile, [(0, b"\x01"), (1, b"\x02"), (0, b"\x01")])
    rects = {"first": pygame.Rect(0, 0, 9, 9), "forward": pygame.Rect(10, 0, 9, 9),
             "last": pygame.Rect(20, 0, 9, 9)}
    assert set(replay_hotspots(rects)) == {"button:first", "button:forward", "button:last"}
    quiet = InputState()
    assert replay_step(cursor, None, quiet) is None and cursor.index == 0
    assert replay_step(None, "button:forward", quiet) is None
    events = replay_step(cursor, "button:forward", quiet)
    assert events is not None and events[0]["n"] == 1 and cursor.index == 1
    assert replay_step(cursor, "button:last", quiet) == [] and cursor.at_end
    assert replay_step(cursor, None, InputState(repeated=frozenset({Button.L}))) == []
    assert cursor.index == 2
    replay_step(cursor, "button:first", quiet)
    assert cursor.at_start
    assert replay_step(cursor, None, InputState(repeated=frozenset({Button.R})))
    assert replay_step(cursor, "button:quit", quiet) is None  # not a replay command


def test_a_bad_save_is_one_clear_error() -> None:
    reader = "a Pile save"
    with pytest.raises(ValueError, match=r"^not a Pile save: unknown version"), save_reader(reader):
        check_version({"version": 2}, 1)
    with pytest.raises(ValueError, match=r"^not a Pile save: 'mode'$"), save_reader(reader):
        check_version({"version": 1}, 1)["mode"]
    with pytest.raises(ValueError, match=r"^not a Pile save: odd$"), save_reader(
        reader, LookupError
    ):
        raise IndexError("odd")
    # only the errors of reading are turned
    with pytest.raises(ZeroDivisionError), save_reader(reader):
        raise ZeroDivisionError
    assert replay_save(1, {"moves": []}, 3, "kind") == {
        "version": 1, "kind": "replay", "record": {"moves": []}, "index": 3}


class PileGame(TurnGame):
    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.match: Match[int] = self.new_match(Pile())

    def update(self, inp: InputState) -> None:
        self.match.step()
        if self.result_due(self.match.over):
            self.record_result(GameResult("win", summary="took", summary_ja="とった"))

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        self.cached(top, "top", self.match.rules.to_json()["left"], lambda s: s.fill((0, 0, 0)))

    def save_state(self) -> dict[str, Any]:
        return {"match": self.match.save()}

    def load_state(self, state: dict[str, Any]) -> None:
        self.match.load(state["match"])


def test_the_base_records_a_finished_game_once() -> None:
    ctx = _ctx()
    game = PileGame(SimpleNamespace(versus=None, finish=ctx.finish))
    for take in (2, 2):
        offer_local(game.match, take)
        game.update(InputState())
    game.update(InputState())
    assert game.match.over and game.reported and len(ctx.finished) == 1


def test_a_turn_game_steps_a_replay_with_its_own_hotspots() -> None:
    game = PileGame(SimpleNamespace(versus=None, finish=_ctx().finish))
    cursor = ReplayCursor(Pile, [(0, b"\x02"), (1, b"\x02")])
    assert game.replay_update(cursor, InputState()) is None  # no button, no L / R
    assert game.replay_update(cursor, InputState(repeated=frozenset({Button.R})))
    assert cursor.index == 1
