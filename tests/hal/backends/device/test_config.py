"""device.toml: unknown keys and bad values are reported by name; defaults are used."""

from __future__ import annotations

import re
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hal.backends.device import config as config_module
from hal.backends.device.config import (
    DEFAULT_KEYS,
    ConfigError,
    DeviceConfig,
    load_config,
    parse_config,
)
from hal.interfaces import Button


def test_an_empty_file_gives_every_default():
    config, problems = parse_config({})
    assert problems == []
    assert config == DeviceConfig()
    assert config.display.upper.device == "/dev/twinfold-upper"
    assert config.radio.port == "/dev/serial0" and config.radio.baud == 9600
    assert config.input.keys["BTN_EAST"] is Button.A
    assert config.input.shutdown_command == ("systemctl", "poweroff")


def test_good_values_are_taken():
    config, problems = parse_config(
        tomllib.loads(
            """
[display]
mode = "one"
layout = "horizontal"
gap = 4
[display.panel]
device = "/dev/fb3"
rotate = 270
[input]
names = ["twinfold-*"]
long_press_seconds = 3
shutdown_command = "sudo /sbin/poweroff -f"
[input.keys]
KEY_ENTER = "START"
BTN_SELECT = ""
[radio]
port = "/dev/ttyUSB0"
baud = 115200
[system]
profile = "pi4"
[boot]
game = "reversi"
seed = 9
"""
        )
    )
    assert problems == []
    assert config.display.mode == "one" and config.display.layout == "horizontal"
    assert config.display.panel.device == "/dev/fb3" and config.display.panel.rotate == 270
    assert config.display.upper.device == "/dev/twinfold-upper"  # untouched panels keep theirs
    assert config.input.names == ("twinfold-*",)
    assert config.input.long_press_seconds == 3.0
    assert config.input.shutdown_command == ("sudo", "/sbin/poweroff", "-f")
    assert config.input.keys["KEY_ENTER"] is Button.START
    assert "BTN_SELECT" not in config.input.keys and config.input.keys["BTN_EAST"] is Button.A
    assert (config.radio.port, config.radio.baud) == ("/dev/ttyUSB0", 115200)
    assert config.system.profile == "pi4" and config.boot.game == "reversi"


def test_unknown_keys_and_bad_values_are_named_and_defaults_used():
    config, problems = parse_config(
        tomllib.loads(
            """
colour = "red"
[display]
mode = "three"
gapp = 3
[display.upper]
rotate = 45
device = 7
[input]
grab = "yes"
long_press_seconds = -1
power_key = "KEY_NOT_A_KEY"
[input.keys]
BTN_EAST = "Z"
NOT_A_CODE = "A"
[radio]
baud = 1234
[system]
profile = "pi2"
"""
        )
    )
    text = "\n".join(problems)
    for name in (
        "colour",
        "display.mode",
        "display.gapp",
        "display.upper.rotate",
        "display.upper.device",
        "input.grab",
        "input.long_press_seconds",
        "input.power_key",
        "input.keys.BTN_EAST",
        "input.keys.NOT_A_CODE",
        "radio.baud",
        "system.profile",
    ):
        assert any(p.startswith(name + ":") for p in problems), (name, text)
    assert len(problems) == 12
    defaults = DeviceConfig()
    assert config.display.mode == "two" and config.display.upper == defaults.display.upper
    assert config.input.grab is True and config.input.long_press_seconds == 2.0
    assert config.input.keys["BTN_EAST"] is Button.A
    assert config.radio.baud == 9600 and config.system.profile == "auto"


def test_a_section_that_is_not_a_table():
    config, problems = parse_config({"radio": "off"})
    assert problems == ["radio: must be a table ([radio]); using the defaults"]
    assert config.radio.enabled is True


def test_files(tmp_path, monkeypatch):
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match=f"the config {re.escape(str(missing))} does not exist"):
        load_config(missing)  # named on the command line: an error (issue 24)
    broken = tmp_path / "broken.toml"
    broken.write_text("[display\nmode = 'one'\n")
    with pytest.raises(ConfigError, match=r"is not valid TOML .*line 1"):
        load_config(broken)
    # the installed file (no --config): a handheld boots on the defaults and says why
    monkeypatch.setattr(config_module, "DEFAULT_PATH", broken)
    config, problems = load_config(None)
    assert config == DeviceConfig()
    assert len(problems) == 1 and "not valid TOML" in problems[0] and "line 1" in problems[0]
    monkeypatch.setattr(config_module, "DEFAULT_PATH", missing)
    assert load_config(None) == (DeviceConfig(), [])
    good = tmp_path / "good.toml"
    good.write_text("[radio]\nenabled = false\nspeed = 3\n")
    config, problems = load_config(good)
    assert config.radio.enabled is False
    assert problems == [f"{good}: radio.speed: unknown key (ignored)"]


def test_the_default_key_map_covers_every_button():
    assert {Button(v) for v in DEFAULT_KEYS.values()} == set(Button)


toml_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)
sections = st.sampled_from(["display", "input", "radio", "system", "boot", "other"])
keys = st.sampled_from(
    ["mode", "rotate", "upper", "panel", "keys", "names", "baud", "port", "seed", "x", "profile"]
)


@given(st.dictionaries(sections, st.dictionaries(keys, toml_values, max_size=4) | toml_values))
def test_any_document_gives_a_config_and_messages_never_an_exception(doc):
    config, problems = parse_config(doc)
    assert isinstance(config, DeviceConfig)
    assert all(isinstance(p, str) and ":" in p for p in problems)
    assert config.display.mode in ("one", "two")
    assert config.display.upper.rotate in (0, 90, 180, 270)
