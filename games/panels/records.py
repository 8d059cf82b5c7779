"""Stored Panel Link records: the game's configuration, who played it and every match action
in its wire form, so Records replays it turn by turn (`twinfold` stores it as the finished
game's record; the scene writes it at the end and reads it to replay).

A record (JSON) is `{"version": 1, "config": GameConfig, "mode", "level", "names": [...],
"actions": [[seat, hex wire form], ...], "scores": [...], "winner": seat or null}`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware.match import MatchResult, Played
from games.panels.match import Fix, MatchAction, PanelsRules, decode_action
from games.panels.rules import Determine, GameConfig, Pass

RECORD_VERSION = 1


def make_record(
    config: GameConfig,
    mode: str,
    level: int,
    names: list[str],
    history: Sequence[Played],
    result: MatchResult,
) -> dict[str, Any]:
    """The record of a finished game (`history`: the match's, every action in order)."""
    return {
        "version": RECORD_VERSION,
        "config": config.to_json(),
        "mode": mode,
        "level": level,
        "names": names,
        "actions": [[p.seat, p.data.hex()] for p in history],
        "scores": list(result.scores),
        "winner": result.winner,
    }


@dataclass(frozen=True)
class StoredGame:
    """A record read back (its actions are checked by `turn_boundaries`, which replays them)."""

    config: GameConfig
    actions: list[tuple[int, bytes]]  # (seat, wire form)
    mode: str
    level: int


def read_record(data: dict[str, Any]) -> StoredGame:
    """Read a record; KeyError, TypeError or ValueError (the reason) for anything malformed."""
    config = GameConfig.from_json(data["config"])
    actions = [(int(s), bytes.fromhex(str(h))) for s, h in data["actions"]]
    return StoredGame(config, actions, str(data.get("mode", "two")), int(data.get("level", 3)))


def turn_boundaries(config: GameConfig, actions: list[tuple[int, bytes]]) -> list[int]:
    """Action counts at which a turn has ended (0 first): where replay steps stop. Replays
    the actions: ValueError (an ActionError) on one the rules refuse."""
    probe = PanelsRules.new(config)
    out = [0]
    for n, (seat, data) in enumerate(actions, start=1):
        action: MatchAction = decode_action(data)
        probe.apply(seat, action)
        if isinstance(action, Determine | Fix | Pass):
            out.append(n)
    if out[-1] != len(actions):
        out.append(len(actions))
    return out
