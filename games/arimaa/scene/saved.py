"""Arimaa's scene to and from JSON: `dump` (the P-DUMP state tests and movies read),
`save_state` (suspend) and `load_state` (resume, refusing anything that does not check).
Reads and restores the scene through `SaveSource`, never imports `play.py`.
"""

from __future__ import annotations

from typing import Any, Protocol

from firmware.match import Match
from firmware.match.replay import ReplayCursor
from firmware.match.seats import Seat
from firmware.turn_game import check_version, replay_save, save_reader
from games.arimaa.ai.levels import LEVELS
from games.arimaa.match import ArimaaAction, ArimaaRules
from games.arimaa.records import placement_of
from games.arimaa.records import rows_of as setup_rows
from games.arimaa.rules import IllegalStep
from games.arimaa.rules.board import SETUP_COUNTS, square_name
from games.arimaa.rules.notation import step_tokens, write_record, write_short
from games.arimaa.rules.position import Position
from games.arimaa.rules.score import score
from games.arimaa.scene import views
from games.arimaa.scene.animation import Fade, TurnAnimation
from games.arimaa.scene.views import ViewSource

STATE_VERSION = 1
MODES = ("cpu", "two")
SIDE_LETTER = "gs"


class SaveSource(ViewSource, Protocol):
    """What dump, suspend and resume read and restore (the scene satisfies it)."""

    ai_seed: int
    control: str | None
    rules: ArimaaRules
    match: Match[ArimaaAction]
    replay: ReplayCursor[ArimaaAction] | None
    arrangement: dict[int, dict[int, int]]
    random_count: int
    help_page: int | None
    resign_armed: bool
    reported: bool
    last_rows: dict[int, tuple[str, str]]
    games_played: int
    _record_data: dict[str, Any] | None

    @property
    def thinking(self) -> bool: ...
    def _seats(self) -> list[Seat[ArimaaAction]]: ...
    def _reset_view(self) -> None: ...
    def _open_record(self, data: dict[str, Any]) -> None: ...
    def _adopt_replay(self) -> None: ...


def dump(scene: SaveSource) -> dict[str, Any]:
    game = scene.game
    result = game.result
    clocks = None
    if game.clock is not None:
        clocks = {
            SIDE_LETTER[s]: {"reserve": game.clock.reserves[s],
                             "turn_used": game.clock.turn_used if game.side_to_move == s
                             and result is None else 0}
            for s in (0, 1)
        }
    boards = game.position.boards
    legal = scene._legal() if scene.phase == "play" and scene.local_to_move() else {}
    message, _warn = views.message(scene)
    out: dict[str, Any] = {
        "phase": scene.phase,
        "side": SIDE_LETTER[game.side_to_move] if result is None else None,
        "position": write_short(Position(views.shown_boards(scene) if scene.anim is None
                                         and scene.phase == "play" else boards)),
        "steps": [tok for s in (scene.draft.turn_steps if scene.draft else [])
                  for tok in step_tokens(s)] if scene.draft_steps else [],
        "record": write_record(game).splitlines() if game.setups else [],
        "winner": None if result is None or result.winner is None
        else SIDE_LETTER[result.winner],
        "reason": None if result is None else result.reason,
        "clocks": clocks,
        "score": {"g": score(boards, 0), "s": score(boards, 1)},
        "mode": "replay" if scene.is_replay else scene.mode,
        "level": scene.level if scene.mode == "cpu" else None,
        "seat": SIDE_LETTER[scene.human_side] if scene.mode == "link" else None,
        "selected": None if scene.selected is None else square_name(scene.selected),
        "targets": sorted(square_name(t) for t in legal.get(scene.selected, {}))
        if scene.selected is not None else [],
        "movable": sorted(square_name(sq) for sq in legal),
        "frozen": sorted(square_name(sq) for sq in _frozen(scene)),
        "pending_push": None if scene.draft is None or scene.draft.pending_push < 0
        else square_name(scene.draft.pending_push),
        "message": message,
        "animating": scene.anim is not None,
        "thinking": scene.thinking,
        "help": scene.help_page,
    }
    if scene.phase == "setup" and scene.local_to_move():
        side = game.side_to_move
        out["setup"] = list(setup_rows(side, scene._arrangement(side)))
        out["setup_selected"] = None if scene.setup_sel is None else square_name(scene.setup_sel)
    if scene.is_replay:
        out["replay"] = {"index": scene.replay_index,
                         "total": len(scene.stored.actions) if scene.stored else 0}
    return out


def _frozen(scene: SaveSource) -> list[int]:
    if scene.phase != "play":
        return []
    return (scene._draft() if scene.local_to_move() else scene.game).frozen_squares()


def save_state(scene: SaveSource) -> dict[str, Any]:
    if scene.is_replay:
        return replay_save(STATE_VERSION, scene._record_data, scene.replay_index, "kind")
    return {
        "version": STATE_VERSION,
        "kind": "play",
        "mode": scene.mode,
        "level": scene.level,
        "human_side": scene.human_side,
        "ai_seed": scene.ai_seed,
        "match": scene.match.save(),
        "draft_steps": [list(s) for s in scene.draft_steps],
        "selected": scene.selected,
        "arrangement": {str(side): list(setup_rows(side, p))
                        for side, p in scene.arrangement.items()},
        "setup_sel": scene.setup_sel,
        "random_count": scene.random_count,
        "notice": scene.notice,
        "anim": None if scene.anim is None else scene.anim.to_json(),
        "fades": [f.to_json() for f in scene.fades],
        "help": scene.help_page,
        "resign_armed": scene.resign_armed,
        "reported": scene.reported,
        "last_rows": {str(s): list(r) for s, r in scene.last_rows.items()},
        "games_played": scene.games_played,
    }


def load_state(scene: SaveSource, state: dict[str, Any]) -> None:
    with save_reader("an Arimaa save", IllegalStep):
        if check_version(state, STATE_VERSION)["kind"] == "replay":
            scene._open_record(state["record"])
            if scene.replay is not None:
                scene.replay.seek(int(state["index"]))
                scene._adopt_replay()
            return
        _load_play(scene, state)


def _load_play(scene: SaveSource, state: dict[str, Any]) -> None:
    mode, level, human = state["mode"], int(state["level"]), int(state["human_side"])
    if mode not in MODES or level not in LEVELS or human not in (0, 1):
        raise ValueError("bad mode, level or side")
    scene.mode, scene.level, scene.human_side = mode, level, human
    scene.ai_seed = int(state["ai_seed"])
    scene.match.close()
    scene.rules = ArimaaRules.new(scene.control)
    scene.match = Match(scene.rules, scene._seats())
    scene.match.load(state["match"])
    rules = scene.match.rules
    assert isinstance(rules, ArimaaRules)
    scene.rules = rules
    scene._reset_view()
    scene.draft_steps = [(int(a), int(b)) for a, b in state["draft_steps"]]
    scene._draft()  # replays the steps: raises on anything illegal
    sel = state["selected"]
    scene.selected = None if sel is None else int(sel)
    scene.arrangement = {}
    for side_text, rows in dict(state["arrangement"]).items():
        side = int(side_text)
        placement = placement_of(side, rows)
        counts = [list(placement.values()).count(k) for k in range(6)]
        if counts != list(SETUP_COUNTS):
            raise ValueError("bad arrangement")
        scene.arrangement[side] = placement
    scene.setup_sel = None if state["setup_sel"] is None else int(state["setup_sel"])
    scene.random_count = int(state["random_count"])
    scene.notice = state["notice"]
    scene.anim = None if state["anim"] is None else TurnAnimation.from_json(state["anim"])
    scene.fades = [Fade.from_json(f) for f in state["fades"]]
    scene.help_page = None if state["help"] is None else int(state["help"])
    scene.resign_armed = bool(state["resign_armed"])
    scene.reported = bool(state["reported"])
    scene.last_rows = {int(s): (str(r[0]), str(r[1]))
                      for s, r in dict(state["last_rows"]).items()}
    scene.games_played = int(state["games_played"])

