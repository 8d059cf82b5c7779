"""Arimaa computer player: evaluation, exact goal detection, sliced alpha-beta search."""
