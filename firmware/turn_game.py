"""What every turn-based game shares, written once (issue 37): the match on its seats, reset,
the replay cursor and its buttons, the result and its record, saved state.

Five games had each written these again (Reversi's copy was the model the others and a
sixth game copied almost line for line). Now a game writes its rules (a `MatchRules`), its
views and drawing, its input and its computer player; for the rest it inherits `TurnGame`
(or calls the helpers below where its own shape differs). docs/architecture.md, "The turn
game base", lists what the base gives and what each game still writes.

The base keeps no state of its own in a save: each game's saved state and dump stay the
game's (`save_reader`, `check_version` and `replay_save` only spare it the plumbing), so a
game moved onto the base keeps its saves, movies and screens byte-identical.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

import pygame

from firmware.game_api import Game, GameContext, GameResult
from firmware.input import InputState
from firmware.match import ComputerSeat, Event, LocalSeat, Match, MatchRules, ReplayCursor, Seat
from firmware.match.replay import replay_command
from firmware.scene import hit

A = TypeVar("A")

ComputerFor = Callable[[int], Seat[A]]  # seat -> the game's computer player for it


class FrameCache:
    """The last picture of each screen (`slot`) with the key it was drawn for: a still
    screen (the computer thinking, the player pondering) is copied, not drawn again, which
    keeps a tick cheap on a Pi. A key of None means "moving": draw and keep nothing."""

    def __init__(self) -> None:
        self.frames: dict[str, tuple[object, pygame.Surface]] = {}

    def draw(
        self, surf: pygame.Surface, slot: str, key: object, draw: Callable[[pygame.Surface], None]
    ) -> None:
        """Draw into `surf`, or copy the picture last drawn for the same `key`."""
        cached = self.frames.get(slot)
        if key is not None and cached is not None and cached[0] == key:
            surf.blit(cached[1], (0, 0))
            return
        draw(surf)
        if key is not None:
            self.frames[slot] = (key, surf.copy())


# ------------------------------------------------------------------------------ seats, match
def play_seats(
    ctx: GameContext,
    count: int,
    computer: ComputerFor[A] | None = None,
    computer_seats: Collection[int] = (),
) -> list[Seat[A]]:
    """The seats of a new match: in versus the link session's (a local seat for this unit's
    player, remote seats for the others); otherwise a local seat for each person at this
    unit and `computer(seat)` in each of `computer_seats`."""
    if ctx.versus is not None:
        session: list[Seat[A]] = ctx.versus.make_seats()
        return session
    if computer is None:
        return [LocalSeat[A]() for _ in range(count)]
    return [computer(s) if s in computer_seats else LocalSeat[A]() for s in range(count)]


def start_match(
    ctx: GameContext,
    rules: MatchRules[A],
    seats: Sequence[Seat[A]],
    computer: ComputerFor[A] | None = None,
    dealer: Any = None,
) -> Match[A]:
    """A match of `rules` on `seats`; in versus wired to the link (`Versus.attach`), with
    `computer` taking the seat of a unit that is gone for good (and, sealed, `dealer`
    checking the host's deal)."""
    match = Match(rules, seats)
    if ctx.versus is not None:
        ctx.versus.attach(match, dealer=dealer, computer=computer)
    return match


def offer_local(match: Match[A], action: A) -> bool:
    """Offer `action` for the seat to move if a person at this unit plays it (a tap's move);
    False (nothing offered) when it is another kind of seat's turn or the match is over."""
    seat = match.to_move
    source = match.seats[seat] if seat is not None else None
    if not isinstance(source, LocalSeat):
        return False
    source.offer(action)
    return True


def thinking_calls(match: Match[A], seat: int | None = None) -> int:
    """Slices the computer seat to move (or `seat`) has thought for the decision it is on
    (0 when no computer is deciding): the game's `thinking_ticks`, its dots' clock."""
    seat = match.to_move if seat is None else seat
    source = match.seats[seat] if seat is not None else None
    return source.calls if isinstance(source, ComputerSeat) and source.thinking else 0


# ------------------------------------------------------------------------- result, record
def outcome(winner: int | None, me: int | None, draw: bool = False) -> str | None:
    """A `GameResult.outcome` from this unit's side: "win", "loss", "draw" (`winner` None
    counts as a draw), None when no one player here has a side (two players on one unit)."""
    if me is None:
        return None
    if draw or winner is None:
        return "draw"
    return "win" if winner == me else "loss"


def result_due(ctx: GameContext, over: bool, reported: bool) -> bool:
    """True once a finished game should be recorded (rule G8): over, not recorded yet, and in
    versus once every unit reached the same final state (`Versus.agreed`)."""
    return over and not reported and (ctx.versus is None or ctx.versus.agreed)


# ----------------------------------------------------------------------------- replays
def replay_hotspots(rects: Mapping[str, pygame.Rect]) -> dict[str, pygame.Rect]:
    """The replay viewer's buttons as hotspots, `button:<command>` (rule G1: a forward and a
    last button; `firmware.match.replay.COMMANDS` names what they may be)."""
    return {f"button:{name}": rect for name, rect in rects.items()}


def replay_step(
    cursor: ReplayCursor[A] | None, name: str | None, inp: InputState
) -> list[Event] | None:
    """This tick's replay command carried out on `cursor`: the tapped `button:<command>`
    (`name`), or L / R for back / forward. The events of a step forward ([] for the other
    commands, to show at once); None when nothing was asked (or no record opened)."""
    if cursor is None:
        return None
    command = replay_command(name, inp)
    return None if command is None else cursor.go(command)


# ---------------------------------------------------------------------------- saved state
def check_version(state: Any, version: int) -> dict[str, Any]:
    """`state` if it is a saved state of this `version`; ValueError otherwise."""
    if not isinstance(state, dict) or state.get("version") != version:
        raise ValueError("unknown version")
    return state


@contextmanager
def save_reader(what: str, *errors: type[Exception]) -> Iterator[None]:
    """Read a saved state: any KeyError, TypeError, ValueError (or one of `errors`, the
    game's own) becomes one clear ValueError, "not <what>: ..." (`what`: "a Reversi save"),
    which the firmware shows while it keeps the save (a bad save changes nothing)."""
    caught: tuple[type[Exception], ...] = (KeyError, TypeError, ValueError, *errors)
    try:
        yield
    except caught as exc:
        raise ValueError(f"not {what}: {exc}") from None


def replay_save(
    version: int, record: dict[str, Any] | None, index: int, key: str = "mode"
) -> dict[str, Any]:
    """The saved state of a replay: its record and how far it had got (`key` names the
    field that says "replay", as each game's saves always have)."""
    return {"version": version, key: "replay", "record": record, "index": index}


# --------------------------------------------------------------------------- the base
class SaveFunctions(Protocol):
    """A game's dump and saved state as functions of its scene, in a module of its own
    (`scene/saved.py` by the house's layout, docs/architecture.md "Inside a game"): what
    `TurnGame.saves` names, so the scene does not pass each call on itself."""

    def dump(self, scene: Any, /) -> dict[str, Any]: ...
    def save_state(self, scene: Any, /) -> dict[str, Any]: ...
    def load_state(self, scene: Any, state: dict[str, Any], /) -> None: ...


class TurnGame(Game):
    """A game played through a `Match`: the shared parts as methods, on the state every such
    game has (`versus`, `reported`, `frames`). A game subclasses it, builds its match with
    `new_match` (seats: local, computer, remote, replay through `ReplayCursor`), records its
    end with `record_result`, and writes its rules, views, drawing, input and computer player.

    Its dump and saved state are the game's own: either a module of functions named by
    `saves` (the five games' `saved.py`), or `dump`/`save_state`/`load_state` written in
    the scene (the tic-tac-toe example)."""

    # the game's `saved` module (SaveFunctions); None: the scene writes the three methods
    saves: SaveFunctions | None = None

    def __init__(self, ctx: GameContext) -> None:
        super().__init__(ctx)
        # the link session of a versus match (ctx.versus), else None
        self.versus = ctx.versus
        self.reported = False  # the result recorded (once; rule G8)
        self.frames = FrameCache()

    def dump(self) -> dict[str, Any]:
        return {} if self.saves is None else self.saves.dump(self)

    def save_state(self) -> dict[str, Any]:
        if self.saves is None:
            raise NotImplementedError(f"{type(self).__name__}: name `saves` or write save_state")
        return self.saves.save_state(self)

    def load_state(self, state: dict[str, Any]) -> None:
        if self.saves is None:
            raise NotImplementedError(f"{type(self).__name__}: name `saves` or write load_state")
        self.saves.load_state(self, state)

    def cached(
        self, surf: pygame.Surface, slot: str, key: object, draw: Callable[[pygame.Surface], None]
    ) -> None:
        """`FrameCache.draw` on this game's cache."""
        self.frames.draw(surf, slot, key, draw)

    def new_match(
        self,
        rules: MatchRules[A],
        computer: ComputerFor[A] | None = None,
        computer_seats: Collection[int] = (),
    ) -> Match[A]:
        """A fresh match of `rules` (`play_seats` + `start_match`): `computer(seat)` in
        `computer_seats` here, and in versus in the seat of a unit gone for good."""
        seats = play_seats(self.ctx, rules.seats, computer, computer_seats)
        return start_match(self.ctx, rules, seats, computer)

    def result_due(self, over: bool) -> bool:
        """`result_due` for this game's `reported`."""
        return result_due(self.ctx, over, self.reported)

    def record_result(self, result: GameResult) -> None:
        """Record the finished game (statistics, and its record for replays), once."""
        self.reported = True
        self.ctx.finish(result)

    def replay_update(
        self, cursor: ReplayCursor[A] | None, inp: InputState
    ) -> list[Event] | None:
        """`replay_step` with this tick's tapped hotspot."""
        return replay_step(cursor, hit(self.hotspots(), inp), inp)
