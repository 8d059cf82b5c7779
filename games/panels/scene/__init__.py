"""Panel Link's handheld scene (issue 16): play and replay (play.py), the drawing of its two
screens (top_view.py, bottom_view.py), how to play (help.py). Import the module you mean."""
