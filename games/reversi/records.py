"""Finished games as records: saved, listed and replayed move by move (R-REV-HH-4).

A record is plain JSON: the start position, the moves in standard notation, who played
each colour and the result. Loading replays the moves, so a record that does not describe a
legal game, or whose stated result differs from the replayed one, is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.reversi.ggf import GgfGame, format_ggf, parse_ggf, result_text
from games.reversi.rules import BLACK, WHITE, Game, GameDataError, MoveOutcome, Position

RECORD_VERSION = 1


class RecordError(ValueError):
    """Record data that is malformed or inconsistent."""


@dataclass(frozen=True)
class GameRecord:
    """A finished game: moves, players and result."""

    game: Game
    black: str
    white: str
    date: str = ""  # supplied by the caller (ISO 8601), rules code never reads a clock

    @classmethod
    def from_game(cls, game: Game, black: str, white: str, date: str = "") -> GameRecord:
        """Record a finished game (a copy: later changes to `game` do not leak in)."""
        if not game.over:
            raise RecordError("only a finished game can be recorded")
        return cls(Game(game.start, game.moves), black, white, date)

    @property
    def moves(self) -> list[str]:
        """The move list in standard notation."""
        return list(self.game.moves)

    @property
    def winner(self) -> str:
        """ "black", "white" or "draw"."""
        w = self.game.winner
        assert w is not None
        return w

    def final_position(self) -> Position:
        """The position at the end of the game."""
        return self.game.position

    def replay(self) -> Replay:
        """A cursor that steps through the game from its start."""
        return Replay(self)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (the saved form)."""
        score = self.game.score()
        return {
            "version": RECORD_VERSION,
            "game": self.game.to_json(),
            "players": {BLACK: self.black, WHITE: self.white},
            "result": {"winner": self.winner, BLACK: score[BLACK], WHITE: score[WHITE]},
            "date": self.date,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Load saved data; anything malformed or inconsistent raises RecordError."""
        if not isinstance(data, dict):
            raise RecordError("a record must be an object")
        if data.get("version") != RECORD_VERSION:
            raise RecordError(f"unknown record version {data.get('version')!r}")
        try:
            game = Game.from_json(data.get("game"))
        except GameDataError as exc:
            raise RecordError(str(exc)) from None
        players = data.get("players")
        if not isinstance(players, dict) or not all(
            isinstance(players.get(c), str) for c in (BLACK, WHITE)
        ):
            raise RecordError("players must give a name for black and for white")
        date = data.get("date", "")
        if not isinstance(date, str):
            raise RecordError("date must be text")
        if not game.over:
            raise RecordError("the recorded moves do not finish the game")
        record = cls(game, players[BLACK], players[WHITE], date)
        result = data.get("result")
        if result is not None and result != record.to_json()["result"]:
            raise RecordError("the stated result does not match the replayed moves")
        return record

    def to_ggf(self) -> str:
        """The record as a GGF game (for other Othello programs)."""
        tags = {"PC": "Twinfold"}
        if self.date:
            tags["DT"] = self.date
        return format_ggf(GgfGame(self.game, self.black, self.white, result_text(self.game), tags))

    @classmethod
    def from_ggf(cls, text: str) -> GameRecord:
        """A finished game from GGF text."""
        g = parse_ggf(text)
        if not g.game.over:
            raise RecordError("the GGF game is not finished")
        return cls(g.game, g.black, g.white, g.tags.get("DT", ""))


class Replay:
    """Steps through a record: forward plays the next move, back undoes one."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.game = Game(record.game.start)
        self.index = 0  # moves shown so far

    @property
    def at_start(self) -> bool:
        """No move shown yet."""
        return self.index == 0

    @property
    def at_end(self) -> bool:
        """Every move shown."""
        return self.index == len(self.record.game.moves)

    def forward(self) -> MoveOutcome | None:
        """Show the next move (None at the end)."""
        if self.at_end:
            return None
        out = self.game.play(self.record.game.moves[self.index])
        self.index += 1
        return out

    def back(self) -> bool:
        """Undo the last shown move; False at the start."""
        if self.at_start:
            return False
        self.index -= 1
        self.game = Game(self.record.game.start, self.record.game.moves[: self.index])
        return True

    def seek(self, index: int) -> None:
        """Jump to the position after `index` moves (clamped to the game)."""
        self.index = max(0, min(index, len(self.record.game.moves)))
        self.game = Game(self.record.game.start, self.record.game.moves[: self.index])
