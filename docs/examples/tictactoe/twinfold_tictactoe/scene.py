"""The game on the unit: the board on the lower screen (tap a square), who is to move and
the result above. Built on the firmware's turn-game base (`firmware.turn_game.TurnGame`): the
base makes the seats (this unit's player(s), the computer as a `OneShotPlayer`, or in a
versus match the link session's), records the result once and steps a replay with its
buttons; this file writes only what is Tic-tac-toe's: its input, its views and drawing,
its record and its saved state."""

from __future__ import annotations

from typing import Any

import pygame

from firmware.game_api import GameContext, GameResult, OneShotPlayer
from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.match import Match, ReplayCursor, Seat
from firmware.scene import hit
from firmware.turn_game import (
    TurnGame,
    check_version,
    offer_local,
    outcome,
    replay_hotspots,
    replay_save,
    replay_step,
    save_reader,
)
from twinfold_tictactoe.rules import EMPTY, MARKS, TicTacToeRules, random_square

CELL = 48
BOARD = pygame.Rect(128 - CELL * 3 // 2, 18, CELL * 3, CELL * 3)
AGAIN = pygame.Rect(78, 172, 100, 18)
REPLAY_RECTS = {  # replay commands (rule G1: a forward and a last button)
    "first": pygame.Rect(40, 172, 52, 18),
    "forward": pygame.Rect(102, 172, 52, 18),
    "last": pygame.Rect(164, 172, 52, 18),
}
REPLAY_LABELS = {"button:first": "<<", "button:forward": ">", "button:last": ">>"}
STATE_VERSION = 1


def replay_actions(record: Any) -> list[tuple[int, bytes]]:
    """A record's moves as the match's actions (seat, wire bytes); none from a bad record
    (its replay then shows the empty board: a bad record changes nothing)."""
    moves = record.get("moves") if isinstance(record, dict) else None
    if not isinstance(moves, list) or not all(m in range(9) for m in moves):
        return []
    return [(i % 2, bytes([m])) for i, m in enumerate(moves)]


class TicTacToeScene(TurnGame):
    def __init__(self, ctx: GameContext, record: dict[str, Any] | None = None) -> None:
        super().__init__(ctx)
        self.record_data = record
        self.replay: ReplayCursor[int] | None = None
        self._start()
        if record is not None:
            self._open_record(record)

    def _start(self) -> None:
        """A new game (and "again"): the base makes the seats and wires a versus match."""
        self.me: int | None = 0  # the seat of this unit's player (None: two players here)
        if self.versus is not None:
            self.me = self.versus.seat or 0
        elif self.ctx.options.get("mode") == "two":
            self.me = None
        computer = (1,) if self.me is not None else ()
        self.live: Match[int] = self.new_match(TicTacToeRules(), self._computer, computer)
        self.reported = False

    def _computer(self, seat: int) -> Seat[int]:
        """The computer player (also the one that takes a versus partner's seat if its
        unit is gone for good)."""
        return self.ctx.computer_seat(OneShotPlayer(random_square))

    def _open_record(self, record: Any) -> None:
        self.record_data = record
        self.replay = ReplayCursor(TicTacToeRules, replay_actions(record))

    @property
    def match(self) -> Match[int]:
        """The match shown: the replay's, or the game in play (rule G8)."""
        return self.replay.match if self.replay is not None else self.live

    @property
    def rules(self) -> TicTacToeRules:
        assert isinstance(self.match.rules, TicTacToeRules)
        return self.match.rules

    # -------------------------------------------------------------------- input
    def hotspots(self) -> dict[str, pygame.Rect]:
        if self.replay is not None:
            return replay_hotspots(REPLAY_RECTS)
        if self.match.over:
            return {} if self.versus is not None else {"button:play-again": AGAIN}
        return {
            f"square:{i}": pygame.Rect(BOARD.x + i % 3 * CELL, BOARD.y + i // 3 * CELL, CELL, CELL)
            for i in range(9)
            if self.rules.board[i] == EMPTY
        }

    def update(self, inp: InputState) -> None:
        spot = hit(self.hotspots(), inp)
        if self.replay is not None:
            replay_step(self.replay, spot, inp)
            return
        if spot == "button:play-again":
            self.live.close()
            self._start()
            return
        if spot is not None and spot.startswith("square:"):
            offer_local(self.match, int(spot.split(":")[1]))
        if self.match.step():
            self.ctx.play("move")
        if self.result_due(self.match.over):
            self._report()

    def _report(self) -> None:
        result = self.match.result()
        assert result is not None
        moves = [p.data[0] for p in self.match.history]
        if result.winner is None:
            en, ja = "A draw", "ひきわけ"
        else:
            mark = MARKS[result.winner]
            en, ja = f"{mark} won in {len(moves)} moves", f"{mark} の かち ({len(moves)}て)"
        record = {"moves": moves, "mode": "versus" if self.versus else self.ctx.options["mode"]}
        won = outcome(result.winner, self.me, result.draw)
        self.record_result(GameResult(won, None, en, record, summary_ja=ja))

    # --------------------------------------------------------------------- draw
    def status(self) -> str:
        tr, rules = self.ctx.tr, self.rules
        result = rules.result()
        if result is not None:
            if result.winner is None:
                return tr("A draw", "ひきわけ")
            mark = MARKS[result.winner]
            if self.me is None or self.replay is not None:
                return tr(f"{mark} wins", f"{mark} の かち")
            return tr("You won", "あなたの かち") if result.winner == self.me else tr(
                "You lost", "あなたの まけ")
        mark = MARKS[rules.to_move() or 0]
        return tr(f"{mark} to move", f"{mark} の ばん")

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.ctx.tr
        widgets.background(top)
        title = tr("Tic-tac-toe", "まるばつ")
        if self.replay is not None:
            title = tr("Replay", "リプレイ")
        text.draw(top, title, (128, 10), pal.ACCENT, align="center", shadow=pal.OUTLINE)
        text.draw(top, self.status(), (128, 96), pal.TEXT, scale=2, align="center",
                  shadow=pal.OUTLINE)
        widgets.background(bottom)
        pygame.draw.rect(bottom, pal.PANEL, BOARD)
        for k in (1, 2):
            x, y = BOARD.x + k * CELL, BOARD.y + k * CELL
            pygame.draw.line(bottom, pal.TEXT_DIM, (x, BOARD.top), (x, BOARD.bottom - 1), 2)
            pygame.draw.line(bottom, pal.TEXT_DIM, (BOARD.left, y), (BOARD.right - 1, y), 2)
        for i, seat in enumerate(self.rules.board):
            centre = (BOARD.x + i % 3 * CELL + CELL // 2, BOARD.y + i // 3 * CELL + CELL // 2)
            if seat == 0:
                for dx in (-14, 14):
                    pygame.draw.line(bottom, pal.ACCENT, (centre[0] - dx, centre[1] - 14),
                                     (centre[0] + dx, centre[1] + 14), 4)
            elif seat == 1:
                pygame.draw.circle(bottom, pal.TEAL, centre, 15, 4)
        for name, rect in self.hotspots().items():
            if name == "button:play-again":
                widgets.button(bottom, rect, tr("Again", "もういちど"))
            elif name in REPLAY_LABELS:
                widgets.button(bottom, rect, REPLAY_LABELS[name])

    # ----------------------------------------------------------- dump and save
    def dump(self) -> dict[str, Any]:
        return {"board": list(self.rules.board), "to_move": self.rules.to_move()}

    def save_state(self) -> dict[str, Any]:
        if self.replay is not None:
            return replay_save(STATE_VERSION, self.record_data, self.replay.index)
        return {"version": STATE_VERSION, "mode": "play", "match": self.live.save(),
                "reported": self.reported}

    def load_state(self, state: dict[str, Any]) -> None:
        with save_reader("a tic-tac-toe save"):
            if check_version(state, STATE_VERSION)["mode"] == "replay":
                self._open_record(state["record"])
                assert self.replay is not None
                self.replay.seek(int(state["index"]))
                return
            self.live.load(state["match"])
            self.reported = bool(state["reported"])
