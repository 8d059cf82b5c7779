#!/usr/bin/env python3
"""Boot the built Twinfold image in QEMU and check it from outside, as a person would.

usage: qemu_check.py IMAGE --logs DIR [--checks LIST]

    --checks LIST   comma-separated, in this order (default: all):
                    ready     the service reached READY (sd_notify) and its watchdog is fed
                    launcher  the framebuffer (QMP screendump) equals `twinfold headless
                              --first-start`'s pictures, placed as the one-panel vertical
                              layout places them: a fresh unit's language choice, then (English
                              chosen with a virtual gamepad) the launcher
                    input     a virtual gamepad made with /dev/uinput inside the guest moves
                              the launcher's cursor (the picture equals headless's after the
                              same press)
                    reset     a hard reset (QMP system_reset) mid-game loses nothing: the
                              game is offered again after the reboot
                    movie     `twinfold device --movie F` (the service stopped) plays a move
                              of Reversi: the framebuffer equals `twinfold headless --movie F`
                    firstcut  the first boot is cut while /var grows; then after READY
                              and after the reset: file systems clean, store sound, /var
                              fills the card (deploy/image/power_check.py)
                    updates   a good update kept, a broken one rolled back, one cut
                              mid-way (power_check.py), before the POWER press
                    power     a long POWER press shuts the guest down cleanly

Two units that pair and play over their joined UARTs: deploy/image/pair_check.py.

The board is QEMU's raspi3b (Debian's kernel, initrd and the Pi 3 DTB from the image's boot
partition, with a simple-framebuffer node added: QEMU's Pi has no firmware to make one). A
boot that stalls before userspace (QEMU's emulated SD controller does, now and then) is
retried. Every console log is kept in --logs. Run with the checkout's virtual environment's
Python (it renders the expected launcher with `twinfold headless`).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

SCREEN_W, SCREEN_H = 256, 192
FB_W, FB_H, FB_STRIDE, FB_BASE, FB_SIZE = 640, 480, 1280, 0x3C100000, 0x96000
# One-panel vertical layout at scale 1 (384 lines fit 480 once), centred on the 640x480 panel.
UPPER_AT = ((FB_W - SCREEN_W) // 2, (FB_H - 2 * SCREEN_H) // 2)
LOWER_AT = (UPPER_AT[0], UPPER_AT[1] + SCREEN_H)
SEED = 1  # [boot] seed in the guest's twinfold.toml, --seed for headless
LAUNCHER_FRAMES = 300  # the launcher's opening animation has settled by then
BOOT_ATTEMPTS = 3
# A boot has stalled (QEMU's SD controller does, now and then) when the console stays
# silent this long before systemd starts; a slow one (a loaded host) keeps printing.
STALL_SECONDS = 180
USERSPACE_SECONDS = 900  # the most a boot may take to reach systemd, stalled or not
SHELL_SECONDS = 900  # to the serial root shell (over 600 s seen at load average 30-46)
ALL_CHECKS = ("firstcut", "ready", "launcher", "input", "reset", "movie", "updates", "power")


class CheckFailed(Exception):
    """A check saw the guest do something else than it should: the run fails, logs kept."""


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


# --------------------------------------------------------------------------- the image
def partitions(image: Path) -> list[int]:
    """Byte offsets of the image's partitions."""
    table = json.loads(subprocess.check_output(["sfdisk", "-J", str(image)]))["partitiontable"]
    return [p["start"] * table.get("sectorsize", 512) for p in table["partitions"]]


def boot_files(image: Path, into: Path) -> dict[str, Path]:
    """The kernel, initrd and Pi 3 DTB from the image's boot partition."""
    spec = f"{image}@@{partitions(image)[0]}"
    names = subprocess.check_output(["mdir", "-b", "-i", spec, "::/"], text=True).split()
    wanted = {
        "kernel": next(n for n in names if re.fullmatch(r"::/vmlinuz-.*", n)),
        "initrd": next(n for n in names if re.fullmatch(r"::/initrd\.img-.*", n)),
        "dtb": "::/bcm2837-rpi-3-b.dtb",
    }
    out = {}
    for key, name in wanted.items():
        dest = into / name.removeprefix("::/")
        subprocess.run(["mcopy", "-o", "-i", spec, name, str(dest)], check=True)
        out[key] = dest
    return out


def cmdline(image: Path) -> str:
    spec = f"{image}@@{partitions(image)[0]}"
    return subprocess.check_output(["mtype", "-i", spec, "::/cmdline.txt"], text=True).strip()


def set_boot_file(image: Path, name: str, text: str) -> None:
    """Write a file on the image's boot partition (as a person would from a desktop)."""
    spec = f"{image}@@{partitions(image)[0]}"
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(text)
    subprocess.run(["mcopy", "-o", "-i", spec, f.name, f"::/{name}"], check=True)
    os.unlink(f.name)


def qemu_dtb(src: Path, dest: Path) -> Path:
    """The Pi 3 DTB with a simple-framebuffer (QEMU's raspi3b framebuffer at its default mode)
    and the PL011 UART free for the radio (Debian's DTB gives it to Bluetooth)."""
    shutil.copy(src, dest)
    node = f"/framebuffer@{FB_BASE:x}"

    def put(*args: str) -> None:
        subprocess.run(["fdtput", *args], check=True)

    put("-c", str(dest), node)
    put("-t", "s", str(dest), node, "compatible", "simple-framebuffer")
    put("-t", "x", str(dest), node, "reg", f"{FB_BASE:x}", f"{FB_SIZE:x}")
    put("-t", "u", str(dest), node, "width", str(FB_W))
    put("-t", "u", str(dest), node, "height", str(FB_H))
    put("-t", "u", str(dest), node, "stride", str(FB_STRIDE))
    put("-t", "s", str(dest), node, "format", "r5g6b5")
    put("-t", "s", str(dest), node, "status", "okay")
    bt = subprocess.run(
        ["fdtget", "-l", str(dest), "/soc/serial@7e201000"], capture_output=True, text=True
    )
    if "bluetooth" in bt.stdout.split():
        put("-r", str(dest), "/soc/serial@7e201000/bluetooth")
    return dest


# --------------------------------------------------------------------------- a guest
class Guest:
    """One QEMU raspi3b running a copy of the image: its console (a root shell on the mini
    UART, ttyS1, the second -serial, enabled by `twinfold.serial_shell` on the kernel command
    line), QMP, and the radio UART (the PL011, ttyAMA0, the first -serial): `radio` is its
    chardev (`socket,path=...`), else it is not connected. `extra`: more QEMU arguments
    (pair_check's network between the units). `drive`: the SD card's -drive instead of the
    image file (power_series.py's blklogwrites, which logs every write)."""

    def __init__(self, name: str, image: Path, files: dict[str, Path], append: str,
                 logs: Path, radio: str | None = None,
                 extra: list[str] | None = None, drive: str | None = None) -> None:  # fmt: skip
        self.name = name
        self.image = image
        self.files = files
        self.append = append
        self.logs = logs
        self.radio = radio
        self.extra = extra or []
        self.drive = drive
        self.dir = Path(tempfile.mkdtemp(prefix=f"tf-{name}-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.console: socket.socket | None = None
        self.buffer = b""
        self.lock = threading.Lock()
        self.attempt = 0
        self.log_file: Path | None = None
        self.qmp_sock: socket.socket | None = None
        self.qmp_file = None
        self.marker = 0

    # -- life
    def start(self) -> None:
        self.attempt += 1
        self.log_file = self.logs / f"{self.name}-console-{self.attempt}.log"
        con, qmp = self.dir / "console.sock", self.dir / "qmp.sock"
        for s in (con, qmp):
            s.unlink(missing_ok=True)
        fmt = "qcow2" if self.image.suffix == ".qcow2" else "raw"  # an overlay of a copy
        radio = ["-serial", "null"]
        if self.radio:
            radio = ["-chardev", f"{self.radio},id=radio", "-serial", "chardev:radio"]
        cmd = [
            "nice", "-n", "10", "qemu-system-aarch64", "-M", "raspi3b", "-m", "1G",
            "-kernel", str(self.files["kernel"]), "-initrd", str(self.files["initrd"]),
            "-dtb", str(self.files["dtb"]), "-append", self.append,
            "-drive", self.drive or f"file={self.image},if=sd,format={fmt}",
            *radio,
            "-chardev", f"socket,id=con,path={con},server=on,wait=on",
            "-serial", "chardev:con",
            "-qmp", f"unix:{qmp},server=on,wait=off",
            "-display", "none", "-monitor", "none",
            "-device", "usb-kbd", *self.extra,
        ]  # fmt: skip
        log(f"{self.name}: boot attempt {self.attempt}: {' '.join(cmd[3:])}")
        with open(self.logs / f"{self.name}-qemu-{self.attempt}.log", "wb") as qlog:
            self.proc = subprocess.Popen(cmd, stdout=qlog, stderr=subprocess.STDOUT)
        self.console = self._connect(con)
        self.qmp_sock = self._connect(qmp)
        self.qmp_file = self.qmp_sock.makefile("rwb")
        self._qmp_read()  # greeting
        self.qmp("qmp_capabilities")
        self.buffer = b""
        threading.Thread(target=self._read_console, daemon=True).start()

    def _connect(self, path: Path) -> socket.socket:
        deadline = time.monotonic() + 30
        while True:
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(str(path))
                return s
            except OSError:
                if time.monotonic() > deadline or (self.proc and self.proc.poll() is not None):
                    raise CheckFailed(f"{self.name}: QEMU did not start (see its log)") from None
                time.sleep(0.2)

    def _read_console(self) -> None:
        assert self.console is not None and self.log_file is not None
        sock = self.console
        with open(self.log_file, "ab") as out:
            while True:
                try:
                    data = sock.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                out.write(data)
                out.flush()
                with self.lock:
                    self.buffer += data

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        for s in (self.console, self.qmp_sock):
            if s is not None:
                s.close()

    def remove(self) -> None:
        """Stop for good: QEMU killed, its socket folder deleted."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def boot(self) -> None:
        """Start, retrying a boot that stalls before the kernel reaches userspace."""
        for _ in range(BOOT_ATTEMPTS):
            self.start()
            try:
                self.wait_for(rb"systemd\[1\]|Welcome to", USERSPACE_SECONDS, STALL_SECONDS)
                return
            except CheckFailed as exc:
                log(f"{exc}; retrying (console log kept: {self.log_file})")
                self.stop()
        raise CheckFailed(f"{self.name}: no boot reached userspace in {BOOT_ATTEMPTS} attempts")

    def wait_for(
        self, pattern: bytes, seconds: float, silent: float | None = None
    ) -> re.Match[bytes]:
        """Wait for the pattern on the console; give up after `seconds`, or after `silent`
        seconds without any console output."""
        deadline = time.monotonic() + seconds
        seen, heard = -1, time.monotonic()
        while time.monotonic() < deadline:
            with self.lock:
                m = re.search(pattern, self.buffer, re.S)
                size = len(self.buffer)
            if m:
                return m
            if size != seen:
                seen, heard = size, time.monotonic()
            elif silent is not None and time.monotonic() - heard > silent:
                raise CheckFailed(f"{self.name}: the console was silent {silent:.0f} s (stalled)")
            if self.proc and self.proc.poll() is not None:
                raise CheckFailed(f"{self.name}: QEMU exited waiting for {pattern!r}")
            time.sleep(0.5)
        raise CheckFailed(f"{self.name}: {pattern!r} not seen in {seconds:.0f} s")

    # -- the shell
    def send(self, text: str) -> None:
        assert self.console is not None
        self.console.sendall(text.encode())

    def shell_ready(self) -> None:
        """Wait for the serial root shell; quiet the kernel's messages on it."""
        deadline = time.monotonic() + SHELL_SECONDS
        while time.monotonic() < deadline:
            try:
                self.sh("stty -echo; dmesg -n 1", 20)
                return
            except CheckFailed:
                if self.proc and self.proc.poll() is not None:
                    raise
        raise CheckFailed(f"{self.name}: no serial shell in {SHELL_SECONDS} s")

    def sh(self, command: str, seconds: float = 60) -> str:
        """Run a shell command in the guest; its output (raises if it fails)."""
        self.marker += 1
        n = self.marker
        with self.lock:
            self.buffer = b""
        # the markers are split in the command, so the echo of the line never matches
        self.send(f"echo _B''EGIN{n}_; ( {command} ) 2>&1; echo _E''ND{n}_ $?\n")
        m = self.wait_for(rb"_BEGIN%d_\r?\n(.*?)_END%d_ (\d+)" % (n, n), seconds)
        out = m.group(1).decode(errors="replace").replace("\r", "")
        if m.group(2) != b"0":
            raise CheckFailed(f"{self.name}: `{command}` failed ({m.group(2).decode()}): {out}")
        return out

    def put(self, path: str, text: str) -> None:
        """Write a file in the guest (through the shell, base64 so any text survives)."""
        self.sh(f"echo {base64.b64encode(text.encode()).decode()} | base64 -d > {path}", 30)

    def save_journal(self, unit: str, label: str) -> None:
        """Keep a unit's journal of this boot in the logs (best effort: the guest may be
        gone)."""
        try:
            text = self.sh(f"journalctl -b -u {unit} -o short-monotonic --no-pager", 120)
        except CheckFailed as exc:
            text = f"(the journal could not be read: {exc})\n"
        (self.logs / f"{self.name}-{label}.log").write_text(text)

    # -- QMP
    def _qmp_read(self) -> dict[str, object]:
        assert self.qmp_file is not None
        while True:
            line = self.qmp_file.readline()
            if not line:
                raise CheckFailed(f"{self.name}: QMP closed")
            msg = json.loads(line)
            if "event" not in msg:
                return msg  # type: ignore[no-any-return]

    def qmp(self, command: str, **arguments: object) -> object:
        assert self.qmp_file is not None
        msg: dict[str, object] = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        self.qmp_file.write(json.dumps(msg).encode() + b"\n")
        self.qmp_file.flush()
        reply = self._qmp_read()
        if "error" in reply:
            raise CheckFailed(f"{self.name}: QMP {command}: {reply['error']}")
        return reply.get("return")

    def screen(self, path: Path) -> bytes:
        """The framebuffer as RGB bytes (QMP screendump, a PPM)."""
        self.qmp("screendump", filename=str(path))
        data = path.read_bytes()
        parts = data.split(maxsplit=4)
        if parts[0] != b"P6" or (int(parts[1]), int(parts[2])) != (FB_W, FB_H):
            raise CheckFailed(f"{self.name}: screendump is {parts[:3]!r}, not a {FB_W}x{FB_H} P6")
        return parts[4][: FB_W * FB_H * 3]


# --------------------------------------------------------------------------- pictures
def rgb565(rgb: bytes) -> bytes:
    """Each pixel cut to the framebuffer's 5/6/5 bits, so the two pictures compare exactly."""
    out = bytearray(len(rgb))
    masks = (0xF8, 0xFC, 0xF8)
    for i, v in enumerate(rgb):
        out[i] = v & masks[i % 3]
    return bytes(out)


def expected_panel(shots: Path) -> bytes:
    """headless's two screens placed on a black 640x480 panel as the one-panel layout does."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    canvas = pygame.Surface((FB_W, FB_H))
    canvas.fill((0, 0, 0))
    canvas.blit(pygame.image.load(str(shots / "top.png")), UPPER_AT)
    canvas.blit(pygame.image.load(str(shots / "bottom.png")), LOWER_AT)
    return rgb565(pygame.image.tobytes(canvas, "RGB"))


def headless_shots(
    into: Path,
    frames: int,
    movie: str | None = None,
    store: Path | None = None,
    first_start: bool = True,
) -> Path:
    """`twinfold headless`'s two screens after `frames` ticks, in `into`. `first_start`: as a
    fresh unit starts (the language choice first, when the store has no settings yet)."""
    twinfold = Path(sys.executable).with_name("twinfold")
    cmd = [str(twinfold), "headless", "--frames", str(frames), "--shots", str(into)]
    cmd += ["--seed", str(SEED)] + (["--first-start"] if first_start else [])
    if store is not None:
        cmd += ["--store", str(store)]
    if movie is not None:
        path = into.with_suffix(".movie")
        path.write_text(movie)
        cmd += ["--movie", str(path)]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    subprocess.run(cmd, check=True, env=env, capture_output=True, timeout=300)
    return into


def save_ppm(path: Path, rgb: bytes) -> None:
    path.write_bytes(b"P6 %d %d 255\n" % (FB_W, FB_H) + rgb)


def wait_for_picture(guest: Guest, want: bytes, logs: Path, label: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    shot = logs / f"{guest.name}-{label}.ppm"
    while True:
        got = rgb565(guest.screen(shot))
        if got == want:
            log(f"{guest.name}: {label}: the framebuffer equals headless's picture")
            return
        if time.monotonic() > deadline:
            save_ppm(logs / f"{guest.name}-{label}-expected.ppm", want)
            diff = sum(1 for i in range(0, len(want), 3) if got[i : i + 3] != want[i : i + 3])
            raise CheckFailed(
                f"{guest.name}: {label}: {diff} pixels differ from headless's picture "
                f"(kept {shot.name} and the expected one in {logs})"
            )
        time.sleep(3)


# --------------------------------------------------------------------------- the checks
UINPUT = r"""
import sys, time
from evdev import UInput, ecodes as e
keys = [e.BTN_DPAD_UP, e.BTN_DPAD_DOWN, e.BTN_DPAD_LEFT, e.BTN_DPAD_RIGHT, e.BTN_EAST,
        e.BTN_SOUTH, e.BTN_START, e.BTN_SELECT, e.KEY_POWER]
ui = UInput({e.EV_KEY: keys}, name="twinfold-check-pad")
time.sleep(4)  # the firmware looks for new devices every second
for word in sys.argv[1:]:
    if word.startswith("sleep="):
        time.sleep(float(word[6:]))
        continue
    name, _, hold = word.partition(":")
    code = getattr(e, name)
    ui.write(e.EV_KEY, code, 1); ui.syn()
    time.sleep(float(hold or 0.12))  # under the firmware's 18-tick repeat delay
    ui.write(e.EV_KEY, code, 0); ui.syn()
    time.sleep(1.0)
time.sleep(1)
ui.close()
"""


def press(guest: Guest, *keys: str, seconds: float = 180, background: bool = False) -> None:
    """Press keys on a virtual gamepad made inside the guest with /dev/uinput. In the
    background for a press whose outcome may kill the shell (the guest shutting down)."""
    guest.put("/tmp/pad.py", UINPUT)
    command = "python3 /tmp/pad.py " + " ".join(keys)
    guest.sh(f"({command} > /dev/null 2>&1 &)" if background else command, seconds)


def service(guest: Guest) -> dict[str, str]:
    out = guest.sh(
        "systemctl show twinfold -p ActiveState -p SubState -p WatchdogUSec "
        "-p WatchdogTimestampMonotonic -p NRestarts -p Type -p StatusErrno",
        30,
    )
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def check_ready(guest: Guest) -> None:
    deadline = time.monotonic() + 900
    while True:
        state = service(guest)
        if state.get("ActiveState") == "active" and state.get("SubState") == "running":
            break
        if time.monotonic() > deadline:
            raise CheckFailed(f"{guest.name}: the service never became active: {state}")
        time.sleep(5)
    if state.get("Type") != "notify":
        raise CheckFailed(f"{guest.name}: the unit is Type={state.get('Type')}, not notify")
    if state.get("WatchdogUSec") in ("0", "infinity", None):
        raise CheckFailed(f"{guest.name}: no watchdog armed: {state}")
    first = int(state["WatchdogTimestampMonotonic"])
    time.sleep(8)
    later = service(guest)
    if int(later["WatchdogTimestampMonotonic"]) <= first:
        raise CheckFailed(f"{guest.name}: the watchdog is not being fed: {later}")
    if later.get("ActiveState") != "active":
        raise CheckFailed(f"{guest.name}: the service stopped: {later}")
    log(f"{guest.name}: READY (Type=notify active), watchdog {later['WatchdogUSec']} fed, "
        f"restarts {later.get('NRestarts')}")  # fmt: skip


# A fresh unit's language choice: the first D-pad press shows the cursor on English, A
# chooses it; then the launcher opens and settles.
CHOOSE_ENGLISH = ["DOWN", "A", "WAIT"]
# From the launcher (Reversi chosen): the options (START), "2 Players", Start, then the move
# d3 with the board's cursor (its first press shows it at a1). Found with `twinfold headless`.
NEW_GAME_AND_MOVE = ["LEFT", "START", "DOWN", "UP", "A", "DOWN", "DOWN", "DOWN", "UP", "A"]
NEW_GAME_AND_MOVE += ["LEFT", "RIGHT", "RIGHT", "RIGHT", "DOWN", "DOWN", "A"]
CONTINUE = ["DOWN", "UP", "A"]  # on the resume prompt: "Continue"
# The guest's virtual gamepad: the evdev codes device.toml maps to these buttons.
EVDEV = {
    "UP": "BTN_DPAD_UP", "DOWN": "BTN_DPAD_DOWN", "LEFT": "BTN_DPAD_LEFT",
    "RIGHT": "BTN_DPAD_RIGHT", "A": "BTN_EAST", "B": "BTN_SOUTH", "START": "BTN_START",
}  # fmt: skip
PRESS_GAP = 60  # frames between presses in the headless movie (a second in the guest)


def movie_of(buttons: list[str], power: bool = False) -> tuple[str, int]:
    """The headless movie pressing these buttons a second apart from frame 300 (after the
    first screen has settled; WAIT: let a new screen settle), then a short POWER press; and
    its length in frames."""
    lines, frame = ["# twinfold movie 1"], LAUNCHER_FRAMES
    for button in buttons:
        if button == "WAIT":
            frame += LAUNCHER_FRAMES
            continue
        lines += [f"{frame} press {button}", f"{frame + 6} release {button}"]
        frame += PRESS_GAP
    if power:
        lines += [f"{frame} power press", f"{frame + 6} power release"]
        frame += PRESS_GAP
    return "\n".join(lines) + "\n", frame + PRESS_GAP


def check_reset(guest: Guest, work: Path, logs: Path, before: list[str]) -> None:
    """Start a game, play a move, sleep (short POWER: the game is suspended), hard reset:
    after the reboot the game is offered again (the picture equals headless's, booted on the
    store the same presses left), and the store opens."""
    keys = [EVDEV[b] for b in NEW_GAME_AND_MOVE]
    press(guest, *keys, "KEY_POWER:0.3", seconds=300)
    time.sleep(5)  # asleep: the suspend is written
    log(f"{guest.name}: a move played and the unit asleep; hard reset (QMP system_reset)")
    for attempt in range(BOOT_ATTEMPTS):
        with guest.lock:
            guest.buffer = b""
        guest.qmp("system_reset")
        try:
            guest.wait_for(rb"systemd\[1\]|Welcome to", USERSPACE_SECONDS, STALL_SECONDS)
            break
        except CheckFailed as exc:
            log(f"{guest.name}: {exc} after the reset (attempt {attempt + 1}); resetting again")
    else:
        raise CheckFailed(f"{guest.name}: no reboot reached userspace after the reset")
    guest.shell_ready()
    check_ready(guest)
    store = work / "reset.db"
    movie, frames = movie_of([*before, *NEW_GAME_AND_MOVE], power=True)
    headless_shots(work / "reset-before", frames, movie, store)
    shutil.copy(store, work / "continue.db")
    want = expected_panel(
        headless_shots(work / "reset-after", LAUNCHER_FRAMES, None, store, first_start=False)
    )
    wait_for_picture(guest, want, logs, "reset", 600)
    log(f"{guest.name}: after the hard reset the suspended game is offered again")
    # Continue (the menu's cursor shows at the first press): the board with d3 played
    press(guest, *(EVDEV[b] for b in CONTINUE))
    movie, frames = movie_of(CONTINUE)
    want = expected_panel(
        headless_shots(work / "continue", frames, movie, work / "continue.db", first_start=False)
    )
    wait_for_picture(guest, want, logs, "continue", 300)
    log(f"{guest.name}: the game continues where it was: nothing lost")


# Reversi for two on one unit, seed 3: the board's cursor (shown at a1 by its first press)
# to d3, and A; tests/handheld/test_movie.py plays the same movie on the stand-ins.
MOVIE_D3 = (Path(__file__).parent / "movies" / "reversi-d3.txt").read_text(encoding="utf-8")
MOVIE_FRAMES = 240
# `twinfold device` as the service runs it (its user, groups and settings), but by hand.
DEVICE = (
    "systemd-run --quiet --collect --unit={unit} --uid=twinfold --gid=twinfold "
    "-p SupplementaryGroups='video input dialout audio' -p WorkingDirectory=/var/lib/twinfold "
    "-p Environment=SDL_VIDEODRIVER=dummy {wait} "
    "/opt/twinfold/venv/bin/twinfold device --config /run/twinfold/device.toml {args}"
)


def device_command(unit: str, args: str, wait: bool) -> str:
    return DEVICE.format(unit=unit, args=args, wait="--wait" if wait else "")


def check_movie(guest: Guest, work: Path, logs: Path) -> None:
    """The service stopped, `twinfold device --movie F` plays a move; the framebuffer then
    equals `twinfold headless --movie F` and the dump has the move. The service restarts."""
    guest.sh("systemctl stop twinfold", 120)
    guest.put("/tmp/d3.movie", MOVIE_D3)
    guest.sh("rm -rf /tmp/tf-movie && install -d -o twinfold -g twinfold /tmp/tf-movie", 30)
    args = f"--movie /tmp/d3.movie --frames {MOVIE_FRAMES} --store /tmp/tf-movie/store.db "
    args += "--dump /tmp/tf-movie/dump.json"
    log(f"{guest.name}: twinfold device --movie (the service stopped)")
    try:
        guest.sh(device_command("tf-movie", args, wait=True), 600)
    finally:
        guest.save_journal("tf-movie", "movie-journal")
    state = json.loads(guest.sh("cat /tmp/tf-movie/dump.json", 60))
    if state.get("frame") != MOVIE_FRAMES or state.get("game", {}).get("moves") != ["d3"]:
        raise CheckFailed(f"{guest.name}: the movie's run ended as {state.get('game')}")
    path = work / "d3.movie"
    path.write_text(MOVIE_D3)
    shots = work / "movie"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    twinfold = Path(sys.executable).with_name("twinfold")
    cmd = [str(twinfold), "headless", "--movie", str(path), "--frames", str(MOVIE_FRAMES)]
    subprocess.run([*cmd, "--shots", str(shots)], check=True, env=env, timeout=300)
    wait_for_picture(guest, expected_panel(shots), logs, "movie", 60)
    log(f"{guest.name}: twinfold device --movie played d3 as headless plays it")
    guest.sh("systemctl start twinfold", 300)
    check_ready(guest)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("image", type=Path)
    parser.add_argument("--logs", type=Path, required=True)
    parser.add_argument("--checks", default=",".join(ALL_CHECKS))
    args = parser.parse_args(argv)
    checks = [c for c in args.checks.split(",") if c]
    unknown = set(checks) - set(ALL_CHECKS)
    if unknown:
        parser.error(f"unknown checks: {', '.join(sorted(unknown))}")
    args.logs.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="tf-check-"))
    try:
        return run_checks(args.image, args.logs, work, checks)
    except CheckFailed as exc:
        print(f"qemu_check: FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_checks(image: Path, logs: Path, work: Path, checks: list[str]) -> int:
    disk = work / "unit.img"
    subprocess.run(["cp", "--sparse=always", str(image), str(disk)], check=True)
    files = boot_files(disk, work)
    files["dtb"] = qemu_dtb(files["dtb"], work / "qemu.dtb")
    # the boot partition's settings, edited as a person would before the first boot
    settings = (Path(__file__).parent / "files/twinfold.toml").read_text()
    set_boot_file(disk, "twinfold.toml", settings + f"\n[boot]\nseed = {SEED}\n")
    append = cmdline(disk) + " twinfold.serial_shell"
    power = None
    if {"firstcut", "updates"} & set(checks):  # issue 35's cases, in this boot sequence
        from power_check import CiPower

        power = CiPower(checks, disk, image, work, logs)
    guest = Guest("unit", disk, files, append, logs, radio=power and power.radio())
    started = time.monotonic()
    try:
        if power:
            power.attach(guest)
        guest.boot()
        guest.shell_ready()
        log(f"unit: shell after {time.monotonic() - started:.0f} s")
        if "ready" in checks:
            check_ready(guest)
            log(f"unit: boot to READY checked after {time.monotonic() - started:.0f} s")
            if power:
                power.verify("the first boot")
        before: list[str] = []
        if {"launcher", "input", "reset"} & set(checks):
            # a fresh unit: the language choice first (what the earlier launcher check
            # missed: it waited for the launcher on this screen)
            want = expected_panel(headless_shots(work / "language", LAUNCHER_FRAMES))
            wait_for_picture(guest, want, logs, "language", 600)
            log("unit: a fresh unit offers the language choice")
            press(guest, *(EVDEV[b] for b in CHOOSE_ENGLISH if b != "WAIT"))
            before += CHOOSE_ENGLISH
            movie, frames = movie_of(before)
            want = expected_panel(headless_shots(work / "launcher", frames, movie))
            wait_for_picture(guest, want, logs, "launcher", 300)
        if "input" in checks:
            press(guest, EVDEV["RIGHT"])
            before += ["RIGHT"]
            movie, frames = movie_of(before)
            want = expected_panel(headless_shots(work / "input", frames, movie))
            wait_for_picture(guest, want, logs, "input", 300)
        if "reset" in checks:
            check_reset(guest, work, logs, before)
            if power:
                power.verify("after the hard reset")
        if "movie" in checks:
            check_movie(guest, work, logs)
        if power:
            power.before_power()
        if "power" in checks:
            # the service's log follows on the console: the firmware's own shutdown is seen
            guest.sh("(journalctl -f -n 0 -u twinfold -o cat > /dev/ttyS1 2>&1 &)", 30)
            # in the background: the shutdown may stop the shell before the script ends
            press(guest, "KEY_POWER:3.0", background=True)
            guest.wait_for(rb"shutting down: systemctl poweroff", 180)
            guest.wait_for(rb"reboot: Power down", 300)
            log("unit: a long POWER press: the firmware stopped and powered the guest off")
    except CheckFailed:
        guest.save_journal("twinfold", "journal")  # what the service said, for the failure
        raise
    finally:
        guest.remove()
    return 0


if __name__ == "__main__":
    sys.exit(main())
