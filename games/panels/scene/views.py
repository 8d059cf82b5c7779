"""What Panel Link's two screens show this frame, built from the scene's state: `top_view`
and `bottom_view` (the dataclasses the pure drawers in `top_view.py` / `bottom_view.py`
take). Reads the scene through `ViewSource`, never imports `play.py`.
"""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from firmware.game_api import GameContext, Versus
from games.panels.match import PanelsRules
from games.panels.rules import GameState
from games.panels.scene import texts as tx
from games.panels.scene.animation import Anim
from games.panels.scene.bottom_view import BottomView
from games.panels.scene.top_view import TopView


class ViewSource(Protocol):
    """The part of the scene's state the views read (the scene satisfies it)."""

    ctx: GameContext
    mode: str
    level: int
    versus: Versus | None
    record_data: dict[str, Any] | None
    record_error: str | None
    anims: list[Anim]
    clock: int
    shown_scores: list[int]
    yaku_log: list[list[Any]]
    item_armed: int | None
    item_target: str | None
    drag: int | None
    drag_pos: tuple[int, int] | None

    @property
    def rules(self) -> PanelsRules: ...
    @property
    def state(self) -> GameState: ...
    @property
    def is_replay(self) -> bool: ...
    @property
    def view_seat(self) -> int: ...
    @property
    def me(self) -> int: ...
    @property
    def thinking(self) -> bool: ...
    def local_to_move(self) -> bool: ...
    def replay_turn(self) -> tuple[int, int]: ...
    def hotspots(self) -> dict[str, pygame.Rect]: ...


def player_names(scene: ViewSource) -> list[str]:
    tr = scene.ctx.tr
    stored = (scene.record_data or {}).get("names")
    players = scene.state.config.players
    if isinstance(stored, list) and len(stored) == players and all(
        isinstance(n, str) for n in stored
    ):
        # a replay shows the names it was played with
        return [tx.stored_name(tr, n)[:16] for n in stored]
    human = scene.me
    if scene.versus is not None:  # the radio names of this unit and its partner
        me = str(scene.versus.radio.name)
        partner = str(scene.versus.partner_name() or tr("Opponent", "あいて"))
        return [me if s == human else partner for s in range(players)]
    return [tx.player_name(tr, scene.mode, s, human, scene.level)
            for s in range(scene.state.config.players)]


def top_view(scene: ViewSource) -> TopView:
    """The upper screen's view for its drawing code: everything it shows, nothing more."""
    st = scene.state
    return TopView(
        state=st,
        anims=tuple(scene.anims),
        clock=scene.clock,
        mode=scene.mode,
        is_replay=scene.is_replay,
        local_to_move=scene.local_to_move(),
        thinking=scene.thinking,
        names=player_names(scene),
        result=scene.rules.result() if st.over else None,
        shown_scores=list(scene.shown_scores),
        yaku_log=scene.yaku_log,
        item_armed=scene.item_armed,
        item_target=scene.item_target,
        record_error=scene.record_error,
        replay_turn=scene.replay_turn() if scene.is_replay else (0, 0),
    )


def bottom_view(scene: ViewSource) -> BottomView:
    """The lower screen's view for its drawing code."""
    st = scene.state
    local = scene.local_to_move()
    return BottomView(
        state=st,
        anims=tuple(scene.anims),
        clock=scene.clock,
        view_seat=scene.view_seat,
        mode=scene.mode,
        is_replay=scene.is_replay,
        local_to_move=local,
        names=player_names(scene),
        result=scene.rules.result() if st.over else None,
        item_armed=scene.item_armed,
        item_target=scene.item_target,
        drag=scene.drag,
        drag_pos=scene.drag_pos,
        permitted=None if scene.anims else permitted(scene),
        can_pass=local and not scene.anims and "button:pass" in scene.hotspots(),
    )


def permitted(scene: ViewSource) -> set[tuple[int, int]] | None:
    """Squares the selected card may go to (None: no selection to show)."""
    st = scene.state
    if st.selected is None or st.over or scene.is_replay or not scene.local_to_move():
        return None
    return set(st.permitted_squares(st.current, st.selected))

