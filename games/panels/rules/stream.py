"""The seeded card and item stream shared by both linked units (R-PAN-FIELD 2, R-PAN-PLAY).

Card number k of a game is a pure function of (game seed, k): it is drawn from
`random.Random(f"panels/{seed}/card/{k}")` (string seeds are hashed with SHA-512, the same on
every platform and Python build). The stream's whole state is therefore one integer, the
index of the next card, which travels in the serialised game state; two units that apply
the same actions draw exactly the same cards.

Distribution of a card (chosen so that chains form, bend and branch, while closing them for
a perfect stays possible):

- number: uniform over 1-5 (each 20%), so same-number pairs are common and 3+ runs rare;
- connector shape, then a uniform orientation (of that shape's distinct rotations):
  one connector (an end cap) 15%, two in a line 20%, two at a corner 25%,
  three (a T) 30%, four (a cross) 10%;
- rainbow: 8% of cards are rainbow cards (owner: nobody); the rest take the drawing
  player's colour.

Items earned during play come from a second stream, `random.Random(f"panels/{seed}/item/{k}")`,
uniform over the item kinds.
"""

from __future__ import annotations

import random

from games.panels.rules.cards import (
    DOWN,
    LEFT,
    MAX_NUMBER,
    MIN_NUMBER,
    RAINBOW,
    RIGHT,
    UP,
    Card,
    rotate_bits,
)

# (base connector bits, weight in percent)
SHAPES: tuple[tuple[int, int], ...] = (
    (UP, 15),  # end cap
    (UP | DOWN, 20),  # straight
    (UP | RIGHT, 25),  # corner
    (UP | RIGHT | DOWN, 30),  # T
    (UP | RIGHT | DOWN | LEFT, 10),  # cross
)
RAINBOW_PERCENT = 8


def card_at(seed: int, index: int, player: int) -> Card:
    """Card number `index` of the stream of game `seed`, drawn by `player`."""
    rng = random.Random(f"panels/{seed}/card/{index}")
    number = rng.randint(MIN_NUMBER, MAX_NUMBER)
    roll = rng.randrange(100)
    base = SHAPES[-1][0]
    for bits, weight in SHAPES:
        if roll < weight:
            base = bits
            break
        roll -= weight
    rotations = sorted({rotate_bits(base, t) for t in range(4)})
    connectors = rotations[rng.randrange(len(rotations))]
    owner = RAINBOW if rng.randrange(100) < RAINBOW_PERCENT else player
    return Card(number, connectors, owner)


def item_at(seed: int, index: int, kinds: tuple[str, ...]) -> str:
    """Item number `index` earned in game `seed` (uniform over `kinds`)."""
    return random.Random(f"panels/{seed}/item/{index}").choice(kinds)


def field_roll(seed: int, count: int) -> int:
    """Which of `count` field shapes game `seed` uses."""
    return random.Random(f"panels/{seed}/field").randrange(count)
