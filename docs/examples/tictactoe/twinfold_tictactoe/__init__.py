"""Tic-tac-toe for Twinfold, installed as a package of its own (docs/game-packages.md)."""
