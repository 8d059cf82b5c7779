"""Hand-built positions: cards from short text and states from a drawn field.

Used by the tests (the seed's figures as fixtures) and meant for tutorials or puzzles in a
future scene, where a position is set up rather than dealt from the stream.
"""

from __future__ import annotations

from games.panels.rules.cards import RAINBOW, Card, connectors_from_text
from games.panels.rules.field import Field
from games.panels.rules.game import DEFAULT_TARGET, GameConfig, GameState, PlayerState


def card(number: int, connectors: str, owner: int | str = 0) -> Card:
    """A card: number, connectors as "URDL" bits ("1001" = up+left), owner index or "R"."""
    return Card(number, connectors_from_text(connectors), RAINBOW if owner == "R" else int(owner))


def field_of(rows: list[str], cards: dict[tuple[int, int], Card]) -> Field:
    """A field drawn as rows of '.' (usable) and '#' (unusable) with `cards` placed."""
    fld = Field.from_rows(rows)
    for square, placed in cards.items():
        fld.put(square, placed)
    return fld


def position(
    rows: list[str],
    cards: dict[tuple[int, int], Card],
    stock: list[Card],
    *,
    target: int = DEFAULT_TARGET,
    removal: bool = False,
    turns: int = 3,
    seed: int = 7,
    items: bool = True,
) -> GameState:
    """Player 0 to move (turn number `turns`, so not a first turn by default), 2 players."""
    players = [PlayerState(stock=list(stock), turns=turns), PlayerState(turns=turns)]
    config = GameConfig(seed=seed, target=target, removal=removal, items=items)
    return GameState(config, field_of(rows, cards), players, 0)
