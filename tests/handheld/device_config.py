"""A device.toml for tests: two ordinary files as RGB565 320x240 framebuffers (with their
sysfs-like folders), no input devices, no radio, no sound; `extra` is appended."""

from __future__ import annotations


def config_file(tmp_path, framebuffer, extra: str = "") -> str:
    dev0, sys0 = framebuffer(tmp_path, "fb0", 320, 240, 16)
    dev1, sys1 = framebuffer(tmp_path, "fb1", 320, 240, 16)
    path = tmp_path / "device.toml"
    path.write_text(
        f"""
[display.upper]
device = "{dev0}"
sysfs = "{sys0}"
[display.lower]
device = "{dev1}"
sysfs = "{sys1}"
[input]
scan_dir = "{tmp_path / "input"}"
[radio]
enabled = false
[system]
data_dir = "{tmp_path / "data"}"
audio = false
{extra}
"""
    )
    return str(path)
