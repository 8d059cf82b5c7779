"""The computer opponent for Panel Link (the seed's "thinking routine", S13)."""

from games.panels.ai.player import LEVELS, choose_turn

__all__ = ["LEVELS", "choose_turn"]
