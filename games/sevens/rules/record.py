"""Game records: the deal, the options and every event, saved as JSON and replayed exactly.

Only plays and passes are replayed as actions; every other recorded event (kills, extra
turns, finishes, the end) must come out of the rules identically, which makes a record
self-checking: an edited or corrupted record is refused with a message, never half-loaded.
The replaying itself (`replay`, `replay_events`, `RecordError`) lives in game.py beside
`Game.from_json`, which is built on it; it is re-exported here.
"""

from __future__ import annotations

import json
from typing import Any

from games.sevens.rules.game import Game, RecordError, replay, replay_events

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RecordError",
    "record_from_text",
    "record_of",
    "record_text",
    "replay",
    "replay_events",
]

RECORD_FORMAT = "twinfold-sevens-record"
RECORD_VERSION = 1


def record_of(game: Game, seats: list[str] | None = None) -> dict[str, Any]:
    """The game's record as a JSON-serialisable object (seats: names or personalities)."""
    data: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION}
    if seats is not None:
        data["seats"] = list(seats)
    data.update(game.to_json())
    return data


def record_text(game: Game, seats: list[str] | None = None) -> str:
    """The record as the JSON text a record file holds (files: games.sevens.records)."""
    return json.dumps(record_of(game, seats), ensure_ascii=False, indent=1)


def record_from_text(text: str, source: str) -> Game:
    """Parse and replay a record's JSON text; `source` names it in the one-line RecordError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source} is not JSON ({exc.msg}, line {exc.lineno})") from None
    return replay(data)
