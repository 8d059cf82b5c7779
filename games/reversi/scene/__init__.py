"""Reversi on the handheld: the board scene (play.py), the upper and lower screens'
drawing (top_view.py, bottom_view.py), the flip animation and the replay viewer, on top of
the engine in games/reversi/rules and ai. Import the module you mean."""
