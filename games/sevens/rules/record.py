"""Game records: the deal, the options and every event, saved as JSON and replayed exactly.

Only plays and passes are replayed as actions; every other recorded event (kills, extra
turns, finishes, the end) must come out of the rules identically, which makes a record
self-checking: an edited or corrupted record is refused with a message, never half-loaded.
"""

from __future__ import annotations

import json
from typing import Any

from games.sevens.rules.cards import parse_card
from games.sevens.rules.game import Game, RuleError
from games.sevens.rules.options import Options

RECORD_FORMAT = "twinfold-sevens-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A record that cannot be loaded or does not replay to what it claims."""


def record_of(game: Game, seats: list[str] | None = None) -> dict[str, Any]:
    """The game's record as a JSON-serialisable object (seats: names or personalities)."""
    data: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION}
    if seats is not None:
        data["seats"] = list(seats)
    data.update(game.to_json())
    return data


def replay(data: Any) -> Game:
    """Rebuild the game a record describes, checking every recorded event on the way."""
    if not isinstance(data, dict):
        raise RecordError("a game record must be a JSON object")
    try:
        options = Options.from_json(data.get("options", {}))
        hands = data["hands"]
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            raise RecordError("hands must be a list of lists of cards")
        parsed = [[parse_card(c) for c in h] for h in hands]
        if "played" in data:
            played = [parse_card(c) for c in data["played"]]
            game = Game.from_table(parsed, played, data["current"], options)
        else:
            game = Game(parsed, options)
        events = data["events"]
    except KeyError as exc:
        raise RecordError(f"record is missing {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"bad record: {exc}") from None
    return replay_events(game, events)


def replay_events(game: Game, events: Any) -> Game:
    """Play `events`' plays and passes onto `game`, checking that every other event comes out
    of the rules identically; RecordError (nothing half-loaded) on the first difference."""
    if not isinstance(events, list):
        raise RecordError("events must be a list")
    i = 0
    while i < len(events):
        expected = events[i]
        have = game.events[i] if i < len(game.events) else None
        if have is not None:
            if have != expected:
                raise RecordError(f"event {i} is {expected!r} but the rules give {have!r}")
            i += 1
            continue
        if not isinstance(expected, dict) or expected.get("type") not in ("play", "pass"):
            raise RecordError(f"event {i} ({expected!r}) does not follow from the game")
        try:
            game.apply_recorded(expected, _victims_after(events, i))
        except RuleError as exc:
            raise RecordError(f"event {i}: {exc}") from None
        # the applied action itself is the event just appended; the loop re-checks it
    if len(game.events) != len(events):
        raise RecordError("record ends before the events the last action caused")
    return game


def _victims_after(events: list[Any], i: int) -> list[int]:
    """The recorded victims of the kills that the action at `i` caused (in order)."""
    out: list[int] = []
    for e in events[i + 1 :]:
        if not isinstance(e, dict) or e.get("type") in ("play", "pass"):
            break
        if e.get("type") == "kill" and isinstance(e.get("victims"), list):
            out.extend(v for v in e["victims"] if isinstance(v, int))
    return out


def record_text(game: Game, seats: list[str] | None = None) -> str:
    """The record as the JSON text a record file holds (files: games.sevens.record_files)."""
    return json.dumps(record_of(game, seats), ensure_ascii=False, indent=1)


def record_from_text(text: str, source: str) -> Game:
    """Parse and replay a record's JSON text; `source` names it in the one-line RecordError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source} is not JSON ({exc.msg}, line {exc.lineno})") from None
    return replay(data)
