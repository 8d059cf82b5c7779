"""deploy/image/: the boot partition's settings script, the QEMU check's picture and DTB
helpers, and .ci/image-checks saying why it skips. (The build and the boots themselves take
minutes to tens of minutes as root: .ci/image-checks runs them, not the test suite.)"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import lzma
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pygame
import pytest

from tests.deploy import image_scripts

REPO = Path(__file__).resolve().parents[2]
IMAGE = REPO / "deploy/image"
BOOT_CONFIG = IMAGE / "files/boot-config"


def load_check():
    spec = importlib.util.spec_from_file_location("qemu_check", IMAGE / "qemu_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def python_with_tomli_w() -> str:
    """A Python that has tomli_w (the image has Debian's python3-tomli-w)."""
    for python in ("/usr/bin/python3", shutil.which("python3")):
        probe = [python, "-c", "import tomli_w"] if python else None
        if probe and subprocess.run(probe, capture_output=True).returncode == 0:
            return probe[0]
    pytest.skip("no python3 with tomli_w (Debian: python3-tomli-w): boot-config not run here")


def boot_root(tmp_path: Path, boot_toml: str) -> Path:
    root = tmp_path / "root"
    (root / "etc/twinfold").mkdir(parents=True)
    shutil.copy(REPO / "deploy/config/device.toml", root / "etc/twinfold/device.toml")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/twinfold.toml").write_text(boot_toml)
    return root


def run_boot_config(python: str, root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [python, str(BOOT_CONFIG)], env={**os.environ, "TWINFOLD_ROOT": str(root)},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_boot_partition_settings_win_over_device_toml_and_set_wifi_and_ssh(tmp_path):
    python = python_with_tomli_w()
    shipped = (IMAGE / "files/twinfold.toml").read_text()
    edited = (
        shipped.replace('ssid = ""', 'ssid = "Home \\"5G\\""')
        .replace('password = ""', 'password = "secret pass"')
        .replace('authorized_key = ""', 'authorized_key = "ssh-ed25519 AAAAC3Nz me@desk"')
    )
    edited += "\n[battery]\nlow_percent = 25\n"
    root = boot_root(tmp_path, edited.replace('# port = "/dev/ttyUSB0"', 'port = "/dev/ttyAMA0"'))
    result = run_boot_config(python, root)
    assert result.returncode == 0, result.stderr
    merged = tomllib.loads((root / "run/twinfold/device.toml").read_text())
    device = tomllib.loads((root / "etc/twinfold/device.toml").read_text())
    assert merged["display"]["mode"] == "one" and device["display"]["mode"] == "two"
    assert merged["radio"]["port"] == "/dev/ttyAMA0" and merged["radio"]["enabled"] is False
    # keys the boot file leaves out keep device.toml's values; its own sections stay out
    assert merged["display"]["panel"] == device["display"]["panel"]
    assert merged["input"] == device["input"]
    assert merged["battery"]["low_percent"] == 25  # [battery] passes through too
    assert merged["battery"]["critical_percent"] == device["battery"]["critical_percent"]
    assert "wifi" not in merged and "ssh" not in merged
    wpa = root / "etc/wpa_supplicant/wpa_supplicant-wlan0.conf"
    assert 'ssid="Home \\"5G\\""' in wpa.read_text() and 'psk="secret pass"' in wpa.read_text()
    assert wpa.stat().st_mode & 0o777 == 0o600
    keys = root / "root/.ssh/authorized_keys"
    assert keys.read_text() == "ssh-ed25519 AAAAC3Nz me@desk\n"


def test_a_broken_boot_file_is_reported_and_device_toml_used_as_it_is(tmp_path):
    python = python_with_tomli_w()
    root = boot_root(tmp_path, "[display\nmode = 'one'\n")
    result = run_boot_config(python, root)
    assert result.returncode == 0
    assert result.stderr.startswith("boot-config: ") and "twinfold.toml ignored" in result.stderr
    merged = tomllib.loads((root / "run/twinfold/device.toml").read_text())
    device = tomllib.loads((root / "etc/twinfold/device.toml").read_text())
    # ... with the kind the unit was made (the firmware booted its tree): here the default,
    # the HDMI unit's one panel and no radio (tests/deploy/test_unit_kind.py)
    device["display"]["mode"] = "one"
    device["radio"].update(enabled=False, port="/dev/ttyUSB0")
    assert merged == device
    assert not (root / "etc/wpa_supplicant").exists() and not (root / "root/.ssh").exists()


def test_the_shipped_boot_file_is_valid_and_makes_an_hdmi_unit():
    # (the HDMI kind's one-panel mode and radio: tests/deploy/test_unit_kind.py)
    data = tomllib.loads((IMAGE / "files/twinfold.toml").read_text())
    assert data["unit"] == {"kind": "hdmi"}
    assert "mode" not in data["display"] and set(data["radio"]) == {"baud"}
    sections = {"unit", "display", "input", "radio", "system", "boot", "battery", "wifi", "ssh"}
    assert set(data) <= sections


def test_the_expected_panel_places_both_screens_as_the_one_panel_layout_does(tmp_path):
    check = load_check()
    top = pygame.Surface((256, 192))
    top.fill((255, 7, 3))
    bottom = pygame.Surface((256, 192))
    bottom.fill((1, 255, 129))
    pygame.image.save(top, str(tmp_path / "top.png"))
    pygame.image.save(bottom, str(tmp_path / "bottom.png"))
    panel = check.expected_panel(tmp_path)
    assert len(panel) == 640 * 480 * 3

    def at(x: int, y: int) -> bytes:
        i = (y * 640 + x) * 3
        return panel[i : i + 3]

    # 5/6/5 bits kept: (255, 7, 3) -> (248, 4, 0); (1, 255, 129) -> (0, 252, 128)
    assert at(192, 48) == at(447, 239) == bytes((248, 4, 0))
    assert at(192, 240) == at(447, 431) == bytes((0, 252, 128))
    for x, y in ((191, 48), (448, 100), (300, 47), (300, 432), (0, 0)):
        assert at(x, y) == b"\0\0\0", (x, y)


def test_the_qemu_dtb_gains_a_framebuffer_and_frees_the_uart(tmp_path):
    dtc, fdtget = shutil.which("dtc"), shutil.which("fdtget")
    if dtc is None or fdtget is None or shutil.which("fdtput") is None:
        pytest.skip("dtc/fdtput/fdtget missing (device-tree-compiler): the DTB edit not run")
    source = tmp_path / "pi.dts"
    source.write_text(
        "/dts-v1/;\n/ { #address-cells = <1>; #size-cells = <1>;\n"
        '  soc { serial@7e201000 { compatible = "arm,pl011";\n'
        '    bluetooth { compatible = "brcm,bcm43438-bt"; }; }; }; };\n'
    )
    dtb = tmp_path / "pi.dtb"
    subprocess.run([dtc, "-q", "-I", "dts", "-O", "dtb", "-o", str(dtb), str(source)], check=True)
    out = load_check().qemu_dtb(dtb, tmp_path / "qemu.dtb")

    def get(node: str, prop: str, *opts: str) -> str:
        return subprocess.check_output([fdtget, *opts, str(out), node, prop], text=True).strip()

    fb = "/framebuffer@3c100000"
    assert get(fb, "compatible") == "simple-framebuffer"
    assert get(fb, "reg", "-t", "x") == "3c100000 96000"
    assert (get(fb, "width"), get(fb, "height"), get(fb, "stride")) == ("640", "480", "1280")
    assert get(fb, "format") == "r5g6b5"
    children = subprocess.check_output([fdtget, "-l", str(out), "/soc/serial@7e201000"], text=True)
    assert "bluetooth" not in children.split()


def image_checks(tmp_path: Path, *phase: str) -> subprocess.CompletedProcess[str]:
    """.ci/image-checks on a PATH without mmdebstrap and QEMU, its state in tmp_path."""
    shadow = tmp_path / "bin"
    if not shadow.exists():
        shadow.mkdir()
        hidden = {"mmdebstrap", "qemu-system-aarch64"}
        for d in ("/usr/sbin", "/usr/bin"):
            for tool in Path(d).iterdir():
                if tool.name not in hidden and not (shadow / tool.name).exists():
                    (shadow / tool.name).symlink_to(tool)
    return subprocess.run(
        ["/bin/bash", str(REPO / ".ci/image-checks"), *phase],
        env={
            **os.environ,
            "PATH": str(shadow),
            "TWINFOLD_IMAGE_CACHE": str(tmp_path / "c"),
            "TWINFOLD_IMAGE_STATE": str(tmp_path / "state"),
            "TWINFOLD_IMAGE_INSTALL_TOOLS": "0",  # no apt-get from a test
        },
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_image_checks_say_why_they_skip(tmp_path):
    # The CI step must skip, saying so, and succeed.
    result = image_checks(tmp_path)
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith("image-checks: SKIPPED: cannot build the image here: ")
    assert "no mmdebstrap" in line
    assert not (tmp_path / "c").exists()  # nothing built
    assert not (tmp_path / "state").exists()  # the whole run leaves nothing for a boot phase


def test_image_checks_boot_phase_repeats_the_builds_skip_and_fails_without_a_build(tmp_path):
    # .ci/run builds beside the soak and window checks, then boots: the boot phase must say
    # why the build skipped (and succeed), and fail when no build ran at all.
    nothing = image_checks(tmp_path, "boot")
    assert nothing.returncode == 1
    assert "FAILED: no image built" in nothing.stdout
    built = image_checks(tmp_path, "build")
    assert built.returncode == 0, built.stderr
    skip_line = built.stdout.strip().splitlines()[-1]
    assert skip_line.startswith("image-checks: SKIPPED: cannot build the image here: ")
    booted = image_checks(tmp_path, "boot")
    assert booted.returncode == 0, booted.stderr
    assert booted.stdout.strip().splitlines() == [skip_line]
    assert image_checks(tmp_path, "nonsense").returncode == 2


def test_the_debian_images_imager_entry_names_its_boards_and_no_os_customisation(tmp_path):
    raw = b"\x00\x01" * 65536
    image = tmp_path / "twinfold-0.1.0-arm64.img.xz"
    image.write_bytes(lzma.compress(raw, format=lzma.FORMAT_XZ))
    result = subprocess.run(
        [sys.executable, str(REPO / "deploy/pi-gen/imager_json.py"), "--debian", str(image),
         "https://example.org/t.img.xz", "--date", "2026-11-26"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    entry = json.loads(result.stdout)["os_list"][0]
    assert entry["devices"] == ["pi4-64bit", "pi3-64bit"]  # no Pi 5: Debian has no DTB for it
    assert "init_format" not in entry and "Debian" in entry["name"]
    assert entry["extract_size"] == len(raw)
    assert entry["extract_sha256"] == hashlib.sha256(raw).hexdigest()
    assert entry["image_download_sha256"] == hashlib.sha256(image.read_bytes()).hexdigest()


def load_pair_check():
    return image_scripts.load("pair_check")


def test_the_pair_check_turns_the_radio_on_the_pl011_in_a_valid_boot_file(tmp_path):
    pair = load_pair_check()
    shipped = (IMAGE / "files/twinfold.toml").read_text()
    settings = pair._without_radio(shipped) + pair.RADIO + "\n[boot]\nseed = 1\n"
    data = tomllib.loads(settings)  # one [radio] section, valid TOML
    assert data["radio"] == {"enabled": True, "port": "/dev/ttyAMA0", "baud": 115200}
    assert data["display"] == tomllib.loads(shipped)["display"]
    from hal.backends.device.config import parse_config

    device = {k: v for k, v in data.items() if k not in ("unit", "wifi", "ssh")}
    config, problems = parse_config(device)
    assert problems == [] and config.radio.port == "/dev/ttyAMA0" and config.radio.enabled


def test_the_pair_checks_touch_lands_on_each_square_it_taps():
    """The virtual touchscreen's reading, through the device's axis scaling and its
    uncalibrated touch map, is a point inside the square (the check taps by square)."""
    from games.reversi.scene.layout import SQUARE_RECTS
    from handheld.app import UNCALIBRATED

    pair = load_pair_check()
    for square in pair.GAME:
        rx, ry = pair.raw_point(square)
        assert 0 <= rx <= 4095 and 0 <= ry <= 4095
        # evdev_input._Axis(0, 4095).scaled(v) == v; then the uncalibrated affine map
        x, y = UNCALIBRATED.a * rx + UNCALIBRATED.c, UNCALIBRATED.e * ry + UNCALIBRATED.f
        assert SQUARE_RECTS[square].collidepoint(int(x), int(y)), square
    from games.reversi.rules import Game

    assert Game(moves=pair.GAME).over  # the scripted game is a whole game


HANDHELD_HARNESS = """
say() { echo "say: $*"; }
failed() { echo "FAILED: $*"; exit 1; }
eval "$(sed -n '/^handheld_start() {/,/^}/p;/^handheld_finish() {/,/^}/p' "$1")"
eval "$(grep -E '^(CI_MINUTES|WITH_HANDHELD|PAIR_LEAST)=' "$1")"
HANDHELD_MINUTES=45 HANDHELD_WHY="$2/why" LOGS="$2/logs" REPO="$2" IMG="$3"
handheld_start
handheld_finish
echo "limit $HANDHELD_LIMIT"
"""


def run_handheld_step(tmp_path: Path, image: str, minutes_ago: int) -> list[str]:
    """.ci/image-checks' handheld_start and handheld_finish around a stand-in check that
    passes (or fails for the image name FAIL), under a CI run started minutes_ago."""
    check = tmp_path / "deploy/image/handheld/handheld_check.py"
    check.parent.mkdir(parents=True, exist_ok=True)
    check.write_text('import sys\nprint("stand-in ran")\nsys.exit("FAIL" in sys.argv)\n')
    (tmp_path / ".venv/bin").mkdir(parents=True, exist_ok=True)
    python = tmp_path / ".venv/bin/python"
    if not python.exists():
        python.symlink_to(sys.executable)
    (tmp_path / "logs").mkdir(exist_ok=True)
    started = int(time.time()) - minutes_ago * 60
    result = subprocess.run(
        ["/bin/bash", "-c", HANDHELD_HARNESS, "_", str(REPO / ".ci/image-checks"),
         str(tmp_path), image],
        cwd=tmp_path, env={**os.environ, "TWINFOLD_CI_STARTED": str(started)},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return result.stdout.splitlines()


def test_the_handheld_runs_beside_the_boots_only_with_ci_time_for_both(tmp_path):
    # early in CI's run: it runs, bounded by what is left less the two units' share
    lines = run_handheld_step(tmp_path, "unit.img", minutes_ago=10)
    assert "stand-in ran" in lines
    assert any(line.startswith("say: the emulated handheld passed in ") for line in lines)
    assert lines[-1] == "limit 34"  # 58 - 10 - 14
    # its failure fails the step, its output shown
    lines = run_handheld_step(tmp_path, "FAIL", minutes_ago=10)
    assert "stand-in ran" in lines and lines[-1] == "FAILED: the emulated handheld"
    # late: skipped, saying why, and nothing run
    (tmp_path / "logs/handheld-check.out").unlink()
    lines = run_handheld_step(tmp_path, "unit.img", minutes_ago=20)
    assert lines[0].startswith("say: the emulated handheld: SKIPPED: 38 of CI's 58 minutes")
    assert not (tmp_path / "logs/handheld-check.out").exists()
