"""Board -> the match layer's device profile -> the computer players' per-tick budget."""

from __future__ import annotations

from firmware.match.profiles import PROFILES as MATCH_PROFILES
from hal.backends.device.config import DeviceConfig, SystemConfig
from hal.backends.device.profile import PROFILES
from handheld.app import RELATIVE_SPEED, device_profile, relative_speed


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
