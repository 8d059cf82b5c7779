"""The game on the unit: the board on the lower screen (tap a square), who is to move and
the result above. Plays through the match layer: the seats are this unit's player(s), the
computer (`OneShotPlayer`) or, in a versus match, the link session's (`ctx.versus`). A
replay (from the launcher's Records) steps through a stored game with its buttons."""

from __future__ import annotations

from typing import Any

import pygame

from firmware.game_api import Game, GameContext, GameResult, OneShotPlayer
from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.match import LocalSeat, Match, Seat
from firmware.scene import hit
from twinfold_tictactoe.rules import EMPTY, MARKS, TicTacToeRules, random_square

CELL = 48
BOARD = pygame.Rect(128 - CELL * 3 // 2, 18, CELL * 3, CELL * 3)
AGAIN = pygame.Rect(78, 172, 100, 18)
REPLAY_BUTTONS = {  # hotspot names end in "first", "forward", "last" (rule G1)
    "button:first": pygame.Rect(40, 172, 52, 18),
    "button:forward": pygame.Rect(102, 172, 52, 18),
    "button:last": pygame.Rect(164, 172, 52, 18),
}
REPLAY_LABELS = {"button:first": "<<", "button:forward": ">", "button:last": ">>"}


class TicTacToeScene(Game):
    def __init__(self, ctx: GameContext, record: dict[str, Any] | None = None) -> None:
        super().__init__(ctx)
        self.versus = ctx.versus
        self.replay: list[int] | None = None if record is None else list(record["moves"])
        self.shown = 0  # a replay: the moves shown
        self._start()

    def _start(self) -> None:
        seats: list[Seat[int]]
        self.me: int | None = 0  # the seat of this unit's player (None: two players here)
        if self.versus is not None:
            seats, self.me = self.versus.make_seats(), self.versus.seat or 0
        elif self.ctx.options.get("mode") == "two":
            seats, self.me = [LocalSeat(), LocalSeat()], None
        else:
            seats = [LocalSeat(), self.ctx.computer_seat(OneShotPlayer(random_square))]
        self.match: Match[int] = Match(TicTacToeRules(), seats)
        if self.versus is not None:
            self.versus.attach(self.match)
        self.reported = False

    @property
    def rules(self) -> TicTacToeRules:
        if self.replay is not None:
            rules = TicTacToeRules()
            for move in self.replay[: self.shown]:
                rules.apply(rules.to_move() or 0, move)
            return rules
        assert isinstance(self.match.rules, TicTacToeRules)
        return self.match.rules

    # -------------------------------------------------------------------- input
    def hotspots(self) -> dict[str, pygame.Rect]:
        if self.replay is not None:
            return dict(REPLAY_BUTTONS)
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
            if spot == "button:first":
                self.shown = 0
            elif spot == "button:forward":
                self.shown = min(len(self.replay), self.shown + 1)
            elif spot == "button:last":
                self.shown = len(self.replay)
            return
        if spot == "button:play-again":
            self._start()
            return
        seat = self.match.to_move
        local = self.match.seats[seat] if seat is not None else None
        if spot is not None and spot.startswith("square:") and isinstance(local, LocalSeat):
            local.offer(int(spot.split(":")[1]))
        if self.match.step():
            self.ctx.play("move")
        if self.match.over and not self.reported and (self.versus is None or self.versus.agreed):
            self._report()

    def _report(self) -> None:
        self.reported = True
        result = self.match.result()
        winner = None if result is None else result.winner
        moves = [p.data[0] for p in self.match.history]
        outcome: str | None
        if winner is None:
            outcome, en, ja = "draw", "A draw", "ひきわけ"
        else:
            mark = MARKS[winner]
            en, ja = f"{mark} won in {len(moves)} moves", f"{mark} の かち ({len(moves)}て)"
            outcome = None if self.me is None else ("win" if winner == self.me else "loss")
        record = {"moves": moves, "mode": "versus" if self.versus else self.ctx.options["mode"]}
        self.ctx.finish(GameResult(outcome, None, en, record, summary_ja=ja))

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
            return {"replay": self.replay, "shown": self.shown}
        return {"match": self.match.save(), "reported": self.reported}

    def load_state(self, state: dict[str, Any]) -> None:
        try:
            if "replay" in state:
                self.replay, self.shown = [int(m) for m in state["replay"]], int(state["shown"])
                return
            self.match.load(state["match"])
            self.reported = bool(state["reported"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a tic-tac-toe saved game: {exc}") from None
