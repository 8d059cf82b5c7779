"""The emulator's import path for `hal.quiet` (the device backend uses it too)."""

from hal.quiet import captured_stderr

__all__ = ["captured_stderr"]
