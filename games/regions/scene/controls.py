"""Region Select's input per phase: the help pages, choosing a surface and a start pattern,
drawing a curve, play (select, undo, hint, solution), the clear dialog and the replay
buttons. `play.py`'s `update` picks the phase; the scene is reached through `InputTarget`,
never by importing `play.py`.
"""

from __future__ import annotations

from typing import Any, Protocol

from firmware.input import InputState
from firmware.match import Match
from firmware.scene import hit
from firmware.turn_game import replay_step
from games.regions.rules import threestate as ts
from games.regions.rules.play import THREE_STATE, UNDO
from games.regions.scene import help as help_pages
from games.regions.scene import layout
from games.regions.scene import link as link_glue
from games.regions.scene import surfaces as srf
from games.regions.scene.surface_view import nearest_point
from games.regions.scene.views import ViewSource

MIN_STROKE = 8  # touch samples below which a stroke is a stray tap, not a curve
MAX_STROKE = 2000


class InputTarget(ViewSource, link_glue.LinkTarget, Protocol):
    """What the input reads and changes (the scene satisfies it)."""

    help_page: int | None
    pen: bool
    reported: bool
    match: Match[Any] | None
    search: ts.PhaseSearch | None

    @property
    def reach(self) -> float: ...
    def _choose_random(self, n: int) -> None: ...
    def _next_offered(self, start: int, delta: int) -> int: ...
    def _random_pattern(self) -> int: ...
    def _reset_play(self) -> None: ...
    def _select(self, action: int | str) -> None: ...
    def _start_job(self, kind: str, params: dict[str, Any]) -> None: ...
    def _start_play(self, pattern: int) -> None: ...
    def _toggle_region(self, region: int) -> None: ...


def update_replay(scene: InputTarget, inp: InputState) -> None:
    replay = scene.replay
    if replay is None:
        return
    before = scene.puzzle.cells if scene.puzzle is not None else ()
    events = replay_step(replay, hit(scene.hotspots(), inp), inp)
    if events is None:
        return
    scene.anim = None
    if events:
        scene.anim = (int(events[0]["point"]), before, 0)
    scene.match = replay.match


def update_help(scene: InputTarget, name: str | None) -> None:
    assert scene.help_page is not None
    if name == "button:help-prev":
        scene.help_page = max(0, scene.help_page - 1)
    elif name == "button:help-next":
        scene.help_page = min(len(help_pages.PAGES) - 1, scene.help_page + 1)
    elif name == "button:help-close":
        scene.help_page = None


def update_choose(scene: InputTarget, name: str | None) -> None:
    if name is None:
        return
    if name == "button:help":
        scene.help_page = 0
        return
    scene.ctx.play("select")
    if scene.step == "surface":
        if name.startswith("choice:surface:"):
            scene._start_job("catalogue", {"name": name.removeprefix("choice:surface:")})
        elif name == "choice:page:prev":
            scene.page = (scene.page - 1) % scene.pages
        elif name == "choice:page:next":
            scene.page = (scene.page + 1) % scene.pages
        elif name == "choice:random:less":
            scene.random_n = max(srf.RANDOM_SIZES[0], scene.random_n - 1)
        elif name == "choice:random:more":
            top = ts.MAX_REGIONS if scene.variant in THREE_STATE else srf.RANDOM_SIZES[-1]
            scene.random_n = min(top, scene.random_n + 1)
        elif name == "choice:random":
            scene._choose_random(scene.random_n)
        elif name == "choice:draw":
            scene.phase, scene.stroke, scene.message, scene.mark = "draw", [], "", None
        return
    if name.startswith("region:"):
        scene._toggle_region(int(name.removeprefix("region:")))
        return
    steps = {
        "choice:pattern:less": -1,
        "choice:pattern:more": 1,
        "choice:pattern:less10": -10,
        "choice:pattern:more10": 10,
    }
    if name in steps:
        scene.pattern = scene._next_offered(scene.pattern, steps[name])
    elif name == "choice:pattern:random":
        scene.pattern = scene._random_pattern()
    elif name == "choice:start":
        scene._start_play(scene.pattern)
    elif name == "choice:back":
        scene.step, scene.message = "surface", ""


def update_draw(scene: InputTarget, inp: InputState) -> None:
    name = hit(scene.hotspots(), inp)
    if name == "choice:back":
        scene.phase, scene.step, scene.stroke, scene.pen = "choose", "surface", [], False
        scene.message, scene.mark = "", None
        return
    if name == "choice:draw:clear":
        scene.stroke, scene.pen, scene.message, scene.mark = [], False, "", None
        return
    touch = inp.touch
    if touch is not None and (scene.pen or layout.DRAW_RECT.collidepoint(touch.x, touch.y)):
        if inp.touch_down:
            scene.stroke, scene.pen, scene.message, scene.mark = [], True, "", None
        if scene.pen and len(scene.stroke) < MAX_STROKE:
            x = min(max(touch.x, 0), layout.DRAW_RECT.right - 1)
            y = min(max(touch.y, 0), layout.DRAW_RECT.bottom - 1)
            if not scene.stroke or scene.stroke[-1] != (x, y):
                scene.stroke.append((x, y))
    elif inp.touch_up and scene.pen:
        scene.pen = False
        if len(scene.stroke) < MIN_STROKE:
            scene.stroke = []
            return
        scene._start_job("drawn", {"points": [list(p) for p in scene.stroke]})


def update_play(scene: InputTarget, inp: InputState, name: str | None) -> None:
    puzzle = scene.puzzle
    assert puzzle is not None and scene.chosen is not None
    scene.ticks += 1
    if scene.versus is not None:
        link_glue.race_step(scene)
        if scene.phase != "play":
            return
    if name == "button:undo":
        if puzzle.moves:
            scene._select(UNDO)
        return
    if name == "button:hint":
        scene.hints += 1
        scene.hint_point = puzzle.hint(scene.search)
        scene.ctx.play("select")
        return
    if name == "button:solution":
        scene.solution_shown = True
        scene.ctx.play("select")
        return
    if name == "button:help":
        scene.help_page = 0
        return
    tap = inp.tapped_at()
    if tap is None or tap.y >= layout.SURFACE_RECT[3]:
        return
    point = nearest_point(scene.chosen.drawing, tap.x, tap.y, scene.reach)
    if point is None:
        return  # between points, out of reach: nothing happens
    if point not in puzzle.selectable:
        scene.message = scene.ctx.tr(
            f"Point {point} cannot be selected.", f"てん {point} は えらべません。"
        )
        scene.ctx.play("error")
        return
    scene._select(point)


def update_clear(scene: InputTarget, name: str | None) -> None:
    if scene.versus is not None:
        if not scene.reported:
            link_glue.race_step(scene)  # the result is recorded once both units agree on it
        if name == "choice:quit":
            scene.ctx.quit()
        return
    if name == "choice:another":
        scene._reset_play()
        scene.phase, scene.step = "choose", "surface"
    elif name == "choice:new-pattern":
        assert scene.chosen is not None
        scene._reset_play()
        scene.phase, scene.step = "choose", "pattern"
        scene.pattern = scene._next_offered(scene.pattern, 1)
    elif name == "choice:quit":
        scene.ctx.quit()

