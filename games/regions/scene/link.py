"""Region Select's link glue: one tick of a race (the link session's two-seat match: this
player's queued taps offered on their turn, a wait after a moment with nothing to play, the
end taken from the match). The scene is reached through `LinkTarget`, never by importing
`play.py`.
"""

from __future__ import annotations

from typing import Any, Protocol

from firmware.game_api import GameContext, Versus
from firmware.match import LocalSeat, Match
from games.regions.match import WAIT
from games.regions.rules.play import Puzzle

RACE_WAIT_TICKS = 3  # a race: ticks before an idle player's turn passes with a wait


class LinkTarget(Protocol):
    """What the race reads and changes (the scene satisfies it)."""

    ctx: GameContext
    versus: Versus | None
    my_seat: int
    phase: str
    message: str
    reported: bool
    match: Match[Any] | None
    seat: LocalSeat[Any]
    queued: list[int | str]
    turn_wait: int

    @property
    def puzzle(self) -> Puzzle | None: ...
    @property
    def race_winner(self) -> int | None: ...
    def _show(self, ev: dict[str, Any], before: tuple[int, ...]) -> None: ...
    def _cleared(self) -> None: ...


def race_step(scene: LinkTarget) -> None:
    """One tick of a race: on this player's turn, the next queued tap or (after a
    moment with nothing to play) a wait; then whatever the match applies."""
    match, puzzle = scene.match, scene.puzzle
    assert match is not None and puzzle is not None
    if match.to_move == scene.my_seat:
        scene.turn_wait += 1
        if scene.queued:
            scene.seat.offer(scene.queued.pop(0))
            scene.turn_wait = 0
        elif scene.turn_wait >= RACE_WAIT_TICKS:
            scene.seat.offer(WAIT)
            scene.turn_wait = 0
    before = puzzle.cells
    refused = sum(match.refused.values())
    events = match.step()
    if sum(match.refused.values()) > refused:
        scene.message = match.last_refusal or ""
        scene.ctx.play("error")
    for ev in events:
        if ev.get("seat") == scene.my_seat and ev["type"] != "wait":
            scene._show(ev, before)
    if match.over and scene.phase == "play":
        scene.phase = "clear"
        scene.ctx.play("win" if scene.race_winner == scene.my_seat else "lose")
    if scene.phase == "clear" and not scene.reported and getattr(scene.versus, "agreed", True):
        scene._cleared()

