"""Render the README's Versus pictures: two headless units over the in-memory radio medium.

    .venv/bin/python tools/versus_screenshots.py      # (tools/screenshots.py runs it too)

Each unit plays its own input movie (docs/movies/versus/host.txt and guest.txt) on a lossless
`MemoryMedium` whose clock counts ticks, so every run draws the same frames. At fixed ticks
the script saves a unit's screens (or both units side by side) to docs/img/versus-*.png.
Pairing draws fresh keys and nonces from the OS; for pictures that stay the same from run to
run, this script (only) hands the units seeded random bytes instead.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from unittest import mock

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

if TYPE_CHECKING:
    from firmware.machine import Machine

ROOT = Path(__file__).resolve().parent.parent
MOVIES = ROOT / "docs" / "movies" / "versus"
OUT = ROOT / "docs" / "img"
UNITS = (("host", "Hana"), ("guest", "Ken"))
# picture -> (tick, units shown); ticks fit the movies' timelines
SHOTS: dict[str, tuple[int, tuple[str, ...]]] = {
    "versus-menu": (70, ("guest",)),
    "versus-lobby": (170, ("guest",)),
    "versus-pairing": (270, ("host", "guest")),
    "versus-reversi": (660, ("host", "guest")),
}
GAP = 24  # pixels between two units side by side (at 2x)


def side_by_side(pictures: list[pygame.Surface]) -> pygame.Surface:
    """Units next to each other on the shell's background colour."""
    w = sum(p.get_width() for p in pictures) + GAP * (len(pictures) - 1)
    out = pygame.Surface((w, max(p.get_height() for p in pictures)))
    out.fill((255, 255, 255))
    x = 0
    for picture in pictures:
        out.blit(picture, (x, 0))
        x += picture.get_width() + GAP
    return out


def render(names: list[str] | None = None) -> list[Path]:
    """Run both units to the last wanted shot; save the wanted pictures."""
    wanted = {n: SHOTS[n] for n in (names or SHOTS)}
    with seeded_secrets():
        return _run(wanted)


@contextmanager
def seeded_secrets() -> Iterator[None]:
    """Pairing keys, nonces and unit ids from a seeded generator (the same code every run)."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    from firmware.link import keyring, pairing

    rng = random.Random("twinfold versus pictures")

    class SeededKey:
        @staticmethod
        def generate() -> X25519PrivateKey:
            return X25519PrivateKey.from_private_bytes(rng.randbytes(32))

    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(pairing, "X25519PrivateKey", SeededKey))
        for module in (pairing, keyring):
            stack.enter_context(mock.patch.object(module.os, "urandom", rng.randbytes))
        yield


def play(data: Path, last: int) -> Iterator[tuple[int, dict[str, Machine]]]:
    """Both units on one lossless medium, each playing its movie; yields after every tick
    (0..last) with the units by role ("host", "guest")."""
    from firmware.testing import machine_from_movie
    from hal.link.memory import MemoryMedium

    pygame.init()
    clock = {"t": 0.0}
    medium = MemoryMedium(None, lambda: clock["t"])
    machines: dict[str, Machine] = {}
    for role, name in UNITS:
        movie = (MOVIES / f"{role}.txt").read_text()
        machine = machine_from_movie(data / name, movie, link=medium.attach(), link_name=name)
        machine.to_launcher()
        machines[role] = machine
    for tick in range(last + 1):
        clock["t"] = tick / 60
        for machine in machines.values():
            machine.step()
        yield tick, machines


def _run(wanted: dict[str, tuple[int, tuple[str, ...]]]) -> list[Path]:
    from hal.backends.headless import MemoryDisplay
    from tools.screenshots import compose

    saved: list[Path] = []
    last = max(tick for tick, _ in wanted.values())
    with tempfile.TemporaryDirectory() as tmp:
        for tick, machines in play(Path(tmp), last):
            for shot, (at, roles) in wanted.items():
                if at != tick:
                    continue
                pictures = []
                for role in roles:
                    machine = machines[role]
                    machine.render()
                    machine.present()
                    display = machine.hal.display
                    assert isinstance(display, MemoryDisplay)  # machine_from_movie's Hal
                    pictures.append(compose(display.upper, display.lower))
                OUT.mkdir(parents=True, exist_ok=True)
                out = OUT / f"{shot}.png"
                pygame.image.save(side_by_side(pictures), str(out))
                saved.append(out)
    return saved


def main(names: list[str]) -> int:
    unknown = [n for n in names if n not in SHOTS]
    if unknown:
        print(f"unknown picture(s): {', '.join(unknown)} (known: {', '.join(SHOTS)})")
        return 2
    for out in render(names):
        print(out.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
