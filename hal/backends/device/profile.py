"""Device profiles: which board this is, and how fast it runs Python compared with the
development machine (issue 12 item 6).

The match layer's computer players scale their per-tick budget by `relative_speed(profile)`
so a search that takes 4 ms a tick on the desktop is cut to what fits the same wall time on a
Raspberry Pi. The board is read from `/proc/device-tree/model` unless the config names one.

How the speeds were obtained (docs/performance.md, "Device backend"): `desktop` is the
development machine (AMD EPYC, Python 3.11), by definition 1.0. The Pi figures are
estimates, not measurements (no board was at hand): the ratio of single-thread CPython
throughput, taken as the ratio of (clock x instructions per clock) of the cores against the
development machine's, with the Cortex-A53 at 1.0 GHz (Zero 2 W) and 1.4 GHz (3 B+), the
Cortex-A72 at 1.8 GHz (4 B) and the Cortex-A76 at 2.4 GHz (5). `bench/device_profile.py`
runs the reference benchmark; its score on a real board divided by the desktop's replaces
the estimate (the numbers in the table are deliberately on the low side).
"""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger("twinfold")

PROFILES = ("desktop", "pi-zero-2w", "pi3", "pi4", "pi5")

# Fraction of the development machine's single-thread Python speed (see the module doc).
RELATIVE_SPEED: dict[str, float] = {
    "desktop": 1.0,
    "pi5": 0.40,
    "pi4": 0.20,
    "pi3": 0.10,
    "pi-zero-2w": 0.07,
}

# Model text (from the device tree) -> profile; the first matching prefix wins.
_MODELS: tuple[tuple[str, str], ...] = (
    ("Raspberry Pi Zero 2", "pi-zero-2w"),
    ("Raspberry Pi 500", "pi5"),
    ("Raspberry Pi 5", "pi5"),
    ("Raspberry Pi Compute Module 5", "pi5"),
    ("Raspberry Pi 400", "pi4"),
    ("Raspberry Pi 4", "pi4"),
    ("Raspberry Pi Compute Module 4", "pi4"),
    ("Raspberry Pi 3", "pi3"),
    ("Raspberry Pi Compute Module 3", "pi3"),
)


def profile_from_model(model: str) -> str:
    """The profile for a board model string (`/proc/device-tree/model`, NUL-terminated).

    Any other Raspberry Pi (older, slower boards) gets the slowest profile; anything that is
    not a Raspberry Pi is a desktop.
    """
    text = model.replace("\0", "").strip()
    for prefix, profile in _MODELS:
        if text.startswith(prefix):
            return profile
    if text.startswith("Raspberry Pi"):
        return "pi-zero-2w"
    return "desktop"


def detect_profile(
    configured: str = "auto", model_file: Path | str = "/proc/device-tree/model"
) -> str:
    """The configured profile, or (for "auto") the one of the board this runs on."""
    if configured != "auto":
        if configured not in PROFILES:
            raise ValueError(
                f"unknown device profile {configured!r} (profiles: {', '.join(PROFILES)})"
            )
        return configured
    try:
        model = Path(model_file).read_bytes().decode("utf-8", "replace")
    except OSError:
        return "desktop"
    return profile_from_model(model)


def relative_speed(profile: str) -> float:
    """Fraction of the development machine's speed (1.0 for unknown names: no scaling)."""
    return RELATIVE_SPEED.get(profile, 1.0)
