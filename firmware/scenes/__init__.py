"""The firmware's own scenes: boot, launcher, game wrapper, pause, settings, errors."""
