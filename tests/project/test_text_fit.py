"""Text that fits (issue 25): on every screen the screenshot movies reach, in English and in
Japanese, each text lies on its surface (nothing clipped or beyond the screen), inside the
button it labels, and clear of every other text."""

from __future__ import annotations

import itertools

import pytest
from screen_sweep import LANGUAGES, MOVIES, Recorder, sweep_movie


def _problems(rec: Recorder) -> list[str]:
    drawn = rec.drawn
    out = []
    for d in drawn:
        if not d.surface.get_rect().contains(d.ink):
            out.append(f"{d.text!r} at {tuple(d.ink)} runs off its {d.surface.get_size()} surface")
        if d.box is not None and not d.box.contains(d.ink):
            out.append(f"{d.text!r} at {tuple(d.ink)} sticks out of its button {tuple(d.box)}")
    for a, b in itertools.combinations(drawn, 2):
        if a.surface is not b.surface or not a.ink.colliderect(b.ink):
            continue
        if (a.text, a.ink) != (b.text, b.ink) and not rec.hidden_between(a, b):
            out.append(f"{a.text!r} {tuple(a.ink)} overlaps {b.text!r} {tuple(b.ink)}")
    return out


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("movie", MOVIES, ids=[m.stem for m in MOVIES])
def test_every_text_fits_on_the_movie_screens(movie, language, tmp_path):
    problems = []
    for frame, rec in sweep_movie(movie, language, tmp_path):
        problems += [f"frame {frame}: {p}" for p in _problems(rec)]
    problems = sorted(set(problems))
    assert not problems, "\n".join(problems)
