"""Killing Sevens on the handheld: the table and information area (upper screen), the hand,
speech bubbles and dialogs (lower screen), members and options, game over, records and
replays, on top of the engine in games/sevens/rules and ai and the match layer. The scene is
play.py; the screens are drawn by top_view.py and bottom_view.py. Import the module you mean."""
