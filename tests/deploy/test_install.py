"""deploy/install.sh and uninstall.sh: a dry run and a staging-root (DESTDIR) install make
exactly the expected files, idempotently; nothing outside the temporary directory is touched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
BASH = shutil.which("bash")
DTC = shutil.which("dtc")

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is missing: installer not tested")

STOCK_CONFIG = "# stock Raspberry Pi OS\ndtparam=audio=on\ncamera_auto_detect=1\n[all]\n"
STOCK_CMDLINE = (
    "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
    "fsck.repair=yes rootwait\n"
)
EXPECTED_FILES = {
    "boot/firmware/cmdline.txt",
    "boot/firmware/config.txt",
    "boot/firmware/overlays/twinfold.dtbo",
    "etc/polkit-1/rules.d/50-twinfold.rules",
    "etc/polkit-1/rules.d/51-twinfold-wifi.rules",
    "etc/systemd/system/twinfold-wifi-host@.service",
    "etc/systemd/system/twinfold-wifi-join@.service",
    "etc/systemd/logind.conf.d/twinfold.conf",
    "etc/systemd/system/multi-user.target.wants/twinfold.service",
    "etc/systemd/system/twinfold.service",
    "etc/twinfold/device.toml",
    "etc/udev/rules.d/99-twinfold.rules",
    "lib/firmware/twinfold-panel.bin",
}


def stage(tmp_path: Path) -> Path:
    root = tmp_path / "stage"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(STOCK_CONFIG)
    (root / "boot/firmware/cmdline.txt").write_text(STOCK_CMDLINE)
    return root


def run(script: str, root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DESTDIR": str(root)}
    return subprocess.run(
        [BASH, str(DEPLOY / script), *args],  # type: ignore[list-item]
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def tree(root: Path) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = path.read_bytes()
    return out


def test_dry_run_lists_every_file_and_changes_nothing(tmp_path):
    root = stage(tmp_path)
    before = tree(root)
    result = run("install.sh", root, "--dry-run")
    assert result.returncode == 0, result.stderr
    assert tree(root) == before
    said = {
        line.split(" ", 2)[-1]
        for line in result.stdout.splitlines()
        if line.startswith(("would install ", "would update "))
    }
    assert {s.lstrip("/") for s in said} == EXPECTED_FILES
    assert ("dtc is missing" in result.stderr) == (DTC is None)
    # system changes are never made with DESTDIR, only named
    for command in ("apt-get install", "useradd", "-m venv", "pip install", "disable hciuart"):
        assert any(
            line.startswith("skipped (DESTDIR): ") and command in line
            for line in result.stdout.splitlines()
        ), command


@pytest.mark.skipif(DTC is None, reason="dtc is missing: the overlay cannot be compiled")
def test_staged_install_makes_exactly_the_expected_files_and_is_idempotent(tmp_path):
    root = stage(tmp_path)
    result = run("install.sh", root)
    assert result.returncode == 0, result.stderr
    files = tree(root)
    assert set(files) == EXPECTED_FILES
    for name, source in (
        ("etc/systemd/system/twinfold.service", "systemd/twinfold.service"),
        ("etc/systemd/logind.conf.d/twinfold.conf", "systemd/logind-twinfold.conf"),
        ("etc/udev/rules.d/99-twinfold.rules", "udev/99-twinfold.rules"),
        ("etc/polkit-1/rules.d/50-twinfold.rules", "polkit/50-twinfold.rules"),
        ("etc/polkit-1/rules.d/51-twinfold-wifi.rules", "wifi/51-twinfold-wifi.rules"),
        ("etc/systemd/system/twinfold-wifi-host@.service", "wifi/twinfold-wifi-host@.service"),
        ("etc/twinfold/device.toml", "config/device.toml"),
    ):
        assert files[name] == (DEPLOY / source).read_bytes(), name
    assert files["etc/systemd/system/multi-user.target.wants/twinfold.service"] == (
        "-> /etc/systemd/system/twinfold.service"
    )
    assert files["lib/firmware/twinfold-panel.bin"].startswith(b"MIPI DBI\0\0\0\0\0\0\0\x01")
    assert files["boot/firmware/overlays/twinfold.dtbo"][:4] == b"\xd0\x0d\xfe\xed"  # FDT magic
    config = files["boot/firmware/config.txt"].decode()
    assert config.startswith(STOCK_CONFIG)  # the owner's lines stay
    block = (DEPLOY / "boot/config-fragment.txt").read_text()
    assert config.count("# >>> twinfold >>>") == 1 and block in config
    cmdline = files["boot/firmware/cmdline.txt"].decode()
    assert cmdline == (
        "console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait "
        "fbcon=map:9\n"
    )
    # the owner edits the config; a second install changes nothing at all
    edited = b"[radio]\nenabled = false\n"
    (root / "etc/twinfold/device.toml").write_bytes(edited)
    again = run("install.sh", root)
    assert again.returncode == 0, again.stderr
    after = tree(root)
    assert after == {**files, "etc/twinfold/device.toml": edited}
    assert not any(line.startswith(("installed", "updated")) for line in again.stdout.splitlines())


@pytest.mark.skipif(DTC is None, reason="dtc is missing: the overlay cannot be compiled")
def test_read_only_root_adds_the_data_partition_once(tmp_path):
    root = stage(tmp_path)
    for _ in range(2):
        result = run("install.sh", root, "--read-only")
        assert result.returncode == 0, result.stderr
    fstab = (root / "etc/fstab").read_text().splitlines()
    assert fstab == ["LABEL=twinfold-data /var/lib/twinfold ext4 defaults,noatime,nofail 0 2"]
    assert "skipped (DESTDIR): raspi-config nonint do_overlayfs 0" in result.stdout


@pytest.mark.skipif(DTC is None, reason="dtc is missing: the overlay cannot be compiled")
def test_uninstall_takes_it_all_back(tmp_path):
    root = stage(tmp_path)
    assert run("install.sh", root).returncode == 0
    result = run("uninstall.sh", root)
    assert result.returncode == 0, result.stderr
    files = tree(root)
    assert set(files) == {"boot/firmware/config.txt", "boot/firmware/cmdline.txt"}
    assert files["boot/firmware/config.txt"].decode() == STOCK_CONFIG
    assert "fbcon" not in files["boot/firmware/cmdline.txt"].decode()


@pytest.mark.skipif(DTC is None, reason="dtc is missing: the overlay cannot be compiled")
def test_without_config_txt_a_warning_and_uninstall_removes_the_file_it_made(tmp_path):
    root = stage(tmp_path)
    (root / "boot/firmware/config.txt").unlink()  # boot partition not mounted, a bare chroot
    result = run("install.sh", root, "--no-apt")
    assert result.returncode == 0, result.stderr
    assert "warning: no /boot/firmware/config.txt" in result.stderr
    block = (DEPLOY / "boot/config-fragment.txt").read_text()
    made = (root / "boot/firmware/config.txt").read_text()
    assert made == f"# >>> twinfold >>>\n{block}# <<< twinfold <<<\n"
    result = run("uninstall.sh", root)
    assert result.returncode == 0, result.stderr
    assert not (root / "boot/firmware/config.txt").exists()


def test_a_system_dry_run_builds_the_wheel_from_the_checkout_and_changes_nothing(tmp_path):
    # No DESTDIR: the running system, but --dry-run. Debian's python3 has no pip, so without
    # --wheel the virtual environment's pip builds one from a clean copy of the checkout.
    result = subprocess.run(
        [BASH, str(DEPLOY / "install.sh"), "--dry-run"],  # type: ignore[list-item]
        env={k: v for k, v in os.environ.items() if k != "DESTDIR"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    apt = next(line for line in lines if line.startswith("would run: apt-get install"))
    # evdev is compiled (python3-dev, gcc); logind lets the service power off only with polkit
    for package in ("python3-venv", "python3-dev", "gcc", "device-tree-compiler", "polkitd"):
        assert package in apt.split(), package
    assert f"would build a wheel from {REPO}" in lines
    assert any("pip install --no-cache-dir --force-reinstall --no-deps" in line for line in lines)
    assert not any(line.startswith(("installed", "updated", "run: ")) for line in lines)


@pytest.mark.parametrize("state", ["enabled", "disabled"])
def test_hciuart_is_disabled_only_while_it_is_enabled(tmp_path, state):
    # A stand-in systemctl answers is-enabled; a second install must run nothing.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    systemctl = bin_dir / "systemctl"
    systemctl.write_text(f'#!/bin/sh\n[ "$1" = is-enabled ] && echo {state}\nexit 0\n')
    systemctl.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "DESTDIR"}
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    result = subprocess.run(
        [BASH, str(DEPLOY / "install.sh"), "--dry-run", "--no-apt"],  # type: ignore[list-item]
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    disabling = "would run: systemctl disable hciuart.service" in result.stdout.splitlines()
    assert disabling == (state == "enabled")


def test_a_missing_wheel_is_refused_before_any_change(tmp_path):
    result = subprocess.run(
        [BASH, str(DEPLOY / "install.sh"), "--dry-run", "--wheel", str(tmp_path / "no.whl")],  # type: ignore[list-item]
        env={k: v for k, v in os.environ.items() if k != "DESTDIR"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.strip() == f"install.sh: error: no such wheel: {tmp_path / 'no.whl'}"
    assert result.stdout == ""


def test_bad_options_are_refused(tmp_path):
    result = run("install.sh", stage(tmp_path), "--colour")
    assert result.returncode != 0 and "unknown option --colour" in result.stderr


def test_push_dry_run_names_every_step(tmp_path):
    result = subprocess.run(
        [BASH, str(DEPLOY / "push.sh"), "--dry-run", "pi@twinfold.local"],  # type: ignore[list-item]
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    steps = [line for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert steps[0].startswith("+ build_wheel python3 ")  # from a clean copy (deploy/lib.sh)
    assert any(
        s.startswith("+ scp ") and "pi@twinfold.local:/tmp/twinfold-push/" in s for s in steps
    )
    assert any("install.sh --no-apt --wheel" in s for s in steps)
    assert any("systemctl restart twinfold" in s for s in steps)


def test_push_builds_a_real_wheel_and_hands_it_to_the_installer(tmp_path):
    # Not a dry run: the wheel is built (with this Python); ssh and scp are stand-ins that
    # record their arguments and keep a copy of what would be sent.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    sent = tmp_path / "sent"
    sent.mkdir()
    (bin_dir / "ssh").write_text(f'#!/bin/sh\necho "ssh $*" >> "{log}"\n')
    (bin_dir / "scp").write_text(
        f'#!/bin/sh\necho "scp $*" >> "{log}"\n'
        f'for a in "$@"; do case "$a" in *.whl) cp "$a" "{sent}/";; esac; done\n'
    )
    for name in ("ssh", "scp"):
        (bin_dir / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHON": sys.executable}
    result = subprocess.run(
        [BASH, str(DEPLOY / "push.sh"), "pi@twinfold.local"],  # type: ignore[list-item]
        env=env, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    wheels = list(sent.glob("twinfold-*.whl"))
    assert len(wheels) == 1
    with zipfile.ZipFile(wheels[0]) as z:
        assert "firmware/cli.py" in z.namelist()
    calls = log.read_text().splitlines()
    install = next(c for c in calls if "install.sh" in c)
    assert install.endswith(f"install.sh --no-apt --wheel /tmp/twinfold-push/{wheels[0].name}")


def test_push_with_apt_lets_the_installer_install_packages():
    result = subprocess.run(
        [BASH, str(DEPLOY / "push.sh"), "--dry-run", "--apt", "pi@twinfold.local"],  # type: ignore[list-item]
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    install = next(line for line in result.stdout.splitlines() if "install.sh" in line)
    assert "--no-apt" not in install and "install.sh --wheel /tmp/twinfold-push/" in install


def test_push_needs_a_target():
    result = subprocess.run(
        [BASH, str(DEPLOY / "push.sh")],  # type: ignore[list-item]
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2 and "usage" in result.stderr


def test_image_build_dry_run_uses_pi_gen_and_the_stage(tmp_path):
    pigen = tmp_path / "pi-gen"
    result = subprocess.run(
        [BASH, str(DEPLOY / "pi-gen/build.sh"), "--dry-run", "--pi-gen", str(pigen),  # type: ignore[list-item]
         "--url", "https://example.org/tf"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    steps = result.stdout.splitlines()
    assert any("git clone" in s and "--branch arm64" in s and "pi-gen" in s for s in steps)
    assert any(s.startswith("+ cp -a") and "stage-twinfold" in s for s in steps)
    assert any("build-docker.sh" in s for s in steps)
    assert any("imager_json.py" in s and "https://example.org/tf" in s for s in steps)
    assert not pigen.exists()  # a dry run changes nothing
