"""The five computer personalities (R-SEV-AI), each a distinct policy over the seat's view.

Every personality gets only a `SeatView` and its own seeded `random.Random`; a decision is a
fixed amount of look-ahead (one play of its own plus one reply from each opponent position),
so games replay identically and each decision is cheap.

- Simpleton: a random playable card.
- Cool: weighs damage to opponents against risk to its own cards, balanced.
- Hitman: never lets a kill go; otherwise sets up future kills while watching its own cards.
- Coward: its own safety first, then anything else; happily lets others take the damage.
- Brute: kills and endangering others' cards; shrugs at risk to its own.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import ClassVar

from games.sevens.ai.analysis import Assessment, assess_all
from games.sevens.rules.cards import card_name
from games.sevens.rules.view import SeatView

Action = dict[str, object]

PERSONALITIES = ("simpleton", "cool", "hitman", "coward", "brute")
NAMES_JA = {
    "simpleton": "単細胞",
    "cool": "冷静",
    "hitman": "殺し屋",
    "coward": "臆病",
    "brute": "凶暴",
}
NAMES_EN = {
    "simpleton": "Simpleton",
    "cool": "Cool",
    "hitman": "Hitman",
    "coward": "Coward",
    "brute": "Brute",
}


class Personality(ABC):
    """Base: pass when nothing is playable, play a forced card, else pick by `_pick`."""

    key = ""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Action:
        if not isinstance(view, SeatView):
            raise TypeError("a computer player is given a SeatView and nothing else")
        cards = view.legal_cards()
        if not cards:
            return {"type": "pass"}
        if len(cards) == 1:
            return {"type": "play", "card": card_name(cards[0])}
        return {"type": "play", "card": card_name(self._pick(view, cards))}

    @abstractmethod
    def _pick(self, view: SeatView, cards: list[int]) -> int:
        """The card to play among `cards` (at least two, all playable)."""

    def _best(self, found: list[Assessment], score: Callable[[Assessment], float]) -> int:
        """Card of the highest-scoring assessment; ties broken by the seeded generator."""
        best: list[int] = []
        top = float("-inf")
        for a in found:
            s = score(a)
            if s > top + 1e-9:
                top, best = s, [a.card]
            elif s > top - 1e-9:
                best.append(a.card)
        return best[0] if len(best) == 1 else self.rng.choice(best)


class Simpleton(Personality):
    key = "simpleton"

    def _pick(self, view: SeatView, cards: list[int]) -> int:
        return self.rng.choice(cards)


FEATURES = (
    "gain",
    "loss",
    "risk_max",
    "risk_sum",
    "chances",
    "own_danger",
    "opp_danger",
)
Weights = dict[str, float]


def weighted(weights: Weights) -> Callable[[Assessment], float]:
    """Score function: the weighted sum of an assessment's figures."""
    items = tuple(weights.items())

    def score(a: Assessment) -> float:
        return float(sum(w * getattr(a, name) for name, w in items))

    return score


class Weighing(Personality):
    """A personality that picks the play with the best weighted assessment."""

    weights: ClassVar[Weights] = {}

    def __init__(self, rng: random.Random, weights: Weights | None = None) -> None:
        super().__init__(rng)
        w = dict(self.weights if weights is None else weights)
        unknown = set(w) - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown features {sorted(unknown)}")
        self.score = weighted(w)

    def _pick(self, view: SeatView, cards: list[int]) -> int:
        return self._best(assess_all(view, cards), self.score)


class Cool(Weighing):
    """Balances the damage a play does to opponents against the risk to its own cards."""

    key = "cool"
    weights: ClassVar[Weights] = {
        "gain": 3.0,
        "loss": -10.0,
        "risk_max": -2.0,
        "risk_sum": -1.0,
        "chances": 0.8,
        "own_danger": -12.0,
        "opp_danger": 0.5,
    }


class Hitman(Weighing):
    """Takes every kill there is (the biggest first); otherwise prepares the next one."""

    key = "hitman"
    weights: ClassVar[Weights] = {
        "gain": 4.0,
        "loss": -10.0,
        "risk_max": -2.0,
        "risk_sum": -1.0,
        "chances": 1.5,
        "own_danger": -8.0,
        "opp_danger": 1.0,
    }

    def _pick(self, view: SeatView, cards: list[int]) -> int:
        found = assess_all(view, cards)
        kills = [a for a in found if a.gain > a.loss]
        if kills:
            # never miss a kill: the biggest net one, then the usual weighing among equals
            top = max(a.gain - a.loss for a in kills)
            return self._best([a for a in kills if a.gain - a.loss == top], self.score)
        return self._best(found, self.score)


class Coward(Weighing):
    """Its own cards first: the play that harms and exposes its own cards least, whatever
    that does to the others; only among equally safe plays does it look at kills."""

    key = "coward"
    weights: ClassVar[Weights] = {
        "risk_max": -6.0,
        "risk_sum": -2.0,
        "own_danger": -10.0,
    }

    def _pick(self, view: SeatView, cards: list[int]) -> int:
        found = assess_all(view, cards)
        least = min(a.loss for a in found)
        found = [a for a in found if a.loss == least]
        safest = max(self.score(a) for a in found)
        # "equally safe": within a small margin of the safest exposure
        found = [a for a in found if self.score(a) >= safest - 0.5]
        return self._best(found, lambda a: a.gain + 0.5 * a.chances)


class Brute(Weighing):
    """Kills and puts opponents' cards in danger; its own risk barely counts."""

    key = "brute"
    weights: ClassVar[Weights] = {
        "gain": 4.0,
        "loss": -6.0,
        "risk_max": -1.0,
        "chances": 1.0,
        "opp_danger": 2.0,
        "own_danger": -3.0,
    }


_CLASSES: dict[str, type[Personality]] = {
    cls.key: cls for cls in (Simpleton, Cool, Hitman, Coward, Brute)
}


def make_player(key: str, rng: random.Random) -> Personality:
    """A personality by its key (simpleton, cool, hitman, coward, brute)."""
    try:
        return _CLASSES[key](rng)
    except KeyError:
        raise ValueError(
            f"unknown personality {key!r} (choose from {', '.join(PERSONALITIES)})"
        ) from None
