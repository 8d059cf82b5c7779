"""Twinfold firmware: the fixed-step frame loop, scenes, the game API and storage."""
