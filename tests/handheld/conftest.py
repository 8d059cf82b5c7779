"""The handheld's tests run on the device drivers' stand-ins (tests/hal/backends/device/
fakes.py), and import the device.toml writer beside this file (device_config.py)."""

import sys
from pathlib import Path

from tests.hal.backends.device.fakes import fakes, framebuffer

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

__all__ = ["fakes", "framebuffer"]
