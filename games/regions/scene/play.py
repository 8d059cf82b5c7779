"""Region Select on the handheld (R-REG-FLOW, -PLAY, -HELP, -GEN-2, -VAR; P-GAME).

Phases: `choose` (the surface list, then the start pattern), `draw` (a curve drawn with the
stylus), `play` and `clear`. Slow work (laying out a random or drawn surface) runs on a
worker thread behind a "working" animation and lands at a fixed tick (`jobs.Job`); the
three-state search runs in slices of `SEARCH_BUDGET` states per tick. Every selection goes
through a `Match` with one `LocalSeat`; the rules are `games.regions.match.RegionsRules`.

The input of each phase is in `controls.py`, a race's tick in `link.py`, what the screens
show in `views.py`, dump, suspend and resume in `saved.py` (docs/architecture.md, "Inside a
game").
"""

from __future__ import annotations

import random
from typing import Any

import pygame

from firmware.game_api import Game, GameContext, GameResult, Versus
from firmware.input import InputState
from firmware.match import LocalSeat, Match, ReplayCursor
from firmware.scene import hit
from games.regions.match import AbsentSeat, RaceRules, RegionsRules
from games.regions.records import Best, best_of
from games.regions.rules import threestate as ts
from games.regions.rules.catalogue import entry
from games.regions.rules.freehand import CurveError
from games.regions.rules.layout import DrawingError
from games.regions.rules.play import (
    THREE_STATE,
    VARIANTS,
    Puzzle,
    Setup,
    phase_search,
    start_phases,
    states_of,
)
from games.regions.rules.puzzle import PuzzleError
from games.regions.scene import controls, layout, saved, views
from games.regions.scene import help as help_pages
from games.regions.scene import surfaces as srf
from games.regions.scene.bottom_view import BottomView, draw_bottom
from games.regions.scene.jobs import Job
from games.regions.scene.messages import UNUSABLE_JA, curve_error_ja
from games.regions.scene.saved import SEARCH_BUDGET
from games.regions.scene.surface_view import SurfaceView, point_rects
from games.regions.scene.top_view import TopView, clock, draw_top
from games.regions.scene.views import ANIM_TICKS

GOALS = ts.GOALS_BY_NAME


def job_ticks(kind: str, params: dict[str, Any]) -> int:
    """How long the "working" animation runs: well beyond the desktop's time for the job."""
    if kind == "random":
        return 12 + 4 * int(params["n"])
    return 8 if kind == "catalogue" else 20


def job_work(kind: str, params: dict[str, Any]) -> Any:
    if kind == "catalogue":
        name = str(params["name"])
        return lambda: srf.catalogue_surface(name)
    if kind == "random":
        n, seed = int(params["n"]), int(params["seed"])
        return lambda: srf.generated_surface(n, seed)
    if kind == "drawn":
        pts = [(int(x), int(y)) for x, y in params["points"]]
        return lambda: srf.drawn_surface(pts)
    raise ValueError(f"unknown job {kind!r}")


class NoStart(Exception):
    """Not one start pattern of the surface can reach the goal under the rule."""


class RegionsScene(Game):
    """Choose or draw a surface, pick a start pattern, solve it."""

    uses_dpad = False  # the firmware's cursor walks the hotspots; A taps (P-FW-4)

    def __init__(self, ctx: GameContext, record: dict[str, Any] | None = None) -> None:
        super().__init__(ctx)
        o = ctx.options
        self.mode = o.get("mode", "solo")
        # A link session (the race): both units get the same options and seed, so they
        # build the same puzzle; None when playing alone.
        self.versus: Versus | None = ctx.versus
        self.my_seat = 0
        if self.versus is not None:
            self.mode, self.my_seat = "link", int(self.versus.seat or 0)
        self.variant = o.get("variant", "classic")
        if self.variant not in VARIANTS:
            self.variant = "classic"
        self.goal = GOALS.get(o.get("goal", "A"), ts.A) if self.variant == "three" else 0
        self.unselectable = o.get("unselectable", "off") == "on"
        self.large = o.get("targets", "normal") == "large"
        self.seed_base = ctx.rng.randrange(2**31)
        self.draws = 0
        self.age = 0  # ticks since the game began: animations run on it (saved)
        self.phase = "choose"
        self.step = "surface"  # choose: "surface" list or "pattern"
        self.page = 0
        self.random_n = 5
        self.message = ""
        self.mark: tuple[float, float] | None = None
        self.stroke: list[tuple[int, int]] = []
        self.pen = False
        self.job: Job | None = None
        self.chosen: srf.Chosen | None = None
        self.blocked: int | None = None
        self.search: ts.PhaseSearch | None = None
        self.search_slices = 0
        self.pattern = 1
        self.pending_pattern: str | None = None
        self.help_page: int | None = None
        self._reset_play()
        self._best_cache: dict[str, Best] | None = None
        self.replay: ReplayCursor[Any] | None = None
        self.record: dict[str, Any] | None = None
        if record is not None:
            self._open_record(record)
            return
        surface, pattern = o.get("surface", "choose"), o.get("pattern", "choose")
        if self.versus is not None:  # a race starts at once, on a surface both units agree on
            if surface in ("choose", "draw"):
                surface = self._any_catalogue_surface()
            pattern = "random" if pattern == "choose" else pattern
        self._start_from_options(surface, pattern)

    def _any_catalogue_surface(self) -> str:
        """A catalogue surface chosen by the (shared) seed that the variant can take."""
        fits = [
            name
            for name in srf.catalogue_names()
            if self.variant not in THREE_STATE or entry(name).shadow.crossings <= ts.MAX_REGIONS
        ]
        return self._rng().choice(fits)

    def _reset_play(self) -> None:
        self.match: Match[Any] | None = None
        self.seat: LocalSeat[Any] = LocalSeat()
        self.queued: list[int | str] = []  # a race: taps waiting for this player's turn
        self.turn_wait = 0
        self.ticks = 0
        self.hints = 0
        self.solution_shown = False
        self.hint_point: int | None = None
        self.anim: tuple[int, tuple[int, ...], int] | None = None  # point, cells before, age
        self.best_before: Best | None = None
        self.reported = False

    # ----------------------------------------------------------------- randomness
    def _rng(self) -> random.Random:
        """A fresh generator per draw, from the game's seed and a counter (saved)."""
        self.draws += 1
        return random.Random(f"{self.seed_base}:{self.draws}")

    # ------------------------------------------------------------------- options
    def _start_from_options(self, surface: str, pattern: str) -> None:
        if pattern != "choose":
            self.pending_pattern = pattern
        if surface == "choose":
            return
        if surface.startswith("random:"):
            self._choose_random(int(surface.removeprefix("random:")))
        elif surface == "draw":
            self.phase = "draw"
        else:
            self._start_job("catalogue", {"name": surface})

    # ------------------------------------------------------------ surface choice
    def _start_job(self, kind: str, params: dict[str, Any]) -> None:
        self.job = Job(kind, params, job_work(kind, params), job_ticks(kind, params))

    def _choose_random(self, n: int) -> None:
        self.random_n = n
        self._start_job("random", {"n": n, "seed": self._rng().randrange(2**31)})

    def _job_done(self, job: Job) -> None:
        self.job = None
        if job.error is not None:
            err = job.error
            if isinstance(err, CurveError):
                self.message = self.ctx.tr(str(err), curve_error_ja(str(err)))
                self.mark = err.at
            elif isinstance(err, DrawingError | ValueError):
                self.message = self.ctx.tr(f"This surface cannot be used: {err}", UNUSABLE_JA)
            else:
                raise err
            self.ctx.play("error")
            return
        self._surface_ready(job.result)

    def _surface_ready(self, chosen: srf.Chosen) -> None:
        n = chosen.surface.region_count
        if self.variant in THREE_STATE and n > ts.MAX_REGIONS:
            self.message = self.ctx.tr(
                f"The three-state rule takes at most {ts.MAX_REGIONS} regions; this has {n}.",
                f"3しょくルールは {ts.MAX_REGIONS} りょういき まで(これは {n})。",
            )
            self.ctx.play("error")
            return
        blocked = None
        if self.unselectable:
            blocked = self._rng().randrange(chosen.surface.point_count)
        try:
            probe = Puzzle(Setup(chosen.surface.shadow.link, self.variant, self.goal, blocked))
        except PuzzleError as exc:
            self.message = str(exc)
            self.ctx.play("error")
            return
        self.chosen, self.blocked = chosen, blocked
        self.search, self.search_slices = None, 0
        if self.variant == "three":
            self.search = phase_search(probe)
        self.phase, self.step = "choose", "pattern"
        self.message, self.mark, self.stroke = "", None, []
        self.pattern = 1
        self._best_cache = None

    @property
    def searching(self) -> bool:
        return self.search is not None and not self.search.done

    def _advance_search(self) -> None:
        assert self.search is not None
        self.search.run(SEARCH_BUDGET)
        self.search_slices += 1
        if not self.search.done:
            return
        try:
            self.pattern = self._next_offered(0, 1)
        except NoStart:
            self.search, self.chosen, self.step = None, None, "surface"
            self.phase = "choose"
            self.message = self.ctx.tr(
                "No start of this surface can reach that goal; choose another.",
                "この めんでは その ゴールに とどきません。",
            )
            self.ctx.play("error")

    # ---------------------------------------------------------------- patterns
    @property
    def pattern_count(self) -> int:
        assert self.chosen is not None
        return int(states_of(self.variant) ** self.chosen.surface.region_count) - 1

    def offered(self, number: int) -> bool:
        """Patterns offered: all of them, except that the alternating three-state rule
        offers only starts its search proved solvable."""
        if not 1 <= number <= self.pattern_count:
            return False
        if self.search is None:
            return True
        assert self.chosen is not None
        setup = Setup((), self.variant, self.goal, None, number)
        d = self.search.distance(start_phases(setup, self.chosen.surface.region_count))
        return d is not None

    def _next_offered(self, start: int, delta: int) -> int:
        count = self.pattern_count
        number = start
        for _ in range(count):
            number = (number - 1 + delta) % count + 1
            if self.offered(number):
                return number
        raise NoStart("no start pattern of this surface is solvable")

    def _random_pattern(self) -> int:
        rng = self._rng()
        return self._next_offered(rng.randrange(1, self.pattern_count + 1), 1)

    def _pick_pending(self) -> None:
        """`pattern` option: a number, or random; an unusable number asks instead."""
        value, self.pending_pattern = self.pending_pattern, None
        if value == "random":
            self._start_play(self._random_pattern())
        elif value is not None and value.isdigit() and self.offered(int(value)):
            self._start_play(int(value))
        elif value is not None and self.versus is not None:
            self._start_play(self._random_pattern())  # a race never waits for a choice
        elif value is not None:
            self.message = self.ctx.tr(
                f"Pattern {value} is not offered on this surface (1..{self.pattern_count}).",
                f"パターン {value} は つかえません(1..{self.pattern_count})。",
            )

    # ------------------------------------------------------------------ playing
    def _start_play(self, pattern: int) -> None:
        assert self.chosen is not None
        setup = Setup(
            self.chosen.surface.shadow.link,
            self.variant,
            self.goal,
            self.blocked,
            pattern,
            self._rng().randrange(2**31),
        )
        self._reset_play()
        self.pattern = pattern
        if self.versus is not None:
            seats = self.versus.make_seats()
            local = seats[self.my_seat]
            assert isinstance(local, LocalSeat)
            self.seat = local
            self.match = Match(RaceRules(setup), seats)
            # the partner gone for good: the player may finish the puzzle alone
            self.versus.attach(self.match, computer=lambda seat: AbsentSeat())
        else:
            self.match = Match(RegionsRules(Puzzle(setup)), [self.seat])
        self.best_before = self.bests().get(self.record_key(pattern))
        self.phase, self.message = "play", ""

    @property
    def puzzle(self) -> Puzzle | None:
        """This player's puzzle (in a race, their copy)."""
        if self.match is None:
            return None
        rules = self.match.rules
        if isinstance(rules, RaceRules):
            return rules.puzzles[self.my_seat]
        assert isinstance(rules, RegionsRules)
        return rules.puzzle

    @property
    def partner(self) -> Puzzle | None:
        """The partner's copy in a race (its progress is shown), else None."""
        rules = None if self.match is None else self.match.rules
        return rules.puzzles[1 - self.my_seat] if isinstance(rules, RaceRules) else None

    @property
    def race_winner(self) -> int | None:
        rules = None if self.match is None else self.match.rules
        return rules.winner if isinstance(rules, RaceRules) else None

    def record_key(self, pattern: int) -> str:
        assert self.chosen is not None
        extra = f"/{'ABC'[self.goal]}" if self.variant == "three" else ""
        blocked = f"/x{self.blocked}" if self.blocked is not None else ""
        return f"{self.chosen.key}/{self.variant}{extra}{blocked}#{pattern}"

    def bests(self) -> dict[str, Best]:
        if self._best_cache is None:
            self._best_cache = best_of(self.ctx.records())
        return self._best_cache

    def surface_best(self, name: str) -> Best | None:
        """Best time and fewest selections over every pattern of a catalogue surface."""
        prefix = f"{name}/{self.variant}"
        found = [b for k, b in self.bests().items() if k.startswith(prefix)]
        if not found:
            return None
        return Best(min(b.ticks for b in found), min(b.selections for b in found))

    def _select(self, action: int | str) -> None:
        assert self.match is not None and self.puzzle is not None
        if self.versus is not None:  # a race: played when this player's turn comes
            self.queued.append(action)
            return
        before = self.puzzle.cells
        self.seat.offer(action)
        events = self.match.step()
        if not events:
            self.message = self.match.last_refusal or ""
            self.ctx.play("error")
            return
        self._show(events[0], before)

    def _show(self, ev: dict[str, Any], before: tuple[int, ...]) -> None:
        """Animate and sound one applied selection of this player."""
        self.anim = (int(ev["point"]), before, 0)
        self.hint_point = None
        self.message = ""
        if ev["clear"] and self.versus is None:
            self._cleared()
        elif ev["clear"]:
            pass  # a race: the end is taken from the match in `_race_step`
        elif ev["to_goal"] > ev["from_goal"]:  # R-REG-VAR-3: the change is heard too
            self.ctx.play("pop")
        elif ev["to_goal"] < ev["from_goal"]:
            self.ctx.play("miss")
        else:
            self.ctx.play("select")

    def _cleared(self) -> None:
        puzzle = self.puzzle
        assert puzzle is not None and self.chosen is not None
        self.phase = "clear"
        self.reported = True
        key = self.record_key(self.pattern)
        outcome = "win"
        partner = self.partner
        if self.versus is not None:
            outcome = "win" if self.race_winner == self.my_seat else "loss"
        record = {
            "key": key if self.versus is None else f"race:{key}",
            "surface": self.chosen.params,
            "sid": self.chosen.sid,
            "pattern": self.pattern,
            "variant": self.variant,
            "mode": self.mode,
            "ticks": self.ticks,
            "selections": puzzle.selections,
            "hints": self.hints,
            "solution_shown": self.solution_shown,
            "puzzle": puzzle.to_json(),
            "chosen": None if "catalogue" in self.chosen.params else self.chosen.to_json(),
        }
        if partner is not None:
            record["race"] = {
                "seat": self.my_seat,
                "winner": self.race_winner,
                "partner_selections": partner.selections,
            }
        n = puzzle.selections
        head = f"{self.chosen.sid} #{self.pattern}: {clock(self.ticks)}"
        summary = f"{head}, {n} selection{'s' * (n != 1)}"
        summary_ja = f"{head}、{n} かい"
        if partner is not None:
            won = self.race_winner == self.my_seat
            summary += ", won the race" if won else ", lost the race"
            summary_ja += "、かち" if won else "、まけ"
        self.ctx.finish(GameResult(outcome, None, summary, record, summary_ja))
        self._best_cache = None
        if self.versus is None:
            self.ctx.play("win")

    @property
    def is_best(self) -> bool:
        """Whether the clear beat (or set) the record for this surface and pattern."""
        if self.phase != "clear" or self.puzzle is None or self.versus is not None:
            return False
        b = self.best_before
        return b is None or self.ticks < b.ticks or self.puzzle.selections < b.selections

    def solution(self) -> list[int]:
        puzzle = self.puzzle
        if puzzle is None or puzzle.clear:
            return []
        return puzzle.solution(self.search)

    def region_spots(self) -> dict[str, pygame.Rect]:
        """Tap targets of the game regions on the pattern preview (the surrounding region's
        is its corner, where its label is)."""
        assert self.chosen is not None
        d = self.chosen.drawing
        spots = {}
        for r, anchor in enumerate(d.anchors):
            x, y = (d.rect[0] + 8, d.rect[1] + 8) if anchor is None else anchor
            spots[f"region:{r}"] = pygame.Rect(round(x) - 8, round(y) - 8, 16, 16)
        return spots

    def _toggle_region(self, region: int) -> None:
        """Pattern by picture: a tapped region's start state moves on by one."""
        cells = list(self.preview_cells())
        k = states_of(self.variant)
        cells[region] = (cells[region] + 1) % k
        offset = self.goal if self.variant in THREE_STATE else 0
        number = sum(((c - offset) % k) * k**r for r, c in enumerate(cells))
        if number == 0:
            self.message = self.ctx.tr(
                "At least one region must start away from the goal.",
                "すくなくとも 1つは ゴール いがいの いろに。",
            )
        elif not self.offered(number):
            self.message = self.ctx.tr(
                f"Pattern {number} cannot be solved under this rule.",
                f"パターン {number} は とけません。",
            )
        else:
            self.pattern, self.message = number, ""

    # ------------------------------------------------------------------- replay
    def _open_record(self, data: dict[str, Any]) -> None:
        """A stored clear, replayed selection by selection (P-GAME-6)."""
        self.record, self.phase = data, "replay"
        try:
            puzzle = Puzzle.from_json(data["puzzle"])
            if data.get("chosen") is not None:
                chosen = srf.Chosen.from_json(data["chosen"])
            else:
                chosen = srf.catalogue_surface(str(data["surface"]["catalogue"]))
            if chosen.surface.shadow.link != puzzle.setup.link:
                raise ValueError("the surface does not match the puzzle")
            self.variant, self.goal = puzzle.setup.variant, puzzle.setup.goal
            self.blocked, self.pattern = puzzle.setup.blocked, puzzle.setup.pattern
            self.ticks = int(data["ticks"])
        except (KeyError, TypeError, ValueError) as exc:
            self.message = self.ctx.tr(
                f"This record cannot be read ({exc}).", "この きろくは よめません。"
            )
            return
        setup = puzzle.setup
        rules = RegionsRules(Puzzle(setup))
        actions = [(0, rules.encode(a)) for a in puzzle.actions]
        self.chosen = chosen
        self.replay = ReplayCursor(lambda: RegionsRules(Puzzle(setup)), actions)
        self.match = self.replay.match

    # -------------------------------------------------------------------- input
    def hotspots(self) -> dict[str, pygame.Rect]:
        if self.job is not None or self.searching:
            return {}
        if self.help_page is not None:
            return dict(layout.HELP_BUTTONS)
        if self.phase == "replay":
            return dict(layout.REPLAY_BUTTONS) if self.replay is not None else {}
        if self.phase == "choose" and self.step == "surface":
            spots = {}
            names = srf.catalogue_names()
            for slot in range(layout.ROWS):
                i = self.page * layout.ROWS + slot
                if i < len(names):
                    spots[f"choice:surface:{names[i]}"] = layout.row_rect(slot)
            spots.update(layout.LIST_BUTTONS)
            spots["button:help"] = layout.HELP_LIST_BUTTON
            return spots
        if self.phase == "choose":
            spots = dict(layout.PATTERN_BUTTONS)
            spots.update(self.region_spots())
            return spots
        if self.phase == "draw":
            return dict(layout.DRAW_BUTTONS)
        if self.phase == "clear":
            if self.versus is not None:
                return {"choice:quit": layout.CLEAR_BUTTONS["choice:quit"]}
            return dict(layout.CLEAR_BUTTONS)
        if self.phase == "play" and self.chosen is not None and self.puzzle is not None:
            rects = point_rects(self.chosen.drawing.points, self.reach)
            spots = {f"point:{p}": rects[p] for p in self.puzzle.selectable}
            spots.update(layout.PLAY_BUTTONS)
            return spots
        return {}

    @property
    def reach(self) -> float:
        return layout.REACH_LARGE if self.large else layout.REACH

    @property
    def pages(self) -> int:
        return (len(srf.catalogue_names()) + layout.ROWS - 1) // layout.ROWS

    def update(self, inp: InputState) -> None:
        self.age += 1
        if self.job is not None:
            if self.job.step():
                self._job_done(self.job)
            return
        if self.searching:
            self._advance_search()
            return
        if self.pending_pattern is not None and self.phase == "choose" and self.step == "pattern":
            self._pick_pending()
            return
        if self.anim is not None:
            point, before, age = self.anim
            self.anim = (point, before, age + 1) if age + 1 < ANIM_TICKS else None
        if self.help_page is not None:
            controls.update_help(self, hit(self.hotspots(), inp))
            return
        if self.phase == "draw":
            controls.update_draw(self, inp)
            return
        if self.phase == "replay":
            controls.update_replay(self, inp)
            return
        name = hit(self.hotspots(), inp)
        if self.phase == "choose":
            controls.update_choose(self, name)
        elif self.phase == "play":
            controls.update_play(self, inp, name)
        elif self.phase == "clear":
            controls.update_clear(self, name)

    # --------------------------------------------------------------------- view
    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        if self.help_page is not None:
            help_pages.draw_top(top, self.ctx.tr, self.help_page)
            help_pages.draw_bottom(bottom, self.ctx.tr, self.help_page, self.age)
            return
        draw_top(top, self.top_view())
        draw_bottom(bottom, self.bottom_view())

    # --------------------------------------------------------------------- views (views.py)
    def top_view(self) -> TopView:
        return views.top_view(self)

    def bottom_view(self) -> BottomView:
        return views.bottom_view(self)

    def surface_view(self) -> SurfaceView | None:
        return views.surface_view(self)

    def preview_cells(self) -> tuple[int, ...]:
        return views.preview_cells(self)

    # -------------------------------------------------------------- dump and state (saved.py)
    def dump(self) -> dict[str, Any]:
        return saved.dump(self)

    def save_state(self) -> dict[str, Any]:
        return saved.save_state(self)

    def load_state(self, state: dict[str, Any]) -> None:
        saved.load_state(self, state)
