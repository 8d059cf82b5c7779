"""Reversi's scene to and from JSON: `dump` (the P-DUMP state tests and movies read),
`save_state` (suspend) and `load_state` (resume, refusing anything that does not check).
Reads and restores the scene through `SaveSource`, never imports `play.py`.
"""

from __future__ import annotations

from typing import Any, Protocol

from firmware.game_api import Versus
from firmware.match import Match, Played, Seat
from games.reversi.ai import LEVELS
from games.reversi.match import ReversiRules, seat_of
from games.reversi.rules import Game as Board
from games.reversi.rules import GameDataError
from games.reversi.scene import texts as tx
from games.reversi.scene import views
from games.reversi.scene.animation import FlipAnimation
from games.reversi.scene.views import ViewSource

STATE_VERSION = 1
MODES = ("cpu", "two")


def history_of(game: Board) -> list[Played]:
    """The match history (seat, wire bytes, digest after) of a game's moves."""
    probe = ReversiRules(Board(game.start))
    out = []
    for square in game.moves:
        seat = probe.to_move()
        assert seat is not None
        probe.apply(seat, square)
        out.append(Played(seat, probe.encode(square), probe.digest()))
    return out


class SaveSource(ViewSource, Protocol):
    """What dump, suspend and resume read and restore (the scene satisfies it)."""

    level: int
    human: str
    versus: Versus | None
    ai_seed: int
    hint_level: int
    reported: bool
    record_data: dict[str, Any] | None
    _match: Match[str]

    @property
    def is_replay(self) -> bool: ...
    def computer_to_move(self) -> bool: ...
    def _seats(self) -> list[Seat[str]]: ...
    def _reset(self) -> None: ...
    def _open_record(self, data: dict[str, Any]) -> None: ...


def dump(scene: SaveSource) -> dict[str, Any]:
    s = scene.game.state()
    out = {
        "board": s["board"],
        "turn": s["turn"],
        "score": s["score"],
        "status": s["status"],
        "winner": s["winner"],
        "hint_level": scene.hint_name,
        "legal": s["legal"],
        "preview": scene.preview,
        "animating": scene.anim is not None,
        "message": views.message_text(scene),
        "moves": s["moves"],
    }
    if scene.versus is not None:
        out["seat"] = scene.human
    if scene.is_replay:
        out["replay"] = {
            "index": scene.replay.index if scene.replay else 0,
            "total": scene.replay.total if scene.replay else 0,
        }
    return out


def save_state(scene: SaveSource) -> dict[str, Any]:
    if scene.is_replay:
        return {
            "version": STATE_VERSION,
            "mode": "replay",
            "record": scene.record_data,
            "index": scene.replay.index if scene.replay else 0,
        }
    return {
        "version": STATE_VERSION,
        "mode": scene.mode,
        "level": scene.level,
        "human": scene.human,
        "ai_seed": scene.ai_seed,
        "game": scene.game.to_json(),
        "hint_level": scene.hint_name,
        "preview": scene.preview,
        "anim": scene.anim.to_json() if scene.anim else None,
        "think_calls": scene.think_calls,
        "reported": scene.reported,
    }


def load_state(scene: SaveSource, state: dict[str, Any]) -> None:
    try:
        if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
            raise ValueError("unknown version")
        if state["mode"] == "replay":
            _load_replay(scene, state)
            return
        _load_play(scene, state)
    except (KeyError, TypeError, ValueError, GameDataError) as exc:
        raise ValueError(f"not a Reversi save: {exc}") from None


def _load_replay(scene: SaveSource, state: dict[str, Any]) -> None:
    scene._reset()
    scene._open_record(state["record"])
    if scene.replay is not None:
        scene.replay.seek(int(state["index"]))


def _load_play(scene: SaveSource, state: dict[str, Any]) -> None:
    mode, level, human = state["mode"], int(state["level"]), state["human"]
    if mode not in MODES or level not in LEVELS or human not in ("black", "white"):
        raise ValueError("bad mode, level or colour")
    game = Board.from_json(state["game"])
    hint = tx.HINT_LEVELS.index(state["hint_level"])
    preview = state["preview"]
    if preview is not None and (hint == 0 or not game.is_legal(preview)):
        raise ValueError("bad preview")
    anim = FlipAnimation.from_json(state["anim"]) if state["anim"] is not None else None
    think_calls = int(state["think_calls"])
    scene.record_data, scene.replay, scene.record, scene.record_error = None, None, None, None
    scene.mode, scene.level, scene.human = mode, level, human
    scene.ai_seed = int(state["ai_seed"])
    scene._match = Match(ReversiRules(game), scene._seats())
    scene._match.history = history_of(game)
    scene.hint_level, scene.preview, scene.anim = hint, preview, anim
    scene.reported = bool(state["reported"])
    seat = game.turn
    if think_calls and seat is not None and scene.computer_to_move():
        # The pending decision, restarted: the same slices give the same move and timing.
        number = seat_of(seat)
        scene._match.load_seat(number, {"calls": think_calls})

