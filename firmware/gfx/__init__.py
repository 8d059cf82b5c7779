"""Drawing helpers for 256x192 panels: palette, the built-in pixel font, widgets, icons."""
