"""Reversi (Othello rules): rules, computer players, records and the NBoard engine mode."""
