"""Panel Link's link glue: a linked game started from a shared config (`start_link`) or from
the peer link's session (`start_versus`), and this unit's actions in link mode
(`submit_link`: select, place, rotate and back stay in a local draft; determine sends one
`Fix`). The scene is reached through `LinkTarget`, never by importing `play.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from firmware.game_api import GameContext, Versus
from firmware.match import LocalSeat, Match, RemoteSeat, ReplaySource
from firmware.match.seats import Seat
from games.panels.match import Fix, MatchAction, PanelsComputer, PanelsRules
from games.panels.rules import Back, Determine, GameConfig, GameState, Place, Rotate, Select
from games.panels.scene.options import config_from_options


class LinkTarget(Protocol):
    """What the link glue reads and changes (the scene satisfies it)."""

    ctx: GameContext
    mode: str
    link_seat: int
    record_data: dict[str, Any] | None
    game_seed: int
    ai_seed: int
    locals: dict[int, LocalSeat[MatchAction]]
    computer: PanelsComputer | None
    match: Match[MatchAction]
    source: ReplaySource | None
    draft: PanelsRules | None

    @property
    def rules(self) -> PanelsRules: ...
    @property
    def state(self) -> GameState: ...
    def _reset_view(self) -> None: ...
    def _before(self, st: GameState) -> dict[str, Any]: ...
    def _animate(self, events: list[dict[str, Any]], before: dict[str, Any]) -> None: ...
    def _submit(self, action: MatchAction, link: bool = True) -> bool: ...


def start_link(
    scene: LinkTarget, config: GameConfig, seat: int, send: Callable[[bytes, str], None]
) -> RemoteSeat[MatchAction]:
    """Link mode: this unit plays `seat` of a game both units build from `config` (the
    session shares it). Select, place, rotate and back stay on this unit (a local draft
    of the match state); determine sends one `Fix` (R-PAN-TURN-6); items and passes go
    as themselves. `send(data, digest)` carries each of this unit's actions with the
    digest after it; the other unit's arrive through the returned remote seat."""
    if getattr(scene, "match", None) is not None:
        scene.match.close()
    scene.mode, scene.link_seat, scene.record_data = "link", seat, None
    rules = PanelsRules.new(config)
    local: LocalSeat[MatchAction] = LocalSeat()
    remote: RemoteSeat[MatchAction] = RemoteSeat()
    scene.locals = {seat: local}
    scene.computer = None
    seats: list[Seat[MatchAction]] = [
        local if s == seat else remote for s in range(config.players)
    ]
    scene.match = Match(rules, seats)

    def outgoing(played: Any, events: list[dict[str, Any]]) -> None:
        if played.seat == seat:
            send(played.data, played.digest)

    scene.match.listeners.append(outgoing)
    scene.source = None
    scene._reset_view()
    return remote


def start_versus(
    scene: LinkTarget, session: Versus, computer: Callable[[int], Seat[MatchAction]] | None = None
) -> None:
    """Link mode with the peer link's session: it agreed the options and the shared seed
    (`ctx.seed`, so `ctx.rng` draws the same game seed on every unit), makes a local seat
    for this unit's player and remote seats for the others, and carries this unit's
    actions out (`attach`). The drafting of provisional steps is the same as in
    `start_link`."""
    scene.mode, scene.link_seat, scene.record_data = "link", int(session.seat or 0), None
    scene.game_seed, scene.ai_seed = scene.ctx.rng.randrange(2**31), 0
    config = config_from_options(scene.ctx.options, scene.game_seed)
    seats = session.make_seats()
    scene.locals = {i: seat for i, seat in enumerate(seats) if isinstance(seat, LocalSeat)}
    scene.computer = None
    scene.match = Match(PanelsRules.new(config), seats)
    session.attach(scene.match, computer=computer)  # the partner gone: it may finish alone
    scene.source = None
    scene._reset_view()


def submit_link(scene: LinkTarget, action: MatchAction) -> bool:
    """This unit's action in link mode: steps into the draft, the rest into the match."""
    p = scene.state.current
    if isinstance(action, Select | Place | Rotate | Back):
        draft = scene.draft or PanelsRules.from_json(scene.rules.to_json())
        if draft.check(p, action) is not None:
            scene.ctx.play("error")
            return False
        before = scene._before(draft.state)
        events = draft.apply(p, action)
        busy = draft.state.selected is not None or draft.state.provisional is not None
        scene.draft = draft if busy else None
        scene._animate(events, before)
        return True
    if isinstance(action, Determine):
        st = scene.state
        if st.provisional is None or st.selected is None:
            scene.ctx.play("error")
            return False
        square, turns = st.provisional
        fix = Fix(p, st.selected, square, turns)
        scene.draft = None
        before = scene._before(scene.rules.state)
        scene.locals[p].offer(fix)
        events = scene.match.step()
        shown = ("selected", "provisional", "rotated")  # seen here already
        scene._animate([e for e in events if e["type"] not in shown], before)
        return True
    if scene.draft is not None and scene.draft.state.provisional is not None:
        scene.ctx.play("error")  # items come before placing (press back first)
        return False
    if scene.rules.check(p, action) is not None:
        scene.ctx.play("error")
        return False
    scene.draft = None
    return scene._submit(action, link=False)

