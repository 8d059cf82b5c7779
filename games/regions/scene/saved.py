"""Region Select's scene to and from JSON: `dump` (the P-DUMP state tests and movies read),
`save_state` (suspend) and `load_state` (resume, refusing anything that does not check).
Reads and restores the scene through `SaveSource`, never imports `play.py`.
"""

from __future__ import annotations

from typing import Any, Protocol

from firmware.match import LocalSeat, Match
from firmware.turn_game import check_version, save_reader
from games.regions.match import RegionsRules
from games.regions.records import Best
from games.regions.rules import threestate as ts
from games.regions.rules.play import THREE_STATE, VARIANTS, Puzzle, Setup, phase_search
from games.regions.scene import surfaces as srf
from games.regions.scene import views
from games.regions.scene.views import ViewSource

STATE_VERSION = 1
SEARCH_BUDGET = 800  # three-state search states per tick (about 1.5 ms)


class SaveSource(ViewSource, Protocol):
    """What dump, suspend and resume read and restore (the scene satisfies it)."""

    mode: str
    unselectable: bool
    seed_base: int
    draws: int
    pen: bool
    search: ts.PhaseSearch | None
    search_slices: int
    pending_pattern: str | None
    help_page: int | None
    match: Match[Any] | None
    seat: LocalSeat[Any]
    reported: bool
    record: dict[str, Any] | None
    _best_cache: dict[str, Best] | None

    def _start_job(self, kind: str, params: dict[str, Any]) -> None: ...
    def _open_record(self, data: dict[str, Any]) -> None: ...
    def _reset_play(self) -> None: ...


def dump(scene: SaveSource) -> dict[str, Any]:
    chosen, puzzle = scene.chosen, scene.puzzle
    out: dict[str, Any] = {
        "phase": scene.phase,
        "step": scene.step if scene.phase == "choose" else None,
        "working": scene.job is not None or scene.searching,
        "mode": scene.mode,
        "variant": scene.variant,
        "goal": "ABC"[scene.goal] if scene.variant in THREE_STATE else None,
        "message": scene.message,
        "mark": None if scene.mark is None else [round(v) for v in scene.mark],
        "surface": None if chosen is None else chosen.params,
        "n": None if chosen is None else chosen.surface.region_count,
        "points": [],
        "states": [],
        "selectable": [],
        "selections": 0,
        "ticks": scene.ticks,
        "solved": False,
        "pattern": scene.pattern if chosen is not None else None,
        "patterns": scene.pattern_count if chosen is not None else None,
        "hint": scene.hint_point,
        "hints": scene.hints,
        "solution": scene.solution() if scene.solution_shown else None,
        "page": scene.page,
        "random_n": scene.random_n,
        "stroke": len(scene.stroke),
        "help": scene.help_page,
        "best": None,
    }
    if chosen is not None:
        touching: list[list[int]] = [[] for _ in range(chosen.surface.point_count)]
        for p, regions in enumerate(chosen.surface.touches):
            touching[p] = sorted(regions)
        out["points"] = [
            {"n": p, "x": round(x), "y": round(y), "regions": touching[p]}
            for p, (x, y) in enumerate(chosen.drawing.points)
        ]
        out["selectable"] = [p for p in range(len(touching)) if p != scene.blocked]
        out["states"] = list(views.preview_cells(scene))
    if puzzle is not None:
        out["states"] = list(puzzle.cells)
        out["selectable"] = list(puzzle.selectable)
        out["selections"] = puzzle.selections
        out["solved"] = puzzle.clear
        out["moves"] = puzzle.moves
        b = scene.best_before
        out["best"] = None if b is None else {"ticks": b.ticks, "selections": b.selections}
        out["new_best"] = scene.is_best
    if scene.versus is not None:
        out["seat"] = scene.my_seat
        partner = scene.partner
        out["partner"] = None if partner is None else {
            "selections": partner.selections,
            "left": sum(1 for c in partner.cells if c != partner.setup.goal),
        }
        out["winner"] = scene.race_winner
    if scene.phase == "replay":
        r = scene.replay
        out["replay"] = {"index": r.index if r else 0, "total": r.total if r else 0}
    return out


def save_state(scene: SaveSource) -> dict[str, Any]:
    if scene.phase == "replay":
        return {
            "version": STATE_VERSION,
            "replay": scene.record,
            "index": scene.replay.index if scene.replay else 0,
            "age": scene.age,
        }
    job = scene.job
    return {
        "version": STATE_VERSION,
        "mode": scene.mode,
        "variant": scene.variant,
        "goal": scene.goal,
        "unselectable": scene.unselectable,
        "large": scene.large,
        "seed_base": scene.seed_base,
        "draws": scene.draws,
        "age": scene.age,
        "phase": scene.phase,
        "step": scene.step,
        "page": scene.page,
        "random_n": scene.random_n,
        "message": scene.message,
        "mark": None if scene.mark is None else list(scene.mark),
        "stroke": [list(p) for p in scene.stroke],
        "pen": scene.pen,
        "job": None if job is None else {"kind": job.kind, "params": job.params,
                                         "age": job.age},
        "chosen": None if scene.chosen is None else scene.chosen.to_json(),
        "blocked": scene.blocked,
        "search_slices": scene.search_slices if scene.search is not None else None,
        "pattern": scene.pattern,
        "pending_pattern": scene.pending_pattern,
        "help_page": scene.help_page,
        "match": None if scene.match is None else scene.match.save(),
        "ticks": scene.ticks,
        "hints": scene.hints,
        "solution_shown": scene.solution_shown,
        "hint_point": scene.hint_point,
        "anim": None if scene.anim is None else [scene.anim[0], list(scene.anim[1]),
                                                scene.anim[2]],
        "best_before": None if scene.best_before is None else scene.best_before.to_json(),
        "reported": scene.reported,
    }


def load_state(scene: SaveSource, state: dict[str, Any]) -> None:
    with save_reader("a Region Select save", IndexError):
        _load(scene, state)


def _load(scene: SaveSource, s: dict[str, Any]) -> None:
    if "replay" in check_version(s, STATE_VERSION):
        scene._open_record(s["replay"])
        if scene.replay is not None:
            scene.replay.seek(int(s["index"]))
            scene.match = scene.replay.match
        scene.age = int(s["age"])
        return
    if s["variant"] not in VARIANTS or s["phase"] not in ("choose", "draw", "play", "clear"):
        raise ValueError("bad variant or phase")
    chosen = None if s["chosen"] is None else srf.Chosen.from_json(s["chosen"])
    if scene.job is not None:
        scene.job.wait()
    scene.mode, scene.variant, scene.goal = str(s["mode"]), s["variant"], int(s["goal"])
    scene.unselectable, scene.large = bool(s["unselectable"]), bool(s["large"])
    scene.seed_base, scene.draws = int(s["seed_base"]), int(s["draws"])
    scene.age = int(s["age"])
    scene.phase, scene.step = s["phase"], str(s["step"])
    scene.page, scene.random_n = int(s["page"]), int(s["random_n"])
    scene.message = str(s["message"])
    scene.mark = None if s["mark"] is None else (float(s["mark"][0]), float(s["mark"][1]))
    scene.stroke = [(int(x), int(y)) for x, y in s["stroke"]]
    scene.pen = bool(s["pen"])
    scene.chosen, scene.blocked = chosen, s["blocked"]
    scene.pattern = int(s["pattern"])
    scene.pending_pattern = s["pending_pattern"]
    scene.help_page = s["help_page"]
    scene.search, scene.search_slices = None, 0
    if s["search_slices"] is not None and chosen is not None:
        probe = Puzzle(Setup(chosen.surface.shadow.link, scene.variant, scene.goal,
                             scene.blocked))
        scene.search = phase_search(probe)
        for _ in range(int(s["search_slices"])):
            scene.search.run(SEARCH_BUDGET)
        scene.search_slices = int(s["search_slices"])
    scene.job = None
    if s["job"] is not None:
        kind, params = str(s["job"]["kind"]), dict(s["job"]["params"])
        scene._start_job(kind, params)
        assert scene.job is not None
        scene.job.age = int(s["job"]["age"])
    scene._reset_play()
    if s["match"] is not None:
        if "race" in s["match"]["rules"]:
            raise ValueError("a race is not resumed alone (it needs its link session)")
        rules = RegionsRules.from_json(s["match"]["rules"])
        scene.match = Match(rules, [scene.seat])
        scene.match.load(s["match"])
    scene.ticks, scene.hints = int(s["ticks"]), int(s["hints"])
    scene.solution_shown = bool(s["solution_shown"])
    scene.hint_point = s["hint_point"]
    a = s["anim"]
    scene.anim = None if a is None else (int(a[0]), tuple(int(c) for c in a[1]), int(a[2]))
    scene.best_before = None if s["best_before"] is None else Best.from_json(s["best_before"])
    scene.reported = bool(s["reported"])
    scene._best_cache = None

