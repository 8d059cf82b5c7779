"""Bubble Pop on the handheld: bubbles on the lower screen, sky, score and lives above."""

from __future__ import annotations

import functools
from typing import Any

import pygame

from firmware.game_api import Game, GameContext, GameResult
from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scene import hit
from games.pop.rules import LIVES, PopGame

BUBBLE_COLORS = (
    (120, 200, 255),
    (255, 140, 190),
    (150, 240, 150),
    (255, 220, 110),
    (190, 160, 255),
)
SPARK_TICKS = 12


class PopScene(Game):
    def __init__(self, ctx: GameContext) -> None:
        super().__init__(ctx)
        self._new_game()

    def _new_game(self) -> None:
        self.game = PopGame(self.ctx.rng.randrange(2**32))
        self.sparks: list[tuple[int, int, int, int]] = []  # x, y, age, points
        self.drifters: list[list[int]] = []  # escaped bubbles drifting up the top screen
        self.reported = False

    # -------------------------------------------------------------------- input
    def hotspots(self) -> dict[str, pygame.Rect]:
        if self.game.s.over:
            return {"button:play-again": pygame.Rect(78, 120, 100, 28)}
        spots = {}
        for b in self.game.s.bubbles:
            x, y = self.game.position(b)
            if -b.r < y < 192 + b.r:
                spots[f"bubble:{b.id}"] = pygame.Rect(x - b.r, y - b.r, 2 * b.r, 2 * b.r)
        return spots

    def update(self, inp: InputState) -> None:
        if self.game.s.over:
            if hit(self.hotspots(), inp):
                self._new_game()
            return
        point = inp.tapped_at()
        if point is not None:
            bubble = self.game.bubble_at(point.x, point.y)
            pos = self.game.position(bubble) if bubble else None
            points = self.game.tap(point.x, point.y)
            if points and pos:
                self.sparks.append((pos[0], pos[1], 0, points))
                self.ctx.play("pop")
        for b in self.game.step():
            self.drifters.append([b.x // 16, 192 + b.r, b.r, b.color])
            self.ctx.play("miss")
        self.sparks = [(x, y, a + 1, p) for x, y, a, p in self.sparks if a + 1 < SPARK_TICKS]
        for d in self.drifters:
            d[1] -= 2
        self.drifters = [d for d in self.drifters if d[1] + d[2] > 0]
        if self.game.s.over and not self.reported:
            self.reported = True
            s = self.game.s
            self.ctx.finish(
                GameResult(
                    None,
                    s.score,
                    f"{s.score} points, {s.popped} popped",
                    {
                        "score": s.score,
                        "popped": s.popped,
                        "best_combo": s.best_combo,
                        "ticks": s.tick,
                    },
                )
            )

    # --------------------------------------------------------------------- draw
    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        s = self.game.s
        _sky(top)
        for x, y, r, color in self.drifters:
            _bubble(top, (x, y), r, BUBBLE_COLORS[color])
        widgets.panel(top, pygame.Rect(6, 6, 244, 30))
        text.draw(top, self.ctx.tr("SCORE", "スコア"), (14, 10), pal.TEXT_DIM)
        text.draw(top, f"{s.score:6d}", (14, 21), pal.ACCENT, scale=1, shadow=pal.OUTLINE)
        text.draw(
            top,
            self.ctx.tr(f"LEVEL {self.game.level() + 1}", f"レベル {self.game.level() + 1}"),
            (128, 10),
            pal.TEXT,
            align="center",
        )
        if s.combo >= 2:
            combo = self.ctx.tr(f"x{s.combo} COMBO", f"x{s.combo} コンボ")
            text.draw(top, combo, (128, 21), pal.TEAL, align="center")
        for i in range(LIVES):
            _heart(top, (236 - i * 14, 20), i < s.lives)
        _water(bottom, s.tick)
        for b in s.bubbles:
            _bubble(bottom, self.game.position(b), b.r, BUBBLE_COLORS[b.color])
        for x, y, age, points in self.sparks:
            _spark(bottom, (x, y), age)
            text.draw(
                bottom,
                f"+{points}",
                (x, y - 12 - age),
                pal.WHITE,
                align="center",
                shadow=pal.OUTLINE,
            )
        if s.over:
            widgets.dim(bottom, 140)
            widgets.dim(top, 100)
            text.draw(
                bottom,
                self.ctx.tr("GAME OVER", "ゲームオーバー"),
                (128, 60),
                pal.ACCENT,
                scale=2,
                align="center",
                shadow=pal.OUTLINE,
            )
            text.draw(
                bottom,
                self.ctx.tr(f"{s.score} points", f"{s.score} てん"),
                (128, 88),
                pal.TEXT,
                align="center",
            )
            widgets.button(
                bottom,
                self.hotspots()["button:play-again"],
                self.ctx.tr("Play again", "もういちど"),
                face=pal.ACCENT_LO,
            )

    # ------------------------------------------------------------ persistence
    def dump(self) -> dict[str, Any]:
        s = self.game.s
        return {
            "score": s.score,
            "lives": s.lives,
            "combo": s.combo,
            "popped": s.popped,
            "bubbles": len(s.bubbles),
            "over": s.over,
            "level": self.game.level() + 1,
        }

    def save_state(self) -> dict[str, Any]:
        return {
            "game": self.game.to_json(),
            "sparks": self.sparks,
            "drifters": self.drifters,
            "reported": self.reported,
        }

    def load_state(self, state: dict[str, Any]) -> None:
        try:
            self.game = PopGame.from_json(state["game"])
            self.sparks = [tuple(s) for s in state["sparks"]]
            self.drifters = [list(d) for d in state["drifters"]]
            self.reported = bool(state["reported"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a Bubble Pop save: {exc}") from None


@functools.cache
def _sky_image() -> pygame.Surface:
    surf = pygame.Surface((256, 192))
    for y in range(0, 192, 4):
        c = 40 + y // 4
        pygame.draw.rect(surf, (c // 2, c, min(255, c + 90)), (0, y, 256, 4))
    for x, y in ((30, 60), (180, 90), (90, 130), (220, 40), (140, 160)):
        pygame.draw.ellipse(surf, (200, 220, 255), (x, y, 34, 10))
        pygame.draw.ellipse(surf, (230, 240, 255), (x + 8, y - 4, 20, 10))
    return surf


@functools.cache
def _water_image() -> pygame.Surface:
    surf = pygame.Surface((256, 192))
    for y in range(0, 192, 4):
        c = 30 + (191 - y) // 5
        pygame.draw.rect(surf, (10, c, c + 60), (0, y, 256, 4))
    return surf


def _sky(surf: pygame.Surface) -> None:
    surf.blit(_sky_image(), (0, 0))


def _water(surf: pygame.Surface, tick: int) -> None:
    surf.blit(_water_image(), (0, 0))
    for i in range(12):
        x = (i * 53 + tick // 2) % 276 - 10
        y = (i * 37) % 180 + 6
        pygame.draw.line(surf, (60, 120, 170), (x, y), (x + 8, y))


def _bubble(
    surf: pygame.Surface, pos: tuple[int, int], r: int, color: tuple[int, int, int]
) -> None:
    x, y = pos
    pygame.draw.circle(surf, widgets.shade(color, -0.5), (x, y), r)
    pygame.draw.circle(surf, color, (x, y), r - 1)
    pygame.draw.circle(surf, widgets.shade(color, 0.35), (x - 1, y - 1), max(2, r - 4))
    pygame.draw.circle(surf, color, (x + 1, y + 1), max(1, r - 5))
    pygame.draw.circle(surf, pal.WHITE, (x - r // 3, y - r // 3), max(1, r // 5))


def _spark(surf: pygame.Surface, pos: tuple[int, int], age: int) -> None:
    x, y = pos
    d = 4 + age * 2
    for dx, dy in (
        (d, 0),
        (-d, 0),
        (0, d),
        (0, -d),
        (d // 2 + 1, d // 2 + 1),
        (-d // 2 - 1, d // 2 + 1),
        (d // 2 + 1, -d // 2 - 1),
        (-d // 2 - 1, -d // 2 - 1),
    ):
        pygame.draw.rect(surf, pal.WHITE, (x + dx, y + dy, 2, 2))


def _heart(surf: pygame.Surface, pos: tuple[int, int], full: bool) -> None:
    x, y = pos
    color = pal.DANGER if full else (70, 60, 80)
    pygame.draw.circle(surf, color, (x - 3, y - 2), 3)
    pygame.draw.circle(surf, color, (x + 3, y - 2), 3)
    pygame.draw.polygon(surf, color, ((x - 6, y - 1), (x + 6, y - 1), (x, y + 6)))
