"""What Reversi's two screens show this frame, built from the scene's state: `top_view` and
`bottom_view` (the dataclasses the pure drawers in `top_view.py` / `bottom_view.py` take),
and the texts of the message area. Reads the scene through `ViewSource`, never imports
`play.py`.
"""

from __future__ import annotations

from typing import Protocol

from firmware.game_api import THINKING_INDICATOR_TICKS, GameContext
from firmware.match import ReplayCursor
from games.reversi.records import GameRecord
from games.reversi.rules import PASS
from games.reversi.rules import Game as Board
from games.reversi.scene import texts as tx
from games.reversi.scene.animation import FlipAnimation
from games.reversi.scene.bottom_view import BottomView
from games.reversi.scene.top_view import TopView


def other(color: str) -> str:
    return "white" if color == "black" else "black"


class ViewSource(Protocol):
    """The part of the scene's state the views read (the scene satisfies it)."""

    ctx: GameContext
    mode: str
    preview: str | None
    anim: FlipAnimation | None
    record: GameRecord | None
    record_error: str | None
    replay: ReplayCursor[str] | None

    @property
    def game(self) -> Board: ...
    @property
    def hint_name(self) -> str: ...
    @property
    def think_calls(self) -> int: ...
    def human_to_move(self) -> bool: ...
    def thinking_ticks(self) -> int: ...
    def _names(self, tr: tx.Tr | None = None) -> dict[str, str]: ...


def tip(scene: ViewSource) -> str:
    """A quiet line for the message area (shown, not dumped): whose turn against the
    computer, or the preview's reminder that a second tap plays."""
    if scene.preview is None:
        if scene.mode in ("cpu", "versus") and scene.human_to_move() and scene.anim is None:
            return scene.ctx.tr("Your turn", "あなたのばん")
        return ""
    return scene.ctx.tr(
        f"Tap {scene.preview} again to play", f"もういちど {scene.preview} で けってい"
    )


def message(scene: ViewSource) -> tuple[str | None, str]:
    """(disc colour or None, text) for the message area: pass or result."""
    tr = scene.ctx.tr
    if scene.record_error is not None:
        return None, tr(*tx.BAD_RECORD)
    g = scene.game
    if g.over:
        if g.winner == "draw":
            return None, tr(*tx.DRAW)
        return g.winner, tr(*tx.WINS)
    if g.last_pass is not None:
        return g.last_pass, tr(*tx.PASSED)
    return None, ""


def message_text(scene: ViewSource) -> str:
    color, tail = message(scene)
    return tail if color is None else tx.color_name(scene.ctx.tr, color) + tail


def _move_list(scene: ViewSource) -> list[tuple[str, str]]:
    game = scene.record.game if scene.record is not None else scene.game
    color, out = game.start.turn, []
    for ply in game.plies:
        if ply != PASS:
            out.append((color, ply))
        color = other(color)
    return out


def top_view(scene: ViewSource, tr: tx.Tr) -> TopView:
    """What the upper screen shows this frame."""
    color, tail = message(scene)
    title = ""
    highlight = None
    if scene.replay is not None:
        total = scene.replay.total
        title = f"{tr(*tx.REPLAY_TITLE)} {scene.replay.index}/{total}"
        highlight = scene.replay.index - 1 if scene.replay.index else -1
    return TopView(
        score=scene.game.score(),
        turn=scene.game.turn,
        names={c: tx.for_screen(n) for c, n in scene._names().items()},
        message=tx.for_screen(tail),
        message_color=color,
        moves=_move_list(scene),
        thinking=1 + (scene.think_calls // 15) % 3
        if scene.thinking_ticks() >= THINKING_INDICATOR_TICKS
        else None,
        tip=tx.for_screen(tip(scene)),
        highlight=highlight,
        title=title,
    )


def bottom_view(scene: ViewSource, mover: str | None) -> BottomView:
    """What the board shows this frame (`mover`: whose hints and preview are shown)."""
    legal = scene.game.legal() if mover else {}
    return BottomView(
        rows=scene.game.position.rows(),
        mover=mover,
        hints={sq: len(f) for sq, f in legal.items()},
        hint_level=scene.hint_name,
        preview=scene.preview if mover else None,
        preview_flips=frozenset(legal.get(scene.preview or "", ())),
        anim=scene.anim,
        last_move=scene.game.moves[-1] if scene.game.moves else None,
    )

