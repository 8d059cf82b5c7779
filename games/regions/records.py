"""Best records per surface, rule and start pattern, read from the stored clears.

Every clear is stored as a finished-game record (`GameContext.finish`) carrying its key
(surface, variant, goal, unselectable point, pattern), time in ticks and selections; the
bests are the minima over those records, so they survive restarts with the store.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Best:
    """The fastest time and the fewest selections (possibly from different clears)."""

    ticks: int
    selections: int

    def to_json(self) -> dict[str, int]:
        return {"ticks": self.ticks, "selections": self.selections}

    @classmethod
    def from_json(cls, data: Any) -> Best:
        return cls(int(data["ticks"]), int(data["selections"]))


def best_of(records: Iterable[dict[str, Any]]) -> dict[str, Best]:
    """Bests by record key; records that are not Region Select clears are skipped."""
    out: dict[str, Best] = {}
    for rec in records:
        key, ticks, sel = rec.get("key"), rec.get("ticks"), rec.get("selections")
        if not isinstance(key, str) or not isinstance(ticks, int) or not isinstance(sel, int):
            continue
        old = out.get(key)
        out[key] = Best(ticks, sel) if old is None else Best(
            min(old.ticks, ticks), min(old.selections, sel)
        )
    return out
