"""One image, both kinds of unit (issue 31, item 3): twinfold.toml's `[unit] kind` chooses
the HDMI/USB unit (the default) or the handheld. deploy/image/handheld/unit-kind writes the
kind's firmware settings, runs the kernel hooks and reboots once into the other device tree;
boot-config gives each kind its display and radio under the file's own keys. Run on a
stand-in root with stand-in hooks and reboot command (the image and QEMU run the real ones:
deploy/image/handheld/handheld_check.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
HANDHELD = REPO / "deploy/image/handheld"
UNIT_KIND = HANDHELD / "unit-kind"
BOOT_CONFIG = REPO / "deploy/image/files/boot-config"
SHIPPED = (REPO / "deploy/image/files/twinfold.toml").read_text()
DEBIAN_DEFAULT = '# Debian\'s file, with its comments\n#CONSOLES="auto"\n'


def stand_in(tmp_path: Path, kind: str | None, booted: str = "hdmi") -> Path:
    """A root as build.sh leaves it (kind hdmi applied), the boot file asking for `kind`,
    the firmware having booted the `booted` tree."""
    root = tmp_path / "root"
    lib = root / "usr/local/lib/twinfold/handheld"
    lib.mkdir(parents=True)
    for name in ("raspi-firmware", "raspi-firmware-custom", "raspi-extra-cmdline"):
        shutil.copy(HANDHELD / name, lib)
    (root / "etc/default").mkdir(parents=True)
    (root / "etc/default/raspi-firmware").write_text(DEBIAN_DEFAULT)
    (root / "boot/firmware").mkdir(parents=True)
    if kind is not None:
        text = SHIPPED.replace('kind = "hdmi"', f'kind = "{kind}"')
        (root / "boot/firmware/twinfold.toml").write_text(text)
    if booted == "handheld":
        (root / "proc/device-tree/twinfold-keys").mkdir(parents=True)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name in ("z50-raspi-firmware", "z60-twinfold-dtbs"):
        hook = hooks / name
        hook.write_text(f'#!/bin/sh\necho "{name} $DEB_MAINT_PARAMS" >> "{tmp_path}/ran"\n')
        hook.chmod(0o755)
    assert run(tmp_path, root, "--build", "hdmi").returncode == 0
    return root


def run(tmp_path: Path, root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        TWINFOLD_ROOT=str(root),
        TWINFOLD_HOOKS=str(tmp_path / "hooks"),
        TWINFOLD_REBOOT=f"touch {tmp_path}/rebooted",
        TWINFOLD_RW_ROOT=f"sh {tmp_path}/rw-root",
    )
    # with-rw-root's stand-in: says when the root is writable, runs the command inside
    (tmp_path / "rw-root").write_text(
        f'echo rw >> "{tmp_path}/ran"\n"$@"\nrc=$?\necho ro >> "{tmp_path}/ran"\nexit $rc\n'
    )
    return subprocess.run(
        [sys.executable, str(UNIT_KIND), *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def defaults(root: Path) -> dict[str, str]:
    """The variables raspi-firmware's hook sees (it sources the file, as this does)."""
    path = root / "etc/default/raspi-firmware"
    out = subprocess.run(
        ["sh", "-c", '. "$0"; echo "$CONSOLES"; echo "$ROOTPART"', str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return {"CONSOLES": out[0], "ROOTPART": out[1]}


def test_the_image_is_built_as_an_hdmi_unit_with_today_s_consoles(tmp_path: Path) -> None:
    root = stand_in(tmp_path, "hdmi")
    assert (root / "etc/twinfold/unit-kind").read_text() == "hdmi\n"
    assert defaults(root) == {"CONSOLES": "ttyS1,115200 tty0", "ROOTPART": "LABEL=twinfold-root"}
    assert (root / "etc/default/raspi-firmware").read_text().startswith(DEBIAN_DEFAULT)
    assert not (root / "etc/default/raspi-firmware-custom").exists()
    # raspi-firmware's hook writes "root=... rw ... <these words>": the last of rw/ro wins
    # (the kernel's and the initramfs' parsing), so the read-only root stays read-only
    assert (root / "etc/default/raspi-extra-cmdline").read_text().split() == ["fbcon=map:9", "ro"]
    result = run(tmp_path, root)  # the first boot of an HDMI unit: nothing to do
    assert result.returncode == 0 and result.stderr == ""
    assert not (tmp_path / "ran").exists() and not (tmp_path / "rebooted").exists()


def test_choosing_the_handheld_rewrites_the_firmware_settings_and_reboots_once(
    tmp_path: Path,
) -> None:
    root = stand_in(tmp_path, "handheld")
    result = run(tmp_path, root)
    assert result.returncode == 0, result.stderr
    assert "kind handheld applied (was hdmi)" in result.stderr
    assert (tmp_path / "ran").read_text().splitlines() == [
        "z50-raspi-firmware configure",
        "z60-twinfold-dtbs configure",
    ]
    assert (tmp_path / "rebooted").exists()  # the firmware booted the HDMI tree
    assert defaults(root)["CONSOLES"] == "tty0"  # nothing on ttyAMA0, the radio
    custom = (root / "etc/default/raspi-firmware-custom").read_text()
    assert custom == (HANDHELD / "raspi-firmware-custom").read_text()
    assert (root / "etc/twinfold/unit-kind").read_text() == "handheld\n"
    # The block is replaced, not added again; Debian's lines stay.
    text = (root / "etc/default/raspi-firmware").read_text()
    assert text.startswith(DEBIAN_DEFAULT) and text.count("CONSOLES=") == 2
    # After the reboot the firmware boots the merged tree: nothing more happens.
    (tmp_path / "rebooted").unlink()
    (tmp_path / "ran").unlink()
    (root / "proc/device-tree/twinfold-keys").mkdir(parents=True)
    again = run(tmp_path, root)
    assert again.returncode == 0 and again.stderr == ""
    assert not (tmp_path / "ran").exists() and not (tmp_path / "rebooted").exists()


def read_only_image(root: Path) -> None:
    """The image's mounts (deploy/image/power_layout.sh): the root and the boot partition
    read-only, /var writable."""
    (root / "proc/self").mkdir(parents=True)
    (root / "proc/self/mounts").write_text(
        "/dev/mmcblk0p2 / ext4 ro,noatime 0 0\n"
        "/dev/mmcblk0p3 /var ext4 rw,noatime,errors=remount-ro 0 0\n"
        "/dev/mmcblk0p1 /boot/firmware vfat ro,relatime,fmask=0022 0 0\n"
    )


def test_on_the_read_only_image_only_a_change_of_kind_makes_the_root_writable(
    tmp_path: Path,
) -> None:
    root = stand_in(tmp_path, "hdmi")
    read_only_image(root)
    result = run(tmp_path, root)  # the kind it has: nothing written, nothing remounted
    assert result.returncode == 0 and result.stderr == ""
    assert not (tmp_path / "ran").exists()
    (root / "boot/firmware/twinfold.toml").write_text(
        SHIPPED.replace('kind = "hdmi"', 'kind = "handheld"')
    )
    result = run(tmp_path, root)
    assert result.returncode == 0, result.stderr
    assert "kind handheld applied (was hdmi)" in result.stderr
    # the files and both hooks inside the writable window, the reboot asked for in it
    assert (tmp_path / "ran").read_text().splitlines() == [
        "rw",
        "z50-raspi-firmware configure",
        "z60-twinfold-dtbs configure",
        "ro",
    ]
    assert (root / "etc/twinfold/unit-kind").read_text() == "handheld\n"
    assert (tmp_path / "rebooted").exists()


def test_a_board_that_still_boots_the_other_tree_is_named_and_not_rebooted_again(
    tmp_path: Path,
) -> None:
    root = stand_in(tmp_path, "handheld")
    assert run(tmp_path, root).returncode == 0
    (tmp_path / "rebooted").unlink()
    result = run(tmp_path, root)  # still no twinfold-keys in the booted tree
    assert result.returncode == 0
    assert "booted the hdmi device tree though the kind is handheld" in result.stderr
    assert not (tmp_path / "rebooted").exists()


def test_back_to_hdmi_removes_the_device_tree_lines_and_needs_no_reboot_on_that_tree(
    tmp_path: Path,
) -> None:
    root = stand_in(tmp_path, "handheld", booted="handheld")
    assert run(tmp_path, root).returncode == 0
    assert not (tmp_path / "rebooted").exists()  # QEMU's case: booted the merged tree
    (root / "boot/firmware/twinfold.toml").write_text(SHIPPED)
    shutil.rmtree(root / "proc")
    result = run(tmp_path, root)
    assert result.returncode == 0 and "kind hdmi applied (was handheld)" in result.stderr
    assert not (root / "etc/default/raspi-firmware-custom").exists()
    assert defaults(root)["CONSOLES"] == "ttyS1,115200 tty0"
    assert not (tmp_path / "rebooted").exists()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[unit]\nkind = "handhel"\n', "kind = 'handhel' is not one of hdmi, handheld"),
        ("[unit]\nkind = 3\n", "kind = 3 is not one of"),
        ("[unit\nkind = 'handheld'\n", "twinfold.toml not read"),
    ],
)
def test_a_bad_kind_is_one_line_and_changes_nothing(tmp_path: Path, text: str, words: str) -> None:
    root = stand_in(tmp_path, None)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    (root / "boot/firmware/twinfold.toml").write_text(text)
    result = run(tmp_path, root)
    assert result.returncode == 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unit-kind: ") and words in lines[0]
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    del after[root / "boot/firmware/twinfold.toml"]
    assert after == before
    assert not (tmp_path / "ran").exists() and not (tmp_path / "rebooted").exists()


def test_a_failing_hook_is_reported_and_no_reboot_follows(tmp_path: Path) -> None:
    root = stand_in(tmp_path, "handheld")
    (tmp_path / "hooks/z60-twinfold-dtbs").write_text("#!/bin/sh\necho merge failed >&2\nexit 1\n")
    result = run(tmp_path, root)
    assert result.returncode == 1
    assert "z60-twinfold-dtbs failed: merge failed" in result.stderr
    assert not (tmp_path / "rebooted").exists()


def python_with_tomli_w() -> str:
    for python in ("/usr/bin/python3", shutil.which("python3")):
        if (
            python
            and subprocess.run([python, "-c", "import tomli_w"], capture_output=True).returncode
            == 0
        ):
            return python
    pytest.skip("no python3 with tomli_w (Debian: python3-tomli-w): boot-config not run here")


def boot_config(tmp_path: Path, boot_toml: str, applied: str | None = None) -> dict[str, Any]:
    root = tmp_path / "bc"
    (root / "etc/twinfold").mkdir(parents=True)
    shutil.copy(REPO / "deploy/config/device.toml", root / "etc/twinfold/device.toml")
    if applied:
        (root / "etc/twinfold/unit-kind").write_text(applied + "\n")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/twinfold.toml").write_text(boot_toml)
    result = subprocess.run(
        [python_with_tomli_w(), str(BOOT_CONFIG)],
        env={**os.environ, "TWINFOLD_ROOT": str(root)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return tomllib.loads((root / "run/twinfold/device.toml").read_text())


def test_each_kind_gets_its_display_and_radio_and_the_file_s_own_keys_win(
    tmp_path: Path,
) -> None:
    from hal.backends.device.config import parse_config

    hdmi = boot_config(tmp_path / "a", SHIPPED)
    assert hdmi["display"]["mode"] == "one"
    assert hdmi["radio"] == {"enabled": False, "port": "/dev/ttyUSB0", "baud": 9600}
    handheld = boot_config(tmp_path / "b", SHIPPED.replace('kind = "hdmi"', 'kind = "handheld"'))
    assert handheld["display"]["mode"] == "two"
    assert handheld["radio"] == {"enabled": True, "port": "/dev/twinfold-radio", "baud": 9600}
    config, problems = parse_config(handheld)
    assert problems == []
    assert config.display.upper.device == "/dev/twinfold-upper"
    assert config.display.lower.device == "/dev/twinfold-lower"
    edited = SHIPPED.replace('kind = "hdmi"', 'kind = "handheld"').replace(
        '# mode = "one"', 'mode = "one"'
    )
    one_panel = boot_config(tmp_path / "c", edited)  # a handheld with one panel
    assert one_panel["display"]["mode"] == "one"
    # A bad kind: the kind applied last (unit-kind left the firmware as it was).
    typo = SHIPPED.replace('kind = "hdmi"', 'kind = "handhel"')
    assert boot_config(tmp_path / "d", typo, applied="handheld")["display"]["mode"] == "two"


def test_the_panel_driver_loads_for_the_panels_first_compatible() -> None:
    """The kernel asks for `spi:<first compatible without vendor>`; the overlay's first
    compatible also names the init file, so the alias must follow it."""
    overlay = (REPO / "deploy/overlays/twinfold-mainline.dts").read_text()
    firsts = set(re.findall(r'compatible = "([^"]+)", "panel-mipi-dbi-spi";', overlay))
    assert firsts == {"twinfold-panel"}
    aliases = [
        line.split()
        for line in (HANDHELD / "twinfold-panel.conf").read_text().splitlines()
        if line.startswith("alias ")
    ]
    assert aliases == [["alias", "spi:twinfold-panel", "panel-mipi-dbi"]]
    assert (REPO / "deploy/panels/twinfold-panel.txt").is_file()  # -> twinfold-panel.bin


def test_the_kind_is_applied_before_the_settings_and_the_firmware() -> None:
    unit = (HANDHELD / "twinfold-unit-kind.service").read_text()
    assert "Before=twinfold-boot-config.service twinfold.service" in unit
    assert "After=boot-firmware.mount" in unit and "RequiresMountsFor" not in unit
    assert "WantedBy=multi-user.target twinfold.service" in unit  # retried with the firmware
    assert "ExecStart=/usr/local/lib/twinfold/unit-kind" in unit
    setup = (HANDHELD / "image-setup").read_text()
    for installed in ("twinfold-unit-kind.service", "twinfold-panel.conf", '"$HERE/unit-kind"'):
        assert installed in setup
