"""The first start's language choice (firmware/scenes/language.py, issue 25)."""

from __future__ import annotations

import pytest

from firmware.scenes.language import BUTTONS, LanguageScene
from firmware.testing import machine_from_movie, run, tap_script


def _on_language_screen(tmp_path, language="en"):
    m = machine_from_movie(tmp_path / "run", store_path=tmp_path / "store.db")
    m.settings.language = language
    done = []
    m.push(LanguageScene(m, lambda: done.append(m.settings.language)))
    return m, done


@pytest.mark.parametrize(("button", "chosen"), [("lang:ja", "ja"), ("lang:en", "en")])
def test_a_tap_chooses_saves_and_goes_on(tmp_path, button, chosen):
    m, done = _on_language_screen(tmp_path, language="ja" if chosen == "en" else "en")
    x, y = m.scene.hotspots()[button].center
    m.hal.input.script = tap_script({m.tick: (x, y)})
    run(m, 5)
    assert done == [chosen]
    m.store.close()
    again = machine_from_movie(tmp_path / "again", store_path=tmp_path / "store.db")
    assert again.settings.language == chosen
    again.store.close()


def test_the_choices_are_large_and_each_in_its_own_language(tmp_path):
    m, _ = _on_language_screen(tmp_path)
    m.render()
    for name, rect in BUTTONS.items():
        assert rect.w >= 180 and rect.h >= 48  # a big target, readable in either language
        ink = m.bottom.subsurface(rect.inflate(-8, -8)).copy()
        light = sum(
            1
            for x in range(ink.get_width())
            for y in range(ink.get_height())
            if sum(ink.get_at((x, y))[:3]) > 600
        )
        assert light > 150, name  # the label is drawn, at scale 2
    assert m.scene.dump() == {"choices": ["en", "ja"]}
    m.store.close()


def test_an_unknown_language_is_refused(tmp_path):
    m, done = _on_language_screen(tmp_path)
    with pytest.raises(ValueError, match="no language"):
        m.scene.choose("fr")
    assert done == [] and m.settings.language == "en"
    m.store.close()


def _booted(data_dir, ask_language=True):
    from firmware.boot import BootConfig, boot
    from hal.backends.headless import headless_hal

    return boot(headless_hal(data_dir), BootConfig(log=False, ask_language=ask_language))


def test_the_first_start_asks_the_language_once(tmp_path):
    m = _booted(tmp_path)
    run(m, 100)  # the boot animation ends by itself
    assert m.scene.name == "language"
    x, y = m.scene.hotspots()["lang:ja"].center
    m.hal.input.script = tap_script({m.tick: (x, y)})
    run(m, 5)
    assert m.scene.name == "launcher" and m.settings.language == "ja"
    assert m.tr("Settings", "せってい") == "せってい"
    m.store.close()
    again = _booted(tmp_path)  # the same store: the choice is remembered, not asked again
    run(again, 100)
    assert again.scene.name == "launcher" and again.settings.language == "ja"
    again.store.close()


def test_headless_runs_and_movies_are_not_asked(tmp_path):
    m = _booted(tmp_path, ask_language=False)
    run(m, 100)
    assert m.scene.name == "launcher" and m.settings.language == "en"
    m.store.close()


def test_headless_first_start_shows_the_language_choice_a_fresh_unit_shows(tmp_path):
    """`twinfold headless --first-start` reproduces a fresh handheld's first frames (the
    image's QEMU check compares its framebuffer with them); a movie then chooses."""
    import json

    from firmware.cli import main

    movie = tmp_path / "choose.movie"
    movie.write_text("# twinfold movie 1\n120 press DOWN\n126 release DOWN\n"
                     "150 press A\n156 release A\n")  # fmt: skip
    store = tmp_path / "store.db"
    first = tmp_path / "first.json"
    assert main(["headless", "--first-start", "--frames", "110", "--store", str(store),
                 "--dump", str(first)]) == 0  # fmt: skip
    assert json.loads(first.read_text())["scene"] == "language"
    store.unlink()
    chosen = tmp_path / "chosen.json"
    assert main(["headless", "--first-start", "--movie", str(movie), "--frames", "200",
                 "--store", str(store), "--dump", str(chosen)]) == 0  # fmt: skip
    assert json.loads(chosen.read_text())["scene"] == "launcher"
    plain = tmp_path / "plain.json"  # without the flag: straight to the launcher
    assert main(["headless", "--frames", "110", "--dump", str(plain)]) == 0
    assert json.loads(plain.read_text())["scene"] == "launcher"
