"""`twinfold device`: the command line, config problems reported by name, the dump."""

from __future__ import annotations

import json

from device_config import config_file

from firmware.cli import main
from firmware.settings import Settings
from firmware.storage import Store


def test_bad_keys_and_values_are_named_and_the_firmware_still_runs(tmp_path, framebuffer, capsys):
    config = config_file(
        tmp_path, framebuffer, '[boot]\nseed = "seven"\ngame = "pop"\n[colours]\nsky = 1\n'
    )
    dump = tmp_path / "dump.json"
    assert main(["device", "--config", config, "--frames", "3", "--dump", str(dump)]) == 0
    err = capsys.readouterr().err
    assert "boot.seed: must be a whole number" in err and "using the default" in err
    assert "colours: unknown section" in err
    state = json.loads(dump.read_text())
    # a first start (a new store) asks the language before the boot game (issue 34, item 10)
    assert state["frame"] == 3 and state["scene"] == "language"
    with Store.open(tmp_path / "data" / "store.db") as store:  # the language was chosen
        store.set_setting("settings", Settings().to_json())
    assert main(["device", "--config", config, "--frames", "3", "--dump", str(dump)]) == 0
    state = json.loads(dump.read_text())
    assert state["frame"] == 3 and state["scene"] == "pop"  # boot.game was still taken
    log = (tmp_path / "data" / "twinfold.log").read_text()
    assert "boot.seed" in log  # the journal / log file has them too


def test_an_unknown_game_is_a_one_line_error(tmp_path, framebuffer, capsys):
    config = config_file(tmp_path, framebuffer)
    assert main(["device", "--config", config, "--frames", "1", "--game", "nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("twinfold device: error: no game 'nope'")


def test_bad_frames_argument(capsys):
    assert main(["device", "--frames", "0"]) == 2
    assert "expected a number 1..1000000" in capsys.readouterr().err


def test_help_names_the_options(capsys):
    assert main(["device", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--config", "--frames", "--dump"):
        assert option in out


def test_registering_the_command_loads_no_device_library():
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}

    code = (
        "import sys, firmware.cli; firmware.cli.build_parser(); "
        "print(sorted(m for m in ('evdev', 'serial', 'handheld.app') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, timeout=60, check=True, cwd=root, env=env,
    ).stdout  # fmt: skip
    assert out.strip() == "[]"
