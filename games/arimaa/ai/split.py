"""One turn's search shared among processes (issue 36, the spare cores): root splitting.

Each part is a `Searcher` that scores only the root turn's results whose Zobrist hash falls
in its share (every distinct result belongs to exactly one part, so no result is scored
twice, where splitting by first step would score a four-step turn reached in several orders
in several parts), searching them as deep as its limits allow. `join` takes, at the deepest
iteration every part finished, the best score of any part (ties to the lowest part), with
the whole-turn search's rule for deeper iterations that would hang a piece.

The parts are fixed (their number does not depend on how many processes run them), so the
decision is the same whether they run one after another in the frame loop or side by side,
on any machine: movies and replays replay the same moves.
"""

from __future__ import annotations

from ..rules.steps import Boards
from .evaluate import WIN
from .search import Searcher, _result
from .tactics import capture_threats

Steps = list[tuple[int, int]]
#: One part's finished iterations: (depth, score, steps or None when it holds no result).
Iterations = list[tuple[int, int, Steps | None]]


def join(boards: Boards, side: int, parts: list[Iterations]) -> tuple[Steps, int, int]:
    """(steps, score, depth) of the whole turn from every part's iterations."""
    deepest = [max((d for d, _, _ in it), default=0) for it in parts]
    common = min(deepest)
    depths = sorted({d for it in parts for d, _, _ in it if 4 <= d <= common}) or [common]
    chosen: tuple[Steps, int, int] | None = None
    for depth in depths:
        best: tuple[int, Steps] | None = None
        for it in parts:
            for d, score, steps in it:
                if d == depth and steps is not None and (best is None or score > best[0]):
                    best = (score, steps)
        if best is None:
            continue
        score, steps = best
        if (
            chosen is not None
            and score < WIN - 100
            and _hangs(boards, side, steps)
            and not _hangs(boards, side, chosen[0])
        ):
            continue  # the safe whole turn stays (Searcher._keeps_safe_turn)
        chosen = (steps, score, depth)
        if abs(score) >= WIN - 100:
            break
    assert chosen is not None, "no part found a legal turn"
    return chosen


def _hangs(boards: Boards, side: int, steps: Steps) -> bool:
    return bool(capture_threats(_result(boards, side, steps), 1 - side))


def run_parts(searchers: list[Searcher]) -> tuple[Steps, int, int]:
    """Every part in this process, one after another (tests; the reference for the pool)."""
    for s in searchers:
        s.run()
    return join(searchers[0].boards, searchers[0].side, [s.iterations for s in searchers])
