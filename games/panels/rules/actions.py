"""Explicit, serialisable actions of the turn machine (R-PAN-TURN).

Every operation a player can make is one of these; the handheld scene builds them from
touches and the link layer sends them as JSON. Each carries the acting player's index so a
remote unit can check turn order. `parse_action` turns JSON into an action or raises
ValueError with a one-line reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.panels.rules.field import square_from_json


@dataclass(frozen=True, slots=True)
class Select:
    """Select stock card `stock` (0-based); selecting another switches the selection."""

    player: int
    stock: int


@dataclass(frozen=True, slots=True)
class Place:
    """Provisionally place the selected card on `square`, or move the provisional card there."""

    player: int
    square: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Rotate:
    """Turn the provisionally placed card 90 degrees clockwise (touching it, S38-S40)."""

    player: int


@dataclass(frozen=True, slots=True)
class Back:
    """The back button: take back the provisional card, else drop the selection."""

    player: int


@dataclass(frozen=True, slots=True)
class Determine:
    """The determine button: fix the provisional placement and evaluate yaku (S34, S8-S10)."""

    player: int


@dataclass(frozen=True, slots=True)
class UseItem:
    """Use item `slot`; `square`, `delta`, `stock` are the item's target (see items.py)."""

    player: int
    slot: int
    square: tuple[int, int] | None = None
    delta: int | None = None
    stock: int | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn; allowed only when no stock card can go on any square."""

    player: int


Action = Select | Place | Rotate | Back | Determine | UseItem | Pass

_TYPES: dict[str, type] = {
    "select": Select,
    "place": Place,
    "rotate": Rotate,
    "back": Back,
    "determine": Determine,
    "use_item": UseItem,
    "pass": Pass,
}
_NAMES = {v: k for k, v in _TYPES.items()}
#: the actions that carry nothing but the player
_PLAYER_ONLY: dict[str, Callable[[int], Action]] = {
    "rotate": Rotate,
    "back": Back,
    "determine": Determine,
    "pass": Pass,
}


def action_to_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": _NAMES[type(action)], "player": action.player}
    if isinstance(action, Select):
        out["stock"] = action.stock
    elif isinstance(action, Place):
        out["square"] = list(action.square)
    elif isinstance(action, UseItem):
        out["slot"] = action.slot
        if action.square is not None:
            out["square"] = list(action.square)
        if action.delta is not None:
            out["delta"] = action.delta
        if action.stock is not None:
            out["stock"] = action.stock
    return out


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"action field {key!r} must be an integer: {value!r}")
    return value


def _optional_int(data: dict[str, Any], key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key)


def parse_action(data: Any) -> Action:
    """An action from its JSON form; ValueError with a clear reason when malformed."""
    if not isinstance(data, dict):
        raise ValueError("an action must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        raise ValueError(f"unknown action type {kind!r} (known: {', '.join(_TYPES)})")
    player = _int(data, "player")
    if kind == "select":
        return Select(player, _int(data, "stock"))
    if kind == "place":
        return Place(player, square_from_json(data.get("square")))
    if kind == "use_item":
        square = data.get("square")
        return UseItem(
            player,
            _int(data, "slot"),
            None if square is None else square_from_json(square),
            _optional_int(data, "delta"),
            _optional_int(data, "stock"),
        )
    return _PLAYER_ONLY[kind](player)
