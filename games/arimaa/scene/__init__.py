"""Arimaa on the handheld (issue 13): the play/replay scene (play.py) and the drawing of its
two screens (top_view.py, bottom_view.py). Import the module you mean."""
