"""Firmware scenes driven through the real input path: settings, calibration, records, notices."""

from __future__ import annotations

import pygame

from firmware.scenes.calibration import TARGETS
from firmware.testing import machine_from_movie, run, tap_script
from hal.interfaces import Button, RawInput, RawTouch
from hal.touch import Calibration


def tap(m, name):
    x, y = m.scene.hotspots()[name].center
    m.hal.input.script = tap_script({m.tick: (x, y)})
    run(m, 5)


def to_settings(tmp_path, **kw):
    m = machine_from_movie(tmp_path, **kw)
    run(m, 100)
    tap(m, "button:settings")
    assert m.scene.name == "settings"
    return m


def test_calibration_fits_and_stores_a_skewed_panel(tmp_path):
    """A panel whose raw readings are an affine distortion of the pixels is corrected."""
    m = to_settings(tmp_path)
    tap(m, "item:calibrate")
    assert m.scene.name == "calibration"
    # The panel reads raw = M * pixel + t; calibration must learn the inverse map.
    a, b, c, d, e, f = 1.1, 0.05, -7.0, -0.03, 0.95, 4.0

    class inverse:
        @staticmethod
        def apply(x, y):
            return a * x + b * y + c, d * x + e * y + f

    for tx, ty in TARGETS:
        rx, ry = inverse.apply(tx, ty)
        start = m.tick
        m.hal.input.script = lambda t, s=start, rx=rx, ry=ry: (
            RawInput(touch=RawTouch(rx, ry)) if s <= t < s + 6 else RawInput()
        )
        run(m, 8)
    assert m.scene.dump()["done"] and m.scene.dump()["residual"] < 0.5
    tap(m, "button:save")
    assert m.scene.name == "settings"
    stored = Calibration.from_json(m.store.get_calibration())
    for tx, ty in [(0, 0), (255, 191), (100, 50)]:
        rx, ry = inverse.apply(tx, ty)
        x, y = stored.apply(rx, ry)
        assert abs(x - tx) < 0.5 and abs(y - ty) < 0.5
    # The firmware now maps raw touches through the new calibration.
    rx, ry = inverse.apply(128, 96)
    m.hal.input.script = lambda t: RawInput(touch=RawTouch(rx, ry))
    m.step()
    assert m.touch.process(RawTouch(rx, ry)) is not None


def test_swap_language_volume_persist(tmp_path):
    store = tmp_path / "s.db"
    m = to_settings(tmp_path, store_path=store)
    tap(m, "item:volume:-")
    tap(m, "item:volume:-")
    tap(m, "item:swap")  # last: with swapped screens the stylus no longer reaches the menu
    assert m.settings.swap is True and m.settings.volume == 5
    m.hal.input.script = lambda t: RawInput()
    upper = m.hal.display.upper
    m.render()
    m.present()
    # Swapped: the lower logical image (the settings menu) is shown on the upper panel.
    assert pygame.image.tobytes(upper, "RGB") == pygame.image.tobytes(m.bottom, "RGB")
    m.store.close()
    m2 = machine_from_movie(tmp_path, store_path=store)
    assert m2.settings.swap is True and m2.settings.volume == 5


def test_language_switch_changes_text(tmp_path):
    m = to_settings(tmp_path)
    tap(m, "item:language")
    assert m.settings.language == "ja"
    assert m.tr("Settings", "せってい") == "せってい"
    assert m.scene.title == "せってい"


def test_button_test_lights_buttons_and_hold_b_leaves(tmp_path):
    m = to_settings(tmp_path)
    tap(m, "item:buttons")
    assert m.scene.name == "buttontest"
    m.hal.input.script = lambda t: RawInput(held=frozenset({Button.X, Button.UP}))
    run(m, 3)
    assert m.scene.dump()["held"] == ["UP", "X"]
    m.hal.input.script = lambda t: RawInput(held=frozenset({Button.B}))
    run(m, 70)
    assert m.scene.name == "settings"


def _damage_a_page(store):
    from firmware.storage import Store

    with Store.open(store) as s:
        for i in range(40):
            s.add_record("pop", {"i": i, "pad": "x" * 1500})
        s.set_setting("language", "ja")
    data = bytearray(store.read_bytes())
    data[4096 + 8 : 4096 + 600] = b"\xa5" * 592
    store.write_bytes(bytes(data))


def test_damaged_store_is_set_aside_and_boot_shows_notice(tmp_path):
    store = tmp_path / "s.db"
    _damage_a_page(store)
    m = machine_from_movie(tmp_path, store_path=store)
    run(m, 100)
    assert m.scene.name == "notice"
    assert list(tmp_path.glob("s.db.damaged-*"))
    tap(m, "item:ok")
    assert m.scene.name == "launcher"


def test_the_damage_notice_is_plain_and_whole_in_both_languages(tmp_path):
    """Issue 34, item 13: no SQLite internals on screen, and every sentence shown (the
    notice box shows NOTICE_LINES lines)."""
    from firmware.gfx import text
    from firmware.scenes.prompts import NOTICE_LINES

    store = tmp_path / "s.db"
    _damage_a_page(store)
    m = machine_from_movie(tmp_path, store_path=store)
    run(m, 100)
    assert m.scene.name == "notice"
    shown = []
    real_block = text.draw_block

    def spy(surface, lines, *a, **kw):
        shown.append(list(lines))
        return real_block(surface, lines, *a, **kw)

    for language in ("en", "ja"):
        m.settings.language = language
        shown.clear()
        text.draw_block = spy
        try:
            m.render()
        finally:
            text.draw_block = real_block
        words = "".join(shown[0])
        assert "***" not in words and "btree" not in words.lower()
        assert "s.db.damaged-1" in words
        whole = m.tr(m.notice.en, m.notice.ja)
        assert len(text.wrap(whole, 212)) <= NOTICE_LINES
        assert words == "".join(text.wrap(whole, 212))
        assert ("Nothing was lost." if language == "en" else "ありません。") in words


def test_finished_game_is_counted_and_recorded(tmp_path):
    m = machine_from_movie(tmp_path, game="pop", seed=1)
    m.hal.input.script = lambda t: RawInput()
    for _ in range(30000):
        m.step()
        if m.game_scene().game.game.s.over:
            break
    m.step()
    assert m.store.get_stats("pop")["played"] == 1
    records = m.store.list_records("pop")
    assert len(records) == 1 and records[0].record["score"] == 0
    assert m.store.load_suspend() is None


def test_every_store_notice_fits_its_panel_in_both_languages(tmp_path):
    """The longest repair notices (every kind back with big counts, every kind partly
    unreadable) still show whole: at most NOTICE_LINES lines of the panel's width."""
    import sys
    from pathlib import Path

    from firmware.gfx import text
    from firmware.scenes.prompts import NOTICE_LINES

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "project"))
    from screen_sweep import store_notices

    for where, notice in store_notices():
        for words in (notice.en, notice.ja):
            lines = text.wrap(words, 212)
            assert len(lines) <= NOTICE_LINES, (where, lines)
            # (kinsoku may hang a closing mark past 212; the panel is 232 wide)
            assert all(text.size(line)[0] <= 224 for line in lines), (where, lines)
            if len(lines) > 6:  # the tall panel: 4..188, the body from y=46
                assert 46 + len(lines) * text.line_pitch(lines) <= 184, (where, lines)
