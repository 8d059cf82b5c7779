"""Drive the real firmware (headless) through a Reversi game: taps, buttons, waits, pixels."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from firmware.testing import GameDriver
from games.reversi.rules import Game, Position
from hal.interfaces import RawInput, RawTouch

INITIAL_DUMP = {  # R-REV-STATE's initial state, written out from the spec
    "board": [
        "........",
        "........",
        "........",
        "...WB...",
        "...BW...",
        "........",
        "........",
        "........",
    ],
    "turn": "black",
    "score": {"black": 2, "white": 2},
    "status": "playing",
    "winner": None,
    "hint_level": "none",
    "legal": ["d3", "c4", "f5", "e6"],
    "preview": None,
    "animating": False,
    "message": "",
    "moves": [],
}


class Driver(GameDriver):
    """A headless machine running Reversi, with the inputs a player would give."""

    game_id = "reversi"

    def __init__(self, tmp: Path, seed: int = 1, draw: bool = True, **options: str) -> None:
        options.setdefault("mode", "two")
        super().__init__(tmp, seed, draw, **options)

    # ----------------------------------------------------------------- reading
    def pixel(self, x: int, y: int, screen: str = "bottom") -> tuple[int, int, int]:
        surf = self.m.bottom if screen == "bottom" else self.m.top
        return tuple(surf.get_at((x, y)))[:3]  # type: ignore[return-value]

    # ----------------------------------------------------------------- acting
    def settle(self, limit: int = 3000) -> None:
        """Run until nothing moves: no animation and no computer thinking."""
        for _ in range(limit):
            s = self.scene
            if s.anim is None and not s.thinking:
                return
            self.frames(1)
        raise AssertionError("the scene never settled")

    def play(self, square: str) -> None:
        """Play a move as a player would (tapping twice when hints show a preview)."""
        self.tap(f"square:{square}")
        if self.game["preview"] == square:
            self.tap(f"square:{square}")
        self.settle()

    def restore(self, game: Game, **fields: Any) -> None:
        """Continue from a chosen position through the firmware's state-slot path."""
        scene = self.scene
        state = scene.save_state()
        state.update(game=game.to_json(), preview=None, anim=None, think_calls=0, **fields)
        self.m.restore({"game": "reversi", "options": dict(scene.ctx.options), "state": state})
        self.frames(1)


def square_centre(square: str) -> tuple[int, int]:
    from games.reversi.scene import layout

    return layout.SQUARE_RECTS[square].center


def position_before_pass(seed: int = 0) -> tuple[Game, str, str]:
    """A position (as a new start) and the move after which the other side must pass."""
    rng = random.Random(seed)
    while True:
        game = Game()
        while not game.over:
            legal = sorted(game.legal())
            square = rng.choice(legal)
            before = game.position
            out = game.play(square)
            if out.passed and not out.over:
                start = Position.from_rows(before.rows(), before.turn)
                return Game(start), square, out.passed


def touch_script(x: int, y: int, start: int, ticks: int):
    def script(t: int) -> RawInput:
        return RawInput(touch=RawTouch(x, y)) if start <= t < start + ticks else RawInput()

    return script
