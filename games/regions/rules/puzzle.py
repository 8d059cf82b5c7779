"""A Region Select game in progress (R-REG-PLAY, R-REG-VAR-1, R-REG-HELP).

States per game region are 0..k-1 (k = 2: 1 is white, 0 is grey, the goal). Selecting a
point advances every region it touches by one (mod k); the game is clear once every region
is in the goal state after at least one selection. Start patterns are numbered
1..k^n - 1: digit r (base k) of the number is region r's offset from the goal, so for
k = 2, goal 0, bit r set means region r starts white, as in the seed's FIG. 7.

A puzzle refuses to exist unless every start pattern can be cleared with its selectable
points (all points but the hidden curl points if they are hidden and the blocked one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from games.regions.rules.shadow import Shadow
from games.regions.rules.solver import (
    GF2System,
    ModSystem,
    Unsolvable,
    gf2_system,
    mod_system,
    points_of,
)
from games.regions.rules.surface import Surface

MAX_STATES = 6


class PuzzleError(ValueError):
    """Bad puzzle options, pattern number, move or saved state."""


@dataclass(frozen=True)
class Rules:
    """The options of one puzzle: number of states, goal state, blocked point, curls."""

    states: int = 2
    goal: int = 0
    blocked: int | None = None
    hide_curls: bool = False

    def check(self, surface: Surface) -> None:
        if not 2 <= self.states <= MAX_STATES:
            raise PuzzleError(f"states must be 2..{MAX_STATES}, not {self.states}")
        if not 0 <= self.goal < self.states:
            raise PuzzleError(f"goal state must be 0..{self.states - 1}")
        if self.blocked is not None and not 0 <= self.blocked < surface.point_count:
            raise PuzzleError(f"blocked point must be 0..{surface.point_count - 1}")


@dataclass(frozen=True)
class Board:
    """A surface with rules, proved solvable for every start pattern on construction."""

    surface: Surface
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        self.rules.check(self.surface)
        if not self.solves_everything:
            raise Unsolvable("some start pattern of this surface cannot be cleared")

    @cached_property
    def selectable(self) -> tuple[int, ...]:
        hidden = self.surface.hidden_points if self.rules.hide_curls else frozenset()
        return tuple(
            p
            for p in range(self.surface.point_count)
            if p != self.rules.blocked and p not in hidden
        )

    @cached_property
    def gf2(self) -> GF2System:
        return gf2_system(self.surface.touch_masks(), self.selectable, self.surface.region_count)

    @cached_property
    def modk(self) -> ModSystem:
        s = self.surface
        return mod_system(s.touches, self.selectable, s.region_count, self.rules.states)

    @property
    def solves_everything(self) -> bool:
        if self.rules.states == 2:
            return self.gf2.solves_everything
        return self.modk.solves_everything

    @property
    def pattern_count(self) -> int:
        return int(self.rules.states**self.surface.region_count) - 1  # int ** int is typed Any

    def pattern(self, number: int) -> tuple[int, ...]:
        """Start states of pattern `number` (1..k^n - 1)."""
        k, n = self.rules.states, self.surface.region_count
        if not 1 <= number <= self.pattern_count:
            raise PuzzleError(f"pattern must be 1..{self.pattern_count}, not {number}")
        return tuple((self.rules.goal + number // k**r) % k for r in range(n))

    def pattern_number(self, cells: tuple[int, ...]) -> int:
        k = self.rules.states
        return sum(((c - self.rules.goal) % k) * k**r for r, c in enumerate(cells))

    def apply(self, cells: tuple[int, ...], point: int) -> tuple[int, ...]:
        """Cells after selecting `point` (every touching region advances once)."""
        if point not in self.selectable:
            raise PuzzleError(f"point {point} cannot be selected")
        touched = self.surface.touches[point]
        k = self.rules.states
        return tuple((c + 1) % k if r in touched else c for r, c in enumerate(cells))

    def shortest_solution(self, cells: tuple[int, ...]) -> list[int]:
        """Points to select (a point may repeat when k > 2) to clear `cells`, fewest taps."""
        k, goal = self.rules.states, self.rules.goal
        if k == 2:
            target = sum(1 << r for r, c in enumerate(cells) if c != goal)
            return points_of(self.gf2.shortest(target))
        need = [(goal - c) % k for c in cells]
        taps = self.modk.shortest(need)
        return [p for p in sorted(taps) for _ in range(taps[p])]

    def hint(self, cells: tuple[int, ...]) -> int | None:
        """One point of a shortest solution (None if already clear)."""
        solution = self.shortest_solution(cells)
        return solution[0] if solution else None


@dataclass
class Game:
    """A game being played: board, start pattern, current cells and the selections made."""

    board: Board
    pattern: int
    cells: tuple[int, ...] = ()
    moves: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        start = self.board.pattern(self.pattern)
        if not self.cells:
            self.cells = start
        if len(self.cells) != self.board.surface.region_count:
            raise PuzzleError("cell count does not match the surface")

    @property
    def clear(self) -> bool:
        return bool(self.moves) and all(c == self.board.rules.goal for c in self.cells)

    def select(self, point: int) -> None:
        if self.clear:
            raise PuzzleError("the game is already clear")
        self.cells = self.board.apply(self.cells, point)
        self.moves.append(point)

    def hint(self) -> int | None:
        return None if self.clear else self.board.hint(self.cells)

    def to_json(self) -> dict[str, object]:
        r = self.board.rules
        return {
            "shadow": self.board.surface.shadow.to_json(),
            "rules": {
                "states": r.states,
                "goal": r.goal,
                "blocked": r.blocked,
                "hide_curls": r.hide_curls,
            },
            "pattern": self.pattern,
            "moves": list(self.moves),
        }

    @classmethod
    def from_json(cls, data: object) -> Game:
        """Rebuild a game by replaying its moves (so a saved state cannot be inconsistent)."""
        if not isinstance(data, dict):
            raise PuzzleError("a saved game is a JSON object")
        try:
            shadow = Shadow.from_json(data["shadow"])
            raw = data["rules"]
            rules = Rules(
                states=_int(raw["states"]),
                goal=_int(raw["goal"]),
                blocked=None if raw["blocked"] is None else _int(raw["blocked"]),
                hide_curls=bool(raw["hide_curls"]),
            )
            pattern = _int(data["pattern"])
            moves = [_int(m) for m in data["moves"]]
        except (KeyError, TypeError) as exc:
            raise PuzzleError(f"saved game is missing or has a bad field: {exc}") from None
        game = cls(Board(Surface(shadow), rules), pattern)
        for m in moves:
            game.select(m)
        return game


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"expected an integer, got {value!r}")
    return value
