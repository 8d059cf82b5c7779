"""One Region Select puzzle being solved, for every variant the handheld offers.

`Setup` is everything both units of a race (and a replay) must share: the shadow, the
variant, the goal, the unselectable point, the start pattern and the seed of the random
three-state rule. `Puzzle` applies actions to it: a point number (a selection) or `UNDO`
(take the last selection back; it counts as a selection too). Its whole state is the setup
plus the action list, so `to_json` / `from_json` rebuild it by replaying.

Variants (R-REG-PLAY, R-REG-VAR-1):

| variant | states | a selection | goal |
|---|---|---|---|
| `classic` | white (1) / grey (0) | switches every touching region | all grey |
| `cyclic3`, `cyclic4` | 0..k-1 | adds one (mod k) | all 0 |
| `three` | A / B / C | B, C -> A; A -> B, C alternating per region | all A, B or C |
| `three-random` | A / B / C | B, C -> A; A -> B or C by a seeded coin | all A |

Start patterns: `classic` and `cyclic` number 1..k^n-1 as in `puzzle.Board`; the three-state
rules number 1..3^n-1, base-3 digit r being region r's offset from the goal in A, B, C order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from games.regions.rules import threestate as ts
from games.regions.rules.puzzle import Board, PuzzleError, Rules
from games.regions.rules.shadow import Shadow, ShadowError
from games.regions.rules.solver import Unsolvable
from games.regions.rules.surface import Surface

VARIANTS = ("classic", "three", "three-random", "cyclic3", "cyclic4")
THREE_STATE = ("three", "three-random")
UNDO = "undo"
Action = int | str


def states_of(variant: str) -> int:
    """How many states a region has under `variant`."""
    if variant in THREE_STATE:
        return 3
    return {"classic": 2, "cyclic3": 3, "cyclic4": 4}[variant]


@dataclass(frozen=True)
class Setup:
    """What defines a puzzle (shared by both units of a race, stored in records)."""

    link: tuple[int, ...]
    variant: str = "classic"
    goal: int = 0
    blocked: int | None = None
    pattern: int = 1
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "link": list(self.link),
            "variant": self.variant,
            "goal": self.goal,
            "blocked": self.blocked,
            "pattern": self.pattern,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        if not isinstance(data, dict):
            raise PuzzleError("a puzzle setup is a JSON object")
        try:
            link = tuple(_int(v) for v in data["link"])
            blocked = data["blocked"]
            return cls(
                link,
                str(data["variant"]),
                _int(data["goal"]),
                None if blocked is None else _int(blocked),
                _int(data["pattern"]),
                _int(data["seed"]),
            )
        except (KeyError, TypeError) as exc:
            raise PuzzleError(f"puzzle setup is missing or has a bad field: {exc}") from None


@dataclass
class Puzzle:
    """A puzzle in progress: region states, actions taken, clear or not."""

    setup: Setup
    actions: list[Action] = field(default_factory=list)

    def __post_init__(self) -> None:
        s = self.setup
        if s.variant not in VARIANTS:
            raise PuzzleError(f"variant must be one of {', '.join(VARIANTS)}, not {s.variant!r}")
        try:
            self.surface = Surface(Shadow(s.link))
        except ShadowError as exc:
            raise PuzzleError(f"bad shadow: {exc}") from None
        n = self.surface.region_count
        k = states_of(s.variant)
        if not 0 <= s.goal < k or (s.variant == "three-random" and s.goal != ts.A):
            raise PuzzleError("the goal state is not one this variant allows")
        if s.variant in THREE_STATE and n > ts.MAX_REGIONS:
            raise PuzzleError(f"the three-state rule takes at most {ts.MAX_REGIONS} regions")
        if not 1 <= s.pattern <= self.pattern_count:
            raise PuzzleError(f"pattern must be 1..{self.pattern_count}, not {s.pattern}")
        try:
            _ = self.board  # the surface must take the variant and the blocked point
        except Unsolvable as exc:
            raise PuzzleError(f"this surface cannot take this variant: {exc}") from None
        self.cells, self.aux = self.start()
        self._stack: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        actions, self.actions = list(self.actions), []
        for a in actions:
            self.act(a)

    # ------------------------------------------------------------------ the surface
    @cached_property
    def board(self) -> Board:
        """The linear-algebra board: the variant itself, or two states for three-state rules
        (their A / not-A picture, which the random rule's hints use)."""
        s = self.setup
        k = 2 if s.variant in THREE_STATE else states_of(s.variant)
        return Board(self.surface, Rules(states=k, goal=0, blocked=s.blocked))

    @property
    def selectable(self) -> tuple[int, ...]:
        return self.board.selectable

    @property
    def states(self) -> int:
        return states_of(self.setup.variant)

    @property
    def pattern_count(self) -> int:
        return int(self.states**self.surface.region_count) - 1

    def start(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Cells and per-region extra state (phases or departures) of the start pattern."""
        s, n = self.setup, self.surface.region_count
        if s.variant not in THREE_STATE:
            return self.board.pattern(s.pattern), (0,) * n
        cells = tuple((s.goal + s.pattern // 3**r) % 3 for r in range(n))
        if s.variant == "three":
            return cells, tuple(ts.PHASE_OF_STATE[c] for c in cells)
        return cells, (0,) * n

    # ------------------------------------------------------------------------ play
    @property
    def selections(self) -> int:
        """Every action counts, undos included."""
        return len(self.actions)

    @property
    def moves(self) -> list[int]:
        """The selections in force (undone ones removed)."""
        return [p for p, _c, _a in self._stack]

    @property
    def at_goal(self) -> bool:
        return all(c == self.setup.goal for c in self.cells)

    @property
    def clear(self) -> bool:
        return bool(self._stack) and self.at_goal

    def check(self, action: object) -> str | None:
        """None if `action` may be taken now, else why not."""
        if self.clear:
            return "the puzzle is already clear"
        if action == UNDO:
            return None if self._stack else "there is no selection to undo"
        if isinstance(action, bool) or not isinstance(action, int):
            return f"{action!r} is not a point number"
        if action not in self.selectable:
            if 0 <= action < self.surface.point_count:
                return f"point {action} cannot be selected"
            return f"there is no point {action}"
        return None

    def act(self, action: Action) -> dict[str, Any]:
        """Take one checked action; returns its event. Raises PuzzleError if refused."""
        reason = self.check(action)
        if reason is not None:
            raise PuzzleError(reason)
        before = self.cells
        if action == UNDO:
            point, self.cells, self.aux = self._stack.pop()
            kind = "undo"
        else:
            assert isinstance(action, int)
            point, kind = action, "select"
            self._stack.append((point, self.cells, self.aux))
            self.cells, self.aux = self._after(point)
        self.actions.append(action)
        return {
            "type": kind,
            "point": point,
            "changed": [
                r for r, (a, b) in enumerate(zip(before, self.cells, strict=True)) if a != b
            ],
            "to_goal": sum(
                1 for a, b in zip(before, self.cells, strict=True) if a != b == self.setup.goal
            ),
            "from_goal": sum(
                1 for a, b in zip(before, self.cells, strict=True) if self.setup.goal == a != b
            ),
            "clear": self.clear,
        }

    def _after(self, point: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        touched = self.surface.touches[point]
        s = self.setup
        if s.variant not in THREE_STATE:
            return self.board.apply(self.cells, point), self.aux
        cells, aux = list(self.cells), list(self.aux)
        for r in touched:
            if s.variant == "three":
                aux[r] = (aux[r] + 1) & 3
                cells[r] = ts.state_of_phase(aux[r])
            elif cells[r] == ts.A:
                cells[r] = ts.coin(s.seed, r, aux[r])
                aux[r] += 1
            else:
                cells[r] = ts.A
        return tuple(cells), tuple(aux)

    # ------------------------------------------------------------------------ help
    def solution(self, search: ts.PhaseSearch | None = None) -> list[int]:
        """A shortest way from here to the goal (points may repeat). The alternating
        three-state rule needs its finished `search`."""
        if self.clear:
            return []
        v = self.setup.variant
        if v == "three":
            if search is None or not search.done:
                raise PuzzleError("the three-state search has not finished")
            return search.solution(self.aux)
        if v == "three-random":  # only A / not A matters for reaching all-A
            return self.board.shortest_solution(tuple(int(c != ts.A) for c in self.cells))
        return self.board.shortest_solution(self.cells)

    def hint(self, search: ts.PhaseSearch | None = None) -> int | None:
        if self.setup.variant == "three" and search is not None and search.done:
            return None if self.clear else search.hint(self.aux)
        sol = self.solution(search)
        return sol[0] if sol else None

    # ---------------------------------------------------------------- persistence
    def to_json(self) -> dict[str, Any]:
        return {"setup": self.setup.to_json(), "actions": list(self.actions)}

    @classmethod
    def from_json(cls, data: Any) -> Puzzle:
        if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
            raise PuzzleError("a saved puzzle is {setup, actions}")
        actions: list[Action] = []
        for a in data["actions"]:
            if a != UNDO and (isinstance(a, bool) or not isinstance(a, int)):
                raise PuzzleError(f"bad action {a!r}")
            actions.append(a)
        return cls(Setup.from_json(data["setup"]), actions)


def phase_search(puzzle: Puzzle) -> ts.PhaseSearch:
    """The (unstarted) search proving which starts of a `three` puzzle's surface are
    solvable; shared by every pattern of the same surface, goal and blocked point."""
    s = puzzle.surface
    return ts.PhaseSearch(s.touches, puzzle.selectable, s.region_count, puzzle.setup.goal)


def start_phases(setup: Setup, regions: int) -> tuple[int, ...]:
    """The phases of a `three` start pattern (for testing solvability before building)."""
    digits = ((setup.goal + setup.pattern // 3**r) % 3 for r in range(regions))
    return tuple(ts.PHASE_OF_STATE[d] for d in digits)


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"expected an integer, got {value!r}")
    return value
