"""What one seat may see (R-SEV-VIEW, R-SEV-AI): the only input of a computer player and of
a remote unit's screen.

A `SeatView` holds the seat's own hand, the table (played and killed positions, with the
victim of every killed card), everyone's public counts, whose turn it is and the public
event log (plays, passes, kills, finishes -- all announced at the table).  Other players'
hands are never in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.sevens.rules import board
from games.sevens.rules.cards import SEVEN_OF_DIAMONDS, card_name, parse_card, position
from games.sevens.rules.game import SEATS, Game, Standing
from games.sevens.rules.options import Options


@dataclass(frozen=True)
class HandCard:
    """A hand card as the hand area shows it: where it goes and the frame colour."""

    card: int
    row: int
    column: int
    playable: bool  # yellow frame when True, red when False


@dataclass(frozen=True)
class SeatView:
    seat: int
    options: Options
    hand: int  # bitmask of the seat's own cards
    played: int  # bitmask of played positions
    killed: int  # bitmask of killed positions
    victims: tuple[tuple[int, int], ...]  # (card, seat whose card it was), in kill order
    cards_left: tuple[int, ...]
    killed_count: tuple[int, ...]
    kills_count: tuple[int, ...]
    finish_order: tuple[int, ...]
    current: int | None
    opened: bool
    events: tuple[dict[str, Any], ...]

    @property
    def unknown(self) -> int:
        """Positions whose cards are in other players' hands."""
        return board.GRID & ~self.played & ~self.killed & ~self.hand

    def playable_mask(self) -> int:
        if not self.opened:
            return board.BIT[SEVEN_OF_DIAMONDS]
        return board.playable_positions(self.played, True)

    def legal_cards(self) -> list[int]:
        if self.current != self.seat:
            return []
        return board.cards_of(self.hand & self.playable_mask())

    def hand_cards(self) -> list[HandCard]:
        """Each hand card with its table position and whether it may be played now."""
        reach = self.playable_mask()
        out = []
        for c in board.cards_of(self.hand):
            row, col = position(c)
            out.append(HandCard(c, row, col, bool(board.BIT[c] & reach)))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "options": self.options.to_json(),
            "hand": [card_name(c) for c in board.cards_of(self.hand)],
            "played": [card_name(c) for c in board.cards_of(self.played)],
            "killed": [[card_name(c), v] for c, v in self.victims],
            "cards_left": list(self.cards_left),
            "killed_count": list(self.killed_count),
            "kills_count": list(self.kills_count),
            "finish_order": list(self.finish_order),
            "current": self.current,
            "opened": self.opened,
            "events": [dict(e) for e in self.events],
        }

    @classmethod
    def from_json(cls, data: Any) -> SeatView:
        """Rebuild a view sent over the link; ValueError with a reason if it is malformed."""
        try:
            return cls._from_json(data)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed seat view ({type(exc).__name__}: {exc})") from None

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> SeatView:
        def seat_no(v: Any, what: str, allow_none: bool = False) -> Any:
            if v is None and allow_none:
                return None
            if not isinstance(v, int) or isinstance(v, bool) or v not in range(SEATS):
                raise ValueError(f"{what} must be a seat number 0..3, not {v!r}")
            return v

        def counts(v: Any, what: str) -> tuple[int, ...]:
            if not isinstance(v, list) or len(v) != SEATS:
                raise ValueError(f"{what} must be a list of {SEATS} numbers")
            if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v):
                raise ValueError(f"{what} must be a list of {SEATS} numbers")
            return tuple(v)

        def card_list(v: Any, what: str) -> list[int]:
            if not isinstance(v, list):
                raise ValueError(f"{what} must be a list of cards")
            return [parse_card(c) for c in v]

        victims = []
        for item in data["killed"]:
            if not isinstance(item, list) or len(item) != 2:
                raise ValueError("killed must list [card, seat] pairs")
            victims.append((parse_card(item[0]), seat_no(item[1], "a victim")))
        events = data["events"]
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise ValueError("events must be a list of objects")
        finish = data["finish_order"]
        if not isinstance(finish, list):
            raise ValueError("finish_order must be a list of seats")
        opened = data["opened"]
        if not isinstance(opened, bool):
            raise ValueError("opened must be true or false")
        return cls(
            seat=seat_no(data["seat"], "seat"),
            options=Options.from_json(data["options"]),
            hand=board.mask_of(card_list(data["hand"], "hand")),
            played=board.mask_of(card_list(data["played"], "played")),
            killed=board.mask_of(c for c, _ in victims),
            victims=tuple(victims),
            cards_left=counts(data["cards_left"], "cards_left"),
            killed_count=counts(data["killed_count"], "killed_count"),
            kills_count=counts(data["kills_count"], "kills_count"),
            finish_order=tuple(seat_no(s, "finish_order entry") for s in finish),
            current=seat_no(data["current"], "current", allow_none=True),
            opened=opened,
            events=tuple(events),
        )

    def standings(self) -> list[Standing]:
        return [
            Standing(
                seat=s,
                cards_left=self.cards_left[s],
                killed=self.killed_count[s],
                kills=self.kills_count[s],
                place=self.finish_order.index(s) + 1 if s in self.finish_order else None,
            )
            for s in range(SEATS)
        ]


def seat_view(game: Game, seat: int) -> SeatView:
    """The view of `seat`: everything public plus its own hand, nothing else."""
    victims: list[tuple[int, int]] = []
    for e in game.events:
        if e["type"] == "kill":
            victims.extend(
                (parse_card(c), v) for c, v in zip(e["cards"], e["victims"], strict=True)
            )
    return SeatView(
        seat=seat,
        options=game.options,
        hand=game.hands[seat],
        played=game.played,
        killed=game.killed,
        victims=tuple(victims),
        cards_left=tuple(game.cards_left(s) for s in range(SEATS)),
        killed_count=tuple(game.killed_count),
        kills_count=tuple(game.kills_count),
        finish_order=tuple(game.finish_order),
        current=game.current,
        opened=game.opened,
        events=tuple(dict(e) for e in game.events),
    )
