"""Keyboard and gamepad map (P-HW-3: configuration, not code) and the emulator's input source.

The map is a plain dict: `DEFAULT_KEYMAP` below, with any entries of `keymap.json` in the
data directory laid over it. Keys are named as pygame names them (`pygame.key.key_code`),
optionally with modifiers: "ctrl+r", "shift+f1". Gamepads go through pygame's joystick API
(buttons by index, the first hat as the D-pad, axes with a dead zone).

`EmuInput` keeps the state of keys, mouse and pads from the pygame events the app hands it
(never from polling the devices, so posted events behave exactly like real ones) and turns
it into one `RawInput` per tick. Key presses bound to emulator hotkeys are returned to the
app instead of reaching the machine.
"""

from __future__ import annotations

import copy
import json
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pygame

from emulator.layout import Geometry
from hal.interfaces import Button, InputSource, RawInput, RawTouch
from hal.latch import InputLatch

KEYMAP_FILE = "keymap.json"
SYSTEM_KEYS = ("LID", "POWER")  # lid toggles per press; power is held like a button

# Hotkeys: emulator actions, never seen by the firmware.
HOTKEYS = (
    "pause",
    "frame_advance",
    "fast_forward",
    "rewind",
    "screenshot",
    "clip",
    "record",
    "reset",
    "overlay",
    "layout",
    "fullscreen",
    "fit_mode",
    "focus",
    "swap",
    "scale_up",
    "scale_down",
    "save_state_1",
    "save_state_2",
    "save_state_3",
    "save_state_4",
    "load_state_1",
    "load_state_2",
    "load_state_3",
    "load_state_4",
    "undo_load_state",
    "state_picker",
    "quit",
    "quit_now",
)

# What each hotkey does, for `twinfold emu --help` (docs/emulator.md says more).
HOTKEY_HELP = {
    "pause": "pause / resume",
    "frame_advance": "run one frame (pauses first)",
    "fast_forward": "fast-forward x4 while held",
    "rewind": "run backwards while held (the last 60 s), play on when released",
    "screenshot": "screenshot of both screens (screenshots/)",
    "clip": "the last 30 s as a clip in clips/ (GIF unless --clip-format says)",
    "record": "start / stop recording a movie (movies/)",
    "reset": "reset (power cycle)",
    "overlay": "FPS and frame-time overlay",
    "layout": "next layout: vertical, horizontal, hybrid, single, windows",
    "fullscreen": "fullscreen on / off",
    "fit_mode": "whole-number scale (crisp) / largest fit",
    "focus": "hybrid: the large screen; single: the screen shown",
    "swap": "swap the screens (the firmware setting)",
    "scale_up": "larger window (next whole-number scale)",
    "scale_down": "smaller window",
    "save_state_1": "save state slot 1",
    "save_state_2": "save state slot 2",
    "save_state_3": "save state slot 3",
    "save_state_4": "save state slot 4",
    "load_state_1": "load state slot 1",
    "load_state_2": "load state slot 2",
    "load_state_3": "load state slot 3",
    "load_state_4": "load state slot 4",
    "undo_load_state": "undo the last state load",
    "state_picker": "show the state slots (thumbnails, times)",
    "quit": "quit (press twice within 2 s)",
    "quit_now": "quit at once",
}

DEFAULT_KEYMAP: dict[str, Any] = {
    "keyboard": {
        "UP": ["up"],
        "DOWN": ["down"],
        "LEFT": ["left"],
        "RIGHT": ["right"],
        "A": ["x"],
        "B": ["z"],
        "X": ["s"],
        "Y": ["a"],
        "L": ["q"],
        "R": ["w"],
        "START": ["return", "keypad enter"],
        "SELECT": ["right shift", "backspace"],
        "LID": ["f5"],
        "POWER": ["f6"],
    },
    "hotkeys": {
        "pause": ["p"],
        "frame_advance": ["n"],
        "fast_forward": ["tab"],
        "rewind": ["r"],
        "screenshot": ["f12"],
        "clip": ["c"],
        "record": ["f11"],
        "reset": ["ctrl+r"],
        "overlay": ["f10"],
        "layout": ["f7"],
        "fullscreen": ["alt+return", "ctrl+f"],
        "fit_mode": ["ctrl+i"],
        "focus": ["f8"],
        "swap": ["f9"],
        "scale_up": ["=", "keypad +"],
        "scale_down": ["-", "keypad -"],
        "save_state_1": ["shift+f1"],
        "save_state_2": ["shift+f2"],
        "save_state_3": ["shift+f3"],
        "save_state_4": ["shift+f4"],
        "load_state_1": ["f1"],
        "load_state_2": ["f2"],
        "load_state_3": ["f3"],
        "load_state_4": ["f4"],
        "undo_load_state": ["ctrl+z"],
        "state_picker": ["ctrl+o"],
        "quit": ["escape"],
        "quit_now": ["ctrl+q"],
    },
    "gamepad": {
        # Positions as on the handheld: the right face button is A (an Xbox-style pad's B).
        "buttons": {
            "0": "B",
            "1": "A",
            "2": "Y",
            "3": "X",
            "4": "L",
            "5": "R",
            "6": "SELECT",
            "7": "START",
        },
        "hat": True,
        "axes": {"0": ["LEFT", "RIGHT"], "1": ["UP", "DOWN"]},
        "dead_zone": 0.5,
    },
}

_MODIFIERS = {"ctrl": pygame.KMOD_CTRL, "shift": pygame.KMOD_SHIFT, "alt": pygame.KMOD_ALT}
_BUTTONS = {b.value: b for b in Button}


class Pointer(Protocol):
    """Maps a mouse position (in a window's points) to a lower-panel pixel: the display,
    which knows its windows, their sizes and where it placed the panels."""

    def to_lower(
        self, x: float, y: float, window: pygame.Window | None = None
    ) -> tuple[int, int] | None: ...


class KeymapError(ValueError):
    """A keymap file or entry that cannot be used; the message says where and why."""


@dataclass(frozen=True, slots=True)
class KeySpec:
    """A key plus the exact set of modifiers (ctrl, shift, alt) that must be held with it."""

    key: int
    mods: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, text: str) -> KeySpec:
        if not isinstance(text, str) or not text.strip():
            raise KeymapError(f"a key must be a non-empty name, not {text!r}")
        parts = text.strip().lower().split("+")
        # "keypad +" and "+" name the plus key itself: a trailing empty part is that key
        if parts[-1] == "" and len(parts) >= 2:
            parts = [*parts[:-2], parts[-2] + "+"]
        *mods, name = parts
        for mod in mods:
            if mod.strip() not in _MODIFIERS:
                raise KeymapError(f"unknown modifier {mod!r} in {text!r} (ctrl, shift, alt)")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # key names resolve without pygame.init()
            try:
                code = pygame.key.key_code(name.strip())
            except ValueError:
                raise KeymapError(f"unknown key name {name.strip()!r} in {text!r}") from None
        return cls(code, frozenset(m.strip() for m in mods))

    def matches(self, key: int, mod: int) -> bool:
        if key != self.key:
            return False
        held = {name for name, bits in _MODIFIERS.items() if mod & bits}
        held.discard(_modifier_of(key))  # a modifier key's own press is not a modifier
        return held == set(self.mods)


def _modifier_of(key: int) -> str | None:
    if key in (pygame.K_LCTRL, pygame.K_RCTRL):
        return "ctrl"
    if key in (pygame.K_LSHIFT, pygame.K_RSHIFT):
        return "shift"
    if key in (pygame.K_LALT, pygame.K_RALT):
        return "alt"
    return None


@dataclass
class Keymap:
    """The validated map: key codes to buttons, key specs to hotkeys, pad indices to buttons."""

    keys: dict[int, str]  # key code -> button name or LID / POWER
    hotkeys: list[tuple[KeySpec, str]]
    pad_buttons: dict[int, Button]
    pad_hat: bool
    pad_axes: dict[int, tuple[Button, Button]]
    dead_zone: float
    source: dict[str, Any] = field(repr=False, default_factory=dict)

    @classmethod
    def from_dict(cls, data: Any) -> Keymap:
        """Validate a complete map (defaults already merged). Raises KeymapError."""
        if not isinstance(data, dict):
            raise KeymapError("the keymap must be a JSON object")
        keyboard = _section(data, "keyboard")
        hotkey_table = _section(data, "hotkeys")
        pad = _section(data, "gamepad")
        keys: dict[int, str] = {}
        for name, specs in keyboard.items():
            if name not in _BUTTONS and name not in SYSTEM_KEYS:
                raise KeymapError(
                    f"keyboard: unknown button {name!r} "
                    f"(buttons: {', '.join([*_BUTTONS, *SYSTEM_KEYS])})"
                )
            for spec in _spec_list(f"keyboard.{name}", specs):
                if spec.mods:
                    raise KeymapError(f"keyboard.{name}: buttons take plain keys, no modifiers")
                if spec.key in keys and keys[spec.key] != name:
                    raise KeymapError(
                        f"keyboard: key {pygame.key.name(spec.key)!r} is mapped to both "
                        f"{keys[spec.key]} and {name}"
                    )
                keys[spec.key] = name
        hotkeys: list[tuple[KeySpec, str]] = []
        for action, specs in hotkey_table.items():
            if action not in HOTKEYS:
                raise KeymapError(
                    f"hotkeys: unknown action {action!r} (actions: {', '.join(HOTKEYS)})"
                )
            for spec in _spec_list(f"hotkeys.{action}", specs):
                if not spec.mods and spec.key in keys:
                    raise KeymapError(
                        f"hotkeys.{action}: key {pygame.key.name(spec.key)!r} is already "
                        f"the {keys[spec.key]} button"
                    )
                for other, other_action in hotkeys:
                    if other == spec and other_action != action:
                        raise KeymapError(
                            f"hotkeys: {pygame.key.name(spec.key)!r} is bound to both "
                            f"{other_action} and {action}"
                        )
                hotkeys.append((spec, action))
        pad_buttons: dict[int, Button] = {}
        buttons = pad.get("buttons", {})
        if not isinstance(buttons, dict):
            raise KeymapError("gamepad.buttons must be an object of index -> button")
        for index, name in buttons.items():
            pad_buttons[_index(f"gamepad.buttons.{index}", index)] = _button(
                f"gamepad.buttons.{index}", name
            )
        hat = pad.get("hat", True)
        if not isinstance(hat, bool):
            raise KeymapError("gamepad.hat must be true or false")
        pad_axes: dict[int, tuple[Button, Button]] = {}
        axes = pad.get("axes", {})
        if not isinstance(axes, dict):
            raise KeymapError("gamepad.axes must be an object of index -> [negative, positive]")
        for index, pair in axes.items():
            where = f"gamepad.axes.{index}"
            if not isinstance(pair, list) or len(pair) != 2:
                raise KeymapError(f"{where} must be [button for -1, button for +1]")
            pad_axes[_index(where, index)] = (_button(where, pair[0]), _button(where, pair[1]))
        dead_zone = pad.get("dead_zone", 0.5)
        if (
            isinstance(dead_zone, bool)
            or not isinstance(dead_zone, int | float)
            or not 0.0 < dead_zone < 1.0
        ):
            raise KeymapError("gamepad.dead_zone must be a number between 0 and 1")
        return cls(keys, hotkeys, pad_buttons, hat, pad_axes, float(dead_zone), data)

    def hotkey_for(self, key: int, mod: int) -> str | None:
        for spec, action in self.hotkeys:
            if spec.matches(key, mod):
                return action
        return None


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    section = data.get(name, {})
    if not isinstance(section, dict):
        raise KeymapError(f"{name} must be a JSON object")
    return section


def _spec_list(where: str, specs: Any) -> list[KeySpec]:
    if isinstance(specs, str):
        specs = [specs]
    if not isinstance(specs, list):
        raise KeymapError(f"{where} must be a key name or a list of key names")
    try:
        return [KeySpec.parse(s) for s in specs]
    except KeymapError as exc:
        raise KeymapError(f"{where}: {exc}") from None


def _index(where: str, text: Any) -> int:
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise KeymapError(f"{where}: index must be a whole number") from None
    if value < 0:
        raise KeymapError(f"{where}: index must not be negative")
    return value


def _button(where: str, name: Any) -> Button:
    if name not in _BUTTONS:
        raise KeymapError(f"{where}: unknown button {name!r}")
    return _BUTTONS[name]


def merged(overrides: dict[str, Any]) -> dict[str, Any]:
    """The default map with `overrides` laid over it, entry by entry within each section."""
    data = copy.deepcopy(DEFAULT_KEYMAP)
    for section, entries in overrides.items():
        if section not in data:
            raise KeymapError(f"unknown section {section!r} (sections: {', '.join(data)})")
        if not isinstance(entries, dict):
            raise KeymapError(f"{section} must be a JSON object")
        if section == "gamepad":
            for name, value in entries.items():
                if name in ("buttons", "axes"):
                    data[section][name] = value  # a pad's table replaces the default one
                elif name in ("hat", "dead_zone"):
                    data[section][name] = value
                else:
                    raise KeymapError(f"gamepad: unknown entry {name!r}")
        else:
            data[section].update(entries)
    return data


def load_keymap(data_dir: Path) -> Keymap:
    """The map for this data directory (defaults when there is no keymap.json)."""
    path = data_dir / KEYMAP_FILE
    if not path.exists():
        return Keymap.from_dict(copy.deepcopy(DEFAULT_KEYMAP))
    try:
        overrides = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise KeymapError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise KeymapError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(overrides, dict):
        raise KeymapError(f"{path}: the keymap must be a JSON object")
    try:
        return Keymap.from_dict(merged(overrides))
    except KeymapError as exc:
        raise KeymapError(f"{path}: {exc}") from None


class EmuInput(InputSource):
    """Keyboard, mouse-as-stylus and gamepads, fed with pygame events by the app."""

    def __init__(self, keymap: Keymap, geometry: Pointer | Geometry) -> None:
        self.keymap = keymap
        self.geometry = geometry
        self.lid_closed = False
        self.quit_requested = False
        self._keys_down: set[int] = set()
        self._hotkeys_down: dict[int, str] = {}
        self._mouse_pos: tuple[int, int] | None = None
        self._mouse_window: pygame.Window | None = None  # the window the mouse is over
        self._mouse_down = False
        self._pad_buttons: set[tuple[int, int]] = set()
        self._pad_hats: dict[tuple[int, int], tuple[int, int]] = {}
        self._pad_axes: dict[tuple[int, int], float] = {}
        self._pads: dict[int, Any] = {}  # instance id -> pygame Joystick (kept open)
        self.latch = InputLatch()  # clicks and taps shorter than a frame still count

    # ---------------------------------------------------------------------- events
    def handle(self, event: pygame.event.Event) -> list[tuple[str, bool]]:
        """Update the state from one event; return hotkey actions as (action, pressed)."""
        actions = self._handle(event)
        self.latch.observe(self.held(), self.touch(), self.power_pressed())
        return actions

    def _handle(self, event: pygame.event.Event) -> list[tuple[str, bool]]:
        t = event.type
        if t == pygame.QUIT:
            self.quit_requested = True
        elif t == pygame.KEYDOWN:
            return self._key_down(event.key, getattr(event, "mod", 0))
        elif t == pygame.KEYUP:
            self._keys_down.discard(event.key)
            action = self._hotkeys_down.pop(event.key, None)
            if action is not None:
                return [(action, False)]
        elif t == pygame.MOUSEMOTION:
            self._mouse_at(event)
        elif t == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._mouse_at(event)
            self._mouse_down = True
        elif t == pygame.MOUSEBUTTONUP and event.button == 1:
            self._mouse_at(event)
            self._mouse_down = False
        elif t == pygame.WINDOWLEAVE:
            if getattr(event, "window", None) in (None, self._mouse_window):
                self._mouse_pos = None
        elif t == pygame.WINDOWFOCUSLOST:
            return self.release_all()
        elif t == pygame.JOYDEVICEADDED:
            self._open_pad(event.device_index)
        elif t == pygame.JOYDEVICEREMOVED:
            self._forget_pad(event.instance_id)
        elif t == pygame.JOYBUTTONDOWN:
            self._pad_buttons.add((event.instance_id, event.button))
        elif t == pygame.JOYBUTTONUP:
            self._pad_buttons.discard((event.instance_id, event.button))
        elif t == pygame.JOYHATMOTION:
            hx, hy = event.value
            self._pad_hats[(event.instance_id, event.hat)] = (int(hx), int(hy))
        elif t == pygame.JOYAXISMOTION:
            self._pad_axes[(event.instance_id, event.axis)] = float(event.value)
        return []

    def _mouse_at(self, event: pygame.event.Event) -> None:
        x, y = event.pos
        self._mouse_pos = (int(x), int(y))
        self._mouse_window = getattr(event, "window", None)

    def handle_all(self, events: Iterable[pygame.event.Event]) -> list[tuple[str, bool]]:
        actions: list[tuple[str, bool]] = []
        for event in events:
            actions.extend(self.handle(event))
        return actions

    def _key_down(self, key: int, mod: int) -> list[tuple[str, bool]]:
        action = self.keymap.hotkey_for(key, mod)
        if action is not None:
            self._hotkeys_down[key] = action
            return [(action, True)]
        name = self.keymap.keys.get(key)
        if name == "LID" and key not in self._keys_down:
            self.lid_closed = not self.lid_closed
        self._keys_down.add(key)
        return []

    def release_all(self) -> list[tuple[str, bool]]:
        """Forget every held key and the mouse button (the window lost focus)."""
        self._keys_down.clear()
        self._mouse_down = False
        self.latch.forget()
        released = [(action, False) for action in self._hotkeys_down.values()]
        self._hotkeys_down.clear()
        return released

    def _open_pad(self, device_index: int) -> None:
        try:
            pad = pygame.joystick.Joystick(device_index)
        except pygame.error:
            return
        self._pads[pad.get_instance_id()] = pad

    def _forget_pad(self, instance_id: int) -> None:
        self._pads.pop(instance_id, None)
        self._pad_buttons = {b for b in self._pad_buttons if b[0] != instance_id}
        self._pad_hats = {k: v for k, v in self._pad_hats.items() if k[0] != instance_id}
        self._pad_axes = {k: v for k, v in self._pad_axes.items() if k[0] != instance_id}

    # ---------------------------------------------------------------------- state
    def held(self) -> frozenset[Button]:
        km = self.keymap
        held: set[Button] = set()
        for key in self._keys_down:
            name = km.keys.get(key)
            if name in _BUTTONS:
                held.add(_BUTTONS[name])
        for _, index in self._pad_buttons:
            if index in km.pad_buttons:
                held.add(km.pad_buttons[index])
        if km.pad_hat:
            for (_, hat), (hx, hy) in self._pad_hats.items():
                if hat != 0:
                    continue
                if hx < 0:
                    held.add(Button.LEFT)
                elif hx > 0:
                    held.add(Button.RIGHT)
                if hy > 0:
                    held.add(Button.UP)
                elif hy < 0:
                    held.add(Button.DOWN)
        for (_, axis), value in self._pad_axes.items():
            pair = km.pad_axes.get(axis)
            if pair is None:
                continue
            if value <= -km.dead_zone:
                held.add(pair[0])
            elif value >= km.dead_zone:
                held.add(pair[1])
        return frozenset(held)

    def touch(self) -> RawTouch | None:
        if not self._mouse_down or self._mouse_pos is None:
            return None
        geometry = self.geometry
        if isinstance(geometry, Geometry):  # one window, placed by a fixed layout
            point = geometry.to_lower(*self._mouse_pos)
        else:  # real events name their window (two windows: only the lower one touches)
            point = geometry.to_lower(*self._mouse_pos, self._mouse_window)
        if point is None:
            return None
        return RawTouch(float(point[0]), float(point[1]))

    def power_pressed(self) -> bool:
        return any(self.keymap.keys.get(k) == "POWER" for k in self._keys_down)

    def poll(self, tick: int) -> RawInput:
        held, touch, power = self.latch.report(self.held(), self.touch(), self.power_pressed())
        return RawInput(
            held=held,
            touch=touch,
            lid_closed=self.lid_closed,
            power_pressed=power,
            quit_requested=self.quit_requested,
        )
