#!/usr/bin/env python3
"""Two emulated units, booted from copies of the one image, pair over their joined radio
UARTs and play Reversi to the same position, checked from outside on both framebuffers.

usage: pair_check.py IMAGE --logs DIR

Each unit is QEMU's raspi3b (as deploy/image/qemu_check.py boots it) from its own qcow2
overlay of one copy of the image, whose boot partition's twinfold.toml turns the radio on:
the PL011 UART, `/dev/ttyAMA0` in the guest (the first `-serial`; the console keeps the
mini UART, ttyS1). The two PL011s are joined by a QEMU socket chardev on a Unix socket
(one unit listens, the other connects): nothing leaves this machine.

On each unit the service is stopped and `twinfold device` is started by hand with the
service's user, groups and settings, plus `--game reversi --versus host|join
--accept-pairing --name Ann|Bob` (the pairing code is confirmed by that setting). The
plies of a whole game are tapped on each unit's touch panel, a virtual touchscreen made
with /dev/uinput inside the guest, when the unit's journal says the previous ply arrived
(`versus: action N`), so a slow guest never misses its turn. At the end both state dumps
hold the game (the rules engine's final board, over, Ann black and Bob white, each the
other's partner) and the board on both framebuffers (QMP screendump) is the same picture.
Every console log and both units' journals are kept in --logs.

Then the same two units play over the network, and one unit hosts its own Wi-Fi network
for a match (issue 32): deploy/image/net_check.py.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout: the rules

import net_check
from qemu_check import (
    FB_W,
    LOWER_AT,
    SCREEN_H,
    SCREEN_W,
    SEED,
    CheckFailed,
    Guest,
    boot_files,
    check_ready,
    cmdline,
    device_command,
    log,
    qemu_dtb,
    rgb565,
    set_boot_file,
)

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
from games.reversi.rules import Game
from games.reversi.scene.layout import BOARD_RECT, SQUARE_RECTS

# The shortest complete game (tests/firmware/link/test_cross_process.py): Black (the host)
# wipes White out in nine plies.
GAME = ["c4", "c3", "c2", "b4", "a5", "f4", "g4", "c5", "d6"]
UNITS = (("ann", "Ann", "host"), ("bob", "Bob", "join"))
RADIO = """
[radio]
# the PL011 UART, joined to the other unit's by QEMU
enabled = true
port = "/dev/ttyAMA0"
baud = 115200
"""
PAIR_SECONDS = 600  # both units to the game's start (pairing included)
PLY_SECONDS = 90  # a tapped ply to reach both units' journals before it is tapped again
PLY_TAPS = 4
# A touchscreen made with /dev/uinput: its 12-bit axes span the lower screen exactly as
# the unit's uncalibrated touch does (hal: 0..4095 over the 256x192 screen).
TOUCH = r"""
import sys, time
from evdev import AbsInfo, UInput, ecodes as e
x, y = int(sys.argv[1]), int(sys.argv[2])
axis = AbsInfo(value=0, min=0, max=4095, fuzz=0, flat=0, resolution=0)
caps = {e.EV_KEY: [e.BTN_TOUCH], e.EV_ABS: [(e.ABS_X, axis), (e.ABS_Y, axis)]}
ui = UInput(caps, name="twinfold-check-touch", input_props=[e.INPUT_PROP_DIRECT])
time.sleep(4)  # the firmware looks for new devices every second
ui.write(e.EV_ABS, e.ABS_X, x); ui.write(e.EV_ABS, e.ABS_Y, y)
ui.write(e.EV_KEY, e.BTN_TOUCH, 1); ui.syn()
time.sleep(0.6)
ui.write(e.EV_KEY, e.BTN_TOUCH, 0); ui.syn()
time.sleep(1.5)
ui.close()
"""


def raw_point(square: str) -> tuple[int, int]:
    """The touchscreen's reading for the centre of a board square."""
    x, y = SQUARE_RECTS[square].center
    return int((x + 0.5) * 4096 / 256), int((y + 0.5) * 4096 / 192)


def actions(guest: Guest) -> int:
    out = guest.sh("journalctl -b -u tf-versus -o cat --no-pager | grep -c 'versus: action' "
                   "|| true", 60)  # fmt: skip
    return int(out.strip().splitlines()[-1] or 0)


def started(guest: Guest) -> bool:
    out = guest.sh("journalctl -b -u tf-versus -o cat --no-pager | grep 'versus: ' || true", 60)
    return " starts: " in out


def tap(guest: Guest, square: str) -> None:
    x, y = raw_point(square)
    guest.sh(f"python3 /tmp/touch.py {x} {y}", 120)


def region(guest: Guest, path: Path, rect: tuple[int, int, int, int]) -> bytes:
    """A rectangle (x, y, w, h) of the lower screen, from the framebuffer (RGB, 5/6/5 bits)."""
    rgb = rgb565(guest.screen(path))
    x0, y0 = LOWER_AT[0] + rect[0], LOWER_AT[1] + rect[1]
    rows = []
    for y in range(y0, y0 + rect[3]):
        start = (y * FB_W + x0) * 3
        rows.append(rgb[start : start + rect[2] * 3])
    return b"".join(rows)


def same_picture(
    guests: list[Guest], logs: Path, label: str, rect: tuple[int, int, int, int]
) -> None:
    """Both framebuffers show the same picture in `rect` of the lower screen (waiting out
    the discs' flip animations); the screendumps are kept."""
    deadline = time.monotonic() + 60
    while True:
        shots = [region(g, logs / f"{g.name}-{label}.ppm", rect) for g in guests]
        if shots[0] == shots[1] and any(shots[0]):
            log(f"pair: {label}: both framebuffers show the same picture")
            return
        if time.monotonic() > deadline:
            raise CheckFailed(f"{label}: the two framebuffers differ (kept *-{label}.ppm)")
        time.sleep(3)


def boot_all(guests: list[Guest]) -> None:
    """Boot the units at the same time (each retries its own stalled boots)."""
    errors: list[BaseException] = []

    def one(guest: Guest) -> None:
        try:
            guest.boot()
            guest.shell_ready()
            check_ready(guest)
        except BaseException as exc:  # reported below, for whichever unit failed
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(g,)) for g in guests]
    for t in threads:
        t.start()
        time.sleep(2)  # the listening end of the radio socket first
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def play(guests: list[Guest], logs: Path) -> None:
    deadline = time.monotonic() + PAIR_SECONDS
    while not all(started(g) for g in guests):
        if time.monotonic() > deadline:
            raise CheckFailed(f"the units did not pair and start in {PAIR_SECONDS} s")
        time.sleep(10)
    log("pair: paired (the same code, accepted on both) and the game started on both")
    for ply, square in enumerate(GAME):
        player = guests[ply % 2]
        for _attempt in range(PLY_TAPS):
            tap(player, square)
            deadline = time.monotonic() + PLY_SECONDS
            while time.monotonic() < deadline:
                if all(actions(g) > ply for g in guests):
                    break
                time.sleep(3)
            else:
                log(f"pair: ply {ply + 1} ({square}) not on both units yet; tapping again")
                continue
            log(f"pair: ply {ply + 1}: {player.name} played {square}, both units have it")
            break
        else:
            raise CheckFailed(f"ply {ply + 1} ({square}) never reached both units")
        if ply == len(GAME) - 2:  # the board in full before the last ply (then it is covered)
            same_picture(
                guests, logs, "board", (BOARD_RECT.x, BOARD_RECT.y, BOARD_RECT.w, BOARD_RECT.h)
            )


def compare(guests: list[Guest], work: Path, logs: Path) -> None:
    same_picture(guests, logs, "over", (0, 0, SCREEN_W, SCREEN_H))  # the result on the board
    for g in guests:
        g.sh("systemctl stop tf-versus", 120)  # SIGTERM: a clean stop writes the dump
    dumps = [json.loads(g.sh("cat /tmp/tf-versus/dump.json", 60)) for g in guests]
    for g, d in zip(guests, dumps, strict=True):
        (logs / f"{g.name}-versus.json").write_text(json.dumps(d, indent=1) + "\n")
    rules = Game(moves=GAME)
    want = {"moves": GAME, "board": rules.position.rows(), "status": "over"}
    for (_, name, _), other, d in zip(UNITS, ("Bob", "Ann"), dumps, strict=True):
        game = d.get("game") or {}
        got = {k: game.get(k) for k in want}
        if got != want:
            raise CheckFailed(f"{name}'s game is {got}, not {want}")
        if (d.get("link") or {}).get("partner") != other:
            raise CheckFailed(f"{name}'s partner is {d.get('link')}, not {other}")
    seats = [d["game"].get("seat") for d in dumps]
    if seats != ["black", "white"]:
        raise CheckFailed(f"the seats are {seats}, not Ann black and Bob white")
    log("pair: both units hold the whole game, the rules engine's final board, over")


def run(image: Path, logs: Path, work: Path) -> None:
    base = work / "base.img"
    subprocess.run(["cp", "--sparse=always", str(image), str(base)], check=True)
    files = boot_files(base, work)
    files["dtb"] = qemu_dtb(files["dtb"], work / "qemu.dtb")
    settings = (Path(__file__).parent / "files/twinfold.toml").read_text()
    # the boot partition's settings as a person would edit them: the radio on the PL011
    settings = _without_radio(settings) + RADIO + f"\n[boot]\nseed = {SEED}\n"
    set_boot_file(base, "twinfold.toml", settings)
    append = cmdline(base) + " twinfold.serial_shell"
    sock = work / "radio.sock"
    guests = []
    for (label, _name, _role), radio in zip(
        UNITS, (f"socket,path={sock},server=on,wait=off", f"socket,path={sock},reconnect=1"),
        strict=True,
    ):  # fmt: skip
        disk = work / f"{label}.qcow2"
        subprocess.run(
            ["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b", str(base), str(disk)],
            check=True,
        )
        extra = net_check.qemu_args(len(guests), work)  # the USB network (net_check.py)
        guests.append(Guest(label, disk, files, append, logs, radio=radio, extra=extra))
    try:
        started_at = time.monotonic()
        boot_all(guests)
        log(f"pair: both units READY after {time.monotonic() - started_at:.0f} s")
        for g, (_, name, role) in zip(guests, UNITS, strict=True):
            g.sh("systemctl stop twinfold", 120)
            g.put("/tmp/touch.py", TOUCH)
            g.sh("rm -rf /tmp/tf-versus && install -d -o twinfold -g twinfold /tmp/tf-versus")
            args = f"--game reversi --versus {role} --accept-pairing --name {name} "
            args += "--dump /tmp/tf-versus/dump.json"
            g.sh(device_command("tf-versus", args, wait=False), 120)
        play(guests, logs)
        compare(guests, work, logs)
        # the same two units over the network, then one unit's own Wi-Fi (net_check.py)
        wired = net_check.wired_match(guests, logs)
        net_check.hosted_wifi(guests[0], logs, wired)
        log(f"pair: passed in {time.monotonic() - started_at:.0f} s")
    finally:
        for g in guests:
            if g.proc is not None and g.proc.poll() is None:
                g.save_journal("tf-versus", "versus-journal")
            g.remove()


def _without_radio(settings: str) -> str:
    """twinfold.toml without its [radio] section (the check writes its own)."""
    out, skipping = [], False
    for line in settings.splitlines():
        if line.startswith("["):
            skipping = line.strip() == "[radio]"
        if not skipping:
            out.append(line)
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("image", type=Path)
    parser.add_argument("--logs", type=Path, required=True)
    args = parser.parse_args(argv)
    args.logs.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="tf-pair-"))
    try:
        run(args.image, args.logs, work)
        return 0
    except CheckFailed as exc:
        print(f"pair_check: FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
