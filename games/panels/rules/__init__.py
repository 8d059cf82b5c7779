"""Panel Link rules: pure Python, no I/O. The API a scene or link layer uses is re-exported here."""

from games.panels.rules.actions import (
    Action,
    Back,
    Determine,
    Pass,
    Place,
    Rotate,
    Select,
    UseItem,
    action_to_json,
    parse_action,
)
from games.panels.rules.cards import DOWN, LEFT, RAINBOW, RIGHT, UP, Card
from games.panels.rules.combination import Yaku, evaluate, find_groups
from games.panels.rules.field import Field
from games.panels.rules.game import GameConfig, GameState, IllegalAction

__all__ = [
    "DOWN",
    "LEFT",
    "RAINBOW",
    "RIGHT",
    "UP",
    "Action",
    "Back",
    "Card",
    "Determine",
    "Field",
    "GameConfig",
    "GameState",
    "IllegalAction",
    "Pass",
    "Place",
    "Rotate",
    "Select",
    "UseItem",
    "Yaku",
    "action_to_json",
    "evaluate",
    "find_groups",
    "parse_action",
]
