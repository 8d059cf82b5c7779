"""Twinfold firmware: the fixed-step frame loop, scenes, the game API and storage."""

import os

# pygame prints a banner on import unless told not to; the firmware's output is its own.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
