"""What Killing Sevens' two screens show this frame, built from the scene's state: `top_view`
and `bottom_view` (the dataclasses the pure drawers in `top_view.py` / `bottom_view.py`
take). Reads the scene through `ViewSource`, never imports `play.py`.
"""

from __future__ import annotations

from typing import Protocol

from firmware.game_api import Versus
from games.sevens.rules import Game as Table
from games.sevens.rules import Tally
from games.sevens.scene.animation import Anim
from games.sevens.scene.bottom_view import BottomView
from games.sevens.scene.setup import Setup, member_names
from games.sevens.scene.talk import Talk
from games.sevens.scene.top_view import TopView


class ViewSource(Protocol):
    """The part of the scene's state the views read (the scene satisfies it)."""

    phase: str
    members: list[str]
    draft: Setup
    anim: Anim | None
    selected: int | None
    handoff: bool
    talk: Talk
    replay_actions: list[tuple[int, bytes]]
    versus: Versus | None

    @property
    def table(self) -> Table | None: ...
    @property
    def humans(self) -> list[int]: ...
    @property
    def local_seat(self) -> int: ...
    @property
    def you(self) -> int | None: ...
    @property
    def sending(self) -> bool: ...
    @property
    def think_ticks(self) -> int: ...
    @property
    def replay_index(self) -> int: ...
    def names(self) -> list[str]: ...
    def unit_names(self) -> list[str] | None: ...
    def human_to_move(self) -> bool: ...
    def marks(self) -> dict[int, str]: ...
    def tally(self) -> Tally: ...


def top_view(scene: ViewSource) -> TopView:
    """What the upper screen shows (play, over and replay phases)."""
    table = scene.table
    assert table is not None
    return TopView(
        phase=scene.phase,
        table=table,
        names=scene.names(),
        anim=scene.anim,
        you=scene.you,
        human_to_move=scene.human_to_move(),
        selected=scene.selected,
        replay_index=scene.replay_index,
        replay_total=len(scene.replay_actions),
    )


def bottom_view(scene: ViewSource) -> BottomView:
    """What the lower screen shows: only what the phase shows (the tally is stored)."""
    phase = scene.phase
    human = scene.human_to_move()
    over = phase == "over"
    return BottomView(
        phase=phase,
        table=scene.table,
        names=scene.names(),
        you=scene.you,
        humans=scene.humans,
        local_seat=scene.local_seat,
        human_to_move=human,
        sending=scene.sending,
        selected=scene.selected,
        think_ticks=scene.think_ticks,
        handoff=scene.handoff,
        talk_current=scene.talk.current,
        talk_last=scene.talk.last,
        replay_index=scene.replay_index,
        replay_total=len(scene.replay_actions),
        marks=scene.marks() if human and phase == "play" else {},
        tally=scene.tally() if over else None,
        english_names=member_names(scene.members, units=scene.unit_names()) if over else [],
        draft=scene.draft,
        linked=scene.versus is not None,
    )

