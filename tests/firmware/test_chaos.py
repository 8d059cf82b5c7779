"""P-REL-3: random buttons and touches over every firmware scene never raise out of a scene."""

from __future__ import annotations

import random
import zlib

import pytest

from firmware.scenes.buttontest import ButtonTestScene
from firmware.scenes.calibration import CalibrationScene
from firmware.scenes.error import ErrorScene
from firmware.scenes.launcher import LauncherScene
from firmware.scenes.prompts import ConfirmScene, NoticeScene
from firmware.scenes.records import RecordsScene
from firmware.scenes.settings import SettingsScene
from firmware.scenes.setup import SetupScene
from firmware.testing import machine_from_movie
from hal.interfaces import Button, RawInput, RawTouch

BUTTONS = list(Button)
FRAMES_PER_SCENE = 2000


def chaos_script(seed: int, lid: bool = True):
    rng = random.Random(seed)
    state = {"held": frozenset(), "touch": None, "lid": False}

    def script(tick: int) -> RawInput:
        r = rng.random()
        if r < 0.15:
            state["held"] = frozenset(b for b in BUTTONS if rng.random() < 0.15)
        elif r < 0.30:
            kind = rng.random()
            if kind < 0.05:  # noise a real panel can produce
                state["touch"] = RawTouch(rng.choice([float("nan"), -40.0, 999.0]), 50.0)
            else:
                state["touch"] = RawTouch(
                    rng.uniform(0, 255), rng.uniform(0, 191), rng.choice([None, rng.random()])
                )
        elif r < 0.40:
            state["touch"] = None
        elif lid and r < 0.401:
            state["lid"] = not state["lid"]
        return RawInput(held=state["held"], touch=state["touch"], lid_closed=state["lid"])

    return script


SCENES = {
    "launcher": lambda m: LauncherScene(m),
    "settings": lambda m: SettingsScene(m),
    "calibration": lambda m: CalibrationScene(m),
    "buttontest": lambda m: ButtonTestScene(m),
    "records": lambda m: RecordsScene(m, "pop"),
    "notice": lambda m: NoticeScene(m, "A notice"),
    "confirm": lambda m: ConfirmScene(m, "Sure?", lambda: None),
    "error": lambda m: ErrorScene(m, "test", RuntimeError("x")),
    "setup": lambda m: SetupScene(m, m.cartridges["pop"]),
}


@pytest.mark.parametrize("scene", [*SCENES, "pop", "boot"])
def test_random_input_never_crashes(tmp_path, scene):
    m = machine_from_movie(tmp_path, game="pop" if scene == "pop" else None, seed=1)
    if scene in SCENES:
        m.push(SCENES[scene](m))
    m.hal.input.script = chaos_script(zlib.crc32(scene.encode()))
    for _ in range(FRAMES_PER_SCENE):
        m.step()
        m.render()
        m.present()
        assert m.last_error is None, m.last_error
    assert m.tick == FRAMES_PER_SCENE
