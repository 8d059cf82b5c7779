"""Solving Region Select: linear algebra over GF(2) and over Z/k (R-REG-PLAY-4, R-REG-HELP).

Selecting point p adds its touch vector to the region states, so a solution is a vector x
(how often each point is selected, mod k) with sum_p x_p * touch_p = goal - start (mod k).
Over GF(2) vectors are bit masks and elimination is on ints; for Z/k the touch matrix is
brought to diagonal form with unimodular row and column operations (a Smith-style reduction).
The solution set is a coset of the kernel, which is small (dimension 2 for a knot shadow),
so the shortest solution is found by enumerating it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from math import gcd

MAX_KERNEL_ENUMERATION = 1 << 16


class Unsolvable(ValueError):
    """The pattern (or some pattern) cannot be cleared with the selectable points."""


@dataclass(frozen=True)
class GF2System:
    """Row-reduced touch masks of the selectable points (bit r = region r)."""

    basis: tuple[tuple[int, int], ...]  # (reduced mask, combination of points), by pivot
    kernel: tuple[int, ...]  # point combinations that change nothing
    regions: int

    @property
    def rank(self) -> int:
        return len(self.basis)

    @property
    def solves_everything(self) -> bool:
        return self.rank == self.regions

    def particular(self, target: int) -> int | None:
        """Some point combination whose touches XOR to target, or None."""
        combo = 0
        for mask, points in self.basis:
            if target ^ mask < target:
                target ^= mask
                combo ^= points
        return combo if target == 0 else None

    def shortest(self, target: int) -> int:
        """A solution with the fewest selections (ties: the lexicographically smallest)."""
        start = self.particular(target)
        if start is None:
            raise Unsolvable("this pattern cannot be cleared with the selectable points")
        if len(self.kernel) > 16:
            raise Unsolvable("too many redundant points to search for a shortest solution")
        best = start
        best_key = (start.bit_count(), _bits_key(start))
        for choice in range(1, 1 << len(self.kernel)):
            combo = start
            for i, k in enumerate(self.kernel):
                if choice >> i & 1:
                    combo ^= k
            key = (combo.bit_count(), _bits_key(combo))
            if key < best_key:
                best, best_key = combo, key
        return best


def _bits_key(combo: int) -> tuple[int, ...]:
    return tuple(i for i in range(combo.bit_length()) if combo >> i & 1)


def gf2_system(touch_masks: Sequence[int], selectable: Sequence[int], regions: int) -> GF2System:
    """Eliminate the touch masks of the selectable points."""
    pivots: dict[int, tuple[int, int]] = {}
    kernel: list[int] = []
    for p in selectable:
        mask, combo = touch_masks[p], 1 << p
        while mask:
            top = mask.bit_length() - 1
            if top not in pivots:
                pivots[top] = (mask, combo)
                break
            pmask, pcombo = pivots[top]
            mask ^= pmask
            combo ^= pcombo
        else:
            kernel.append(combo)
    basis = tuple(pivots[b] for b in sorted(pivots, reverse=True))
    return GF2System(basis, tuple(kernel), regions)


def points_of(combo: int) -> list[int]:
    return [i for i in range(combo.bit_length()) if combo >> i & 1]


# --- Z/k -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModSystem:
    """Diagonal form D = U A V of the region x point touch matrix A, for solving mod k."""

    modulus: int
    diag: tuple[int, ...]
    u: tuple[tuple[int, ...], ...]
    v: tuple[tuple[int, ...], ...]
    columns: tuple[int, ...]  # point id of each column
    regions: int

    @property
    def solves_everything(self) -> bool:
        if len(self.diag) < self.regions:
            return False
        return all(gcd(d, self.modulus) == 1 for d in self.diag[: self.regions])

    def solutions(self, target: Sequence[int]) -> list[list[int]]:
        """All solutions x (per column, 0..k-1) of A x = target (mod k)."""
        k = self.modulus
        c = [sum(a * b for a, b in zip(row, target, strict=True)) % k for row in self.u]
        choices: list[list[int]] = []
        for i, ci in enumerate(c):
            d = self.diag[i] % k if i < len(self.diag) else 0
            g = gcd(d, k)
            if ci % g:
                return []
            if i < len(self.diag):
                step = k // g
                base = (ci // g) * pow(d // g, -1, step) % step if step > 1 else 0
                choices.append([base + t * step for t in range(g)])
        while len(choices) < len(self.columns):
            choices.append(list(range(k)))
        total = 1
        for ch in choices:
            total *= len(ch)
        if total > MAX_KERNEL_ENUMERATION:
            raise Unsolvable("too many solutions to search for a shortest one")
        m = len(self.columns)
        return [
            [sum(self.v[i][j] * y[j] for j in range(m)) % k for i in range(m)]
            for y in product(*choices)
        ]

    def shortest(self, target: Sequence[int]) -> dict[int, int]:
        """Fewest taps: {point: times to select it (1..k-1)}."""
        sols = self.solutions(target)
        if not sols:
            raise Unsolvable("this pattern cannot be reached with the selectable points")
        best = min(sols, key=lambda x: (sum(x), [-v for v in x]))
        return {self.columns[i]: t for i, t in enumerate(best) if t}


def mod_system(
    touches: Sequence[frozenset[int]], selectable: Sequence[int], regions: int, modulus: int
) -> ModSystem:
    """Diagonalise the touch matrix (rows: regions, columns: selectable points)."""
    cols = list(selectable)
    m = len(cols)
    a = [[1 if r in touches[p] else 0 for p in cols] for r in range(regions)]
    u = [[int(i == j) for j in range(regions)] for i in range(regions)]
    v = [[int(i == j) for j in range(m)] for i in range(m)]
    diag: list[int] = []
    for t in range(min(regions, m)):
        if not _reduce_step(a, u, v, t):
            break
        diag.append(a[t][t])
    return ModSystem(
        modulus,
        tuple(diag),
        tuple(tuple(row) for row in u),
        tuple(tuple(row) for row in v),
        tuple(cols),
        regions,
    )


def _reduce_step(a: list[list[int]], u: list[list[int]], v: list[list[int]], t: int) -> bool:
    """Clear row t and column t of a around a pivot at (t, t); False if nothing is left."""
    regions, m = len(a), len(v)
    while True:
        pivot = None
        for i in range(t, regions):
            for j in range(t, m):
                if a[i][j] and (pivot is None or abs(a[i][j]) < abs(a[pivot[0]][pivot[1]])):
                    pivot = (i, j)
        if pivot is None:
            return False
        i, j = pivot
        a[t], a[i] = a[i], a[t]
        u[t], u[i] = u[i], u[t]
        for row in a:
            row[t], row[j] = row[j], row[t]
        for row in v:
            row[t], row[j] = row[j], row[t]
        p = a[t][t]
        clean = True
        for i in range(t + 1, regions):
            q = a[i][t] // p
            if q:
                a[i] = [x - q * y for x, y in zip(a[i], a[t], strict=True)]
                u[i] = [x - q * y for x, y in zip(u[i], u[t], strict=True)]
            clean = clean and a[i][t] == 0
        for j in range(t + 1, m):
            q = a[t][j] // p
            if q:
                for row in a:
                    row[j] -= q * row[t]
                for row in v:
                    row[j] -= q * row[t]
            clean = clean and a[t][j] == 0
        if clean:
            return True
