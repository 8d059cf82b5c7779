"""Which board this is (issue 12 item 6): read from `/proc/device-tree/model` unless the
config names one. The name picks the match layer's device profile (`handheld.app`:
`device_profile`), whose speed scales the computer players' per-tick budget so a search that
takes 4 ms a tick on the desktop is cut to what fits the same wall time on a Raspberry Pi.

How the speeds (firmware/match/profiles.py, the one table) were obtained
(docs/performance.md, "Device backend"): `desktop` is the development machine (a 2-core
x86-64 server VM, Python 3.11), by definition 1.0. The Pi figures are estimates, not
measurements (no board was at hand): single-thread CPython throughput taken as clock x per-
clock throughput relative to the development machine's core (about 3 GHz, per-clock 1.0),
with per-clock factors for CPython of 0.6 for the Cortex-A76 (Pi 5, 2.4 GHz), 0.42 for the
A72 (Pi 4, 1.5 GHz; 1.8 GHz boards are faster) and 0.25 for the in-order A53 (Pi 3 B+ at 1.4
GHz, Zero 2 W at 1.0 GHz), each rounded down: pi5 2.4 x 0.6 / 3 = 0.48 -> 0.45; pi4 1.5 x
0.42 / 3 = 0.21 -> 0.2; pi3 1.4 x 0.25 / 3 = 0.117 -> 0.11; pi-zero-2w 1.0 x 0.25 / 3 =
0.083 -> 0.08. `bench/device_estimate.py` prints a reference figure; that figure measured on
a board, divided into the desktop's, replaces the estimate.
"""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger("twinfold")

PROFILES = ("desktop", "pi-zero-2w", "pi3", "pi4", "pi5")

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

