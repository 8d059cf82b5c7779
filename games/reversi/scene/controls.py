"""Reversi's input: a tap on a square (R-REV-OP: ignored while discs flip, an illegal square
changes nothing, with hints a first tap previews) and the replay buttons. `play.py`'s
`update` picks between play and replay and handles the hint and restart buttons; the
scene is reached through `InputTarget`, never by importing `play.py`.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from firmware.input import InputState
from firmware.match import Event, LocalSeat, Match
from firmware.scene import hit
from firmware.turn_game import replay_step
from games.reversi.match import seat_of
from games.reversi.scene.views import ViewSource


class InputTarget(ViewSource, Protocol):
    """What the input reads and changes (the scene satisfies it)."""

    @property
    def match(self) -> Match[str]: ...
    def hotspots(self) -> dict[str, pygame.Rect]: ...
    def _show(self, events: list[Event]) -> None: ...


def tap_square(scene: InputTarget, square: str) -> None:
    if scene.anim is not None or not scene.human_to_move():
        return  # R-REV-OP-4: all board input is ignored while discs flip
    if not scene.game.is_legal(square):
        return  # R-REV-OP-3: an illegal square changes nothing at all
    if scene.hint_name != "none" and scene.preview != square:
        scene.preview = square  # R-REV-VIEW-9: first tap previews, another square moves it
        return
    seat = scene.match.seats[seat_of(scene.game.turn or "black")]
    assert isinstance(seat, LocalSeat)
    seat.offer(square)
    scene._show(scene.match.step())


def update_replay(scene: InputTarget, inp: InputState) -> None:
    if scene.anim is not None:
        scene.anim.step()
        if scene.anim.done:
            scene.anim = None
    events = replay_step(scene.replay, hit(scene.hotspots(), inp), inp)
    if events is None:
        return
    scene.anim = None
    scene._show(events)

