"""Keyboard / gamepad map: validation, overrides from keymap.json, events to RawInput."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from emulator.keymap import (
    DEFAULT_KEYMAP,
    HOTKEYS,
    EmuInput,
    Keymap,
    KeymapError,
    KeySpec,
    load_keymap,
    merged,
)
from emulator.layout import Layout
from hal.interfaces import Button


@pytest.fixture(autouse=True)
def _pygame() -> None:
    """Key names resolve only with pygame initialised (another test may have quit it)."""
    pygame.init()


def key(name: str) -> int:
    return pygame.key.key_code(name)


def down(name: str, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key(name), mod=mod)


def up(name: str) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYUP, key=key(name), mod=0)


@pytest.fixture
def source() -> EmuInput:
    return EmuInput(Keymap.from_dict(merged({})), Layout("vertical", 2, 10).geometry())


def test_defaults_cover_every_button_and_hotkey() -> None:
    km = Keymap.from_dict(merged({}))
    assert {km.keys[k] for k in km.keys} >= {b.value for b in Button} | {"LID", "POWER"}
    assert {action for _, action in km.hotkeys} == set(HOTKEYS)


def test_key_specs_parse_modifiers_and_plus_keys() -> None:
    assert KeySpec.parse("ctrl+r") == KeySpec(key("r"), frozenset({"ctrl"}))
    assert KeySpec.parse("Shift+F1") == KeySpec(key("f1"), frozenset({"shift"}))
    assert KeySpec.parse("keypad +") == KeySpec(key("keypad +"))
    assert KeySpec.parse("ctrl+keypad +") == KeySpec(key("keypad +"), frozenset({"ctrl"}))
    for bad in ("", "nosuchkey", "hyper+x", "ctrl+"):
        with pytest.raises(KeymapError):
            KeySpec.parse(bad)


def test_buttons_follow_key_presses(source: EmuInput) -> None:
    assert source.handle(down("x")) == []
    source.handle(down("up"))
    assert source.poll(0).held == {Button.A, Button.UP}
    source.handle(up("x"))
    assert source.poll(1).held == {Button.UP}
    # modifiers do not stop a button key: holding shift while pressing Z is still B
    source.handle(down("z", pygame.KMOD_LSHIFT))
    assert Button.B in source.poll(2).held


def test_hotkeys_match_modifiers_exactly_and_never_reach_the_machine(source: EmuInput) -> None:
    assert source.handle(down("f1")) == [("load_state_1", True)]
    assert source.handle(down("f1", pygame.KMOD_LSHIFT)) == [("save_state_1", True)]
    assert source.handle(down("r", pygame.KMOD_LCTRL)) == [("reset", True)]
    assert source.handle(down("r")) == [("rewind", True)]  # plain R: another hotkey
    assert source.handle(down("tab")) == [("fast_forward", True)]
    assert source.handle(up("tab")) == [("fast_forward", False)]
    assert source.poll(0).held == frozenset()


def test_lid_toggles_and_power_is_held(source: EmuInput) -> None:
    source.handle(down("f5"))
    assert source.poll(0).lid_closed
    source.handle(up("f5"))
    source.handle(down("f5"))
    source.handle(up("f5"))
    assert not source.poll(1).lid_closed
    source.handle(down("f6"))
    assert source.poll(2).power_pressed
    source.handle(up("f6"))
    assert not source.poll(3).power_pressed


def test_mouse_is_the_stylus_only_over_the_lower_panel(source: EmuInput) -> None:
    geo = source.geometry
    wx, wy = geo.to_window(17, 120)
    source.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(wx, wy), buttons=(0, 0, 0)))
    assert source.poll(0).touch is None  # hovering is not touching
    source.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(wx, wy), button=1))
    touch = source.poll(1).touch
    assert touch is not None and (touch.x, touch.y) == (17, 120)
    # dragging onto the upper panel lifts the stylus; back onto the lower one touches again
    source.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), buttons=(1, 0, 0)))
    assert source.poll(2).touch is None
    wx, wy = geo.to_window(255, 191)
    source.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(wx, wy), buttons=(1, 0, 0)))
    touch = source.poll(3).touch
    assert touch is not None and (touch.x, touch.y) == (255, 191)
    source.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(wx, wy), button=1))
    assert source.poll(4).touch is None
    # the right button is not the stylus
    source.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(wx, wy), button=3))
    assert source.poll(5).touch is None


def test_focus_loss_releases_everything(source: EmuInput) -> None:
    source.handle(down("x"))
    source.handle(down("tab"))
    wx, wy = source.geometry.to_window(3, 3)
    source.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(wx, wy), button=1))
    released = source.handle(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert released == [("fast_forward", False)]
    raw = source.poll(0)
    assert raw.held == frozenset() and raw.touch is None


def test_window_close_requests_quit(source: EmuInput) -> None:
    source.handle(pygame.event.Event(pygame.QUIT))
    assert source.poll(0).quit_requested


def test_gamepad_buttons_hat_and_axes_with_dead_zone(source: EmuInput) -> None:
    ev = pygame.event.Event
    source.handle(ev(pygame.JOYBUTTONDOWN, instance_id=0, button=1))
    source.handle(ev(pygame.JOYBUTTONDOWN, instance_id=0, button=7))
    assert source.poll(0).held == {Button.A, Button.START}
    source.handle(ev(pygame.JOYBUTTONUP, instance_id=0, button=7))
    source.handle(ev(pygame.JOYHATMOTION, instance_id=0, hat=0, value=(-1, 1)))
    assert source.poll(1).held == {Button.A, Button.LEFT, Button.UP}
    source.handle(ev(pygame.JOYHATMOTION, instance_id=0, hat=0, value=(0, 0)))
    source.handle(ev(pygame.JOYAXISMOTION, instance_id=0, axis=0, value=-0.3))
    assert source.poll(2).held == {Button.A}  # inside the dead zone
    source.handle(ev(pygame.JOYAXISMOTION, instance_id=0, axis=0, value=0.9))
    source.handle(ev(pygame.JOYAXISMOTION, instance_id=0, axis=1, value=0.7))
    assert source.poll(3).held == {Button.A, Button.RIGHT, Button.DOWN}
    # a second pad adds to the first; unplugging the first forgets its state
    source.handle(ev(pygame.JOYBUTTONDOWN, instance_id=1, button=0))
    source.handle(ev(pygame.JOYDEVICEREMOVED, instance_id=0))
    assert source.poll(4).held == {Button.B}


def test_keymap_file_overrides_entries(tmp_path: Path) -> None:
    (tmp_path / "keymap.json").write_text(
        json.dumps(
            {
                "keyboard": {"A": ["k"], "B": "j"},
                "hotkeys": {"screenshot": ["ctrl+s"]},
                "gamepad": {"buttons": {"0": "A"}, "dead_zone": 0.25},
            }
        )
    )
    km = load_keymap(tmp_path)
    assert km.keys[key("k")] == "A" and key("x") not in km.keys
    assert km.keys[key("j")] == "B"
    assert km.keys[key("up")] == "UP"  # untouched entries keep their defaults
    assert km.hotkey_for(key("s"), pygame.KMOD_LCTRL) == "screenshot"
    assert km.hotkey_for(key("f12"), 0) is None
    assert km.pad_buttons == {0: Button.A}
    assert km.dead_zone == 0.25


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"keyboard": {"Q": ["k"]}}', "unknown button"),
        ('{"keyboard": {"A": ["k"], "B": ["k"]}}', "mapped to both"),
        ('{"keyboard": {"A": ["ctrl+k"]}}', "no modifiers"),
        ('{"hotkeys": {"pause": ["x"]}}', "already the A button"),
        ('{"hotkeys": {"pause": ["f12"]}}', "bound to both"),
        ('{"hotkeys": {"explode": ["f12"]}}', "unknown action"),
        ('{"mouse": {}}', "unknown section"),
        ('{"gamepad": {"dead_zone": 2}}', "dead_zone"),
        ('{"gamepad": {"axes": {"0": ["LEFT"]}}}', "gamepad.axes.0"),
        ('{"gamepad": {"buttons": {"-1": "A"}}}', "negative"),
    ],
)
def test_bad_keymap_files_say_where(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "keymap.json").write_text(content)
    with pytest.raises(KeymapError) as info:
        load_keymap(tmp_path)
    assert message in str(info.value)
    assert "keymap.json" in str(info.value)


def test_defaults_are_not_changed_by_merging() -> None:
    before = json.dumps(DEFAULT_KEYMAP, sort_keys=True)
    merged({"keyboard": {"A": ["k"]}, "gamepad": {"buttons": {}}})
    assert json.dumps(DEFAULT_KEYMAP, sort_keys=True) == before


def test_the_new_hotkeys_can_be_rebound(tmp_path: Path) -> None:
    overrides = {
        "hotkeys": {
            "rewind": ["`"],
            "clip": ["ctrl+g"],
            "undo_load_state": ["alt+u"],
            "state_picker": ["f1"],  # the picker where slot 1 was loaded...
            "load_state_1": ["ctrl+1"],  # ...which moves elsewhere
            "fullscreen": ["f11"],
            "record": ["ctrl+m"],
            "fit_mode": ["alt+f"],
        }
    }
    (tmp_path / "keymap.json").write_text(json.dumps(overrides))
    km = load_keymap(tmp_path)
    assert km.hotkey_for(pygame.key.key_code("`"), 0) == "rewind"
    assert km.hotkey_for(pygame.key.key_code("r"), 0) is None  # the old key is free again
    assert km.hotkey_for(pygame.key.key_code("g"), pygame.KMOD_LCTRL) == "clip"
    assert km.hotkey_for(pygame.key.key_code("u"), pygame.KMOD_LALT) == "undo_load_state"
    assert km.hotkey_for(pygame.key.key_code("f1"), 0) == "state_picker"
    assert km.hotkey_for(pygame.key.key_code("f11"), 0) == "fullscreen"
    assert km.hotkey_for(pygame.key.key_code("f"), pygame.KMOD_LALT) == "fit_mode"
