"""The game itself: deal, turns, plays, passes, kills, going out and the result (R-SEV-PLAY).

`Game` is the single authority on the rules.  Players act through `play(card)` and
`pass_turn()` (or `apply(action)` with a JSON action); everything that follows from an
action -- kills, extra turns, finishing, skipping finished players, the end of the game -- is
resolved inside and reported as plain JSON events appended to `events`.  The whole state
round-trips through `to_json`/`from_json`, so a game can be suspended and resumed exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.sevens.rules import board
from games.sevens.rules.cards import DECK_SIZE, SEVEN_OF_DIAMONDS, SEVENS, card_name, parse_card
from games.sevens.rules.options import Options

SEATS = 4
HAND_SIZE = DECK_SIZE // SEATS

Event = dict[str, Any]
Action = dict[str, Any]


class RuleError(ValueError):
    """An action the rules do not allow now; the game is left unchanged."""


class RecordError(ValueError):
    """A record that cannot be loaded or does not replay to what it claims."""


def deal(rng: random.Random) -> list[list[int]]:
    """Shuffle the deck with the given generator and deal 13 cards to each of 4 seats."""
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    return [sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(SEATS)]


@dataclass(frozen=True)
class Standing:
    """One seat's live figures for the information area (R-SEV-WIN)."""

    seat: int
    cards_left: int
    killed: int
    kills: int
    place: int | None  # 1-based order of going out, None while still playing


class Game:
    """A game of Killing Sevens for four seats."""

    def __init__(self, hands: list[list[int]], options: Options | None = None) -> None:
        self.options = options or Options()
        _check_hands(hands)
        self.setup: dict[str, Any] | None = None
        self.initial_hands: list[list[int]] = [sorted(h) for h in hands]
        self.owner: list[int] = [0] * DECK_SIZE
        for seat, hand in enumerate(hands):
            for c in hand:
                self.owner[c] = seat
        self.hands: list[int] = [board.mask_of(h) for h in hands]
        self._clear_table()
        self._start()

    def _clear_table(self) -> None:
        """An empty table before the first card: nothing played, killed or finished."""
        self.played = 0
        self.killed = 0
        self.killed_count = [0] * SEATS
        self.kills_count = [0] * SEATS
        self.finish_order: list[int] = []
        self.current: int | None = None
        self.opened = False  # the 7 of diamonds is on the table
        self.events: list[Event] = []

    @classmethod
    def new(cls, rng: random.Random, options: Options | None = None) -> Game:
        return cls(deal(rng), options)

    @classmethod
    def from_table(
        cls,
        hands: list[list[int]],
        played: list[int],
        current: int,
        options: Options | None = None,
    ) -> Game:
        """A game from a hand-built middle position (puzzles, tutorials, tests).

        Hands, played cards and nothing else: together they must be the whole deck.  The
        7 of diamonds must be among the played cards; nothing is killed yet (positions that
        would already be dead are not allowed).
        """
        game = cls.__new__(cls)
        game.options = options or Options()
        setup = {"hands": [sorted(h) for h in hands], "played": sorted(played), "current": current}
        game._init_from_table(setup)
        return game

    def _init_from_table(self, setup: dict[str, Any]) -> None:
        hands, played, current = setup["hands"], setup["played"], setup["current"]
        if len(hands) != SEATS:
            raise ValueError(f"a table has {SEATS} hands, not {len(hands)}")
        cards = [c for h in hands for c in h] + list(played)
        if sorted(cards) != list(range(DECK_SIZE)):
            raise ValueError("hands and played cards must together be the deck, once each")
        if SEVEN_OF_DIAMONDS not in played:
            raise ValueError("the 7 of diamonds must already be played")
        if current not in range(SEATS) or not hands[current]:
            raise ValueError("the seat to move must hold cards")
        self.setup = setup
        self.initial_hands = [list(h) for h in hands]
        self.owner = [0] * DECK_SIZE
        for seat, hand in enumerate(hands):
            for c in hand:
                self.owner[c] = seat
        self.hands = [board.mask_of(h) for h in hands]
        self.played = board.mask_of(played)
        self.killed = 0
        self.killed_count = [0] * SEATS
        self.kills_count = [0] * SEATS
        self.finish_order = []
        self.current = current
        self.opened = True
        self.events = [{"type": "start", "seat": current}]
        free = board.GRID & ~self.played
        for b in board.iter_bits(free):
            g = board.component(b, free, self.options.max_kill)
            if g and board.group_is_killed(
                g, self.options.max_kill, self.options.effective_three_walls
            ):
                raise ValueError("the table already has enclosed cards that would be dead")

    # ----------------------------------------------------------------- queries
    @property
    def over(self) -> bool:
        return self.current is None

    def hand(self, seat: int) -> list[int]:
        return board.cards_of(self.hands[seat])

    def cards_left(self, seat: int) -> int:
        return self.hands[seat].bit_count()

    def finished(self, seat: int) -> bool:
        return seat in self.finish_order

    def playable_mask(self) -> int:
        """Positions a card may be played to now (by whoever holds it)."""
        if not self.opened:
            return board.BIT[SEVEN_OF_DIAMONDS]
        return board.playable_positions(self.played, True)

    def is_playable(self, card: int) -> bool:
        """Whether the card's position may be played to now (the yellow/red frame)."""
        return bool(board.BIT[card] & self.playable_mask())

    def legal_cards(self, seat: int | None = None) -> list[int]:
        """Cards the given (default: current) seat could play now."""
        seat = self.current if seat is None else seat
        if seat is None:
            return []
        return board.cards_of(self.hands[seat] & self.playable_mask())

    def legal_actions(self) -> list[Action]:
        if self.current is None:
            return []
        cards = self.legal_cards()
        if not cards:
            return [{"type": "pass"}]
        return [{"type": "play", "card": card_name(c)} for c in cards]

    def standings(self) -> list[Standing]:
        return [
            Standing(
                seat=s,
                cards_left=self.cards_left(s),
                killed=self.killed_count[s],
                kills=self.kills_count[s],
                place=self.finish_order.index(s) + 1 if s in self.finish_order else None,
            )
            for s in range(SEATS)
        ]

    def ranking(self) -> list[int]:
        """Seats best first: fewest killed, then most kills made, then earliest out."""

        def key(s: int) -> tuple[int, int, int]:
            place = self.finish_order.index(s) if s in self.finish_order else SEATS
            return (self.killed_count[s], -self.kills_count[s], place)

        return sorted(range(SEATS), key=key)

    def winner(self) -> int | None:
        return self.ranking()[0] if self.over else None

    # ----------------------------------------------------------------- actions
    def apply(self, action: Action) -> list[Event]:
        """Apply a JSON action ({"type": "play", "card": "7D"} or {"type": "pass"})."""
        if not isinstance(action, dict):
            raise RuleError("an action must be a JSON object")
        kind = action.get("type")
        if kind == "pass":
            if set(action) - {"type", "seat"}:
                raise RuleError("a pass takes no other fields")
            self._check_seat(action)
            return self.pass_turn()
        if kind == "play":
            return self.play(self._card_of(action))
        raise RuleError(f"unknown action type {kind!r}")

    def _card_of(self, action: Action) -> int:
        """The card of a JSON play action, checked (fields, seat, name)."""
        if set(action) - {"type", "seat", "card"}:
            raise RuleError("a play has only the fields type, seat and card")
        self._check_seat(action)
        try:
            return parse_card(action.get("card"))
        except ValueError as exc:
            raise RuleError(str(exc)) from None

    def play(self, card: int) -> list[Event]:
        """The current seat plays a card; returns the events this caused."""
        seat = self._acting_seat()
        if not (0 <= card < DECK_SIZE) or not self._holds(seat, card):
            raise RuleError(f"seat {seat} does not hold {_name(card)}")
        if not board.BIT[card] & self.playable_mask():
            raise RuleError(f"{card_name(card)} cannot be played yet")
        start = len(self.events)
        bit = board.BIT[card]
        self._take(seat, card)
        self.played |= bit
        if card == SEVEN_OF_DIAMONDS:
            self.opened = True
        self.events.append({"type": "play", "seat": seat, "card": card_name(card)})
        free = board.GRID & ~self.played & ~self.killed
        groups = board.kills_after_play(
            bit, free, self.options.max_kill, self.options.effective_three_walls
        )
        for group in groups:
            self._kill(group, seat)
        if not self._holds_any(seat):
            self._finish(seat)
            self._advance(seat)
        elif groups and self.options.extra_turn:
            self.events.append({"type": "extra_turn", "seat": seat})
        else:
            self._advance(seat)
        return self.events[start:]

    def pass_turn(self) -> list[Event]:
        """The current seat passes; allowed only when it has nothing playable."""
        seat = self._acting_seat()
        if self._could_play(seat):
            raise RuleError("passing is allowed only when no card can be played")
        start = len(self.events)
        self.events.append({"type": "pass", "seat": seat})
        self._advance(seat)
        return self.events[start:]

    # ------------------------------------------------ who holds what (SealedGame overrides)
    def _holds(self, seat: int, card: int) -> bool:
        return bool(self.hands[seat] & board.BIT[card])

    def _holds_any(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def _could_play(self, seat: int) -> bool:
        return bool(self.hands[seat] & self.playable_mask())

    def _owner(self, card: int) -> int:
        return self.owner[card]

    def _victim(self, card: int) -> int:
        """Whose card a kill takes (a seat that knows only its own hand is told)."""
        return self.owner[card]

    def _take(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~board.BIT[card]

    def apply_recorded(self, event: Event, victims: list[int]) -> list[Event]:
        """Replay a recorded play or pass; `victims` are the recorded owners of the cards it
        killed (the whole game knows them already; a sealed one is told)."""
        return self.apply(event)

    # ----------------------------------------------------------------- internals
    def _check_seat(self, action: Action) -> None:
        if "seat" in action and action["seat"] != self.current:
            raise RuleError(f"it is not seat {action['seat']!r}'s turn")

    def _acting_seat(self) -> int:
        if self.current is None:
            raise RuleError("the game is over")
        return self.current

    def _start(self) -> None:
        if self.options.sevens_laid_out:
            cards = [c for c in SEVENS]
            seats = [self._owner(c) for c in cards]
            for c, s in zip(cards, seats, strict=True):
                self._take(s, c)
                self.played |= board.BIT[c]
            self.opened = True
            self.events.append(
                {"type": "layout", "cards": [card_name(c) for c in cards], "seats": seats}
            )
        first = self._owner(SEVEN_OF_DIAMONDS)
        self.events.append({"type": "start", "seat": first})
        self._begin_from(first)

    def _kill(self, group: int, killer: int) -> None:
        cards = board.cards_of(group)
        victims = [self._victim(c) for c in cards]
        self.killed |= group
        for c, v in zip(cards, victims, strict=True):
            self._take(v, c)
            self.killed_count[v] += 1
        self.kills_count[killer] += len(cards)
        self.events.append(
            {
                "type": "kill",
                "killer": killer,
                "cards": [card_name(c) for c in cards],
                "victims": victims,
            }
        )

    def _finish(self, seat: int) -> None:
        self.finish_order.append(seat)
        self.events.append({"type": "finish", "seat": seat, "place": len(self.finish_order)})

    def _advance(self, seat: int) -> None:
        self._begin_from((seat + 1) % SEATS)

    def _begin_from(self, seat: int) -> None:
        """Give the turn to the first unfinished seat from `seat` on; a seat whose hand was
        emptied in someone else's turn goes out now, at the start of its own turn."""
        for step in range(SEATS * 2):
            s = (seat + step) % SEATS
            if s in self.finish_order:
                continue
            if not self._holds_any(s):
                self._finish(s)
                continue
            self.current = s
            return
        self.current = None
        self.events.append({"type": "end", "ranking": self.ranking()})

    # ----------------------------------------------------------------- persistence
    def to_json(self) -> dict[str, Any]:
        """The complete state: options, the deal and the events so far."""
        data: dict[str, Any] = {
            "options": self.options.to_json(),
            "hands": [[card_name(c) for c in h] for h in self.initial_hands],
        }
        if self.setup is not None:
            data["played"] = [card_name(c) for c in self.setup["played"]]
            data["current"] = self.setup["current"]
        data["events"] = [dict(e) for e in self.events]
        return data

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """Rebuild a game by replaying its actions; raises ValueError on any inconsistency."""
        return replay(data)


def _name(card: int) -> str:
    return card_name(card) if 0 <= card < DECK_SIZE else repr(card)


def _check_hands(hands: list[list[int]]) -> None:
    if len(hands) != SEATS:
        raise ValueError(f"a deal has {SEATS} hands, not {len(hands)}")
    seen: set[int] = set()
    for h in hands:
        if len(h) != HAND_SIZE:
            raise ValueError(f"each hand has {HAND_SIZE} cards, not {len(h)}")
        for c in h:
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < DECK_SIZE:
                raise ValueError(f"no card {c!r}")
            if c in seen:
                raise ValueError(f"card {card_name(c)} dealt twice")
            seen.add(c)


# ----------------------------------------------------------------- replaying records
# Here rather than in record.py: `Game.from_json` replays, and record.py builds on `Game`.
def replay(data: Any) -> Game:
    """Rebuild the game a record describes, checking every recorded event on the way."""
    if not isinstance(data, dict):
        raise RecordError("a game record must be a JSON object")
    try:
        options = Options.from_json(data.get("options", {}))
        hands = data["hands"]
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            raise RecordError("hands must be a list of lists of cards")
        parsed = [[parse_card(c) for c in h] for h in hands]
        if "played" in data:
            played = [parse_card(c) for c in data["played"]]
            game = Game.from_table(parsed, played, data["current"], options)
        else:
            game = Game(parsed, options)
        events = data["events"]
    except KeyError as exc:
        raise RecordError(f"record is missing {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"bad record: {exc}") from None
    return replay_events(game, events)


def replay_events(game: Game, events: Any) -> Game:
    """Play `events`' plays and passes onto `game`, checking that every other event comes out
    of the rules identically; RecordError (nothing half-loaded) on the first difference."""
    if not isinstance(events, list):
        raise RecordError("events must be a list")
    i = 0
    while i < len(events):
        expected = events[i]
        have = game.events[i] if i < len(game.events) else None
        if have is not None:
            if have != expected:
                raise RecordError(f"event {i} is {expected!r} but the rules give {have!r}")
            i += 1
            continue
        if not isinstance(expected, dict) or expected.get("type") not in ("play", "pass"):
            raise RecordError(f"event {i} ({expected!r}) does not follow from the game")
        try:
            game.apply_recorded(expected, _victims_after(events, i))
        except RuleError as exc:
            raise RecordError(f"event {i}: {exc}") from None
        # the applied action itself is the event just appended; the loop re-checks it
    if len(game.events) != len(events):
        raise RecordError("record ends before the events the last action caused")
    return game


def _victims_after(events: list[Any], i: int) -> list[int]:
    """The recorded victims of the kills that the action at `i` caused (in order)."""
    out: list[int] = []
    for e in events[i + 1 :]:
        if not isinstance(e, dict) or e.get("type") in ("play", "pass"):
            break
        if e.get("type") == "kill" and isinstance(e.get("victims"), list):
            out.extend(v for v in e["victims"] if isinstance(v, int))
    return out
