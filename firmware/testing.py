"""Helpers for tests, benchmarks and screenshot scripts: headless machines fed by scripts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.game_api import Cartridge, rule_broken
from firmware.headless import build_machine
from firmware.machine import Machine
from firmware.movie import parse_movie
from hal.backends.headless import ScriptedInput
from hal.interfaces import Button, RawInput

DESCRIPTION_WIDTH, DESCRIPTION_LINES = 226, 7  # the launcher's description panel


def description_problems(cart: Cartridge) -> list[str]:
    """What breaks rule G2 in a cartridge's launcher description (none: it holds): checked
    for every game found, one installed as a package too."""
    from firmware.gfx import text

    out = []
    if "one unit" not in cart.description.lower():
        out.append("it does not say 'one unit'")
    if ("Versus:" in cart.description) != cart.versus:
        out.append("'Versus:' is there without versus" if not cart.versus else "no 'Versus:'")
    if ("たいせん" in cart.description_ja) != cart.versus:
        out.append("'たいせん' is there without versus" if not cart.versus else "no 'たいせん'")
    if cart.link_units is not None:
        lo, hi = cart.link_units
        words = {2: "two", 3: "three", 4: "four"}
        said = words[lo] if lo == hi else f"{words[lo]} to {words[hi]}"
        if f"{said} units" not in cart.description:
            out.append(f"it does not say '{said} units'")
    lines = len(text.wrap(cart.description, DESCRIPTION_WIDTH))
    if lines > DESCRIPTION_LINES:
        out.append(f"{lines} lines")
    return [f"{cart.id}: {p}: {rule_broken('G2')}" for p in out]


def machine_from_movie(tmp: Path, movie_text: str = "", **kw: Any) -> Machine:
    """A headless machine playing `movie_text`; `kw` goes to build_machine (game, seed...)."""
    movie = parse_movie(movie_text) if movie_text else None
    return build_machine(tmp, movie=movie, **kw)


def scripted_machine(tmp: Path, script: Callable[[int], RawInput], **kw: Any) -> Machine:
    """A headless machine whose input is `script(tick)`; `kw` goes to build_machine."""
    m = build_machine(tmp, **kw)
    scripted_input(m).script = script
    return m


def scripted_input(machine: Machine) -> ScriptedInput:
    """The scripted input of a headless machine (build_machine's Hal): set its `script`."""
    source = machine.hal.input
    assert isinstance(source, ScriptedInput), "not a headless machine with scripted input"
    return source


def running_game(machine: Machine) -> Any:
    """The game running on `machine`, for scripts that read or steer its own state (its
    class is the game's, so this is Any); fails when no game runs."""
    scene = machine.game_scene()
    assert scene is not None, "no game is running"
    return scene.game


def run(machine: Machine, frames: int, draw: bool = True) -> None:
    for _ in range(frames):
        machine.step()
        if draw:
            machine.render()
            machine.present()


def tap_script(
    events: dict[int, tuple[int, int]], length: int = 3
) -> Callable[[int], RawInput]:
    """A tap (touch for `length` ticks) starting at each given tick."""

    def script(tick: int) -> RawInput:
        from hal.interfaces import RawTouch

        for start, (x, y) in events.items():
            if start <= tick < start + length:
                return RawInput(touch=RawTouch(x, y))
        return RawInput()

    return script


class GameDriver:
    """A headless machine running one game, with the inputs a player would give: the base of
    every game's test driver (`tests/games/<id>/<id>_driver.py`), which adds its game's own
    moves and waits."""

    game_id = ""
    tap_after = 2  # idle ticks after a tap's release

    def __init__(
        self,
        tmp: Path,
        seed: int = 1,
        draw: bool = True,
        store: Path | None = None,
        **options: str,
    ) -> None:
        kw: dict[str, Any] = {"game": self.game_id, "seed": seed, "options": options}
        if store is not None:
            kw["store_path"] = store
        self.m: Machine = machine_from_movie(tmp, **kw)
        self.draw = draw
        self.frames(1)

    @property
    def game(self) -> dict[str, Any]:
        game: dict[str, Any] = self.m.dump()["game"]
        return game

    @property
    def scene(self) -> Any:
        return running_game(self.m)

    def hotspots(self) -> dict[str, list[int]]:
        spots: dict[str, list[int]] = self.m.dump()["hotspots"]
        return spots

    def _script(self, script: Callable[[int], RawInput]) -> None:
        scripted_input(self.m).script = script

    def frames(self, n: int) -> None:
        self._script(lambda t: RawInput())
        run(self.m, n, draw=self.draw)

    def tap_xy(self, x: int, y: int, after: int | None = None) -> None:
        """Touch down for 3 ticks, then `after` idle ticks."""
        start = self.m.tick
        self._script(tap_script({start: (x, y)}))
        run(self.m, 3 + (self.tap_after if after is None else after), draw=self.draw)
        self._script(lambda t: RawInput())

    def tap(self, name: str, after: int | None = None) -> None:
        x, y, w, h = self.hotspots()[name]
        self.tap_xy(x + w // 2, y + h // 2, after)

    def press(self, button: Button, ticks: int = 2, after: int = 2) -> None:
        start, held = self.m.tick, frozenset({button})
        self._script(lambda t: RawInput(held=held if start <= t < start + ticks else frozenset()))
        run(self.m, ticks + after, draw=self.draw)
