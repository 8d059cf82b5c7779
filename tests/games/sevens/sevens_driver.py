"""Drive the real firmware (headless) through Killing Sevens: taps, waits, pixels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware.machine import Machine
from firmware.storage import Store
from firmware.testing import machine_from_movie, run, tap_script
from games.sevens.scene.setup import Setup
from hal.interfaces import Button, RawInput

COMPUTERS = {"seat1": "cool", "seat2": "hitman", "seat3": "coward"}


def remember(tmp: Path, **settings: object) -> None:
    """Store the hint and bubble settings as the game's options dialog would have left them
    (they are not launcher options), unless a setup is stored already."""
    tmp.mkdir(parents=True, exist_ok=True)
    store = Store.open(tmp / "store.db")
    try:
        if store.get_setting("game:sevens:setup") is None:
            setup = Setup(hints=bool(settings["hints"]), bubbles=str(settings["bubbles"]))
            store.set_setting("game:sevens:setup", setup.to_json())
    finally:
        store.close()


class Driver:
    """A headless machine running Killing Sevens, with the inputs a player would give."""

    def __init__(
        self, tmp: Path, seed: int = 1, draw: bool = False, bubbles: str = "fast", **options: str
    ) -> None:
        for key, value in COMPUTERS.items():
            options.setdefault(key, value)
        remember(tmp, bubbles=bubbles, hints=options.pop("hints", "on") == "on")
        self.m: Machine = machine_from_movie(tmp, game="sevens", seed=seed, options=options)
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

    def tap_xy(self, x: int, y: int, after: int = 1) -> None:
        start = self.m.tick
        self.m.hal.input.script = tap_script({start: (x, y)})  # type: ignore[attr-defined]
        run(self.m, 3 + after, draw=self.draw)
        self.m.hal.input.script = lambda t: RawInput()  # type: ignore[attr-defined]

    def tap(self, name: str, after: int = 1) -> None:
        x, y, w, h = self.hotspots()[name]
        self.tap_xy(x + w // 2, y + h // 2, after)

    def press(self, button: Button, ticks: int = 2, after: int = 2) -> None:
        start = self.m.tick
        self.m.hal.input.script = lambda t: RawInput(  # type: ignore[attr-defined]
            held=frozenset({button}) if start <= t < start + ticks else frozenset()
        )
        run(self.m, ticks + after, draw=self.draw)

    def until_input(self, limit: int = 5000) -> str:
        """Run until a person must act (their turn, a hand-off or a dialog): returns what."""
        for _ in range(limit):
            g = self.game
            spots = self.hotspots()
            if g["phase"] != "play":
                return g["phase"]
            if "button:ok" in spots:
                return "handoff"
            if (g["playable"] or "button:pass" in spots) and not g["animating"]:
                return "turn"
            self.frames(1)
        raise AssertionError("nobody was asked to act")

    def play_card(self, card: str) -> None:
        self.tap(f"card:{card}")
        self.tap(f"card:{card}")
