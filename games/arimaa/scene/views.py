"""What Arimaa's two screens show this frame, built from the scene's state: `top_view` and
`bottom_view` (the dataclasses the pure drawers in `top_view.py` / `bottom_view.py` take),
and the texts they carry. Reads the scene through `ViewSource`, never imports `play.py`.
"""

from __future__ import annotations

from typing import Any, Protocol

from firmware.game_api import THINKING_INDICATOR_TICKS, GameContext, Versus
from firmware.gfx import text
from games.arimaa.records import StoredGame
from games.arimaa.rules import Game as Engine
from games.arimaa.rules.board import SETUP_COUNTS, square_name
from games.arimaa.rules.clock import TICKS_PER_SECOND
from games.arimaa.rules.notation import write_record, write_turn
from games.arimaa.rules.position import Position
from games.arimaa.rules.score import score
from games.arimaa.scene import texts as tx
from games.arimaa.scene.animation import Fade, TurnAnimation
from games.arimaa.scene.bottom_view import BottomView
from games.arimaa.scene.top_view import MESSAGE_W, PlayerView, TopView


class ViewSource(Protocol):
    """The part of the scene's state the views read (the scene satisfies it)."""

    ctx: GameContext
    mode: str
    level: int
    human_side: int
    versus: Versus | None
    stored: StoredGame | None
    record_error: str | None
    notice: str | None
    draft: Engine | None
    draft_steps: list[tuple[int, int]]
    selected: int | None
    setup_sel: int | None
    anim: TurnAnimation | None
    fades: list[Fade]

    @property
    def game(self) -> Engine: ...
    @property
    def phase(self) -> str: ...
    @property
    def is_replay(self) -> bool: ...
    @property
    def replay_index(self) -> int: ...
    def local_to_move(self) -> bool: ...
    def thinking_ticks(self) -> int: ...
    def bottom_side(self) -> int: ...
    def _draft(self) -> Engine: ...
    def _legal(self) -> dict[int, dict[int, Any]]: ...
    def _arrangement(self, side: int) -> dict[int, int]: ...


def player_names(scene: ViewSource, tr: tx.Tr) -> tuple[str, str]:
    if scene.stored is not None:
        first, second = scene.stored.names
        return tx.stored_name(tr, first), tx.stored_name(tr, second)
    out = []
    for side in (0, 1):
        if scene.mode in ("cpu", "link") and side == scene.human_side:
            out.append(tr(*tx.YOU))
        elif scene.mode == "cpu":
            out.append(f"{tr(*tx.COMPUTER)} {tr(*tx.LEVEL)}{scene.level}")
        elif scene.mode == "link":
            partner = str(scene.versus.partner_name() or "") if scene.versus else ""
            out.append(partner or tx.side_name(tr, side))
        else:
            out.append(tx.side_name(tr, side))
    return out[0], out[1]


def message(scene: ViewSource) -> tuple[str, bool]:
    """(text, warning) for the strip under the board."""
    tr = scene.ctx.tr
    if scene.record_error is not None:
        return tr(*tx.BAD_RECORD), True
    if scene.notice is not None:
        return tr(*tx.REFUSALS.get(scene.notice, (scene.notice, scene.notice))), True
    if scene.is_replay or not scene.local_to_move():
        return "", False
    if scene.phase == "setup":
        return tr(*tx.SETUP_TIP), False
    draft = scene._draft()
    if draft.pending_push >= 0:
        return tr(*tx.PUSH_TIP) + square_name(draft.pending_push), True
    if scene.selected is not None:
        targets = scene._legal().get(scene.selected, {})
        if any(s.captured is not None for s in targets.values()):
            return tr(*tx.CAPTURE_WARN), True
    if draft.steps_left == 0:
        return tr(*tx.FOUR_DONE), False
    pulls = [s for moves in scene._legal().values() for s in moves.values()
             if s.role == "pull"]
    if pulls:
        return tr(*tx.PULL_TIP) + square_name(pulls[0].to), False
    return tr(*tx.SELECT_TIP), False


def result_texts(scene: ViewSource, tr: tx.Tr) -> tuple[str, str]:
    result = scene.game.result
    assert result is not None
    if result.winner is None:
        return tr(*tx.DRAW), tr(*tx.REASONS[result.reason])
    head = player_names(scene, tr)[result.winner] if scene.mode == "cpu" else tx.side_name(
        tr, result.winner)
    line = tr(*tx.YOU_WIN) if head == tr(*tx.YOU) else head + tr(*tx.WINS)  # not "You wins"
    return line, tr(*tx.REASONS.get(result.reason, (result.reason,) * 2))


def shown_boards(scene: ViewSource) -> Any:
    if scene.anim is not None:
        return scene.anim.frame()[0]
    if scene.phase == "setup" and scene.local_to_move():
        side = scene.game.side_to_move
        placement = scene._arrangement(side)
        boards = list(scene.game.position.boards)
        for sq, kind in placement.items():
            boards[6 * side + kind] |= 1 << sq
        return tuple(boards)
    if scene.draft is not None and scene.draft_steps:
        return scene.draft.boards
    return scene.game.position.boards


def bottom_view(scene: ViewSource) -> BottomView:
    boards = shown_boards(scene)
    side = scene.bottom_side()
    fades = tuple(scene.fades)
    if scene.anim is not None:
        still, slide = scene.anim.frame()
        fades = tuple(scene.anim.fades)
        if slide is None:
            return BottomView(still, side, fades=fades)
        frm, to, t = slide
        piece = Position(still).piece_at(frm)
        assert piece is not None
        return BottomView(still, side, hidden=frozenset({frm}), fades=fades,
                         slide=(piece[0], piece[1], frm, to, t))
    if scene.phase == "setup":
        sel = scene.setup_sel if scene.local_to_move() else None
        return BottomView(boards, side, selected=sel)
    last: frozenset[int] = frozenset()
    if scene.game.turns:
        last = frozenset(sq for s in scene.game.turns[-1] for sq in (s.frm, s.to))
    if scene.phase != "play" or not scene.local_to_move():
        frozen = scene.game.frozen_squares() if scene.phase == "play" else []
        return BottomView(boards, side, last=last, frozen=frozenset(frozen))
    draft = scene._draft()
    legal = scene._legal()
    targets = legal.get(scene.selected, {}) if scene.selected is not None else {}
    return BottomView(
        boards,
        side,
        selected=scene.selected,
        targets=frozenset(targets),
        capture_targets=frozenset(t for t, s in targets.items() if s.captured is not None),
        movable=frozenset(legal),
        frozen=frozenset(draft.frozen_squares()),
        push_into=draft.pending_push,
        last=last if not scene.draft_steps else frozenset(),
        fades=fades,
    )


def clock_text(scene: ViewSource, tr: tx.Tr, side: int) -> tuple[str, bool]:
    clock = scene.game.clock
    if clock is None:
        return tr(*tx.CASUAL), False
    moving = scene.game.result is None and scene.game.side_to_move == side
    reserve = _mmss(clock.reserves[side])
    if moving:
        left = clock.remaining(side)
        turn = min(max(0, clock.control.move - clock.turn_used), left)
        return f"{tr(*tx.RESERVE)} {reserve} {tr(*tx.TURN)} {_mmss(turn)}", left < 10 * 60
    return f"{tr(*tx.RESERVE)} {reserve}", False


def top_view(scene: ViewSource, tr: tx.Tr) -> TopView:
    game = scene.game
    names = player_names(scene, tr)
    boards = game.position.boards
    captured = _captured(boards, game.setups)
    players = []
    for side in (0, 1):
        clock, low = clock_text(scene, tr, side)
        to_move = game.result is None and game.side_to_move == side
        think = ""
        ticks = scene.thinking_ticks() if to_move else 0
        if ticks >= THINKING_INDICATOR_TICKS:
            think = tr(*tx.THINKING) + "." * (1 + (ticks // 15) % 3)
        players.append(PlayerView(names[side], clock, low, score(boards, side),
                                  captured[side], to_move, think))
    if game.result is not None:
        right = ""
    elif game.in_setup:
        right = tx.side_name(tr, game.side_to_move) + tr(*tx.SETTING_UP)
    else:
        right = tx.side_name(tr, game.side_to_move) + tr(*tx.TO_MOVE)
    title = tr("Arimaa", "アリマア")
    if scene.is_replay:
        total = len(scene.stored.actions) if scene.stored else 0
        title = f"{tr(*tx.REPLAY)} {scene.replay_index}/{total}"
    elif game.result is None:
        title = f"{tr('Arimaa', 'アリマア')}  {game.turn_label}"
    steps = ""
    if scene.draft is not None and scene.draft_steps:
        steps = write_turn(scene.draft.turn_steps)
    left = scene._draft().steps_left if scene.phase == "play" and scene.local_to_move() else 4
    label = f"{tr(*tx.STEPS)} {4 - left}/4"
    if scene.phase == "setup":
        label, steps = tr(*tx.SETUP), tr(*tx.SETUP_ORDER)
    moves = tuple(write_record(game).splitlines()) if game.setups else ()
    message = ""
    if game.result is not None:
        head, reason = result_texts(scene, tr)
        message = f"{head}: {reason}"
        if text.size(message)[0] > MESSAGE_W:  # the lower screen's result panel gives why
            message = head
    return TopView(title, right, (players[0], players[1]), label, steps, moves, message,
                   tr(*tx.SCORE))



def _mmss(ticks: int) -> str:
    seconds = max(0, ticks) // TICKS_PER_SECOND
    return f"{seconds // 60}:{seconds % 60:02d}"


def _captured(boards: Any, setups: list[dict[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each side's pieces no longer on the board (after its setup), strongest first."""
    out: list[tuple[int, ...]] = []
    for side in (0, 1):
        if side >= len(setups):
            out.append(())
            continue
        lost = []
        for kind in range(5, -1, -1):
            missing = SETUP_COUNTS[kind] - boards[6 * side + kind].bit_count()
            lost.extend([kind] * missing)
        out.append(tuple(lost))
    return out[0], out[1]
