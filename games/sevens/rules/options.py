"""The four game options chosen before a game (R-SEV-OPT), with the seed's defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_KILL_CHOICES = (1, 4, 6, 9, 12)


@dataclass(frozen=True)
class Options:
    """Maximum cards killed at once, kill with three walls, lay out the sevens, extra turn."""

    max_kill: int = 9
    three_walls: bool = False
    sevens_laid_out: bool = False
    extra_turn: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.max_kill, bool) or self.max_kill not in MAX_KILL_CHOICES:
            raise ValueError(
                f"maximum cards killed at once must be one of {MAX_KILL_CHOICES}, "
                f"not {self.max_kill!r}"
            )
        for name in ("three_walls", "sevens_laid_out", "extra_turn"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"option {name} must be true or false")

    @property
    def effective_three_walls(self) -> bool:
        """The three-wall option only has meaning when groups of 4 or more can die."""
        return self.three_walls and self.max_kill >= 4

    def to_json(self) -> dict[str, Any]:
        return {
            "max_kill": self.max_kill,
            "three_walls": self.three_walls,
            "sevens_laid_out": self.sevens_laid_out,
            "extra_turn": self.extra_turn,
        }

    @classmethod
    def from_json(cls, data: Any) -> Options:
        if not isinstance(data, dict):
            raise ValueError("options must be a JSON object")
        unknown = set(data) - {"max_kill", "three_walls", "sevens_laid_out", "extra_turn"}
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}")
        return cls(**data)
