"""Reversi on the handheld: the board scene (lower screen), the info screen (upper), the flip
animation and the replay viewer, on top of the engine in games/reversi/rules and ai."""

from games.reversi.scene.play import ReversiScene

__all__ = ["ReversiScene"]
