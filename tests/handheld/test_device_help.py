"""`twinfold device --help`, README.md and deploy/README.md say what the command does
(issue 34, item 14): the board model picks the profile (not `desktop`), the config names
the radio port (not "radio off"), and both READMEs' synopses list every option."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from device_config import config_file

from firmware.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def device_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser: argparse.ArgumentParser = sub.choices["device"]
    return parser


def help_of(option: str) -> str:
    action = next(a for a in device_parser()._actions if option in a.option_strings)
    return " ".join(str(action.help).split())


def test_the_profiles_default_is_the_boards_as_the_unit_picks_it(tmp_path, framebuffer) -> None:
    words = help_of("--profile")
    assert "/proc/device-tree/model" in words and "[system] profile" in words
    assert "default: desktop;" not in words and "desktop off a Raspberry Pi" in words
    # what the help says is what happens: a Pi 4's model file -> the pi4 profile; the
    # config's [system] profile wins over it; off a Raspberry Pi, desktop
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    cases = [
        (f'model_file = "{model}"\n', "pi4"),
        (f'model_file = "{model}"\nprofile = "pi3"\n', "pi3"),
        (f'model_file = "{tmp_path / "no-model"}"\n', "desktop"),
    ]
    for n, (extra, expected) in enumerate(cases):
        folder = tmp_path / str(n)
        folder.mkdir()
        config = config_file(folder, framebuffer, extra)
        assert main(["device", "--config", config, "--frames", "1"]) == 0
        log = (folder / "data" / "twinfold.log").read_text()
        assert f"device: profile {expected} " in log, (expected, log[-600:])


def test_the_links_default_is_the_configs_radio_port(tmp_path, framebuffer, capsys) -> None:
    words = help_of("--link")
    assert "default: radio off" not in words and "default: off" not in words
    assert "the config's [radio] port" in words and "/dev/serial0" in words
    # what the help says is what happens: without --link the unit opens the config's port
    port = tmp_path / "the-configs-port"
    config = Path(config_file(tmp_path, framebuffer))
    config.write_text(
        config.read_text().replace("[radio]\nenabled = false", f'[radio]\nport = "{port}"')
    )
    args = ["device", "--config", str(config), "--frames", "1", "--versus", "host"]
    assert main([*args, "--game", "reversi"]) == 2
    assert f"cannot open the radio {port}" in capsys.readouterr().err


def options() -> list[str]:
    return sorted(
        s for a in device_parser()._actions for s in a.option_strings if s not in ("-h", "--help")
    )


@pytest.mark.parametrize(
    ("document", "pattern"),
    [
        ("README.md", r"\| `(twinfold device [^`]*)` \|"),
        ("deploy/README.md", r"```\n(twinfold device .*?)```"),
    ],
)
def test_the_readmes_synopses_list_every_option(document: str, pattern: str) -> None:
    found = re.search(pattern, (ROOT / document).read_text(encoding="utf-8"), re.S)
    assert found, f"{document}: the device synopsis moved; update this test"
    synopsis = found.group(1)
    missing = [o for o in options() if not re.search(rf"\[{re.escape(o)}\b", synopsis)]
    assert not missing, f"{document}: the synopsis lacks {missing}"
