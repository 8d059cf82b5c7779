"""Test-wide set-up: no window or audio device is ever needed (P-BE-1)."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# Speed is measured by the benchmarks, never by tests: a loaded CI machine must not turn a
# slow example into a failure.
from hypothesis import HealthCheck, settings

settings.register_profile("twinfold", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("twinfold")
