"""Killing Sevens rules: pure Python, no I/O.  See docs/games/sevens.md."""

from games.sevens.rules.cards import card_label, card_name, parse_card, position
from games.sevens.rules.game import SEATS, Game, RuleError, Standing, deal
from games.sevens.rules.options import MAX_KILL_CHOICES, Options
from games.sevens.rules.record import (
    RecordError,
    record_from_text,
    record_of,
    record_text,
    replay,
)
from games.sevens.rules.tally import MemberTotals, Tally
from games.sevens.rules.view import HandCard, SeatView, seat_view

__all__ = [
    "MAX_KILL_CHOICES",
    "SEATS",
    "Game",
    "HandCard",
    "MemberTotals",
    "Options",
    "RecordError",
    "RuleError",
    "SeatView",
    "Standing",
    "Tally",
    "card_label",
    "card_name",
    "deal",
    "parse_card",
    "position",
    "record_from_text",
    "record_of",
    "record_text",
    "replay",
    "seat_view",
]
