"""Random surfaces for n = 3..15 crossings (R-REG-GEN-1).

A random table diagram of the right parity (3_1 ... 8_21, at most n crossings) is grown by
Reidemeister II moves: an arc is pushed across another arc of the same face, adding two
crossings and splitting the face. The face is chosen with weight (sides)^2 and the two arcs
preferably not next to each other, all from the seeded generator, so the result is a
planar, one-component curve by construction (and validated anyway). A shadow with a face of
more than 5 sides (a point with more than 5 lines: only thin wedges would fit around it on
the screen) or whose surface cannot be drawn legibly is discarded and another one grown;
every accepted surface is also checked solvable by the puzzle layer."""

from __future__ import annotations

import random

from games.regions.rules.catalogue import PD_CODES
from games.regions.rules.layout import SCREEN, Drawing, DrawingError, draw
from games.regions.rules.shadow import Shadow, add_bigon, from_pd, rot
from games.regions.rules.surface import Surface

MIN_CROSSINGS = 3
MAX_CROSSINGS = 15
MAX_TRIES = 40  # shadows drawn without success before giving up
MAX_SHADOWS = 2000  # shadows grown at most (most are skipped without drawing)
MAX_FACE_SIDES = 5


class GenerationError(ValueError):
    """No drawable surface of that size was found."""


def random_shadow(n: int, rng: random.Random) -> Shadow:
    """A random shadow with exactly n crossings."""
    if not MIN_CROSSINGS <= n <= MAX_CROSSINGS:
        raise GenerationError(f"crossings must be {MIN_CROSSINGS}..{MAX_CROSSINGS}, not {n}")
    starts = sorted(
        name for name, code in PD_CODES.items() if len(code) <= min(n, 8) and len(code) % 2 == n % 2
    )
    sh = from_pd(PD_CODES[rng.choice(starts)])
    while sh.crossings < n:
        sizes = [len(f) for f in sh.faces]
        face = rng.choices(range(len(sizes)), weights=[z * z for z in sizes])[0]
        cycle = sh.faces[face]  # darts in walk order; the arc leaving unrot(d) borders it
        sides = [sh.link[d] for d in cycle]
        if len(sides) < 2:
            continue
        i = rng.randrange(len(sides))
        far = [j for j in range(len(sides)) if (j - i) % len(sides) not in (0, 1, len(sides) - 1)]
        near = [j for j in range(len(sides)) if j != i]
        j = rng.choice(far or near)
        d1, d2 = sides[i], sides[j]
        if sh.face_of[rot(d1)] != face or sh.face_of[rot(d2)] != face or d2 in (d1, sh.link[d1]):
            continue
        sh = add_bigon(sh, d1, d2)
    return sh


def random_surface(
    n: int, rng: random.Random, rect: tuple[float, float, float, float] = SCREEN
) -> tuple[Surface, Drawing]:
    """A random surface with n game regions together with its drawing.

    Shadows with a face of more than MAX_FACE_SIDES sides (a point with that many lines,
    which leaves only thin wedges around it on a 256x192 screen) are skipped before drawing.
    `rect` is where on the lower screen the surface is drawn (the whole screen by default).
    """
    drawn = 0
    for _ in range(MAX_SHADOWS):
        surface = Surface(random_shadow(n, rng))
        if max(surface.degree) > MAX_FACE_SIDES:
            continue
        try:
            return surface, draw(surface, rect, attempts=2)
        except DrawingError:
            drawn += 1
            if drawn >= MAX_TRIES:
                break
    raise GenerationError(f"no legible surface with {n} crossings found")
