#!/usr/bin/env python3
"""The emulated handheld: the image booted as a handheld unit on QEMU 10's raspi3b.

usage: handheld_check.py IMAGE --logs DIR

The boot partition's twinfold.toml is given `[unit] kind = "handheld"`, and QEMU boots the
image's own merged DTB (twinfold-bcm2837-rpi-3-b.dtb, what config.txt's [pi3] stanza selects
on a board) with the changes only an emulator needs: SPI0's DMA channels removed (QEMU
models the BCM2835 SPI controller in PIO mode only; with `dmas` the guest waits forever),
the upper panel's SPI clock lowered (SLOW_HZ: it only lengthens the guest kernel's deadline
for each transfer; QEMU moves the bytes at its own pace, whatever the clock), and the mini
UART switched back on, without its pins, for the check's root shell (the handheld has it
off: its pins are the radio's). QEMU 7.2 has no BCM2835 SPI at all: QEMU 10
from bookworm-backports is needed (.ci/image-checks installs it).

In one boot, from outside through the shell: unit-kind switched the unit (config.txt and
cmdline.txt rewritten: device_tree= per board, no console on the radio); the panel modules
(from updates/) loaded; both panels are framebuffers behind /dev/twinfold-upper and
-lower; the ADS7846 and the keys are evdev devices behind their udev names and the
firmware has both open; the radio (/dev/twinfold-radio, the PL011) is open by the firmware
with no console or getty on it and nothing from the kernel on its wire; READY and the
watchdog; and `twinfold device` (the service, two-panel mode) drives the upper panel over
SPI0: the kernel's SPI statistics of spi0.0 count the bytes and transfers while the picture
stands and while it changes (a virtual gamepad chooses English on the first start's
language screen: the launcher opens), with no error and no timeout since boot. The lower
panel's spi1.0 is driven too, and its transfers time out: QEMU has no aux SPI, so that is
what the check expects. The root and the boot partition are read-only in both
boots (unit-kind made its change under with-rw-root). Then Debian's DTB is "updated" in
the guest (its model string changed) and the kernel hooks run as a kernel update runs them
on the read-only image (under with-rw-root --boot); a second boot from the merged DTB the
hook wrote has all the devices again. What QEMU cannot model is printed at the end
(NOT_MODELLED; docs/hardware.md has the board steps for each).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # deploy/image: qemu_check

from qemu_check import (
    SEED,
    CheckFailed,
    Guest,
    check_ready,
    cmdline,
    log,
    partitions,
    set_boot_file,
)

BOARD_DTB = "twinfold-bcm2837-rpi-3-b.dtb"  # the [pi3] stanza's
SPI0, UART1 = "/soc/spi@7e204000", "/soc/serial@7e215040"
RW_ROOT = "/usr/local/lib/twinfold/with-rw-root --boot"  # what writes the read-only image
# The upper panel's SPI clock in the check's DTB. The kernel gives each SPI transfer
# 2 x (its bits at the clock) + 200 ms before it counts it timed out (spi_transfer_wait):
# at the panel's 48 MHz a whole picture (153 600 bytes) gets 251 ms, which QEMU's PIO model
# needs more than on a loaded host (26 timeouts at load 25-30). QEMU does not time SPI, so
# at 100 kHz the same picture goes out as fast and gets 24.8 s: any timeout on spi0 is then
# a stall, not a slow host, and fails the check.
SLOW_HZ = 100_000
# The most a look inside the guest may take (a loaded host slows a shell command to a minute).
LOOK = 300
FRAME_BYTES = 320 * 240 * 2  # one full picture of a panel, RGB565
# The firmware writes only the rows that changed: a new screen (the launcher after the
# language choice) changes far more than a quarter of the panel's rows.
CHANGE_BYTES = FRAME_BYTES // 4
UPDATED = " (updated)"  # appended to the model of Debian's DTB by the "update"
NOT_MODELLED = (
    "the lower panel's bus: QEMU has no BCM2835 aux SPI (spi1), so its framebuffer exists "
    "but its transfers time out, as the check expects (board: both panels show the "
    "launcher; spi1.0's statistics grow with no errors or timeouts)",
    "the pictures on the glass, the ILI9341 init sequence and the rotation (board: both "
    "panels show the launcher the right way up)",
    "touch readings: the ADS7846 has no QEMU model; it probes and reads nothing (board: "
    "evtest /dev/input/twinfold-touch, then Settings > Touch calibration)",
    "button, POWER and lid presses on the GPIO pins (board: evtest /dev/input/twinfold-keys)",
    "a radio module on the wire and its timing (board: two units pair and play)",
    "SPI clock rates and frame times: the check runs the upper panel at 100 kHz, QEMU "
    "moves its bytes at its own pace (board: 48 MHz, the journal's frame times, bench/)",
    "the Raspberry Pi firmware choosing device_tree= by [pi02]/[pi3]/[pi4] (QEMU is given "
    "the DTB; board: /proc/device-tree/twinfold-keys exists on each board)",
)


def qemu_major() -> int:
    out = subprocess.run(
        ["qemu-system-aarch64", "--version"], capture_output=True, text=True, check=True
    ).stdout
    found = re.search(r"version (\d+)\.", out)
    return int(found.group(1)) if found else 0


def boot_file(image: Path, name: str, dest: Path) -> Path:
    spec = f"{image}@@{partitions(image)[0]}"
    subprocess.run(["mcopy", "-o", "-i", spec, f"::/{name}", str(dest)], check=True)
    return dest


def kernel_files(image: Path, into: Path) -> dict[str, Path]:
    spec = f"{image}@@{partitions(image)[0]}"
    names = subprocess.check_output(["mdir", "-b", "-i", spec, "::/"], text=True).split()
    files = {}
    for key, pattern in (("kernel", r"::/vmlinuz-.*"), ("initrd", r"::/initrd\.img-.*")):
        name = next(n for n in names if re.fullmatch(pattern, n))
        files[key] = boot_file(image, name.removeprefix("::/"), into / name.removeprefix("::/"))
    return files


def fdt(*args: str) -> str:
    result = subprocess.run(["fdtget", *args], capture_output=True, text=True, check=False)
    return result.stdout.strip() if result.returncode == 0 else ""


def qemu_handheld_dtb(merged: Path, dest: Path) -> Path:
    """The image's merged DTB as QEMU boots it: SPI0 without DMA, the upper panel's clock
    at SLOW_HZ, the mini UART for the check's shell, the keys and the pen-down line
    active-high."""
    if "panel@0" not in fdt("-l", str(merged), SPI0):
        raise CheckFailed(f"{merged.name} on the boot partition has no panel on SPI0")
    shutil.copy(merged, dest)
    for prop in ("dmas", "dma-names"):
        subprocess.run(["fdtput", "-d", str(dest), SPI0, prop], check=False)
    subprocess.run(
        ["fdtput", "-t", "u", str(dest), f"{SPI0}/panel@0", "spi-max-frequency", str(SLOW_HZ)],
        check=True,
    )
    for prop in ("pinctrl-0", "pinctrl-names"):
        subprocess.run(["fdtput", "-d", str(dest), UART1, prop], check=False)
    subprocess.run(["fdtput", "-t", "s", str(dest), UART1, "status", "okay"], check=True)
    # QEMU's GPIO model has no pull-ups: every input pin reads 0, which the handheld's
    # active-low buttons, POWER, lid and pen-down line read as all pressed, the lid closed
    # (the firmware then sleeps with its panels blanked) and the pen down. Active-high here,
    # the idle level reads as released, open and up.
    lines = [
        (f"/twinfold-keys/{key}", "gpios") for key in fdt("-l", str(dest), "/twinfold-keys").split()
    ]
    for node, prop in [*lines, (f"{SPI0}/touchscreen@1", "pendown-gpio")]:
        cells = fdt("-t", "u", str(dest), node, prop).split()
        if len(cells) != 3:
            raise CheckFailed(f"{merged.name}: {node} {prop} is {cells}")
        subprocess.run(["fdtput", "-t", "u", str(dest), node, prop, *cells[:2], "0"], check=True)
    return dest


def spi_stats(guest: Guest, device: str) -> dict[str, int]:
    """The kernel's SPI statistics of a device. A transfer is counted (with its bytes) as it
    starts, its timeout or error when it ends: read in that order backwards, so that the
    transfers read are never fewer than the timeouts and errors read."""
    out = guest.sh(
        f"cd /sys/bus/spi/devices/{device}/statistics && "
        "for f in timedout errors messages transfers bytes_tx; do echo $f=$(cat $f); done",
        LOOK,
    )
    return {k: int(v) for k, v in (line.split("=") for line in out.split())}


def devices(guest: Guest, label: str) -> None:
    """The handheld's devices in this boot: modules, panels, touch, keys, radio."""
    lsmod = guest.sh("lsmod", LOOK)
    for module in ("panel_mipi_dbi", "drm_mipi_dbi", "ads7846", "gpio_keys", "spi_bcm2835"):
        if not re.search(rf"^{module}\s", lsmod, re.M):
            raise CheckFailed(f"{label}: module {module} is not loaded")
    path = guest.sh("modinfo -n panel_mipi_dbi", LOOK).strip()
    if "/updates/twinfold/" not in path:
        raise CheckFailed(f"{label}: panel_mipi_dbi loaded from {path}, not updates/")
    guest.sh("udevadm settle -t 120", LOOK)
    found = {}
    for name, bus in (("twinfold-upper", "spi0.0"), ("twinfold-lower", "spi1.0")):
        fb = guest.sh(f"readlink -f /dev/{name}", LOOK).strip()
        if not re.fullmatch(r"/dev/fb\d+", fb):
            raise CheckFailed(f"{label}: /dev/{name} is {fb!r}, not a framebuffer")
        sysfs = guest.sh(f"readlink -f /sys/class/graphics/{fb[5:]}/device", LOOK).strip()
        if not sysfs.endswith(bus):
            raise CheckFailed(f"{label}: /dev/{name} ({fb}) is {sysfs}, not {bus}")
        found[name] = fb
    inputs = (("twinfold-touch", "ADS7846 Touchscreen"), ("twinfold-keys", "twinfold-keys"))
    for name, kernel_name in inputs:
        event = guest.sh(f"readlink -f /dev/input/{name}", LOOK).strip()
        if not re.fullmatch(r"/dev/input/event\d+", event):
            raise CheckFailed(f"{label}: /dev/input/{name} is {event!r}")
        got = guest.sh(f"cat /sys/class/input/{event[11:]}/device/name", LOOK).strip()
        if got != kernel_name:
            raise CheckFailed(f"{label}: /dev/input/{name} is {got!r}, not {kernel_name!r}")
        found[name] = event
    radio = guest.sh("readlink -f /dev/twinfold-radio", LOOK).strip()
    if radio != "/dev/ttyAMA0":
        raise CheckFailed(f"{label}: /dev/twinfold-radio is {radio!r}, not the PL011 (ttyAMA0)")
    found["twinfold-radio"] = radio
    consoles = guest.sh("cat /proc/consoles", LOOK)
    if "ttyAMA" in consoles:
        raise CheckFailed(f"{label}: a console is on the radio UART: {consoles}")
    gettys = guest.sh("systemctl list-units --no-legend 'serial-getty@*'", LOOK)
    if "ttyAMA" in gettys:
        raise CheckFailed(f"{label}: a getty is on the radio UART: {gettys}")
    read_only(guest, label)
    log(f"{label}: modules from updates/, " + ", ".join(f"{k} -> {v}" for k, v in found.items()))


def root_read_only(label: str, words: list[str]) -> None:
    """The kernel and the initramfs take the last of rw/ro: it must be ro (raspi-firmware's
    hook writes rw, raspi-extra-cmdline's ro comes after it)."""
    last = [w for w in words if w in ("ro", "rw")][-1:]
    if last != ["ro"]:
        raise CheckFailed(f"{label}: the root is not mounted read-only at boot: {words}")


def read_only(guest: Guest, label: str) -> None:
    """The root and the boot partition are mounted read-only (the image's power-cut
    layout): unit-kind's change of kind left them so."""
    mounts = guest.sh("cat /proc/self/mounts", LOOK)
    for point in ("/", "/boot/firmware"):
        options = [f[3].split(",") for f in (m.split() for m in mounts.splitlines())
                   if len(f) >= 4 and f[1] == point]  # fmt: skip
        if not options or "ro" not in options[-1]:
            raise CheckFailed(f"{label}: {point} is not mounted read-only: {options}")


def opened_by_firmware(guest: Guest, label: str, paths: list[str]) -> None:
    """The service's process has each device open or mapped (waits: it looks for devices
    each second)."""
    deadline = time.monotonic() + LOOK
    while True:
        pid = guest.sh("systemctl show -p MainPID --value twinfold", LOOK).strip()
        # files open, and mapped (the panels are mmap'ed, their descriptors closed)
        look = f"ls -l /proc/{pid}/fd; grep -o ' /dev/.*' /proc/{pid}/maps; true"
        fds = guest.sh(look, LOOK) if pid != "0" else ""
        missing = [p for p in paths if f"-> {p}\n" not in fds and f" {p}\n" not in fds]
        if not missing:
            log(f"{label}: the firmware (pid {pid}) has open: {', '.join(paths)}")
            return
        if time.monotonic() > deadline:
            raise CheckFailed(f"{label}: the firmware has not opened {missing}: {fds}")
        time.sleep(5)


# A virtual gamepad that presses its keys once the firmware (pid argv[1]) has opened it:
# on a loaded host udev may take many seconds to give the new device its group, and the
# firmware opens it only then.
PAD = r"""
import os, sys, time
from evdev import UInput, ecodes as e
ui = UInput({e.EV_KEY: [e.BTN_DPAD_DOWN, e.BTN_EAST]}, name="twinfold-check-pad")
node, deadline = ui.device.path, time.monotonic() + 240
fds = f"/proc/{sys.argv[1]}/fd"
while not any(os.path.realpath(os.path.join(fds, f)) == node for f in os.listdir(fds)):
    if time.monotonic() > deadline:
        sys.exit("the firmware never opened the virtual gamepad")
    time.sleep(0.5)
time.sleep(1)
for code in (e.BTN_DPAD_DOWN, e.BTN_EAST):
    ui.write(e.EV_KEY, code, 1); ui.syn(); time.sleep(0.12)
    ui.write(e.EV_KEY, code, 0); ui.syn(); time.sleep(1.5)
ui.close()
"""


def settled(guest: Guest, device: str) -> dict[str, int]:
    """The statistics once the device's bytes stand still between two looks 5 s apart (the
    picture drawn and standing; waited for, not slept for)."""
    deadline = time.monotonic() + 2 * LOOK
    last = spi_stats(guest, device)
    while True:
        time.sleep(5)
        now = spi_stats(guest, device)
        if now["bytes_tx"] == last["bytes_tx"]:
            return now
        if time.monotonic() > deadline:
            raise CheckFailed(f"{device}: its bytes never stood still in {2 * LOOK} s: {now}")
        last = now


def panel_traffic(guest: Guest) -> None:
    """`twinfold device` (the service) drives the upper panel over SPI0: nothing while the
    picture stands, and at least a quarter of a full picture's bytes when it changes; no
    error and no timeout since boot (with the check's slow clock a timeout is a stall). The
    lower panel's spi1.0 is driven too, and its transfers time out (no aux SPI in QEMU:
    NOT_MODELLED)."""
    still = settled(guest, "spi0.0")
    guest.put("/tmp/pad.py", PAD)  # the first start's language: English
    guest.sh("python3 /tmp/pad.py $(systemctl show -p MainPID --value twinfold)", LOOK)
    deadline = time.monotonic() + 2 * LOOK
    while (now := spi_stats(guest, "spi0.0"))["bytes_tx"] - still["bytes_tx"] < CHANGE_BYTES:
        if time.monotonic() > deadline:
            raise CheckFailed(f"spi0.0: under a quarter picture's bytes after the press: {now}")
        time.sleep(5)
    changed = settled(guest, "spi0.0")
    if changed["errors"] or changed["timedout"]:
        raise CheckFailed(f"spi0.0: errors or timeouts on the upper panel's bus: {changed}")
    log(
        "handheld: the upper panel over SPI0 (spi0.0): "
        f"{still['bytes_tx']} bytes in {still['transfers']} transfers up to the language "
        f"screen standing still, then {changed['bytes_tx'] - still['bytes_tx']} bytes in "
        f"{changed['transfers'] - still['transfers']} transfers as the language choice gave "
        f"way to the launcher (a full picture is {FRAME_BYTES}); no error, no timeout"
    )
    lower = spi_stats(guest, "spi1.0")
    if not lower["transfers"]:
        raise CheckFailed(f"spi1.0: the lower panel was never drawn: {lower}")
    if not lower["timedout"]:
        log(f"handheld: no transfer on spi1.0 timed out: does QEMU model the aux SPI now? {lower}")
    # Without the aux SPI its registers read 0: a transfer sent with interrupts waits for one
    # that never comes (timed out); the driver's polling of the shortest ones may see "done".
    log(
        f"handheld: the lower panel's spi1.0 (not modelled): {lower['transfers']} transfers "
        f"of {lower['bytes_tx']} bytes, {lower['timedout']} timed out, {lower['errors']} "
        "errors, as expected without an aux SPI (the panel's commands only: the driver stops "
        "at the first that fails)"
    )


def first_boot(guest: Guest, radio_log: Path) -> None:
    guest.boot()
    guest.shell_ready()
    deadline = time.monotonic() + 2 * LOOK  # it may wait for a late boot partition
    while guest.sh("systemctl show -p ActiveState --value twinfold-unit-kind", LOOK).strip() != (
        "active"
    ):
        if time.monotonic() > deadline:
            break
        time.sleep(10)
    journal = guest.sh("journalctl -b -u twinfold-unit-kind -o cat --no-pager", LOOK)
    if "kind handheld applied" not in journal:
        raise CheckFailed(f"handheld: unit-kind did not switch the unit: {journal}")
    config = guest.sh("cat /boot/firmware/config.txt", LOOK)
    if f"[pi3]\ndevice_tree={BOARD_DTB}" not in config:
        raise CheckFailed(f"handheld: config.txt does not boot {BOARD_DTB} on a Pi 3: {config}")
    line = guest.sh("cat /boot/firmware/cmdline.txt", LOOK).split()
    if [w for w in line if w.startswith("console=")] != ["console=tty0"]:
        raise CheckFailed(f"handheld: cmdline.txt's consoles are not tty0 alone: {line}")
    root_read_only("handheld: cmdline.txt", line)
    log(
        "handheld: unit-kind made it a handheld (config.txt's device_tree=, console tty0 "
        "only, the root ro)"
    )
    devices(guest, "handheld")
    check_ready(guest)
    opened_by_firmware(
        guest, "handheld", ["/dev/ttyAMA0", *(guest.sh(
            "readlink -f /dev/input/twinfold-touch /dev/input/twinfold-keys /dev/twinfold-upper "
            "/dev/twinfold-lower", LOOK).split())],
    )  # fmt: skip
    panel_traffic(guest)
    text = radio_log.read_bytes() if radio_log.exists() else b""
    for word in (b"Linux version", b"login:", b"systemd", b"Debian"):
        if word in text:
            raise CheckFailed(f"handheld: {word!r} went out on the radio UART")
    log(f"handheld: the radio's wire carried {len(text)} bytes, none from a console")


def update_dtbs(guest: Guest) -> None:
    """Debian updates the DTBs: the kernel hooks run as the kernel package's postinst runs
    them (raspi-firmware's copies them, ours merges them again), on the read-only image
    under with-rw-root --boot."""
    guest.put(
        "/tmp/update-dtbs",
        "set -e\nabi=$(uname -r); f=/usr/lib/linux-image-$abi/broadcom/bcm2837-rpi-3-b.dtb\n"
        f'fdtput -t s $f / model "$(fdtget $f / model){UPDATED}"\n'
        "for h in z50-raspi-firmware z60-twinfold-dtbs; do\n"
        "  DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/$h $abi /boot/vmlinuz-$abi\n"
        "done\n",
    )
    # The image's root and boot partition are read-only: an update runs as apt would be
    # run there, under with-rw-root --boot (they are read-only again after it).
    guest.sh(f"{RW_ROOT} sh /tmp/update-dtbs", 3 * LOOK)
    read_only(guest, "handheld: after the update")
    guest.send("systemctl poweroff\n")
    guest.wait_for(rb"reboot: Power down", 300)
    log("handheld: the DTBs updated and merged again by the kernel hooks; powered off")


def run(image: Path, logs: Path, work: Path) -> None:
    disk = work / "handheld.img"
    subprocess.run(["cp", "--sparse=always", str(image), str(disk)], check=True)
    settings = (Path(__file__).parents[1] / "files/twinfold.toml").read_text()
    if 'kind = "hdmi"' not in settings:
        raise CheckFailed('the shipped twinfold.toml has no kind = "hdmi" line to change')
    settings = settings.replace('kind = "hdmi"', 'kind = "handheld"', 1)
    set_boot_file(disk, "twinfold.toml", settings + f"\n[boot]\nseed = {SEED}\n")
    files = kernel_files(disk, work)
    files["dtb"] = qemu_handheld_dtb(boot_file(disk, BOARD_DTB, work / "m1.dtb"), work / "q1.dtb")
    radio_log = logs / "handheld-radio.bin"
    append = cmdline(disk) + " twinfold.serial_shell"
    started = time.monotonic()
    guest = Guest("handheld", disk, files, append, logs, radio=f"file,path={radio_log}")
    try:
        first_boot(guest, radio_log)
        update_dtbs(guest)
    except CheckFailed:
        guest.save_journal("twinfold", "journal")
        raise
    finally:
        guest.remove()
    log(f"handheld: first boot's checks done after {time.monotonic() - started:.0f} s")

    merged = boot_file(disk, BOARD_DTB, work / "m2.dtb")
    model = fdt("-t", "s", str(merged), "/", "model")
    if not model.endswith(UPDATED):
        raise CheckFailed(f"the merged DTB after the update is not from the updated one: {model}")
    files["dtb"] = qemu_handheld_dtb(merged, work / "q2.dtb")
    # The unit's own command line now (console tty0 only), and the check's shell.
    append = cmdline(disk) + " console=ttyS1,115200 twinfold.serial_shell"
    again = Guest("handheld-2", disk, files, append, logs, radio="null")
    try:
        again.boot()
        again.shell_ready()
        got = again.sh("tr -d '\\0' < /proc/device-tree/model", LOOK).strip()
        if not got.endswith(UPDATED):
            raise CheckFailed(f"handheld-2: booted {got!r}, not the updated tree")
        root_read_only("handheld-2: /proc/cmdline", again.sh("cat /proc/cmdline", LOOK).split())
        devices(again, "handheld-2")
        check_ready(again)
    except CheckFailed:
        again.save_journal("twinfold", "journal-2")
        raise
    finally:
        again.remove()
    took = time.monotonic() - started
    log(f"handheld: the second boot (model {got!r}) has them all; {took:.0f} s in all")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("image", type=Path)
    parser.add_argument("--logs", type=Path, required=True)
    args = parser.parse_args(argv)
    args.logs.mkdir(parents=True, exist_ok=True)
    if qemu_major() < 10:
        print("handheld_check: QEMU 10 or later is needed (raspi3b's BCM2835 SPI)", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="tf-handheld-"))
    try:
        run(args.image, args.logs, work)
    except CheckFailed as exc:
        print(f"handheld_check: FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
        print("handheld_check: what QEMU does not model (check on a board, docs/hardware.md):")
        for item in NOT_MODELLED:
            print(f"  - {item}")
    log("handheld: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
