"""Who plays and under which rules: the members and options dialogs' model (R-SEV-VIEW-4/6).

The cartridge's options (`seat1`..`seat3`, `max_kill`, `three_walls`, `sevens_first`,
`extra_turn`, `hints`, `bubbles`) default to `last`: the choice remembered from the last game
(stored by the game), or the seed's default when nothing is stored yet. Seat 0 is always a
person. When any seat is left at `last`, the game opens with the members dialog.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from games.sevens.ai.personalities import NAMES_EN, NAMES_JA, PERSONALITIES
from games.sevens.rules import MAX_KILL_CHOICES, Options

LAST = "last"
SEAT_CHOICES = (*PERSONALITIES, "random", "human")
BUBBLE_SPEEDS = ("slow", "normal", "fast")
SETUP_KEY = "setup"  # the game's stored data: the last members and options
TALLY_KEY = "tally"  # cumulative results until reset

# Reading time of a speech bubble: ticks = base + per_char * characters (60 ticks = 1 s).
BUBBLE_TIMING = {"slow": (100, 5.0), "normal": (60, 3.0), "fast": (30, 1.5)}


@dataclass(frozen=True)
class Setup:
    """The members of seats 1..3 and the options; JSON round trip for the store."""

    seats: tuple[str, ...] = ("cool", "hitman", "coward")
    max_kill: int = 9
    three_walls: bool = False
    sevens_first: bool = False
    extra_turn: bool = False
    hints: bool = True
    bubbles: str = "normal"

    def __post_init__(self) -> None:
        if len(self.seats) != 3 or any(s not in SEAT_CHOICES for s in self.seats):
            raise ValueError(f"seats 1-3 are each one of {', '.join(SEAT_CHOICES)}")
        Options(max_kill=self.max_kill)  # validates the maximum
        if self.bubbles not in BUBBLE_SPEEDS:
            raise ValueError(f"bubble speed is one of {', '.join(BUBBLE_SPEEDS)}")

    @property
    def rules(self) -> Options:
        return Options(self.max_kill, self.three_walls, self.sevens_first, self.extra_turn)

    @property
    def humans(self) -> int:
        return 1 + sum(s == "human" for s in self.seats)

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "max_kill": self.max_kill,
            "three_walls": self.three_walls,
            "sevens_first": self.sevens_first,
            "extra_turn": self.extra_turn,
            "hints": self.hints,
            "bubbles": self.bubbles,
        }

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        if not isinstance(data, dict):
            raise ValueError("a setup is an object")
        try:
            seats = data["seats"]
            if not isinstance(seats, list):
                raise ValueError("seats must be a list")
            out = cls(
                seats=tuple(seats),
                max_kill=data["max_kill"],
                three_walls=_flag(data["three_walls"]),
                sevens_first=_flag(data["sevens_first"]),
                extra_turn=_flag(data["extra_turn"]),
                hints=_flag(data["hints"]),
                bubbles=data["bubbles"],
            )
        except KeyError as exc:
            raise ValueError(f"a setup needs {exc.args[0]}") from None
        return out

    # -------------------------------------------------------------- dialog steps
    def cycle_seat(self, index: int) -> Setup:
        seats = list(self.seats)
        seats[index] = SEAT_CHOICES[(SEAT_CHOICES.index(seats[index]) + 1) % len(SEAT_CHOICES)]
        return replace(self, seats=tuple(seats))

    def cycle(self, key: str) -> Setup:
        if key == "max_kill":
            i = MAX_KILL_CHOICES.index(self.max_kill)
            return replace(self, max_kill=MAX_KILL_CHOICES[(i + 1) % len(MAX_KILL_CHOICES)])
        if key == "bubbles":
            i = BUBBLE_SPEEDS.index(self.bubbles)
            return replace(self, bubbles=BUBBLE_SPEEDS[(i + 1) % len(BUBBLE_SPEEDS)])
        if key == "three_walls":
            return replace(self, three_walls=not self.three_walls)
        if key == "sevens_first":
            return replace(self, sevens_first=not self.sevens_first)
        if key == "extra_turn":
            return replace(self, extra_turn=not self.extra_turn)
        if key == "hints":
            return replace(self, hints=not self.hints)
        raise ValueError(f"no option {key!r}")


OPTION_KEYS = ("max_kill", "three_walls", "sevens_first", "extra_turn", "hints", "bubbles")


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("an on/off option must be true or false")
    return value


def from_options(options: dict[str, str], stored: Any, mode: str) -> tuple[Setup, bool]:
    """The setup the cartridge options give, `last` filled from the stored setup; and
    whether the members dialog opens first (some seat left at `last`)."""
    try:
        base = Setup.from_json(stored) if stored is not None else None
    except (ValueError, TypeError):
        base = None  # a damaged stored setup is replaced by the defaults, never trusted
    if base is None:
        base = Setup(seats=("human", "cool", "hitman")) if mode == "two" else Setup()
    seats = list(base.seats)
    ask = False
    for i in range(3):
        value = options.get(f"seat{i + 1}", LAST)
        if value == LAST:
            ask = True
        else:
            seats[i] = value
    values: dict[str, Any] = {"seats": tuple(seats)}
    for key in OPTION_KEYS:
        value = options.get(key, LAST)
        if value == LAST:
            continue
        if key == "max_kill":
            values[key] = int(value)
        elif key == "bubbles":
            values[key] = value
        else:
            values[key] = value == "on"
    return replace(base, **values), ask


def resolve_members(setup: Setup, rng: random.Random) -> list[str]:
    """The four seats' kinds for one game: seat 0 a person, `random` drawn from rng."""
    out = ["human"]
    for s in setup.seats:
        out.append(rng.choice(PERSONALITIES) if s == "random" else s)
    return out


def shown_name(name: str, lang_ja: bool) -> str:
    """A name a record keeps (`member_names` in English) in the language shown."""
    if not lang_ja:
        return name
    base, mark, number = name.partition(" #")
    english = {NAMES_EN[k]: NAMES_JA[k] for k in NAMES_EN}
    ja = "あなた" if base == "You" else english.get(base)
    seat = base.removeprefix("Player ")
    if ja is None and seat != base and seat.isdigit():
        ja = f"プレイヤー{seat}"
    return (ja or base) + mark + number


def member_names(
    members: list[str], lang_ja: bool = False, units: list[str] | None = None
) -> list[str]:
    """Names shown at the table: `You` alone against computers, else `Player n`; a person
    at another unit by its radio name (`units`, seat order; linked play); the personalities
    by name, numbered when one appears twice (tallies need distinct names)."""
    humans = sum(m == "human" for m in members)
    names: list[str] = []
    for seat, kind in enumerate(members):
        if kind == "remote" and units and seat < len(units) and units[seat]:
            name = units[seat]
        elif kind == "remote":  # a person at another unit (linked play)
            name = f"プレイヤー{seat + 1}" if lang_ja else f"Player {seat + 1}"
        elif kind == "human":
            if humans == 1:
                name = "あなた" if lang_ja else "You"
            else:
                name = f"プレイヤー{seat + 1}" if lang_ja else f"Player {seat + 1}"
        else:
            name = (NAMES_JA if lang_ja else NAMES_EN)[kind]
        names.append(name)
    for seat, name in enumerate(names):
        same = [s for s in range(seat) if names[s].split(" #")[0] == name]
        if same:
            names[seat] = f"{name} #{len(same) + 1}"
    return names
