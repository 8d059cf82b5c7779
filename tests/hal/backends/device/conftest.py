"""The device backend's hardware stand-ins (fakes.py) as fixtures for the driver tests."""

from tests.hal.backends.device.fakes import fakes, framebuffer

__all__ = ["fakes", "framebuffer"]
