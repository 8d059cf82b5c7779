"""Killing Sevens on the handheld: the table and information area (upper screen), the hand,
speech bubbles and dialogs (lower screen), members and options, game over, records and
replays, on top of the engine in games/sevens/rules and ai and the match layer."""

from games.sevens.scene.play import SevensScene

__all__ = ["SevensScene"]
