"""The deploy artifacts pass their own tools: the unit (`systemd-analyze verify`), the udev
rules (`udevadm verify`), the overlay (`dtc`); the panel init file and the Imager JSON."""

from __future__ import annotations

import hashlib
import json
import lzma
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hal.backends.device.config import PANEL_KEYS, SCHEMA, parse_config

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed: not verified here")
    return path


def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    analyze = tool("systemd-analyze")
    # The unit as installed, with ExecStart pointed at a stand-in for the virtual
    # environment's entry point (verify insists that the program exists).
    stand_in = tmp_path / "twinfold"
    stand_in.write_text("#!/bin/sh\nexit 0\n")
    stand_in.chmod(0o755)
    text = (DEPLOY / "systemd/twinfold.service").read_text()
    assert "ExecStart=/opt/twinfold/venv/bin/twinfold device " in text
    unit = tmp_path / "twinfold.service"
    unit.write_text(text.replace("/opt/twinfold/venv/bin/twinfold", str(stand_in)))
    result = subprocess.run(
        [analyze, "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "twinfold.service" not in result.stderr  # no warnings about our unit


def test_the_unit_is_what_the_service_needs():
    text = (DEPLOY / "systemd/twinfold.service").read_text()
    for line in (
        "Type=notify",
        "WatchdogSec=5",
        "Restart=on-failure",
        "SupplementaryGroups=video input dialout audio",
        "StateDirectory=twinfold",
        "WantedBy=multi-user.target",
    ):
        assert re.search(rf"^{re.escape(line)}$", text, re.M), line


def test_the_udev_rules_pass_udevadm_verify():
    udevadm = tool("udevadm")
    probe = subprocess.run([udevadm, "verify", "--help"], capture_output=True, timeout=60)
    if probe.returncode != 0:  # `verify` came with systemd 253; bookworm's udev is 252
        pytest.skip("this udevadm has no `verify` (systemd < 253): the rules not verified here")
    result = subprocess.run(
        [udevadm, "verify", str(DEPLOY / "udev/99-twinfold.rules")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_shell_scripts_pass_shellcheck():
    shellcheck = tool("shellcheck")
    scripts = sorted(str(p) for p in DEPLOY.rglob("*.sh"))
    assert any(s.endswith("/lib.sh") for s in scripts)
    result = subprocess.run(
        [shellcheck, "-x", "--severity=warning", *scripts],
        capture_output=True, text=True, timeout=120, cwd=REPO,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_overlay_compiles_with_dtc(tmp_path):
    dtc = tool("dtc")
    out = tmp_path / "twinfold.dtbo"
    result = subprocess.run(
        [
            dtc,
            "-@",
            "-I",
            "dts",
            "-O",
            "dtb",
            "-o",
            str(out),
            str(DEPLOY / "overlays/twinfold.dts"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr, result.stderr
    back = subprocess.run(
        [dtc, "-I", "dtb", "-O", "dts", str(out)], capture_output=True, text=True, timeout=60
    ).stdout
    assert 'compatible = "gpio-keys"' in back and 'label = "twinfold-keys"' in back
    codes = re.findall(r"linux,code = <(0x[0-9a-f]+)>", back)
    from evdev import ecodes

    expected = {
        ecodes.BTN_DPAD_UP, ecodes.BTN_DPAD_DOWN, ecodes.BTN_DPAD_LEFT, ecodes.BTN_DPAD_RIGHT,
        ecodes.BTN_EAST, ecodes.BTN_SOUTH, ecodes.BTN_NORTH, ecodes.BTN_WEST, ecodes.BTN_TL,
        ecodes.BTN_TR, ecodes.BTN_START, ecodes.BTN_SELECT, ecodes.KEY_POWER, ecodes.SW_LID,
    }  # fmt: skip
    assert {int(c, 16) for c in codes} == expected
    assert "linux,input-type = <0x05>" in back  # the lid is a switch (EV_SW)
    assert back.count("debounce-interval") == 14


def test_the_panel_init_file_compiles(tmp_path):
    out = tmp_path / "panel.bin"
    result = subprocess.run(
        [sys.executable, str(DEPLOY / "tools/mipi_dbi_cmd.py"),
         str(DEPLOY / "panels/twinfold-panel.txt"), str(out)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = out.read_bytes()
    assert data[:16] == b"MIPI DBI" + bytes(7) + b"\x01"
    # software reset, then a 150 ms delay (NOP with one parameter), then display off
    assert data[16:23] == bytes([0x01, 0, 0x00, 1, 150, 0x28, 0])
    assert data.endswith(bytes([0x29, 0, 0x00, 1, 20]))  # display on, 20 ms


def test_a_bad_panel_init_file_is_refused(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("command 0x11\ncommand 0x3A 0x155\n")
    result = subprocess.run(
        [sys.executable, str(DEPLOY / "tools/mipi_dbi_cmd.py"), str(bad), str(tmp_path / "o")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 1 and "line 2" in result.stderr
    assert not (tmp_path / "o").exists()


def test_imager_json_describes_the_image(tmp_path):
    raw = bytes(range(256)) * 4096
    image = tmp_path / "2026-11-23-twinfold.img.xz"
    image.write_bytes(lzma.compress(raw, format=lzma.FORMAT_XZ))
    url = "https://example.org/twinfold/2026-11-23-twinfold.img.xz"
    result = subprocess.run(
        [sys.executable, str(DEPLOY / "pi-gen/imager_json.py"), str(image), url,
         "--date", "2026-11-23"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    entry = json.loads(result.stdout)["os_list"][0]
    assert entry["url"] == url and entry["release_date"] == "2026-11-23"
    assert entry["extract_size"] == len(raw)
    assert entry["extract_sha256"] == hashlib.sha256(raw).hexdigest()
    assert entry["image_download_size"] == image.stat().st_size
    assert entry["image_download_sha256"] == hashlib.sha256(image.read_bytes()).hexdigest()
    assert "pi3-64bit" in entry["devices"] and entry["init_format"] == "systemd"


def test_the_pi_gen_stage_is_complete():
    stage = DEPLOY / "pi-gen/stage-twinfold"
    assert (stage / "EXPORT_IMAGE").is_file()
    for script in ("prerun.sh", "00-twinfold/00-run.sh", "00-twinfold/01-run-chroot.sh"):
        path = stage / script
        assert path.stat().st_mode & 0o111, f"{script} must be executable"
        assert subprocess.run(["bash", "-n", str(path)], timeout=60).returncode == 0
    chroot = (stage / "00-twinfold/01-run-chroot.sh").read_text()
    assert "deploy/install.sh --wheel" in chroot  # the image uses the same installer


def test_the_shipped_config_documents_every_key_and_is_all_defaults():
    text = (DEPLOY / "config/device.toml").read_text()
    config, problems = parse_config(tomllib.loads(text))
    assert problems == []
    for section, keys in SCHEMA.items():
        for key in keys:
            # a key whose default is "not set" (boot.seed) is shown commented out
            pattern = rf"^(# )?{key} = "
            assert re.search(pattern, text, re.M), f"{section}.{key} is not documented"
    for key in PANEL_KEYS:
        assert text.count(f"\n{key} = ") >= 3, key
    from hal.backends.device.config import DeviceConfig

    assert config == DeviceConfig()


def test_the_shipped_key_map_lists_every_default():
    from hal.backends.device.config import DEFAULT_KEYS

    table = tomllib.loads((DEPLOY / "config/device.toml").read_text())["input"]["keys"]
    assert table == DEFAULT_KEYS
