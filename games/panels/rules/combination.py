"""Combined groups and yaku, evaluated from a newly fixed card (R-PAN-COMB, R-PAN-YAKU; S51-S62).

Definitions implemented here (where the seed leaves room, the choice and its reason):

*Combined.* Cards on orthogonally adjacent squares are combined when both have a connector
on their shared side and both count for the evaluating player P: P's colour cards and
rainbow cards. Opponent colour cards never combine, even when connectors meet (seed text
after FIG. 35), and a rainbow card does not bridge P's cards to an opponent's (evaluation
only walks P's and rainbow cards, seed S8). P is the player who fixed the new card.

*Combined group.* The new card's connectors are taken in the order up, right, down, left
(S52). For a connector whose neighbour is combined with the new card, the group is the new
card plus every card reachable from that neighbour through combined pairs *without passing
through the new card*. So a card joining two pairs from left and right yields two two-card
groups (FIG. 30/31), and in FIG. 34/35 each side group takes the card combined below it
(two three-card groups). Groups may bend and branch.

*Found twice.* If a later connector leads into a group already found (the new card closes a
loop), that group is not evaluated again: a group is evaluated once, for every yaku. This is
the seed's stated alternative for same number/sequence ("it may be determined ... that there
is only one same number combination") and its rule for rings; we apply it to all yaku so
that one set of cards never scores the same yaku twice. FIG. 36/37 therefore scores one
ring and one four-card same-number combination.

*Same number.* Every card of the group shows the same number (any shape, FIG. 12).

*Sequence.* The group is a simple path that starts at the new card (the new card is one end,
no card has more than two combined neighbours inside the group, no loop), and the numbers
along it step by +1 at every step or by -1 at every step (S56: "sequential numbers starting
from the number on the most-recently placed card"; FIG. 13: it may bend). A branching group
has no single order, so it is never a sequence. With numbers 1-5 a sequence has 2-5 cards.

*Ring (encompassing).* The group contains a cycle through the new card, i.e. two or more of
the new card's connectors lead into the same group (FIG. 10, 14). Counted once per group
(the seed's rule for the two directions around one ring).

*Perfect.* No connector of any card in the group is unconnected: every connector of every
group card faces a card it is combined with (for the new card, a connector combined into a
different group also counts as connected). Facing an empty or unusable square, the field
edge, a card without the matching connector or an opponent colour card leaves it unconnected.

*Points* (R-PAN-SCORE, S9): same number, sequence and ring give 10 points per card of the
group each; perfect gives 20 points per card. A group may form several yaku at once
(same number + ring + perfect, FIG. 37).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.panels.rules.cards import DIRECTION_NAMES, OPPOSITE, RAINBOW, Card
from games.panels.rules.field import Field, square_from_json

SAME_NUMBER = "same_number"
SEQUENCE = "sequence"
RING = "ring"
PERFECT = "perfect"
YAKU_KINDS: tuple[str, ...] = (SAME_NUMBER, SEQUENCE, RING, PERFECT)
POINTS_PER_CARD = {SAME_NUMBER: 10, SEQUENCE: 10, RING: 10, PERFECT: 20}
NAME_TO_DIRECTION = {v: k for k, v in DIRECTION_NAMES.items()}


@dataclass(frozen=True, slots=True)
class Yaku:
    """One yaku formed: its kind, the connector of the new card it was found from, the cards."""

    kind: str
    direction: int
    squares: tuple[tuple[int, int], ...]  # the group's squares, new card first

    @property
    def cards(self) -> int:
        return len(self.squares)

    @property
    def points(self) -> int:
        return POINTS_PER_CARD[self.kind] * len(self.squares)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "direction": DIRECTION_NAMES[self.direction],
            "squares": [list(s) for s in self.squares],
            "points": self.points,
        }

    @classmethod
    def from_json(cls, data: Any) -> Yaku:
        if not isinstance(data, dict) or data.get("kind") not in YAKU_KINDS:
            raise ValueError(f"bad yaku entry: {data!r}")
        if not isinstance(data.get("direction"), str) or data["direction"] not in NAME_TO_DIRECTION:
            raise ValueError(f"bad yaku direction: {data.get('direction')!r}")
        squares = data.get("squares")
        if not isinstance(squares, list) or len(squares) < 2:
            raise ValueError("a yaku needs the squares of at least two cards")
        return cls(
            data["kind"],
            NAME_TO_DIRECTION[data["direction"]],
            tuple(square_from_json(s) for s in squares),
        )


def _counts(card: Card, player: int) -> bool:
    return card.owner == player or card.owner == RAINBOW


def combined_links(fld: Field, index: int, player: int) -> list[tuple[int, int]]:
    """(direction, neighbour index) of every card combined with the card at `index` for P."""
    cells = fld.cells
    card = cells[index]
    if card is None or not _counts(card, player):
        return []
    out = []
    for d, j in fld.neighbours[index]:
        if card.connectors & d:
            other = cells[j]
            if other is not None and other.connectors & OPPOSITE[d] and _counts(other, player):
                out.append((d, j))
    return out


def find_groups(fld: Field, index: int, player: int) -> list[tuple[int, list[int]]]:
    """The combined groups of the new card at `index`: (direction, [new, members...]).

    Members after the new card are in breadth-first order from the connector's neighbour.
    """
    cells = fld.cells
    neighbours = fld.neighbours
    groups: list[tuple[int, list[int]]] = []
    claimed: set[int] = {index}
    for d, j in combined_links(fld, index, player):
        if j in claimed:
            continue  # this connector leads into a group already found (a loop)
        order = [j]
        claimed.add(j)
        head = 0
        while head < len(order):
            i = order[head]
            head += 1
            card = cells[i]
            assert card is not None
            conn = card.connectors
            for d2, k in neighbours[i]:
                if k in claimed or not conn & d2:
                    continue
                other = cells[k]
                if (
                    other is not None
                    and other.connectors & OPPOSITE[d2]
                    and (other.owner == player or other.owner == RAINBOW)
                ):
                    claimed.add(k)
                    order.append(k)
        groups.append((d, [index, *order]))
    return groups


def evaluate(fld: Field, index: int, player: int) -> list[Yaku]:
    """All yaku formed by the card just fixed at `index` by `player`, in evaluation order."""
    cells = fld.cells
    new_card = cells[index]
    if new_card is None:
        raise ValueError("no card on the evaluated square")
    result: list[Yaku] = []
    for direction, members in find_groups(fld, index, player):
        member_set = set(members)
        links: dict[int, list[int]] = {}
        perfect = True
        number: dict[int, int] = {}  # each member square's card number
        for i in members:
            card = cells[i]
            assert card is not None
            number[i] = card.number
            linked = combined_links(fld, i, player)
            if len(linked) != bin(card.connectors).count("1"):
                perfect = False
            links[i] = [k for _, k in linked if k in member_set]
        squares = tuple(fld.square(i) for i in members)
        numbers = [number[i] for i in members]
        found: list[str] = []
        if all(n == numbers[0] for n in numbers):
            found.append(SAME_NUMBER)
        if _is_sequence(members, links, number):
            found.append(SEQUENCE)
        if len(links[index]) >= 2:
            found.append(RING)
        if perfect:
            found.append(PERFECT)
        result.extend(Yaku(kind, direction, squares) for kind in found)
    return result


def _is_sequence(members: list[int], links: dict[int, list[int]], number: dict[int, int]) -> bool:
    start = members[0]
    if len(links[start]) != 1:
        return False
    edge_count = sum(len(v) for v in links.values()) // 2
    if edge_count != len(members) - 1 or any(len(v) > 2 for v in links.values()):
        return False
    step = number[links[start][0]] - number[start]
    if step not in (1, -1):
        return False
    prev, cur = start, links[start][0]
    while True:
        nxt = [k for k in links[cur] if k != prev]
        if not nxt:
            return True
        if number[nxt[0]] - number[cur] != step:
            return False
        prev, cur = cur, nxt[0]


def points(yaku: list[Yaku]) -> int:
    return sum(y.points for y in yaku)
