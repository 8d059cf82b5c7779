"""Panel Link's handheld scene: play, replay, how to play (issue 16)."""

from games.panels.scene.play import PanelsScene

__all__ = ["PanelsScene"]
