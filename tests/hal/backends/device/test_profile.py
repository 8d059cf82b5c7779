"""Board model -> device profile -> the match layer's per-tick budget."""

from __future__ import annotations

import pytest

from firmware.match.profiles import PROFILES as MATCH_PROFILES
from hal.backends.device.app import device_profile
from hal.backends.device.config import DeviceConfig, SystemConfig
from hal.backends.device.profile import (
    PROFILES,
    RELATIVE_SPEED,
    detect_profile,
    profile_from_model,
    relative_speed,
)


@pytest.mark.parametrize(
    ("model", "profile"),
    [
        ("Raspberry Pi Zero 2 W Rev 1.0\0", "pi-zero-2w"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3\0", "pi3"),
        ("Raspberry Pi 3 Model A Plus Rev 1.1", "pi3"),
        ("Raspberry Pi 4 Model B Rev 1.5\0", "pi4"),
        ("Raspberry Pi 400 Rev 1.0\0", "pi4"),
        ("Raspberry Pi Compute Module 4 Rev 1.1", "pi4"),
        ("Raspberry Pi 5 Model B Rev 1.0\0", "pi5"),
        ("Raspberry Pi 500 Rev 1.0", "pi5"),
        ("Raspberry Pi 2 Model B Rev 1.1", "pi-zero-2w"),  # older Pis: the slowest profile
        ("Pine64 RockPro64", "desktop"),
        ("", "desktop"),
    ],
)
def test_models(model, profile):
    assert profile_from_model(model) == profile


def test_detect_from_file_config_or_absence(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    assert detect_profile("auto", model) == "pi4"
    assert detect_profile("pi5", model) == "pi5"  # the config wins
    assert detect_profile("auto", tmp_path / "missing") == "desktop"
    with pytest.raises(ValueError, match="pi2"):
        detect_profile("pi2", model)


def test_speeds_are_ordered_and_name_every_profile():
    assert set(RELATIVE_SPEED) == set(PROFILES) <= set(MATCH_PROFILES)
    order = ["pi-zero-2w", "pi3", "pi4", "pi5", "desktop"]
    speeds = [relative_speed(p) for p in order]
    assert speeds == sorted(speeds) and speeds[-1] == 1.0 and len(set(speeds)) == 5


def test_the_machine_profile_scales_budgets(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\x00")
    config = DeviceConfig(system=SystemConfig(model_file=str(model)))
    profile = device_profile(config)
    assert profile.name == "pi-zero-2w" and profile.speed == RELATIVE_SPEED["pi-zero-2w"]
    assert profile.mode == "worker"  # the board's spare cores think (the match layer's mode)
    assert profile.budget(1000) < device_profile(DeviceConfig(system=SystemConfig(
        model_file=str(tmp_path / "none")))).budget(1000)  # fmt: skip
