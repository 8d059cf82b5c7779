"""Killing Sevens behind the match protocol (issue 10; see docs/games/sevens.md, "Match
protocol").

Seats: 0..3, play goes 0 -> 1 -> 2 -> 3 -> 0 (the engine's seats). Action: a `str`, either a
card in the engine's names (`"7D"`, `"TS"`, `"AH"`) for a play, or `"pass"`. Wire encoding:
the card name's two ASCII bytes (`b"7D"`), or `b"--"` for a pass: always 2 bytes. Digest:
`canonical_digest` of `Game.to_json()` (options, the deal and every event so far: the whole
rules state). Events: the engine's own JSON events (`play`, `kill`, `extra_turn`, `pass`,
`finish`, `end`), each a dict with `"type"`. `public_digest()` covers the options and events
only (no hands): what units that see only their own hand can compare in linked play.

The deal is the match's shared randomness: `SevensRules.new(seed, options)` deals from
`random.Random(f"sevens-deal:{seed}")`, so every unit that knows the seed builds the same
table (the commit-reveal deal of linked play replaces this when the link exists).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Self

from firmware.match import ActionError, Event, MatchResult, canonical_digest
from games.sevens.ai.personalities import PERSONALITIES, make_player
from games.sevens.rules import Game, Options, RuleError, card_name, parse_card, seat_view

PASS = "pass"
PASS_BYTES = b"--"


def deal_rng(seed: int | str) -> random.Random:
    """The generator the deal of match `seed` is drawn from (shared by every unit)."""
    return random.Random(f"sevens-deal:{seed}")


class SevensRules:
    """A Killing Sevens game as a `MatchRules[str]`; `game` is the engine for the scene."""

    game_id: str = "sevens"  # plain attributes (not ClassVar): MatchRules declares them so
    seats: int = 4

    def __init__(self, game: Game) -> None:
        self.game = game

    @classmethod
    def new(cls, seed: int | str, options: Options | None = None) -> SevensRules:
        return cls(Game.new(deal_rng(seed), options))

    def to_move(self) -> int | None:
        return self.game.current

    def legal_actions(self) -> Sequence[str]:
        cards = self.game.legal_cards()
        if self.game.over:
            return []
        return [card_name(c) for c in cards] if cards else [PASS]

    def check(self, seat: int, action: str) -> str | None:
        game = self.game
        if game.over:
            return "the game is over"
        if game.current != seat:
            return "not this seat's turn"
        if not isinstance(action, str):
            return f"{action!r} is not a card or a pass"
        if action == PASS:
            if game.legal_cards():
                return "passing is allowed only when no card can be played"
            return None
        try:
            card = parse_card(action)
        except ValueError as exc:
            return str(exc)
        if action != card_name(card):
            return f"{action!r} is not in the canonical form {card_name(card)!r}"
        if card not in game.hand(seat):
            return f"seat {seat} does not hold {action}"
        if not game.is_playable(card):
            return f"{action} cannot be played yet"
        return None

    def apply(self, seat: int, action: str) -> list[Event]:
        reason = self.check(seat, action)
        if reason is not None:
            raise ActionError(reason)
        try:
            if action == PASS:
                return self.game.pass_turn()
            return self.game.play(parse_card(action))
        except RuleError as exc:  # check() let through what the engine refuses: a bug
            raise ActionError(str(exc)) from None

    def result(self) -> MatchResult | None:
        game = self.game
        if not game.over:
            return None
        ranking = tuple(game.ranking())
        return MatchResult(
            ranking[0], "killed-kills-order", ranking=ranking, scores=tuple(game.killed_count)
        )

    def digest(self) -> str:
        return canonical_digest(self.game.to_json())

    def public_digest(self) -> str:
        """Hex SHA-256 of what every player may know: the options and the events (plays,
        kills with their victims, passes, finishes), not the hands. Units that each hold only
        their own hand (linked play) compare this after every action; the full `digest`
        can be compared once the deal is revealed at the end."""
        game = self.game
        return canonical_digest({"options": game.options.to_json(), "events": game.events})

    def to_json(self) -> dict[str, Any]:
        return self.game.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Self:
        return cls(Game.from_json(data))  # RecordError is a ValueError with the reason

    def encode(self, action: str) -> bytes:
        if action == PASS:
            return PASS_BYTES
        return card_name(parse_card(action)).encode("ascii")

    def decode(self, data: bytes) -> str:
        if data == PASS_BYTES:
            return PASS
        if len(data) != 2:
            raise ActionError("a Killing Sevens action is two bytes: a card like 7D, or --")
        try:
            text = data.decode("ascii")
            card = parse_card(text)
        except (UnicodeDecodeError, ValueError):
            raise ActionError(f"not a card: {data!r}") from None
        if card_name(card) != text:
            raise ActionError(f"not a card in canonical form: {data!r}")
        return text


# Work units (about 1 us of the development machine each, issue 18). A decision is one
# indivisible step: building the seat's view and weighing each playable card, measured at
# 0.1 ms on average and 0.4 ms at worst (bench/sevens.py), so it is counted as a base plus a
# share per candidate card.
DECISION_BASE_UNITS = 60
UNITS_PER_CARD = 30
UNITS_PER_TICK = 4_000  # about 4 ms per in-loop tick: a whole decision always fits


class _Decision:
    """One personality decision: a single step, decided by the first `think` call."""

    def __init__(self, computer: SevensComputer, rules: SevensRules, seat: int) -> None:
        self.computer, self.rules, self.seat = computer, rules, seat
        self.units = 0

    def think(self, budget: int) -> str | None:
        game = self.rules.game
        # A fresh generator per decision, drawn from the seat's seed and the game's length:
        # the choice depends only on the state and the seed (suspend needs nothing saved).
        rng = random.Random(f"{self.computer.seed}:{self.seat}:{len(game.events)}")
        view = seat_view(game, self.seat)
        action = make_player(self.computer.personality, rng).choose(view)
        self.units = DECISION_BASE_UNITS + UNITS_PER_CARD * len(view.legal_cards())
        return PASS if action["type"] == "pass" else str(action["card"])


class SevensComputer:
    """A computer personality for the match layer's computer seat. It sees only the seat's
    `SeatView` (R-SEV-AI), never the other hands. Picklable (a worker process may run it)."""

    units_per_tick = UNITS_PER_TICK

    def __init__(self, personality: str, seed: int | str) -> None:
        if personality not in PERSONALITIES:
            raise ValueError(f"unknown personality {personality!r}")
        self.personality, self.seed = personality, seed

    def start(self, rules: Any, seat: int) -> _Decision:
        assert isinstance(rules, SevensRules)
        return _Decision(self, rules, seat)
