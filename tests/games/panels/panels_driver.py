"""Drive the real firmware (headless) through Panel Link: taps, waits, dumps, pixels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware.machine import Machine
from firmware.testing import machine_from_movie, run, tap_script
from games.panels.rules import GameState
from hal.interfaces import Button, RawInput


class Driver:
    """A headless machine running Panel Link, with the inputs a player would give."""

    def __init__(self, tmp: Path, seed: int = 1, draw: bool = False, **options: str) -> None:
        options.setdefault("mode", "two")
        self.m: Machine = machine_from_movie(tmp, game="panels", seed=seed, options=options)
        self.draw = draw
        self.frames(1)

    @property
    def game(self) -> dict[str, Any]:
        return self.m.dump()["game"]

    @property
    def scene(self) -> Any:
        return self.m.game_scene().game

    def hotspots(self) -> dict[str, list[int]]:
        return self.m.dump()["hotspots"]

    def frames(self, n: int) -> None:
        self.m.hal.input.script = lambda t: RawInput()  # type: ignore[attr-defined]
        run(self.m, n, draw=self.draw)

    def tap_xy(self, x: int, y: int, after: int = 2) -> None:
        start = self.m.tick
        self.m.hal.input.script = tap_script({start: (x, y)})  # type: ignore[attr-defined]
        run(self.m, 3 + after, draw=self.draw)
        self.m.hal.input.script = lambda t: RawInput()  # type: ignore[attr-defined]

    def tap(self, name: str, after: int = 2) -> None:
        x, y, w, h = self.hotspots()[name]
        self.tap_xy(x + w // 2, y + h // 2, after)

    def press(self, button: Button, ticks: int = 2, after: int = 2) -> None:
        start = self.m.tick
        self.m.hal.input.script = lambda t: RawInput(  # type: ignore[attr-defined]
            held=frozenset({button}) if start <= t < start + ticks else frozenset()
        )
        run(self.m, ticks + after, draw=self.draw)

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
