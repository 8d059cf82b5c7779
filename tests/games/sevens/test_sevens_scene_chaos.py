"""Random buttons, touches and lid over Killing Sevens (P-REL-3): never a crash, and cards
always conserved in whatever state the game reaches."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sevens_driver import remember

from firmware.machine import Machine
from firmware.testing import machine_from_movie, run
from hal.interfaces import Button, RawInput, RawTouch

BUTTONS = list(Button)


def chaos(seed: int, m: Machine):  # type: ignore[no-untyped-def]
    """Random input; half of the touches land on one of the scene's hotspots, so play moves
    on (two taps on one card play it) and every screen is reached."""
    rng = random.Random(seed)
    state: dict[str, object] = {"held": frozenset(), "touch": None, "lid": False}

    def script(tick: int) -> RawInput:
        r = rng.random()
        if state["touch"] is not None and rng.random() < 0.5:
            state["touch"] = None  # most touches are short taps
        elif r < 0.10:
            # no START: the pause menu (tested with the firmware's scenes) would end the run
            state["held"] = frozenset(
                b for b in BUTTONS if b is not Button.START and rng.random() < 0.15
            )
        elif r < 0.25:
            state["touch"] = RawTouch(rng.uniform(0, 255), rng.uniform(0, 191))
        elif r < 0.45:
            spots = sorted(m.scene.hotspots().items())
            if spots and rng.random() < 0.5:
                rect = rng.choice(spots)[1]
                state["touch"] = RawTouch(float(rect.centerx), float(rect.centery))
        elif r < 0.55:
            state["touch"] = None
        elif r < 0.5505 or (state["lid"] and r > 0.95):
            state["lid"] = not state["lid"]  # closes now and then, opens again soon
        return RawInput(
            held=state["held"],  # type: ignore[arg-type]
            touch=state["touch"],  # type: ignore[arg-type]
            lid_closed=bool(state["lid"]),
        )

    return script


@pytest.mark.parametrize(
    "options",
    [
        {},  # the members dialog first
        {"seat1": "simpleton", "seat2": "brute", "seat3": "hitman", "extra_turn": "on"},
        {"seat1": "human", "seat2": "human", "seat3": "coward", "sevens_first": "on"},
    ],
)
def test_random_input_never_crashes_the_game(tmp_path: Path, options: dict[str, str]) -> None:
    remember(tmp_path, bubbles="fast", hints=True)
    m = machine_from_movie(tmp_path, game="sevens", seed=len(options), options=options)
    m.hal.input.script = chaos(len(options) + 1, m)  # type: ignore[attr-defined]
    for _ in range(8):
        run(m, 500)
        assert m.last_error is None, m.last_error
        scene = m.game_scene()
        if scene is not None and scene.game.match is not None:
            g = m.dump()["game"]
            if g["phase"] in ("play", "over"):
                table = sum(ch != "." for row in g["table"] for ch in row)
                assert sum(g["cards_left"]) + table == 52
