"""Arimaa on the handheld (issue 13): the play/replay scene and its views."""

from games.arimaa.scene.play import ArimaaScene

__all__ = ["ArimaaScene"]
