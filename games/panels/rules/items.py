"""Items (R-PAN-FIELD 3): earned during play, used optionally before placing (S5, S6).

Kinds, the first two named by the seed, the others of our design in the same spirit (each
changes cards, never the score or the field's shape directly):

- `reshuffle` (seed): replace every card in the user's stock with new cards from the stream.
- `renumber` (seed: "change the numbers on cards already placed"): one placed card that is
  the user's colour or a rainbow card gets its number changed by +1 or -1, cyclically within
  1-5 (5+1 -> 1, 1-1 -> 5). Target square and delta are part of the action.
- `swivel` (ours): turn one of the user's placed colour cards 90 degrees clockwise.
- `prism` (ours): one card of the user's stock becomes a rainbow card (number and connectors
  kept), so it may go where colour cards may not and joins anyone's groups.

Changing placed cards never scores by itself: yaku are evaluated only from a newly fixed
card (S8), so an item prepares a placement.

Earning: a placement earns one item when it forms a yaku in a group of three or more
cards, or a perfect of any size; the kind is drawn from the game's item stream (uniform, see
`stream.item_at`). A player holds at most `ITEM_CAPACITY` items; one earned with a full
item field is lost. At most one item may be used per turn, and only while no card is
provisionally placed.
"""

from __future__ import annotations

RESHUFFLE = "reshuffle"
RENUMBER = "renumber"
SWIVEL = "swivel"
PRISM = "prism"
ITEM_KINDS: tuple[str, ...] = (RESHUFFLE, RENUMBER, SWIVEL, PRISM)
ITEM_CAPACITY = 3
EARN_MIN_GROUP = 3


def cycle_number(number: int, delta: int) -> int:
    """`number` + `delta` kept cyclically within 1-5."""
    return (number - 1 + delta) % 5 + 1
