"""Stored Arimaa records: the game in standard notation plus the match actions, so Records
replays it action by action and `twinfold arimaa-export` writes it as a move list that the
`aei` package's tools (`analyze`, `pyrimaa.board`) read.

A record (JSON) is `{"format": "arimaa-record-1", "record": "1g Ra1 ...\\n1s ...",
"actions": [[seat, hex wire form], ...], "control": notation or null, "names": [gold,
silver], "mode", "result": {"winner", "reason"}, "setups": [[back, front] rows per side],
"humans": [gold is a person, silver is a person]}`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.arimaa.match import ArimaaRules
from games.arimaa.rules import Game
from games.arimaa.rules.board import KIND_LETTERS
from games.arimaa.rules.notation import NotationError, parse_record, write_record

FORMAT = "arimaa-record-1"


class RecordError(ValueError):
    """A stored record that cannot be read; the message says why."""


def rows_of(side: int, placement: dict[int, int]) -> tuple[str, str]:
    """A setup as (back row, front row) letters from file a to h, the side's own view."""
    back, front = (0, 1) if side == 0 else (7, 6)
    return (
        "".join(KIND_LETTERS[placement[back * 8 + f]] for f in range(8)),
        "".join(KIND_LETTERS[placement[front * 8 + f]] for f in range(8)),
    )


def placement_of(side: int, rows: tuple[str, str] | list[str]) -> dict[int, int]:
    """The inverse of `rows_of` (ValueError on anything malformed)."""
    back_rank, front_rank = (0, 1) if side == 0 else (7, 6)
    back, front = rows
    if len(back) != 8 or len(front) != 8:
        raise ValueError("a setup row has 8 letters")
    out = {}
    for f in range(8):
        out[back_rank * 8 + f] = KIND_LETTERS.index(back[f].upper())
        out[front_rank * 8 + f] = KIND_LETTERS.index(front[f].upper())
    return out


def make_record(
    rules: ArimaaRules, actions: list[tuple[int, bytes]], names: tuple[str, str], mode: str,
    humans: tuple[bool, bool],
) -> dict[str, Any]:
    game = rules.game
    result = game.result
    return {
        "format": FORMAT,
        "record": write_record(game),
        "actions": [[seat, data.hex()] for seat, data in actions],
        "control": None if game.time_control is None else game.time_control.notation(),
        "names": list(names),
        "mode": mode,
        "result": None if result is None else result.to_json(),
        "setups": [list(rows_of(side, s)) for side, s in enumerate(game.setups)],
        "humans": list(humans),
    }


@dataclass(frozen=True)
class StoredGame:
    """A record read back: the actions to replay and what is shown about the game."""

    control: str | None
    actions: tuple[tuple[int, bytes], ...]
    names: tuple[str, str]
    text: str

    def fresh_rules(self) -> ArimaaRules:
        return ArimaaRules.new(self.control)


def read_record(data: Any) -> StoredGame:
    """Check a stored record by replaying it; RecordError says what is wrong."""
    try:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("not an Arimaa record")
        control = data.get("control")
        actions = tuple((int(seat), bytes.fromhex(str(h))) for seat, h in data["actions"])
        names = tuple(str(n) for n in data.get("names", ("Gold", "Silver")))
        rules = ArimaaRules.new(control)
        for seat, wire in actions:
            rules.apply(seat, rules.decode(wire))
        if write_record(rules.game) != data["record"]:
            raise RecordError("the actions and the notation disagree")
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"damaged record: {exc}") from None
    return StoredGame(control, actions, (names[0], names[1]), data["record"])


def export_text(data: Any) -> str:
    """The record as a move list (`1g Ra1 ...` a line, then the label of the turn that
    would follow), which `pyrimaa.analyze` and `pyrimaa.board` read."""
    stored = read_record(data)
    game = parse_record(stored.text)
    return stored.text + ("\n" if stored.text else "") + game.turn_label + "\n"


def game_from_text(text: str) -> Game:
    try:
        return parse_record(text)
    except NotationError as exc:
        raise RecordError(str(exc)) from None
