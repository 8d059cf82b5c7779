"""Reversi on the handheld: one scene for play (two players on one unit, or against the
computer) and for replaying a stored record move by move.

Operation follows R-REV-OP: an illegal tap changes nothing; all board input is ignored while
discs flip; the hint button cycles none -> placeable -> full; restart resets everything,
hint level included. With hints shown, a first tap on a legal square previews it (R-REV-VIEW-9)
and a second tap on it plays; with hints off a tap plays at once (see docs/games/reversi.md).

The input of a square and of the replay buttons is in `controls.py`, what the screens show
in `views.py`, dump, suspend and resume in `saved.py` (docs/architecture.md, "Inside a game").
"""

from __future__ import annotations

from typing import Any

import pygame

from firmware.game_api import GameContext, GameResult
from firmware.input import InputState
from firmware.match import Event, Match, ReplayCursor, Seat
from firmware.scene import hit
from firmware.turn_game import (
    TurnGame,
    outcome,
    play_seats,
    replay_hotspots,
    start_match,
    thinking_calls,
)
from games.reversi.ai import LEVELS
from games.reversi.match import SEAT_COLORS, ReversiComputer, ReversiRules, seat_of
from games.reversi.records import GameRecord, RecordError
from games.reversi.rules import Game as Board
from games.reversi.scene import controls, layout, saved, views
from games.reversi.scene import texts as tx
from games.reversi.scene.animation import FlipAnimation
from games.reversi.scene.bottom_view import (
    BottomView,
    draw_board,
    draw_buttons,
    draw_replay_buttons,
    draw_result,
    draw_versus_slot,
)
from games.reversi.scene.saved import MODES, history_of
from games.reversi.scene.top_view import TopView, draw_top
from games.reversi.scene.views import other

MIN_THINK_TICKS = 24  # the computer never answers faster than this: its move stays visible
LEVEL_BY_NAME = {lv.name: n for n, lv in LEVELS.items()}


class ReversiScene(TurnGame):
    """Play or replay: one scene whose moves all come through a `Match`. Local seats take
    the player's taps, a computer seat the engine's decisions, replay seats a stored record
    (`record`, a GameRecord JSON, opens the replay viewer)."""

    saves = saved  # dump, suspend and resume (saved.py)

    uses_dpad = False  # the firmware's cursor walks the squares; A taps (P-FW-4)
    draws_thinking = True  # "Thinking..." in the message area, after half a second

    def __init__(self, ctx: GameContext, record: dict[str, Any] | None = None) -> None:
        super().__init__(ctx)
        opts = ctx.options
        self.mode = opts.get("mode", "cpu") if opts.get("mode") in MODES else "cpu"
        self.level = LEVEL_BY_NAME.get(opts.get("level", ""), 3)
        self.human = (
            opts.get("color", "black") if opts.get("color") in ("black", "white") else "black"
        )
        if self.versus is not None:  # a link session: one colour here, the other on a partner
            self.mode, self.human = "versus", SEAT_COLORS[self.versus.seat or 0]
        self.replay: ReplayCursor[str] | None = None
        self.record: GameRecord | None = None
        self.record_data: dict[str, Any] | None = None
        self.record_error: str | None = None
        self._reset()
        if record is not None:
            self._open_record(record)

    # ------------------------------------------------------------------ state changes
    def _seats(self) -> list[Seat[str]]:
        """Local seats for the people at this unit; a computer seat against the computer."""
        computer = (seat_of(other(self.human)),) if self.mode == "cpu" else ()
        return play_seats(self.ctx, 2, self._computer_seat, computer)

    def _computer_seat(self, seat: int) -> Seat[str]:
        """The computer at this game's level (the partner's side, finishing alone)."""
        budget = self.ctx.computer_budget(ReversiComputer.units_per_tick)
        player = ReversiComputer(self.level, self.ai_seed, budget, self.ctx.computer_native)
        return self.ctx.computer_seat(player, MIN_THINK_TICKS)

    def _reset(self) -> None:
        """The initial state of R-REV-STATE, hint level none (R-REV-OP-6)."""
        self.ai_seed = self.ctx.rng.randrange(2**31)  # each game its own (seeded) computer
        # in versus, the partner gone for good: the computer may finish
        self._match: Match[str] = start_match(
            self.ctx, ReversiRules(), self._seats(), self._computer_seat
        )
        self.hint_level = 0
        self.preview: str | None = None
        self.anim: FlipAnimation | None = None
        self.reported = False

    def _open_record(self, data: dict[str, Any]) -> None:
        self.record_data = data
        try:
            record = GameRecord.from_json(data)
        except RecordError as exc:
            self.replay, self.record, self.record_error = None, None, str(exc)
            return
        self.record = record
        actions = [(p.seat, p.data) for p in history_of(record.game)]
        self.replay = ReplayCursor(lambda: ReversiRules(Board(record.game.start)), actions)

    @property
    def match(self) -> Match[str]:
        return self.replay.match if self.replay is not None else self._match

    @property
    def rules(self) -> ReversiRules:
        rules = self.match.rules
        assert isinstance(rules, ReversiRules)
        return rules

    @property
    def game(self) -> Board:
        return self.rules.game

    @property
    def is_replay(self) -> bool:
        return self.record_data is not None

    @property
    def hint_name(self) -> str:
        return tx.HINT_LEVELS[self.hint_level]

    def _seat_kind(self, color: str | None) -> str | None:
        return None if color is None else self.match.seat_kind(seat_of(color))

    def computer_to_move(self) -> bool:
        return self._seat_kind(self.game.turn) == "computer"

    def human_to_move(self) -> bool:
        return self._seat_kind(self.game.turn) == "local" and not self.is_replay

    @property
    def thinking(self) -> bool:
        return not self.is_replay and self.anim is None and self.computer_to_move()

    @property
    def think_calls(self) -> int:
        """Slices the computer has thought for the move it is deciding (0 when idle)."""
        return thinking_calls(self.match)

    def thinking_ticks(self) -> int:
        return self.think_calls if self.thinking else 0

    def _show(self, events: list[Event]) -> None:
        """Animate what the match applied (any seat's move)."""
        for event in events:
            if event.get("type") != "move":
                continue
            self.preview = None
            color = SEAT_COLORS[int(event["seat"])]
            self.anim = FlipAnimation(str(event["square"]), color, list(event["flipped"]))
            self.ctx.play("pass" if event["passed"] is not None else "place")

    # ------------------------------------------------------------------------- input
    def hotspots(self) -> dict[str, pygame.Rect]:
        if self.is_replay:
            if self.replay is None:
                return {}
            return replay_hotspots(layout.REPLAY_RECTS)
        if self.game.over and self.anim is None:
            return {} if self.versus is not None else {"button:play-again": layout.PLAY_AGAIN_RECT}
        spots = {f"square:{sq}": rect for sq, rect in layout.SQUARE_RECTS.items()}
        if self.versus is None:  # a versus match is not restarted alone
            spots["button:restart"] = layout.RESTART_RECT
        spots["button:hint"] = layout.HINT_RECT
        return spots

    def update(self, inp: InputState) -> None:
        if self.is_replay:
            controls.update_replay(self, inp)
            return
        name = hit(self.hotspots(), inp)
        if self.versus is not None and name in ("button:play-again", "button:restart"):
            name = None  # a versus match is not restarted alone (quit from the pause menu)
        if name == "button:play-again" or name == "button:restart":
            self.match.cancel()
            self._reset()
            return
        if name == "button:hint":
            self.hint_level = (self.hint_level + 1) % len(tx.HINT_LEVELS)
            if self.hint_name == "none":
                self.preview = None
        elif name is not None and name.startswith("square:"):
            controls.tap_square(self, name.removeprefix("square:"))
        self._advance()

    def _advance(self) -> None:
        if self.anim is not None:
            self.anim.step()
            if self.anim.done:
                self.anim = None
        if self.anim is not None:
            return
        if self.game.over:
            # in versus, record only the result both units agree on (same final digest)
            if self.result_due(True):
                self._report()
        else:
            self._show(self.match.step())  # a computer's slice, or a remote move arriving

    def _report(self) -> None:
        names = self._names(lambda en, ja: en)
        score, result = self.game.score(), self.rules.result()
        assert result is not None
        me = seat_of(self.human) if self.mode in ("cpu", "versus") else None
        won = outcome(result.winner, me, result.draw)
        record = GameRecord.from_game(self.game, names["black"], names["white"]).to_json()
        summary = f"{names['black']} {score['black']}-{score['white']} {names['white']}"
        ja = self._names(lambda en, ja: ja)
        self.record_result(
            GameResult(
                won,
                score[self.human] if self.mode in ("cpu", "versus") else None,
                summary,
                record,
                summary_ja=f"{ja['black']} {score['black']}-{score['white']} {ja['white']}",
            )
        )
        self.ctx.play("win" if won != "loss" else "lose")

    @property
    def level_name(self) -> str:
        return LEVELS[self.level].name

    # -------------------------------------------------------------------------- view
    def _names(self, tr: tx.Tr | None = None) -> dict[str, str]:
        tr = tr or self.ctx.tr
        if self.record is not None:
            return {"black": self.record.black, "white": self.record.white}
        if self.versus is not None:
            me = self.versus.radio.name
            return {self.human: me, other(self.human): self.versus.partner_name() or "?"}
        return tx.player_names(tr, self.mode, self.human, self.level_name)

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        def tr(en: str, ja: str) -> str:
            return tx.for_screen(self.ctx.tr(en, ja))

        view = self.top_view(tr)
        self.cached(top, "top", (self.ctx.language, repr(view)), lambda s: draw_top(s, tr, view))
        mover = self.game.turn if self.human_to_move() and self.anim is None else None
        key = None
        if self.anim is None:  # a still board: the same state draws the same picture
            rows = tuple(self.game.position.rows())
            ends = (self.replay.at_start, self.replay.at_end) if self.replay else None
            key = (
                self.ctx.language,
                rows,
                mover,
                self.hint_name,
                self.preview,
                ends,
                self.game.moves[-1:],
                self.is_replay,
            )
        self.cached(bottom, "bottom", key, lambda s: self._draw_bottom(s, mover, tr))

    def _draw_bottom(self, bottom: pygame.Surface, mover: str | None, tr: tx.Tr) -> None:
        draw_board(bottom, self.bottom_view(mover))
        if self.is_replay:
            if self.replay is not None:
                draw_replay_buttons(bottom, self.replay.at_start, self.replay.at_end)
            return
        draw_buttons(bottom, tr, self.hint_name)
        if self.versus is not None:  # no restart in versus: the slot names the match instead
            draw_versus_slot(bottom, layout.RESTART_RECT, tr("Versus", "たいせん"))
        if self.game.over and self.anim is None:
            draw_result(bottom, tr, self.game.winner or "draw", self.game.score())
            if self.versus is not None:  # leaving goes through the pause menu (START)
                draw_versus_slot(
                    bottom, layout.PLAY_AGAIN_RECT, tr("START: menu", "START: メニュー")
                )

    # ------------------------------------------------------------------- views (views.py)
    def top_view(self, tr: tx.Tr) -> TopView:
        return views.top_view(self, tr)

    def bottom_view(self, mover: str | None) -> BottomView:
        return views.bottom_view(self, mover)
