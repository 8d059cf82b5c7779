"""Random input never breaks the scene: taps, drags, buttons and lid anywhere, in every
mode; the game stays consistent and saves/restores at any moment (P-GAME-2, P-GAME-6)."""

from __future__ import annotations

import random

import pytest
from panels_driver import Driver

from firmware.testing import run
from games.panels.rules import GameState
from hal.interfaces import Button, RawInput, RawTouch

BUTTONS = [Button.A, Button.B, Button.UP, Button.DOWN, Button.LEFT, Button.RIGHT, Button.L,
           Button.R]


@pytest.mark.parametrize(("mode", "seed"), [("two", 1), ("cpu", 2), ("two", 3)])
def test_random_input_keeps_the_scene_consistent(tmp_path, mode, seed) -> None:
    d = Driver(tmp_path, seed=seed, draw=True, mode=mode, level="4", removal="on")
    rng = random.Random(seed)
    script: list[RawInput] = []
    for _ in range(400):
        kind = rng.random()
        ticks = rng.randrange(1, 8)
        if kind < 0.6:
            x, y = rng.randrange(256), rng.randrange(192)
            for k in range(ticks):  # a tap, or a short drag
                script.append(RawInput(touch=RawTouch(min(255, x + k * rng.randrange(4)), y)))
        elif kind < 0.9:
            script += [RawInput(held=frozenset({rng.choice(BUTTONS)}))] * ticks
        script += [RawInput()] * rng.randrange(1, 6)
    d.m.hal.input.script = lambda t: script[t] if t < len(script) else RawInput()
    start = d.m.tick
    for i in range(len(script)):
        d.m.hal.input.script = lambda t, i=i: script[i]  # type: ignore[attr-defined]
        run(d.m, 1, draw=True)
        if i % 97 == 0:
            scene = d.scene
            assert d.m.scene.name in ("panels", "pause"), d.m.last_error
            state = scene.rules.state
            assert GameState.from_json(state.to_json()).to_json() == state.to_json()
            saved = scene.save_state()
            scene.load_state(saved)  # save and load at any moment change nothing
            assert scene.save_state() == saved
    assert d.m.tick - start == len(script)
    assert getattr(d.m, "last_error", None) is None
