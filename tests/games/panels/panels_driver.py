"""Drive the real firmware (headless) through Panel Link: taps, waits, dumps, pixels."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from firmware.testing import GameDriver
from games.panels.rules import Determine, GameState, Pass, Place, Rotate, Select


class Driver(GameDriver):
    """A headless machine running Panel Link, with the inputs a player would give."""

    game_id = "panels"

    def __init__(self, tmp: Path, seed: int = 1, draw: bool = False, **options: str) -> None:
        options.setdefault("mode", "two")
        super().__init__(tmp, seed, draw, **options)

    def settle(self, limit: int = 5000) -> None:
        """Run until nothing moves and a person may act (or the game is over)."""
        for _ in range(limit):
            s = self.scene
            if not s.anims and (s.local_to_move() or s.state.over):
                return
            self.frames(1)
        raise AssertionError("the scene never settled")

    def restore(self, state: GameState) -> None:
        """Continue from a chosen rules state through the firmware's state-slot path."""
        scene = self.scene
        saved = scene.save_state()
        saved["match"] = {"rules": state.to_json(), "history": [], "seats": [{}, {}],
                          "refused": {}}
        saved["anims"] = []
        saved["shown_scores"] = [p.score for p in state.players]
        self.m.restore({"game": "panels", "options": dict(scene.ctx.options), "state": saved})
        self.frames(1)


def engine_rows(state: GameState) -> list[list[Any]]:
    """The dump's `field` written independently from an engine state (issue 16 item 9)."""
    fld = state.field
    prov = state.provisional_card()
    rows = []
    for r in range(fld.rows):
        row: list[Any] = []
        for c in range(fld.cols):
            if not fld.usable[r * fld.cols + c]:
                row.append("unusable")
            elif fld.cells[r * fld.cols + c] is not None:
                card = fld.cells[r * fld.cols + c]
                assert card is not None
                row.append({"number": card.number, "connectors": format_bits(card.connectors),
                            "owner": "rainbow" if card.owner < 0 else card.owner,
                            "state": "fixed"})
            elif prov is not None and state.provisional is not None and \
                    state.provisional[0] == (r, c):
                row.append({"number": prov.number, "connectors": format_bits(prov.connectors),
                            "owner": "rainbow" if prov.owner < 0 else prov.owner,
                            "state": "provisional"})
            else:
                row.append("empty")
        rows.append(row)
    return rows


def format_bits(bits: int) -> str:
    """Up, right, down, left as four 0/1 characters."""
    return "".join("1" if bits & d else "0" for d in (1, 2, 4, 8))


def play_turn_by_taps(d: Driver, mirror: GameState, rng: random.Random) -> None:
    """One random legal turn: select, maybe try another square first, rotate, determine."""
    p = mirror.current
    placements = mirror.placements(p)
    if not placements:
        d.tap("button:pass")
        mirror.apply(Pass(p))
        return
    stock, index, turns = rng.choice(placements)
    square = mirror.field.square(index)
    if rng.random() < 0.3 and len(mirror.players[p].stock) > 1:  # select another first
        other = (stock + 1) % len(mirror.players[p].stock)
        d.tap(f"stock:{other}")
        mirror.apply(Select(p, other))
    d.tap(f"stock:{stock}")
    mirror.apply(Select(p, stock))
    squares = mirror.permitted_squares(p, stock)
    if rng.random() < 0.3 and len(squares) > 1:  # place elsewhere first, then move it
        first = rng.choice([s for s in squares if s != square])
        d.tap(f"square:{first[0]},{first[1]}")
        d.settle()
        mirror.apply(Place(p, first))
    d.tap(f"square:{square[0]},{square[1]}")
    d.settle()
    mirror.apply(Place(p, square))
    extra = 4 if rng.random() < 0.2 else 0
    for _ in range(turns + extra):
        d.tap(f"square:{square[0]},{square[1]}")
        d.settle()
        mirror.apply(Rotate(p))
    assert d.game["field"] == engine_rows(mirror)
    d.tap("button:determine")
    mirror.apply(Determine(p))
    d.settle()
