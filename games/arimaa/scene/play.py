"""Arimaa on the handheld (R-ARI-HH, issue 13): setup, turns entered step by step, clocks,
score, against the computer or two on one unit, records and their replay.

Every move goes through a `Match` with seats: the person at the unit is a `LocalSeat` (the
scene turns taps into a whole turn or a setup and offers it), the computer an
`ClockedSeat` around the firmware's computer seat, a stored record `ReplaySeat`s (through a
`ReplayCursor`). The steps of a turn in progress stay in
the scene (`draft`, a copy of the rules' game) until Done.

The input (setup, steps, buttons, help, replay) is in `controls.py`, what the screens show
in `views.py`, dump, suspend and resume in `saved.py` (docs/architecture.md, "Inside a game").
"""

from __future__ import annotations

from typing import Any

import pygame

from firmware.game_api import GameContext, GameResult
from firmware.input import InputState
from firmware.match import LocalSeat, Match
from firmware.match.replay import ReplayCursor
from firmware.match.seats import Seat
from firmware.scene import hit
from firmware.turn_game import TurnGame, outcome, play_seats, replay_hotspots, start_match
from games.arimaa.ai.levels import DEFAULT_LEVEL, LEVELS
from games.arimaa.match import (
    ArimaaAction,
    ArimaaComputer,
    ArimaaRules,
    ClockedSeat,
    setup_action,
)
from games.arimaa.records import RecordError, StoredGame, make_record, placement_of, read_record
from games.arimaa.records import rows_of as setup_rows
from games.arimaa.rules import Game as Engine
from games.arimaa.rules.board import square_name
from games.arimaa.rules.clock import PRESETS
from games.arimaa.rules.position import named_setup
from games.arimaa.rules.score import score
from games.arimaa.scene import controls, layout, saved, views
from games.arimaa.scene import help as helppages
from games.arimaa.scene import texts as tx
from games.arimaa.scene.animation import Fade, TurnAnimation
from games.arimaa.scene.bottom_view import (
    BottomView,
    draw_board,
    draw_message,
    draw_play_panel,
    draw_replay_panel,
    draw_result,
    draw_setup_panel,
)
from games.arimaa.scene.saved import MODES
from games.arimaa.scene.setup_names import SETUP_NAMES
from games.arimaa.scene.top_view import TopView, draw_top
from hal.interfaces import Button


def control_of(choice: str) -> str | None:
    """The time-control notation for an option value (a preset name or the notation)."""
    return PRESETS.get(choice, choice)


class ArimaaScene(TurnGame):
    """Play or (with `record`) replay one game of Arimaa."""

    saves = saved  # dump, suspend and resume (saved.py)

    uses_dpad = False  # the firmware cursor walks the squares and buttons; A taps
    draws_thinking = True  # "thinking..." in the computer's box, after half a second

    def __init__(self, ctx: GameContext, record: dict[str, Any] | None = None) -> None:
        super().__init__(ctx)
        opts = ctx.options
        self.mode = opts.get("mode", "cpu") if opts.get("mode") in MODES else "cpu"
        level = opts.get("level", str(DEFAULT_LEVEL))
        self.level = int(level) if level.isdigit() and int(level) in LEVELS else DEFAULT_LEVEL
        self.human_side = 1 if opts.get("color") == "silver" else 0
        if self.versus is not None:  # a versus match over the peer link
            self.mode, self.human_side = "link", int(self.versus.seat or 0)
        self.rotate = opts.get("rotate", "on") == "on"
        self.control = control_of(opts.get("clock", "casual"))
        setup_opt = opts.get("setup", "choose")
        self.setup_option = setup_opt if setup_opt in SETUP_NAMES else "choose"
        self._legal_memo: tuple[object, Any] | None = None
        self.last_rows: dict[int, tuple[str, str]] = self._remembered_rows()
        self.stored: StoredGame | None = None
        self.record_error: str | None = None
        self.replay: ReplayCursor[ArimaaAction] | None = None
        self.games_played = 0
        _warm_sprites()
        if record is not None:
            self._open_record(record)
        else:
            self._new_game()

    # ------------------------------------------------------------------ set-up
    def _computer_seat(self, side: int) -> Seat[ArimaaAction]:
        core = self.ctx.computer_budget(ArimaaComputer.core_units_per_tick)
        player = ArimaaComputer(self.level, self.ai_seed, core, self.ctx.computer_native)
        return ClockedSeat(self.ctx.computer_seat(player))

    def _seats(self) -> list[Seat[ArimaaAction]]:
        """The people's local seats, the computer's against the computer; in versus a local
        seat for this unit's player and a remote one fed by the link for the partner's."""
        computer = (1 - self.human_side,) if self.mode == "cpu" else ()
        return play_seats(self.ctx, 2, self._computer_seat, computer)

    def _new_game(self) -> None:
        if hasattr(self, "match"):
            self.match.close()
        self.ai_seed = self.ctx.rng.randrange(2**31)
        self.rules = ArimaaRules.new(self.control)
        # in versus, the partner gone for good: the computer at this game's level may finish
        self.match: Match[ArimaaAction] = start_match(
            self.ctx, self.rules, self._seats(), self._computer_seat
        )
        self._reset_view()

    def _reset_view(self) -> None:
        self.draft: Engine | None = None
        self.draft_steps: list[tuple[int, int]] = []
        self.selected: int | None = None
        self.drag_from: int | None = None
        self.arrangement: dict[int, dict[int, int]] = {}
        self.setup_sel: int | None = None
        self.random_count = 0
        self.notice: str | None = None  # an engine reason (Done refused) shown until the next act
        self.anim: TurnAnimation | None = None
        self.fades: list[Fade] = []
        self.help_page: int | None = None
        self.resign_armed = False
        self.reported = False
        self._legal_memo = None

    def _open_record(self, data: dict[str, Any]) -> None:
        self.ai_seed = 0
        self._record_data = data
        try:
            self.stored = read_record(data)
        except RecordError as exc:
            self.stored, self.record_error = None, str(exc)
        control = self.stored.control if self.stored else None
        actions = list(self.stored.actions) if self.stored else []
        self.replay = ReplayCursor(lambda: ArimaaRules.new(control), actions)
        self._adopt_replay()
        self._reset_view()

    def _adopt_replay(self) -> None:
        assert self.replay is not None
        self.match = self.replay.match
        rules = self.match.rules
        assert isinstance(rules, ArimaaRules)
        self.rules = rules

    @property
    def replay_index(self) -> int:
        return self.replay.index if self.replay is not None else 0

    @property
    def is_replay(self) -> bool:
        return self.replay is not None

    def _remembered_rows(self) -> dict[int, tuple[str, str]]:
        """Each colour's last setup made by a person, from the newest stored records."""
        out: dict[int, tuple[str, str]] = {}
        for record in self.ctx.records():
            humans, setups = record.get("humans"), record.get("setups")
            if not isinstance(humans, list) or not isinstance(setups, list):
                continue
            for side, rows in enumerate(setups[:2]):
                if side < len(humans) and humans[side] and side not in out:
                    try:
                        placement_of(side, rows)
                    except (ValueError, TypeError):
                        continue
                    out[side] = (str(rows[0]), str(rows[1]))
        return out

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> Engine:
        return self.rules.game

    @property
    def phase(self) -> str:
        if self.game.result is not None:
            return "over"
        return "setup" if self.game.in_setup else "play"

    def seat_kind(self, side: int) -> str:
        return self.match.seat_kind(side)

    def local_to_move(self) -> bool:
        seat = self.match.to_move
        return (
            seat is not None and not self.is_replay and self.seat_kind(seat) == "local"
            and self.anim is None
        )

    @property
    def thinking(self) -> bool:
        seat = self.match.to_move
        return seat is not None and not self.is_replay and self.seat_kind(seat) == "computer"

    def thinking_ticks(self) -> int:
        seat = self.match.to_move
        if seat is None or not self.thinking or self.anim is not None:
            return 0
        return int(getattr(self.match.seats[seat], "calls", 0))

    def bottom_side(self) -> int:
        if self.mode in ("cpu", "link"):
            return self.human_side
        if not self.rotate:
            return 0
        if self.anim is not None:
            return 1 - self.game.side_to_move
        return self.game.side_to_move if self.game.result is None else 0

    def _draft(self) -> Engine:
        if self.draft is None:
            self.draft = self.game.copy()
            for frm, to in self.draft_steps:
                self.draft.step(frm, to)
        return self.draft

    def _legal(self) -> dict[int, dict[int, Any]]:
        """from -> {to: step} for the draft's legal steps (memoised per draft state)."""
        key = (len(self.game.turns), tuple(self.draft_steps))
        if self._legal_memo is None or self._legal_memo[0] != key:
            table: dict[int, dict[int, Any]] = {}
            for step in self._draft().legal_steps():
                table.setdefault(step.frm, {})[step.to] = step
            self._legal_memo = (key, table)
        return self._legal_memo[1]

    # ------------------------------------------------------------------ input
    def hotspots(self) -> dict[str, pygame.Rect]:
        if self.is_replay:
            if self.stored is None:
                return {}
            return replay_hotspots(layout.REPLAY_RECTS)
        if self.help_page is not None:
            return helppages.hotspots()
        if self.phase == "over" and self.anim is None:
            if self.versus is not None:
                return {"button:back": layout.BACK_RECT}
            return {"button:play-again": layout.PLAY_AGAIN_RECT, "button:back": layout.BACK_RECT}
        side = self.bottom_side()
        spots = {f"square:{square_name(sq)}": layout.square_rect(sq, side) for sq in range(64)}
        if self.phase == "setup":
            spots.update({f"choice:{n}": r for n, r in layout.SETUP_RECTS.items()})
            spots["button:ok"] = layout.OK_RECT
        else:
            spots["button:undo"] = layout.UNDO_RECT
            spots["button:done"] = layout.DONE_RECT
            spots["button:resign"] = layout.RESIGN_RECT
            spots["button:help"] = layout.HELP_RECT
        return spots

    def update(self, inp: InputState) -> None:
        if self.is_replay:
            controls.update_replay(self, inp)
            return
        spots = self.hotspots()
        name = hit(spots, inp)
        if name is not None:
            controls.on_hotspot(self, name)
        elif inp.touch_up and inp.last_touch is not None and self.drag_from is not None:
            controls.on_release(self, inp.last_touch.x, inp.last_touch.y)
        if inp.touch_up:
            self.drag_from = None
        if self.anim is not None and (name is not None or Button.A in inp.pressed):
            self.anim.tick = self.anim.total  # a tap or A skips the animation
        self._advance()

    # ------------------------------------------------------------------ setup and turns
    def _arrangement(self, side: int) -> dict[int, int]:
        if side not in self.arrangement:
            rows = self.last_rows.get(side)
            self.arrangement[side] = (
                placement_of(side, rows) if rows else named_setup(side, "default")
            )
        return self.arrangement[side]

    def _offer(self, action: ArimaaAction) -> None:
        seat = self.match.to_move
        if seat is None:
            return
        source = self.match.seats[seat]
        assert isinstance(source, LocalSeat)
        source.offer(action)

    # ------------------------------------------------------------------ the tick
    def _advance(self) -> None:
        if self.anim is not None:
            self.anim.step()
            if self.anim.done:
                self.anim = None
        for fade in self.fades:
            fade.tick += 1
        self.fades = [f for f in self.fades if not f.done]
        if self.match.over:
            # in versus, record only the end every unit agrees on (rule G8: same final digest)
            if self.result_due(True):
                self._report()
            return
        if self.anim is not None:
            return
        seat = self.match.to_move
        assert seat is not None
        if (
            self.phase == "setup" and self.setup_option != "choose"
            and self.seat_kind(seat) == "local"
        ):
            placement = named_setup(seat, SETUP_NAMES[self.setup_option])
            self._offer(setup_action(seat, placement, self.rules.turn_used()))
        self.rules.tick_clock(1)
        # Each unit's clock is authoritative for its own player: only the unit whose player
        # is to move declares the time out (in link mode the partner's unit does it for its).
        if self.rules.clock_ran_out() and self.seat_kind(seat) != "remote":
            self.match.seats[seat].cancel()
            events = self.match.submit(seat, ArimaaAction("flag", self.rules.turn_used()),
                                       self.seat_kind(seat))
        else:
            before = self.game.position.boards
            events = self.match.step()
            if events:
                self._after_action(seat, before, events)
        if self.match.over:
            if self.result_due(True):
                self._report()
        elif self.match.last_refusal and not events:
            self.notice = self.match.last_refusal
            self.match.last_refusal = None

    def _after_action(self, seat: int, before: Any, events: list[dict[str, Any]]) -> None:
        kind = self.seat_kind(seat)
        steps = [(e["from"], e["to"], -1 if e["captured"] is None else e["captured"][0])
                 for e in events if e["type"] == "step"]
        setup = next((e for e in events if e["type"] == "setup"), None)
        if setup is not None and kind == "local":
            side = setup["seat"]
            self.last_rows[side] = setup_rows(side, self.game.setups[side])
        if steps and kind != "local":
            self.anim = TurnAnimation(before, steps)
            self.ctx.play("place")
        self.draft, self.draft_steps, self.selected = None, [], None
        self.setup_sel, self.notice, self.resign_armed = None, None, False
        self._legal_memo = None

    def _report(self) -> None:
        result = self.game.result
        assert result is not None
        names = self.names(lambda en, ja: en)
        won = outcome(result.winner, self.human_side if self.mode in ("cpu", "link") else None)
        actions = [(p.seat, p.data) for p in self.match.history]
        humans = (self.seat_kind(0) == "local", self.seat_kind(1) == "local")
        record = make_record(self.rules, actions, names, self.mode, humans)
        summary, summary_ja = tx.summaries(
            names, self.names(lambda en, ja: ja), result.winner, result.reason
        )
        boards = self.game.position.boards
        mine = score(boards, self.human_side) if self.mode in ("cpu", "link") else None
        self.record_result(GameResult(won, mine, summary, record, summary_ja))
        self.ctx.play("lose" if won == "loss" else "win")

    # ------------------------------------------------------------------ drawing
    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.ctx.tr
        view = self.top_view(tr)
        self.cached(top, "top", (self.ctx.language, view), lambda s: draw_top(s, view))
        if self.help_page is not None:
            page = self.help_page
            self.cached(bottom, "bottom", ("help", page, self.ctx.language),
                         lambda s: helppages.draw_help(s, tr, page))
            return
        board = self.bottom_view()
        message, warn = self.message()
        still = self.anim is None and not board.fades
        key = (self.ctx.language, board, message, self.phase, self.local_to_move(),
               self.resign_armed, self.replay_index, self.last_rows.get(self.game.side_to_move)
               is not None) if still else None
        self.cached(bottom, "bottom", key, lambda s: self._draw_bottom(s, board, message, warn))

    def _draw_bottom(self, surf: pygame.Surface, board: BottomView, message: str, warn: bool
                     ) -> None:
        tr = self.ctx.tr
        draw_board(surf, board)
        draw_message(surf, message, warn)
        if self.is_replay:
            total = len(self.stored.actions) if self.stored else 0
            draw_replay_panel(surf, self.replay_index == 0, self.replay_index >= total)
            return
        if self.phase == "setup":
            draw_setup_panel(surf, tr, self.game.side_to_move in self.last_rows,
                             self.local_to_move())
            return
        mover = self.game.side_to_move if self.local_to_move() else None
        draft = self._draft() if mover is not None else None
        draw_play_panel(
            surf, tr,
            draft.steps_left if draft is not None else 4,
            bool(self.draft_steps),
            draft is not None and draft.can_end_turn()[0],
            mover if self.phase == "play" else None,
            self.resign_armed,
        )
        if self.phase == "over" and self.anim is None:
            head, reason = self.result_texts(tr)
            draw_result(surf, tr, head, reason, again=self.versus is None)

    # ------------------------------------------------------------------ views (views.py)
    def names(self, tr: tx.Tr) -> tuple[str, str]:
        return views.player_names(self, tr)

    def message(self) -> tuple[str, bool]:
        return views.message(self)

    def result_texts(self, tr: tx.Tr) -> tuple[str, str]:
        return views.result_texts(self, tr)

    def shown_boards(self) -> Any:
        return views.shown_boards(self)

    def bottom_view(self) -> BottomView:
        return views.bottom_view(self)

    def top_view(self, tr: tx.Tr) -> TopView:
        return views.top_view(self, tr)

    # ------------------------------------------------------------------ the record (saved.py)
    _record_data: dict[str, Any] | None = None



def _warm_sprites() -> None:
    """Draw every piece and square picture once at game start (where a pause is invisible),
    so the first swap or step does not pay for it."""
    from games.arimaa.scene import sprites

    for side in (0, 1):
        for kind in range(6):
            for size in (12, 16, 20):
                sprites.piece(side, kind, size)
    for trap in (False, True):
        sprites.square(trap, layout.SQ)
