"""Text that fits as a person sees it (issues 25 and 34): on every screen the sweeps reach, in
English and in Japanese, each text's ink lies a row clear of the screen's edge (titles
whole), inside the inner area of the box it lies on (one pixel of face clear of the frame:
firmware.gfx.trace), neither touching nor overlapping another text, and on one baseline
with the texts beside it.

Known boxes are the panels, bevelled boxes (buttons, menu rows) and the boxes a game declares
(`trace.box`, Killing Sevens' speech bubble). Not seen here: a text touching a line drawn
with pygame.draw alone (a highlight, a divider); the screenshots in docs/img are looked at
for that."""

from __future__ import annotations

import itertools
import re

import pytest
from link_sweep import LINK_MATCHES, sweep_link_match, sweep_lobby_labels, sweep_unit_games
from screen_sweep import (
    LANGUAGES,
    MOVIES,
    Drawn,
    Recorder,
    sweep_first_start,
    sweep_help_screens,
    sweep_movie,
    sweep_result_screens,
    sweep_setup_screens,
    sweep_system_screens,
    sweep_versus_screens,
)

from firmware.game_api import rule_broken

# Panel Link's score popups ("+30") float up across the board and the status row.
FLOATING = re.compile(r"\+\d+")
GAP = 3  # pixels between two texts on one row, so they never read as one


def _one_row(a: Drawn, b: Drawn) -> bool:
    """Two texts of one size side by side on a row (their lines mostly overlap)."""
    if a.scale != b.scale or a.ink.colliderect(b.ink) or a.box != b.box:
        return False  # (each button centres its own label)
    if FLOATING.fullmatch(a.text) or FLOATING.fullmatch(b.text):
        return False
    top, bottom = max(a.ink.top, b.ink.top), min(a.ink.bottom, b.ink.bottom)
    return bottom - top >= min(a.ink.h, b.ink.h) * 2 // 3 and abs(a.base - b.base) <= 4


def _problems(rec: Recorder) -> list[str]:
    drawn = rec.drawn
    out = []
    seen = [d for d in drawn if not rec.hidden(d)]
    for d in seen:
        edge = d.surface.get_rect().inflate(-2, -2)  # a row clear of the screen's edge
        if not edge.contains(d.ink) and not FLOATING.fullmatch(d.text):
            out.append(f"{d.text!r} at {tuple(d.ink)} runs to the edge of its "
                       f"{d.surface.get_size()} screen")
        if d.inner is not None and not d.inner.contains(d.ink):
            out.append(f"{d.text!r} at {tuple(d.ink)} is not inside its box {tuple(d.box)} "
                       f"(inner {tuple(d.inner)})")
    for badge in rec.badges:  # the link badge, drawn over the game's screen
        for d in seen:
            if d.surface is badge.surface and d.seq < badge.seq and d.ink.colliderect(badge.rect):
                out.append(f"{d.text!r} at {tuple(d.ink)} lies under the link badge "
                           f"{tuple(badge.rect)}")
    for a, b in itertools.combinations(seen, 2):
        if a.surface is not b.surface:
            continue
        row = _one_row(a, b) and not rec.layered(a, b)
        if row and a.base != b.base:
            out.append(
                f"{a.text!r} {tuple(a.ink)} and {b.text!r} {tuple(b.ink)} share a row "
                f"but not a baseline"
            )
        if row and max(a.ink.left - b.ink.right, b.ink.left - a.ink.right) < GAP:
            out.append(f"{a.text!r} {tuple(a.ink)} and {b.text!r} {tuple(b.ink)} touch")
        if not a.ink.colliderect(b.ink):
            if a.ink.inflate(2, 2).colliderect(b.ink) and not rec.layered(a, b):
                out.append(f"{a.text!r} {tuple(a.ink)} and {b.text!r} {tuple(b.ink)} touch")
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
    assert not problems, "\n".join([*problems, rule_broken("G7")])


@pytest.mark.parametrize(
    "sweep",
    [sweep_setup_screens, sweep_help_screens, sweep_result_screens, sweep_first_start,
     sweep_versus_screens, sweep_lobby_labels, sweep_system_screens, sweep_unit_games],
    ids=["setup", "help", "result", "first-start", "versus", "lobby-labels", "system",
         "unit-games"],
)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_fits_on_every_setup_help_and_first_start_screen(sweep, language, tmp_path):
    problems = []
    for where, rec in sweep(language, tmp_path):
        problems += [f"{where}: {p}" for p in _problems(rec)]
    problems = sorted(set(problems))
    assert not problems, "\n".join([*problems, rule_broken("G7")])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("match", LINK_MATCHES)
def test_every_text_fits_on_the_link_match_screens(match, language, tmp_path):
    """Reversi, Arimaa, Killing Sevens (2, 3 and 4 units), Region Select and Panel Link over
    the link: lobby, play, pause, a host gone quiet, the end, the records and the replay
    (tests/project/link_sweep.py)."""
    problems = []
    for where, rec in sweep_link_match(match, language, tmp_path):
        problems += [f"{where}: {p}" for p in _problems(rec)]
    problems = sorted(set(problems))
    assert not problems, "\n".join([*problems, rule_broken("G7")])


@pytest.mark.parametrize("language", LANGUAGES)
def test_settings_notes_stay_clear_of_its_rows(language, tmp_path):
    """Issue 24: a Settings note was printed over the 'Touch factory' row."""
    from screen_sweep import machine_in, recording

    from firmware.scenes.settings import SettingsScene

    m = machine_in(tmp_path, language)
    m.settings.swap = True  # the swap note is the one shown
    m.push(SettingsScene(m))
    with recording() as rec:
        m.render()
    m.store.close()
    assert any(d.text.startswith(("Touch stays", "いれかえちゅう")) for d in rec.drawn)
    problems = _problems(rec)
    assert not problems, "\n".join([*problems, rule_broken("G7")])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", ["network", "radio"])
def test_settings_names_the_link_in_use_inside_its_row(language, kind, tmp_path):
    """Issue 32: Settings says which link the unit uses (the radio module, or the network
    with its interface), in both languages, inside the panel with the swap note under it."""
    from screen_sweep import machine_in, recording

    from firmware.scenes.settings import SettingsScene
    from hal.link.memory import PipeLink

    class Link(PipeLink):
        def kind(self) -> str:
            return kind

        def describe(self) -> str:
            return "twinfold @ wlan0" if kind == "network" else "/dev/serial0"

    m = machine_in(tmp_path, language, link=Link(), link_name="Hana")
    m.settings.swap = True
    m.push(SettingsScene(m))
    with recording() as rec:
        m.render()
    m.store.close()
    expected = {
        ("network", "en"): "network wlan0",
        ("network", "ja"): "ネットワーク wlan0",
        ("radio", "en"): "radio module",
        ("radio", "ja"): "むせんモジュール",
    }[(kind, language)]
    assert any(d.text == expected for d in rec.drawn), [d.text for d in rec.drawn]
    problems = _problems(rec)
    assert not problems, "\n".join([*problems, rule_broken("G7")])
