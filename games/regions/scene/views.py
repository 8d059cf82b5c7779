"""What Region Select's two screens show this frame, built from the scene's state: `top_view`
and `bottom_view` (the dataclasses the pure drawers in `top_view.py` / `bottom_view.py`
take) and the surface's `SurfaceView`. Reads the scene through `ViewSource`, never imports
`play.py`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

import pygame

from firmware.game_api import GameContext, Versus
from firmware.match import ReplayCursor
from games.regions.records import Best
from games.regions.rules.play import THREE_STATE, Puzzle, states_of
from games.regions.scene import layout
from games.regions.scene import surfaces as srf
from games.regions.scene.bottom_view import BottomView
from games.regions.scene.jobs import Job
from games.regions.scene.surface_view import SurfaceView
from games.regions.scene.top_view import TopView

ANIM_TICKS = 8


class ViewSource(Protocol):
    """The part of the scene's state the views read (the scene satisfies it)."""

    ctx: GameContext
    versus: Versus | None
    my_seat: int
    variant: str
    goal: int
    large: bool
    age: int
    phase: str
    step: str
    page: int
    random_n: int
    message: str
    mark: tuple[float, float] | None
    stroke: list[tuple[int, int]]
    job: Job | None
    chosen: srf.Chosen | None
    blocked: int | None
    pattern: int
    ticks: int
    hints: int
    solution_shown: bool
    hint_point: int | None
    anim: tuple[int, tuple[int, ...], int] | None
    best_before: Best | None
    replay: ReplayCursor[Any] | None

    @property
    def searching(self) -> bool: ...
    @property
    def pattern_count(self) -> int: ...
    @property
    def puzzle(self) -> Puzzle | None: ...
    @property
    def partner(self) -> Puzzle | None: ...
    @property
    def race_winner(self) -> int | None: ...
    @property
    def is_best(self) -> bool: ...
    @property
    def pages(self) -> int: ...
    def record_key(self, pattern: int) -> str: ...
    def bests(self) -> dict[str, Best]: ...
    def surface_best(self, name: str) -> Best | None: ...
    def solution(self) -> list[int]: ...
    def hotspots(self) -> dict[str, pygame.Rect]: ...


def top_view(scene: ViewSource) -> TopView:
    """The upper screen's view: only what this phase shows (records and solutions cost)."""
    phase, chosen = scene.phase, scene.chosen
    playing = phase in ("play", "clear", "replay")
    pattern_step = phase == "choose" and scene.step == "pattern" and chosen is not None
    partner = scene.partner if playing else None
    replay = scene.replay if phase == "replay" else None
    return TopView(
        tr=scene.ctx.tr,
        phase=phase,
        step=scene.step,
        variant=scene.variant,
        goal=scene.goal,
        age=scene.age,
        busy=scene.job is not None or scene.searching,
        searching=scene.searching,
        message=scene.message,
        chosen=chosen,
        pattern=scene.pattern,
        blocked=scene.blocked,
        pattern_count=scene.pattern_count if pattern_step else 0,
        pattern_best=scene.bests().get(scene.record_key(scene.pattern))
        if pattern_step and not scene.searching
        else None,
        puzzle=scene.puzzle if playing else None,
        partner=partner,
        partner_name=str(scene.versus.partner_name() or "")
        if partner is not None and scene.versus is not None
        else "",
        race_won=partner is not None and scene.race_winner == scene.my_seat,
        ticks=scene.ticks,
        is_best=scene.is_best,
        best_before=scene.best_before,
        hints=scene.hints,
        solution_shown=scene.solution_shown,
        solution_left=len(scene.solution()) if phase == "play" and scene.solution_shown else 0,
        hint_point=scene.hint_point,
        replay_at=None if replay is None else (replay.index, replay.total),
    )


def bottom_view(scene: ViewSource) -> BottomView:
    """The lower screen's view: only what this phase shows."""
    phase = scene.phase
    listing = phase == "choose" and scene.step == "surface"
    rows = srf.catalogue_names()[scene.page * layout.ROWS : (scene.page + 1) * layout.ROWS]
    partner = scene.partner if phase == "clear" else None
    replay = scene.replay if phase == "replay" else None
    return BottomView(
        tr=scene.ctx.tr,
        phase=phase,
        step=scene.step,
        age=scene.age,
        busy=scene.job is not None or scene.searching,
        surface=None if phase == "draw" or listing else surface_view(scene),
        puzzle=scene.puzzle if phase == "play" else None,
        partner=partner,
        race_won=partner is not None and scene.race_winner == scene.my_seat,
        clear_buttons=scene.hotspots() if phase == "clear" else {},
        replay_ends=None if replay is None else (replay.at_start, replay.at_end),
        page=scene.page,
        pages=scene.pages,
        random_n=scene.random_n,
        surface_bests={name: scene.surface_best(name) for name in rows} if listing else {},
        stroke=tuple(scene.stroke) if phase == "draw" else (),
        mark=scene.mark,
    )


def surface_view(scene: ViewSource) -> SurfaceView | None:
    """What the lower screen shows of the surface (pattern preview or play)."""
    chosen = scene.chosen
    if chosen is None:
        return None
    puzzle = scene.puzzle
    if scene.phase in ("play", "clear", "replay") and puzzle is not None:
        before, progress, ripple = None, 1.0, None
        if scene.anim is not None:
            point, before, age = scene.anim
            progress = (age + 1) / ANIM_TICKS
            ripple = (point, age)
        marks = Counter(scene.solution()) if scene.solution_shown else Counter()
        return SurfaceView(
            chosen.surface,
            chosen.drawing,
            scene.variant,
            puzzle.cells,
            before,
            progress,
            frozenset(puzzle.selectable),
            scene.hint_point,
            dict(marks),
            scene.large,
            ripple,
            scene.age,
            puzzle.clear,
        )
    cells = preview_cells(scene)
    selectable = frozenset(
        p for p in range(chosen.surface.point_count) if p != scene.blocked
    )
    return SurfaceView(
        chosen.surface, chosen.drawing, scene.variant, cells, selectable=selectable,
        large=scene.large,
    )


def preview_cells(scene: ViewSource) -> tuple[int, ...]:
    assert scene.chosen is not None
    n = scene.chosen.surface.region_count
    k = states_of(scene.variant)
    if scene.variant in THREE_STATE:
        return tuple((scene.goal + scene.pattern // 3**r) % 3 for r in range(n))
    return tuple((scene.pattern // k**r) % k for r in range(n))

