"""Killing Sevens records outside the rules: record files (the file side of
games.sevens.rules.record) and a record's match actions, which the scene replays.

The rules stay pure (no I/O, checked by the layer contracts); reading and writing the file
happens here, for the `sevens-game --save` and `sevens-replay` commands.
"""

from __future__ import annotations

from pathlib import Path

from games.sevens.match import PASS, SevensRules
from games.sevens.rules.game import Game
from games.sevens.rules.record import RecordError, record_from_text, record_text


def save_record(path: str | Path, game: Game, seats: list[str] | None = None) -> None:
    """Write the game's record as JSON; OSError propagates for the caller to report."""
    Path(path).write_text(record_text(game, seats), encoding="utf-8")


def load_record(path: str | Path) -> Game:
    """Load and replay a saved record; RecordError with a one-line reason on any problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    return record_from_text(text, str(path))


def replay_actions(game: Game) -> list[tuple[int, bytes]]:
    """The (seat, wire form) of every play and pass of a whole game, in order: what the
    replay's seats feed the match."""
    probe = SevensRules(Game([list(h) for h in game.initial_hands], game.options))
    actions: list[tuple[int, bytes]] = []
    for e in game.events:
        if e["type"] in ("play", "pass"):
            action = e["card"] if e["type"] == "play" else PASS
            actions.append((e["seat"], probe.encode(action)))
    return actions
