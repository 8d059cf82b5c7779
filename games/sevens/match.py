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
table. Linked play is sealed (no unit but the host sees a hand before it is played): the host
deals `deal_for_link(seed)` from a seed only it knows until the end, and each guest plays on
`SevensSealed`, its seat's view (see "Linked play" in docs/games/sevens.md).

Sealed actions: the view's action is the card name or `"pass"`, followed, when the play
killed cards, by `>` and the seat that held each killed card in the order of the kill
events (`"8D>21"`: the play killed two cards, seat 2's then seat 1's). Its wire form is the
2 bytes above plus the disclosure: a count byte and the seats packed four to a byte.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Self

from firmware.match import ActionError, Event, MatchResult, canonical_digest
from games.sevens.ai.personalities import PERSONALITIES, make_player
from games.sevens.rules import Game, Options, RuleError, card_name, parse_card, seat_view
from games.sevens.rules.sealed import SealedGame

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
            if self._could_play(seat):
                return "passing is allowed only when no card can be played"
            return None
        try:
            card = parse_card(action)
        except ValueError as exc:
            return str(exc)
        if action != card_name(card):
            return f"{action!r} is not in the canonical form {card_name(card)!r}"
        if not self._may_hold(seat, card):
            return f"seat {seat} does not hold {action}"
        if not game.is_playable(card):
            return f"{action} cannot be played yet"
        return None

    def _could_play(self, seat: int) -> bool:
        return bool(self.game.legal_cards(seat))

    def _may_hold(self, seat: int, card: int) -> bool:
        return card in self.game.hand(seat)

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

    # the sealed game of linked play (firmware.match.SealedRules)
    def sealed_view(self, seat: int) -> SevensSealed:
        return SevensSealed(SealedGame.of(self.game, seat))

    def disclosure(self, events: list[Event]) -> bytes:
        """Who held each card the action killed (a view cannot know)."""
        return pack_victims([v for e in events if e["type"] == "kill" for v in e["victims"]])

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


def deal_for_link(seed: int, options: Options | None = None) -> SevensRules:
    """The deal of a linked game: the host deals it, each guest deals it again at the end
    (from the revealed seed) to check the host's game."""
    return SevensRules.new(f"link:{seed}", options)


def pack_victims(victims: list[int]) -> bytes:
    """A disclosure: nothing when nothing was killed, else the count and 2 bits a seat."""
    if not victims:
        return b""
    packed = bytearray((len(victims) + 3) // 4)
    for i, v in enumerate(victims):
        packed[i // 4] |= (v & 3) << (2 * (i % 4))
    return bytes([len(victims)]) + bytes(packed)


def unpack_victims(data: bytes) -> list[int]:
    if not data:
        return []
    count = data[0]
    if count == 0 or len(data) != 1 + (count + 3) // 4:
        raise ActionError("a disclosure is a count and the seats, 2 bits each")
    victims = [(data[1 + i // 4] >> (2 * (i % 4))) & 3 for i in range(count)]
    if pack_victims(victims) != data:
        raise ActionError("a disclosure's unused bits must be zero")
    return victims


class SevensSealed(SevensRules):
    """One guest's view of a linked game: its own hand, the others' counts, the table. Its
    `digest()` is the public digest, equal to the host's `public_digest()`."""

    game: SealedGame

    def __init__(self, game: SealedGame) -> None:
        super().__init__(game)

    def legal_actions(self) -> Sequence[str]:
        """What this seat may propose on its turn (another seat's options are hidden)."""
        if self.game.current != self.game.seat:
            return []
        return super().legal_actions()

    def check(self, seat: int, action: str) -> str | None:
        """The whole game's checks as far as this seat can make them (another seat's pass
        is taken on trust until the end), and the disclosed victims'."""
        if not isinstance(action, str):
            return super().check(seat, action)
        move, sep, told = action.partition(">")
        if not all(ch in "0123" for ch in told) or (sep and not told):
            return f"{action!r}: the victims are seat digits after '>'"
        reason = super().check(seat, move)
        if reason is not None or move == PASS:
            return reason or ("a pass kills nothing" if told else None)
        return self.game.check_victims(seat, parse_card(move), [int(ch) for ch in told])

    def _could_play(self, seat: int) -> bool:
        return seat == self.game.seat and super()._could_play(seat)

    def _may_hold(self, seat: int, card: int) -> bool:
        return self.game.may_hold(seat, card)

    def apply(self, seat: int, action: str) -> list[Event]:
        reason = self.check(seat, action)
        if reason is not None:
            raise ActionError(reason)
        move, _, told = action.partition(">")
        try:
            if move == PASS:
                return self.game.pass_turn()
            return self.game.play(parse_card(move), [int(ch) for ch in told])
        except RuleError as exc:
            raise ActionError(str(exc)) from None

    def digest(self) -> str:
        return self.public_digest()

    @classmethod
    def from_json(cls, data: Any) -> Self:
        return cls(SealedGame.from_json(data))

    def encode(self, action: str) -> bytes:
        move, _, told = action.partition(">")
        return super().encode(move) + pack_victims([int(ch) for ch in told])

    def decode(self, data: bytes) -> str:
        move = super().decode(data[:2])
        victims = unpack_victims(data[2:])
        return f"{move}>{''.join(map(str, victims))}" if victims else move

    def plain(self, data: bytes) -> bytes:
        return data[:2]

    def unseal(self, full: Any) -> str | None:
        """Check the host's whole game (replayed here from the revealed deal)."""
        if not isinstance(full, SevensRules) or isinstance(full, SevensSealed):
            return "not a whole Killing Sevens game"
        seat = self.game.seat
        if full.game.initial_hands[seat] != self.game.initial_hands[seat]:
            return "the revealed deal gives this seat another hand"
        if full.game.options != self.game.options:
            return "the revealed game has other options"
        if full.public_digest() != self.public_digest():
            return "the revealed game's plays, kills or passes differ from what was announced"
        return None


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
