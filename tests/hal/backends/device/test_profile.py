"""Board model -> board name (the profile the handheld asks the match layer for)."""

from __future__ import annotations

import pytest

from hal.backends.device.profile import detect_profile, profile_from_model


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
