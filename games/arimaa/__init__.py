"""Arimaa: rules engine, computer player and AEI engine (issue 4)."""
