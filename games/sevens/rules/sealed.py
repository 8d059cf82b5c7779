"""One seat's knowledge of a game (linked play, R-SEV-HH): its own hand, everyone's counts and
the public table -- never another seat's cards before they are played or killed.

A `SealedGame` is a `Game` whose hooks for "who holds what" answer from that knowledge. The
rules code is the same: the events it produces are the whole game's events, so a sealed
game's public digest equals the dealer's after every action. What it cannot know it is told:
who held the cards a play killed (`victims`, disclosed with the action by the dealer), and
who held the 7 of diamonds and, when the sevens are laid out, each seven (announced at the
start). A pass by another seat cannot be checked here; the dealer's whole game, revealed at
the end, is checked against every event (see games/sevens/match.py, `SevensSealed`).
"""

from __future__ import annotations

from typing import Any

from games.sevens.rules import board
from games.sevens.rules.cards import DECK_SIZE, SEVEN_OF_DIAMONDS, SEVENS, card_name, parse_card
from games.sevens.rules.game import (
    HAND_SIZE,
    SEATS,
    Event,
    Game,
    RecordError,
    RuleError,
    replay_events,
)
from games.sevens.rules.options import Options

UNKNOWN = -1


class SealedGame(Game):
    """A game as seat `seat` knows it."""

    def __init__(
        self, seat: int, hand: list[int], known: dict[int, int], options: Options | None = None
    ) -> None:
        if seat not in range(SEATS):
            raise ValueError(f"a seat is 0..{SEATS - 1}, not {seat!r}")
        if len(set(hand)) != HAND_SIZE or not all(0 <= c < DECK_SIZE for c in hand):
            raise ValueError(f"a sealed game starts with the seat's own {HAND_SIZE} cards")
        self.options = options or Options()
        self.seat = seat
        self.setup = None
        self.initial_hands = [sorted(hand) if s == seat else [] for s in range(SEATS)]
        self.owner = [UNKNOWN] * DECK_SIZE
        for c in hand:
            self.owner[c] = seat
        for c, s in known.items():
            if s not in range(SEATS) or (self.owner[c] == seat) != (s == seat):
                raise ValueError(f"who holds {card_name(c)} contradicts this seat's hand")
            self.owner[c] = s
        if any(self.owner[c] == UNKNOWN for c in announced(self.options)):
            raise ValueError("a sealed game must be told who holds the sevens it starts with")
        self.hands = [board.mask_of(hand) if s == seat else 0 for s in range(SEATS)]
        self.counts = [HAND_SIZE] * SEATS
        self._clear_table()
        self._disclosed: list[int] = []
        self._start()

    @classmethod
    def of(cls, game: Game, seat: int) -> SealedGame:
        """What `seat` knows of the whole `game` now (the dealer builds each seat's view)."""
        if game.setup is not None:
            raise ValueError("only a dealt game can be sealed")
        sealed = cls(seat, game.initial_hands[seat], starting_owners(game), game.options)
        replay_events(sealed, game.events)
        return sealed

    # ------------------------------------------------------------------ knowledge
    def cards_left(self, seat: int) -> int:
        return self.counts[seat]

    def _holds(self, seat: int, card: int) -> bool:
        if seat == self.seat:
            return super()._holds(seat, card)
        return self.owner[card] in (UNKNOWN, seat) and self.counts[seat] > 0

    def _holds_any(self, seat: int) -> bool:
        return self.counts[seat] > 0

    def _could_play(self, seat: int) -> bool:
        # another seat's pass is taken on trust here and checked when the deal is revealed
        return seat == self.seat and super()._could_play(seat)

    def _victim(self, card: int) -> int:
        victim = self._disclosed.pop(0)
        self.owner[card] = victim
        return victim

    def _take(self, seat: int, card: int) -> None:
        self.counts[seat] -= 1
        self.owner[card] = seat
        if seat == self.seat:
            super()._take(seat, card)

    def may_hold(self, seat: int, card: int) -> bool:
        """Whether `seat` can hold `card` as far as this seat knows."""
        return self._holds(seat, card)

    # ------------------------------------------------------------------ actions
    def kills_of(self, card: int) -> list[int]:
        """The cards playing `card` now would kill, in the order the rules report them."""
        bit = board.BIT[card]
        free = board.GRID & ~(self.played | bit) & ~self.killed
        groups = board.kills_after_play(
            bit, free, self.options.max_kill, self.options.effective_three_walls
        )
        return [c for g in groups for c in board.cards_of(g)]

    def check_victims(self, seat: int, card: int, victims: list[int]) -> str | None:
        """Why `victims` cannot be who held the cards `seat` kills by playing `card` (None:
        they can). Checked before anything changes, so a bad disclosure changes nothing."""
        cards = self.kills_of(card)
        if len(victims) != len(cards):
            return f"{card_name(card)} kills {len(cards)} card(s); {len(victims)} owner(s) given"
        left = list(self.counts)
        left[seat] -= 1
        for c, v in zip(cards, victims, strict=True):
            if v not in range(SEATS):
                return f"no seat {v!r}"
            known = self.owner[c]
            if known != UNKNOWN and known != v:
                return f"{card_name(c)} was not seat {v}'s"
            if known == UNKNOWN and v == self.seat:
                return f"{card_name(c)} is not in this seat's hand"
            left[v] -= 1
            if left[v] < 0:
                return f"seat {v} has no card left to lose"
        return None

    def play(self, card: int, victims: list[int] | None = None) -> list[Event]:
        """Play `card` for the seat to move, told who held the cards it kills."""
        seat = self._acting_seat()
        if not (0 <= card < DECK_SIZE) or not self._holds(seat, card):
            raise RuleError(f"seat {seat} does not hold {card_name(card)}")
        if not board.BIT[card] & self.playable_mask():
            raise RuleError(f"{card_name(card)} cannot be played yet")
        reason = self.check_victims(seat, card, list(victims or []))
        if reason is not None:
            raise RuleError(reason)
        self._disclosed = list(victims or [])
        return super().play(card)

    def apply_recorded(self, event: Event, victims: list[int]) -> list[Event]:
        if event.get("type") == "play":
            return self.play(self._card_of(event), victims)
        return self.apply(event)

    # ------------------------------------------------------------------ persistence
    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options.to_json(),
            "seat": self.seat,
            "hand": [card_name(c) for c in self.initial_hands[self.seat]],
            "known": [[card_name(c), s] for c, s in sorted(self._starting_known().items())],
            "events": [dict(e) for e in self.events],
        }

    def _starting_known(self) -> dict[int, int]:
        return {c: self.owner[c] for c in announced(self.options) if self.owner[c] != self.seat}

    @classmethod
    def from_json(cls, data: Any) -> SealedGame:
        """Rebuild a seat's game, replaying its events; ValueError with the reason."""
        if not isinstance(data, dict):
            raise RecordError("a sealed game is a JSON object")
        try:
            options = Options.from_json(data.get("options", {}))
            hand = [parse_card(c) for c in data["hand"]]
            known = {parse_card(c): s for c, s in data["known"]}
            game = cls(data["seat"], hand, known, options)
        except KeyError as exc:
            raise RecordError(f"sealed game is missing {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise RecordError(f"bad sealed game: {exc}") from None
        replay_events(game, data.get("events"))
        return game


def announced(options: Options) -> tuple[int, ...]:
    """The cards whose holders the start announces: the 7 of diamonds (its holder opens),
    and every seven when they are laid out (the layout event names their holders)."""
    return SEVENS if options.sevens_laid_out else (SEVEN_OF_DIAMONDS,)


def starting_owners(game: Game) -> dict[int, int]:
    """Who holds the cards the start announces (the dealer tells each seat)."""
    return {c: game.owner[c] for c in announced(game.options)}
