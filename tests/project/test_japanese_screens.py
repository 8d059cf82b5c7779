"""The Japanese screens a person found wrong though the old fit check passed (issue 34, items
1-6), each asked the way the person saw it: through what the drawing helpers report
(firmware.gfx.trace), in English and in Japanese."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pygame
import pytest
from screen_sweep import LANGUAGES, machine_in
from test_translations import english_words

from firmware.game_api import rule_broken
from firmware.gfx import trace
from firmware.machine import Machine
from firmware.testing import run


def _seen(m: Machine) -> trace.Trace:
    with trace.recording() as seen:
        m.render()
    return seen


def _outside_their_box(seen: trace.Trace) -> list[str]:
    """Each text whose ink is not inside the inner area of the box it lies on."""
    out = []
    for t in seen.texts:
        own = seen.own_box(t)
        if own is not None and not own.inner.contains(t.ink):
            out.append(f"{t.text!r} at {tuple(t.ink)} in the box {tuple(own.rect)}")
    return out


def _shown(seen: trace.Trace) -> list[str]:
    return [t.text for t in seen.texts]


@pytest.mark.parametrize("language", LANGUAGES)
def test_settings_rows_keep_names_and_values_inside(language: str, tmp_path: Path) -> None:
    """Item 1: the grey names (ことば) sat on the top border of their row, tall values
    (日本語) stuck out above it."""
    from firmware.scenes.settings import SettingsScene

    m = machine_in(tmp_path, language)
    m.push(SettingsScene(m))
    problems = _outside_their_box(_seen(m))
    m.store.close()
    assert not problems, "\n".join([*problems, rule_broken("G7")])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_setup_row_shows_its_name_and_value_whole_inside(language, tmp_path):
    """Items 1 and 4: on every game's setup screen, every choice of every option: names and
    values inside their rows, and no name shortened ("あなたの い…")."""
    from firmware.scenes.setup import SetupScene

    m = machine_in(tmp_path, language)
    problems = []
    for cart in m.cartridges.values():
        scene = SetupScene(m, cart)
        m.push(scene)
        for opt in cart.options:
            for choice in opt.choices:
                scene.values[opt.key] = choice
                seen = _seen(m)
                where = f"{cart.id} {opt.key}={choice}"
                problems += [f"{where}: {p}" for p in _outside_their_box(seen)]
                problems += [f"{where}: {s!r} cut" for s in _shown(seen) if s.endswith("…")]
            scene.values[opt.key] = opt.default
        m.pop()
    m.store.close()
    assert not problems, "\n".join([*sorted(set(problems)), rule_broken("G7")])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_saved_game_line_fits_the_launcher_panel(language, tmp_path):
    """Item 2: "セーブした ゲームが ありま" was cut at the panel's edge, for every game."""
    m = machine_in(tmp_path, language)
    problems = []
    for game_id in m.cartridges:
        m.saved.add(game_id)
        m.to_launcher(selected=game_id)
        seen = _seen(m)
        line = [t for t in seen.texts if 66 <= t.ink.y <= 80 and t.ink.x >= 96]  # by the disk
        assert line, f"{game_id}: no saved-game line"
        problems += [f"{game_id}: {p}" for p in _outside_their_box(seen)]
    m.store.close()
    assert not problems, "\n".join([*problems, rule_broken("G7")])


@pytest.mark.parametrize("language", LANGUAGES)
def test_killing_sevens_title_is_whole_on_its_members_and_options_screens(language, tmp_path):
    """Item 3: 殺しの7並べ was clipped at the top edge of the upper screen."""
    m = machine_in(tmp_path, language, game="sevens", seed=1)
    run(m, 5, draw=False)
    game = m.scene.game  # type: ignore[attr-defined]
    for phase in ("members", "options"):
        game.phase = phase
        seen = _seen(m)
        title = [t for t in seen.texts if t.text in ("Killing Sevens", "殺しの7並べ")]
        assert title, f"no title on the {phase} screen"
        screen = pygame.Rect(0, 0, 256, 192).inflate(-2, -2)
        assert all(screen.contains(t.ink) for t in title), (phase, [tuple(t.ink) for t in title])
    m.store.close()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("game", "options"),
    [("panels", {"mode": "cpu"}), ("panels", {"mode": "two"}),
     ("arimaa", {"mode": "cpu", "setup": "default"}),
     ("arimaa", {"mode": "two", "setup": "default"})],
)
def test_player_names_sit_whole_inside_their_boxes(game, options, language, tmp_path):
    """Item 4: あなた stuck out above its box in Panel Link and Arimaa, and Arimaa's box cut
    "コンピューター…"."""
    m = machine_in(tmp_path, language, game=game, seed=1, options=options)
    run(m, 5, draw=False)
    seen = _seen(m)
    m.store.close()
    problems = _outside_their_box(seen)
    # (Arimaa's moves list shortens its long lines of steps on purpose)
    problems += [f"{s!r} cut" for s in _shown(seen) if s.endswith("…") and not s[0].isdigit()]
    assert not problems, "\n".join([*problems, rule_broken("G7")])


@pytest.mark.parametrize("level", ["beginner", "novice", "intermediate", "strong"])
def test_reversi_names_the_computer_in_japanese(level, tmp_path):
    """Item 5: the level's name was put into both languages ("CPU intermediate"), and the
    board's full-width letters hid it from the word check."""
    m = machine_in(tmp_path, "ja", game="reversi", seed=1, options={"level": level})
    run(m, 5, draw=False)
    seen = _seen(m)
    m.store.close()
    english = [t.text for t in seen.texts if english_words(unicodedata.normalize("NFKC", t.text))]
    assert not english, f"{english}: {rule_broken('G4')}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_killing_sevens_setup_says_last_time_only_after_a_game(language, tmp_path):
    """Item 6: a unit that never played showed 前回 (last time) for every option."""
    from firmware.scenes.setup import SetupScene
    from games.sevens.scene.setup import SETUP_KEY, Setup

    last = {"en": "last", "ja": "前回"}[language]
    m = machine_in(tmp_path, language)
    cart = m.cartridges["sevens"]
    m.push(SetupScene(m, cart))
    fresh = _shown(_seen(m))
    m.pop()
    m.store.set_setting(f"game:sevens:{SETUP_KEY}", Setup().to_json())  # a game played
    m.push(SetupScene(m, cart))
    played = _shown(_seen(m))
    m.store.close()
    assert last not in fresh, fresh
    assert played.count(last) == len(cart.options) - 1  # every option but the mode
