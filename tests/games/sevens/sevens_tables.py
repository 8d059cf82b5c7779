"""Hand-built tables for the Killing Sevens scenario tests, and the options strategy of its
property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from games.sevens.rules import Game, Options, parse_card
from games.sevens.rules.cards import COLS, DECK_SIZE
from games.sevens.rules.options import MAX_KILL_CHOICES

options_st = st.builds(
    Options,
    max_kill=st.sampled_from(MAX_KILL_CHOICES),
    three_walls=st.booleans(),
    sevens_laid_out=st.booleans(),
    extra_turn=st.booleans(),
)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def rect(r0: int, r1: int, c0: int, c1: int) -> set[int]:
    return {r * COLS + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}


def border(group: set[int]) -> set[int]:
    out = set()
    for c in group:
        r, k = divmod(c, COLS)
        for dr, dk in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, kk = r + dr, k + dk
            if 0 <= rr < 4 and 0 <= kk < COLS and rr * COLS + kk not in group:
                out.add(rr * COLS + kk)
    return out


def table(
    played: set[int] | list[int],
    mover: list[int],
    owners: dict[int, int] | None = None,
    options: Options | None = None,
    current: int = 0,
) -> Game:
    """A game where `played` is on the table and seat `current` holds `mover`; every other
    card goes to the seat given in `owners`, else round-robin to the other seats."""
    owners = dict(owners or {})
    hands: list[list[int]] = [[], [], [], []]
    hands[current].extend(mover)
    others = [s for s in range(4) if s != current]
    i = 0
    played = set(played) | {parse_card("7D")}
    for c in range(DECK_SIZE):
        if c in played or c in mover:
            continue
        if c in owners:
            hands[owners[c]].append(c)
        else:
            hands[others[i % 3]].append(c)
            i += 1
    return Game.from_table(hands, sorted(played), current, options)


def killed_cards(events: list[dict]) -> set[int]:
    return {parse_card(c) for e in events if e["type"] == "kill" for c in e["cards"]}
