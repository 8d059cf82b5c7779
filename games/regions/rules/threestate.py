"""The seed's three-state rule (R-REG-VAR-1, paragraph 0039) and its solving by search.

States A, B, C. Selecting a point turns every touching region in B or C into A, and one in
A into B or C. The seed gives two ways to choose between B and C:

- **alternating** ("B A C A B A C A"): each region remembers where it went last time, so a
  region's life is the cycle A -> B -> A -> C -> A. We store its *phase* 0..3 (0 = A about to
  go to B, 1 = B, 2 = A about to go to C, 3 = C); a selection adds one (mod 4).
- **random**: B or C by a coin drawn from the puzzle's seed, region and how often that region
  has left A before (`coin`), so both units of a race and every replay agree, and the
  sender of a selection cannot choose the outcome.

The goal is "every region in the goal state". Whether a start can reach it is not a
question over GF(2) any more (the phase of a region, not only A / not A, decides where it
goes), so it is settled by a breadth-first search: `PhaseSearch` walks backwards from every
goal state over all 4^n phase vectors and records each state's distance to the goal; a start
is offered only if its distance is known, and a hint is any selection that lowers the
distance by one. The search runs in slices (`run(budget)`) so no frame waits for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

A, B, C = 0, 1, 2
LETTERS = "ABC"
GOALS_BY_NAME = {"A": A, "B": B, "C": C}
MAX_REGIONS = 8  # 4^8 = 65,536 phase vectors: the largest surface offered with this rule
UNKNOWN = 255
PHASE_OF_STATE = (0, 1, 3)  # a start in A, B, C: its phase (A starts about to go to B)


def state_of_phase(phase: int) -> int:
    """A, B or C for a phase 0..3."""
    return (A, B, A, C)[phase & 3]


def coin(seed: int, region: int, leaves: int) -> int:
    """B or C for region's `leaves`-th departure from A under the random rule."""
    digest = hashlib.sha256(f"regions:{seed}:{region}:{leaves}".encode()).digest()
    return B if digest[0] & 1 == 0 else C


def pack(phases: Sequence[int]) -> int:
    """Phase vector as an int: two bits per region, region 0 lowest."""
    out = 0
    for r, ph in enumerate(phases):
        out |= (ph & 3) << (2 * r)
    return out


def unpack(code: int, regions: int) -> tuple[int, ...]:
    return tuple((code >> (2 * r)) & 3 for r in range(regions))


def advance(code: int, low: int) -> int:
    """Every region in `low` (mask of its low bits) one phase on: +1 mod 4 per field."""
    return code ^ low ^ ((code & low) << 1)


def retreat(code: int, low: int) -> int:
    """The inverse of `advance`: -1 mod 4 per field."""
    return code ^ low ^ ((~code & low) << 1)


class PhaseSearch:
    """Distances to the goal of every phase vector of a surface (alternating rule).

    `touches[p]` are the regions point p switches; only `selectable` points are used.
    Build it, then call `run(budget)` until it returns True (each call expands at most
    `budget` states), or `finish()` to do it at once.
    """

    def __init__(
        self,
        touches: Sequence[frozenset[int]],
        selectable: Sequence[int],
        regions: int,
        goal: int,
    ) -> None:
        if not 1 <= regions <= MAX_REGIONS:
            raise ValueError(f"the three-state search takes 1..{MAX_REGIONS} regions")
        if goal not in (A, B, C):
            raise ValueError("the goal is A, B or C")
        self.regions = regions
        self.goal = goal
        self.points = tuple(selectable)
        self.lows = tuple(sum(1 << (2 * r) for r in touches[p]) for p in self.points)
        self.dist = bytearray([UNKNOWN]) * (4**regions)
        self.queue: list[int] = list(self._goal_states())
        for s in self.queue:
            self.dist[s] = 0
        self.head = 0

    def _goal_states(self) -> list[int]:
        n = self.regions
        if self.goal == A:  # phase 0 or 2 in every region: any high bits, no low bits
            return sorted(
                sum(((mask >> r) & 1) << (2 * r + 1) for r in range(n)) for mask in range(1 << n)
            )
        phase = 1 if self.goal == B else 3
        return [pack([phase] * n)]

    @property
    def done(self) -> bool:
        return self.head >= len(self.queue)

    def run(self, budget: int) -> bool:
        """Expand at most `budget` states; True once every distance is known."""
        dist, queue, lows = self.dist, self.queue, self.lows
        left = max(1, budget)
        while left and self.head < len(queue):
            s = queue[self.head]
            self.head += 1
            left -= 1
            d = dist[s] + 1
            for low in lows:
                t = s ^ low ^ ((~s & low) << 1)  # retreat: t advances to s
                if dist[t] == UNKNOWN:
                    dist[t] = d
                    queue.append(t)
        return self.done

    def finish(self) -> PhaseSearch:
        while not self.run(1 << 16):
            pass
        return self

    def distance(self, phases: Sequence[int]) -> int | None:
        d = self.dist[pack(phases)]
        return None if d == UNKNOWN else d

    def hint(self, phases: Sequence[int]) -> int | None:
        """A point of a shortest solution from `phases` (the lowest such), or None."""
        code = pack(phases)
        d = self.dist[code]
        if d in (0, UNKNOWN):
            return None
        for p, low in zip(self.points, self.lows, strict=True):
            if self.dist[advance(code, low)] == d - 1:
                return p
        raise AssertionError("a distance without a step toward the goal")

    def solution(self, phases: Sequence[int]) -> list[int]:
        """A shortest sequence of selections (points may repeat) from `phases` to the goal."""
        out: list[int] = []
        cur = tuple(phases)
        while True:
            p = self.hint(cur)
            if p is None:
                return out
            low = self.lows[self.points.index(p)]
            cur = unpack(advance(pack(cur), low), self.regions)
            out.append(p)
