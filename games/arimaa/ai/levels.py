"""Computer player levels: each a depth and node limit, so a game replays identically."""

from __future__ import annotations

from collections.abc import Callable

from ..rules.game import Game
from ..rules.steps import Boards
from .native import NativeSearcher
from .native import engine as native_engine
from .search import Limits, Searcher

#: level -> limits. Level 1 is the weakest; DEFAULT_LEVEL is what the handheld offers first.
#: From level 3 up the whole own turn is always searched (every turn weighed against the
#: opponent's captures and goals next turn); their node limits count the deeper search.
LEVELS: dict[int, Limits] = {
    1: Limits(depth=4, nodes=300),
    2: Limits(depth=4, nodes=3_000),
    3: Limits(depth=5, nodes=10_000, full_turn=True),
    4: Limits(depth=6, nodes=20_000, full_turn=True),
    5: Limits(depth=8, nodes=30_000, full_turn=True),
}
DEFAULT_LEVEL = 3
TOP_LEVEL = max(LEVELS)


def searcher_for(
    game: Game,
    level: int = DEFAULT_LEVEL,
    on_iteration: Callable[[Searcher], None] | None = None,
    part: tuple[int, int] = (0, 1),
    work_cap: int = 0,
) -> Searcher:
    """A Searcher for the side to move in `game` (the repetition rule applied at the root);
    `on_iteration` hears of each finished iteration (the AEI engine's progress); `part`:
    one share of a split search (ai/split.py); `work_cap`: see `Searcher` (0: none)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {sorted(LEVELS)}")
    pos = game.position
    return Searcher(
        pos.boards,
        pos.side,
        LEVELS[level],
        forbidden(game),
        on_iteration=on_iteration,
        part=part,
        work_cap=work_cap,
    )


def forbidden(game: Game) -> frozenset[Boards]:
    """The turn results the repetition rule forbids the side to move (a third time)."""
    side = game.position.side
    return frozenset(b for (b, s), n in game.repetitions.items() if s != side and n >= 2)


def seat_searcher(
    game: Game,
    level: int,
    part: tuple[int, int] = (0, 1),
    work_cap: int = 0,
    native: bool = False,
) -> Searcher | NativeSearcher:
    """`searcher_for` for a computer seat; with `native` (the profile runs the compiled
    search) the compiled search makes the decision when its library is loaded (ai/native.py:
    the same decision, made whole at the first `think`), else the Python one."""
    compiled = native_engine() if native else None
    if compiled is None:
        return searcher_for(game, level, part=part, work_cap=work_cap)
    if level not in LEVELS:
        raise ValueError(f"level must be one of {sorted(LEVELS)}")
    pos = game.position
    return compiled.searcher(pos.boards, pos.side, LEVELS[level], forbidden(game), part, work_cap)


def choose_turn(game: Game, level: int = DEFAULT_LEVEL) -> list[tuple[int, int]]:
    """The computer's whole turn for the side to move (runs to completion)."""
    return searcher_for(game, level).run()
