"""The hint marks on the hand (R-SEV-VIEW-1 with the hint setting on): which of the seat's
cards would kill something if played now, and which of its cards are in danger (one play from
being closed in by someone else). Computed from the seat's own view only."""

from __future__ import annotations

from games.sevens.ai.analysis import survey
from games.sevens.rules import board
from games.sevens.rules.view import SeatView


def hand_marks(view: SeatView) -> dict[int, str]:
    """card -> "kill" (playing it kills others' cards) or "danger"; unmarked cards absent."""
    near = survey(view)
    reach = view.playable_mask()
    marks: dict[int, str] = {}
    for card in board.cards_of(view.hand):
        bit = board.BIT[card]
        if bit & reach:
            killed = 0
            for r, open_, _d in near:
                if open_ == bit:
                    killed |= r
            if killed & ~view.hand:
                marks[card] = "kill"
                continue
        for r, open_, d in near:
            if d == 1 and r & bit and not open_ & view.hand:
                marks[card] = "danger"
                break
    return marks
