"""Drive the real firmware (headless) through Arimaa: taps, buttons, the D-pad, frame hashes,
and engine games to enter step by step."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pygame

from firmware.testing import GameDriver, run
from games.arimaa.ai.goal import find_goal
from games.arimaa.rules import Game
from games.arimaa.rules.board import HOME_RANKS, square_name
from games.arimaa.rules.position import random_setup
from games.arimaa.rules.randomplay import random_turn
from hal.interfaces import Button, RawInput, RawTouch


class Driver(GameDriver):
    """A headless machine running Arimaa, with the inputs a player would give."""

    game_id = "arimaa"
    tap_after = 1

    def __init__(self, tmp: Path, seed: int = 1, draw: bool = True, **options: str) -> None:
        options.setdefault("mode", "two")
        super().__init__(tmp, seed, draw, **options)

    def frame_hash(self) -> str:
        self.m.render()
        h = hashlib.sha256()
        h.update(pygame.image.tobytes(self.m.top, "RGB"))
        h.update(pygame.image.tobytes(self.m.bottom, "RGB"))
        return h.hexdigest()

    def drag(self, a: str, b: str) -> None:
        """Touch down on hotspot `a`, slide to `b`, lift."""
        spots = self.hotspots()
        ax, ay, aw, ah = spots[a]
        bx, by, bw, bh = spots[b]
        start = self.m.tick
        points = [(ax + aw // 2, ay + ah // 2)] * 3 + [(bx + bw // 2, by + bh // 2)] * 3

        def script(t: int) -> RawInput:
            i = t - start
            return RawInput(touch=RawTouch(*points[i])) if 0 <= i < len(points) else RawInput()

        self.m.hal.input.script = script  # type: ignore[attr-defined]
        run(self.m, len(points) + 2, draw=self.draw)

    def cursor_to(self, name: str) -> None:
        """Walk the firmware's D-pad cursor to hotspot `name`."""
        if self.m.dump()["cursor"] is None:
            self.press(Button.RIGHT)
        for _ in range(40):
            dump = self.m.dump()
            current = dump["cursor"]
            if current == name:
                return
            cx, cy, cw, ch = dump["hotspots"][current]
            tx, ty, tw, th = dump["hotspots"][name]
            dx = (tx + tw // 2) - (cx + cw // 2)
            dy = (ty + th // 2) - (cy + ch // 2)
            if abs(dx) >= abs(dy):
                self.press(Button.RIGHT if dx > 0 else Button.LEFT)
            else:
                self.press(Button.DOWN if dy > 0 else Button.UP)
        raise AssertionError(f"the cursor never reached {name}")

    def settle(self, limit: int = 20000) -> None:
        """Run until no animation plays and no computer thinks."""
        for _ in range(limit):
            s = self.scene
            if s.anim is None and not s.thinking:
                return
            self.frames(1)
        raise AssertionError("the scene never settled")

    # ---------------------------------------------------------------- whole moves by taps
    def arrange(self, placement: dict[int, int]) -> None:
        """Reach `placement` on the setup screen by swapping pairs (tap one, tap the other)."""
        side = 0 if self.game["side"] == "g" else 1
        current = dict(self.scene._arrangement(side))
        squares = sorted(sq for sq in range(64) if HOME_RANKS[side] >> sq & 1)
        for i, sq in enumerate(squares):
            if current[sq] == placement[sq]:
                continue
            other = next(o for o in squares[i + 1:] if current[o] == placement[sq]
                         and current[o] != placement[o])
            self.tap(f"square:{square_name(sq)}")
            self.tap(f"square:{square_name(other)}")
            current[sq], current[other] = current[other], current[sq]

    def enter_turn(self, steps: list[tuple[int, int]]) -> None:
        for frm, to in steps:
            self.tap(f"square:{square_name(frm)}")
            self.tap(f"square:{square_name(to)}")
        self.tap("button:done")


def engine_game(seed: int, max_turns: int = 120) -> Game:
    """A random legal game from the engine that ends by a goal: random turns, and a goal
    whenever the side to move has one."""
    rng = random.Random(seed)
    game = Game()
    game.setup(random_setup(0, rng))
    game.setup(random_setup(1, rng))
    while game.result is None and len(game.turns) < max_turns:
        goal = find_goal(game.position.boards, game.position.side)
        if goal:
            game.play_turn(goal)
        else:
            random_turn(game, rng)
    return game


def game_with_everything(start: int) -> Game:
    """The first seeded engine game from `start` with a push, a pull, a capture and a goal."""
    for seed in range(start, start + 400):
        game = engine_game(seed)
        roles = {s.role for turn in game.turns for s in turn}
        captures = any(s.captured for turn in game.turns for s in turn)
        if {"push", "pull"} <= roles and captures and game.result is not None \
                and game.result.reason == "goal" and len(game.turns) <= 90:
            return game
    raise AssertionError("no such game")


def boards_after(game: Game, turns: int) -> tuple[int, ...]:
    """The board of `game` after its setups and first `turns` turns (replayed)."""
    again = Game()
    for placement in game.setups:
        again.setup(placement)
    for turn in game.turns[:turns]:
        again.play_turn([(s.frm, s.to) for s in turn])
    return again.position.boards
