#!/usr/bin/env python3
"""Power cuts and updates that roll back, on the Twinfold image in QEMU (issue 35).

usage: power_check.py IMAGE --logs DIR [--cuts N] [--first-boot-cuts K] [--seed S]

One copy of the image, booted again and again on QEMU's raspi3b (deploy/image/qemu_check.py's
Guest). The power is cut by killing QEMU (SIGKILL) or by QMP `quit`, never by a shutdown:
what the guest had written to its SD card stays, what it held in memory is gone. After every
boot (`verify`): the root and /var are ext4 file systems marked clean (a journal replay at
most; no EXT4 error in the kernel's log, no fsck unit failed), the root and the boot
partition are mounted read-only, the store passes SQLite's integrity_check and was not set
aside as damaged, the last save the probe reported done is in the probe's store, the data
partition reaches the card's end, and the service reaches READY (Type=notify, watchdog fed).

The cases, in this order:

- first boot: the fresh image's first boot is cut while /var grows to fill the card (when
  the kernel's log says the growth started, plus 0-3 s); the next boot finishes it.
- updates (`updates`): a good update (a Twinfold wheel with a new version) through
  `twinfold-update` starts and is kept once READY; a broken one (its firmware raises at
  boot) fails MAX_STARTS starts and is replaced by the previous version, which the launcher
  names (the service's journal); an update cut at a random moment leaves a unit that boots
  a whole version.
- the series (`--cuts N`): each round boots, verifies, starts the probe (a process saving
  a game and a setting through the firmware's Store three times a second on the data
  partition, each save reported on the PL011 UART, a file on the host, once it is committed)
  and one random action: play (random presses on a virtual gamepad), POWER short (the game
  suspended), the lid closed and opened, an update, or nothing; then cuts at a random moment
  0-25 s later.

Every cut is logged with its round, action, delay and way. qemu_check.py calls
`first_boot_cut` and `updates` for CI (`--checks`); the long series is a benchmark
(docs/hardware.md has the figures).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import qemu_check as qc  # noqa: E402
from qemu_check import CheckFailed, Guest, log  # noqa: E402

UPDATES = "updates"  # on the boot partition: not a twinfold-*.whl at its top (installed at boot)
FACTORY_PY = "/opt/twinfold/venv/bin/python"
MAX_STARTS = 3  # handheld/slots.py
ACTIONS = ("play", "sleep", "lid", "update", "idle")
CUT_WINDOW = 25.0  # seconds after the action starts

# After a boot, as root in the guest: what `verify` checks, as one JSON line.
VERIFY = r"""
import glob, json, os, sqlite3, subprocess
def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True).stdout
mounts = {}
for line in open("/proc/mounts"):
    dev, where, kind, opts = line.split()[:4]
    mounts[where] = (dev, kind, opts.split(","))
out = {"mounts": {w: [d, k, "ro" in o] for w, (d, k, o) in mounts.items()
                  if w in ("/", "/var", "/boot/firmware")}}
fs = {}
for where in ("/", "/var"):
    dev = mounts[where][0]
    if dev == "/dev/root":
        dev = os.path.realpath("/dev/root")
    info = run("tune2fs", "-l", dev)
    state = [l.split(":", 1)[1].strip() for l in info.splitlines()
             if l.startswith("Filesystem state")]
    fs[where] = {"dev": dev, "state": state[0] if state else "?"}
out["fs"] = fs
kmsg = run("dmesg")
out["ext4_errors"] = [l for l in kmsg.splitlines()
                      if "EXT4-fs error" in l or "EXT4-fs warning" in l][:5]
out["replays"] = [l for l in kmsg.splitlines() if "recovery complete" in l or "orphan" in l][:5]
out["fat"] = [l for l in kmsg.splitlines() if "FAT-fs" in l][:5]
out["failed"] = run("systemctl", "--failed", "--plain", "--no-legend").split("\n")
out["failed"] = [l.split()[0] for l in out["failed"] if l.strip()]
def check(path):
    if not os.path.exists(path):
        return None
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        return [r[0] for r in db.execute("PRAGMA integrity_check")]
    finally:
        db.close()
out["store"] = check("/var/lib/twinfold/store.db")
out["damaged"] = sorted(glob.glob("/var/lib/twinfold/*.damaged-*"))
out["saved_games"] = None
if out["store"] == ["ok"]:
    db = sqlite3.connect("file:/var/lib/twinfold/store.db?mode=ro", uri=True, timeout=30)
    out["saved_games"] = [r[0] for r in db.execute("SELECT game_id FROM saved_games")]
    db.close()
probe = "/var/lib/twinfold-probe/probe.db"
out["probe_store"] = check(probe)
out["probe"] = None
if out["probe_store"] == ["ok"]:
    db = sqlite3.connect(f"file:{probe}?mode=ro", uri=True, timeout=30)
    if db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        rows = db.execute("SELECT state FROM saved_games WHERE game_id = 'reversi'").fetchall()
        setting = db.execute("SELECT value FROM settings WHERE key = 'probe'").fetchall()
    else:  # created, and the power cut before its first commit: no save in it yet
        rows = setting = []
    db.close()
    out["probe"] = [json.loads(rows[0][0])["n"] if rows else 0,
                    json.loads(setting[0][0]) if setting else 0]
part = os.path.basename(mounts["/var"][0])
disk = os.path.basename(os.path.dirname(os.path.realpath(f"/sys/class/block/{part}")))
size = lambda p: int(open(p).read())
out["var_end"] = size(f"/sys/class/block/{part}/start") + size(f"/sys/class/block/{part}/size")
out["disk_size"] = size(f"/sys/class/block/{disk}/size")
out["grown_mark"] = os.path.exists("/var/lib/twinfold-grow/done")
st = os.statvfs("/var")
out["var_mib"] = st.f_blocks * st.f_frsize // 2**20
out["slots"] = json.loads(
    run("/opt/twinfold/venv/bin/python", "-m", "handheld.slots", "status") or "null")
out["partials"] = glob.glob("/var/lib/twinfold-slots/.partial-*")
print("VERIFY " + json.dumps(out))
"""

# The probe: saves through the firmware's own Store on the data partition, and reports each
# save on the PL011 UART (ttyAMA0: a file on the host) once its commit has returned.
PROBE = r"""
import sys, time
from firmware.storage import Store
store = Store.open("/var/lib/twinfold-probe/probe.db", ours=True)  # as the firmware's own
saved = store.load_suspend("reversi")
n = saved.state["n"] if saved is not None and isinstance(saved.state, dict) else 0
out = open("/dev/ttyAMA0", "w")
while True:
    n += 1
    store.save_suspend("reversi", {"n": n, "board": "x" * 3000}, {"n": n})
    store.set_setting("probe", n)
    out.write(f"PROBE saved {n}\n")
    out.flush()
    time.sleep(0.3)
"""

# Random presses (play), a short POWER press (sleep: the game suspended), the lid closed and
# opened, on a virtual gamepad made inside the guest with /dev/uinput.
PAD = r"""
import random, sys, time
from evdev import UInput, ecodes as e
keys = [e.BTN_DPAD_UP, e.BTN_DPAD_DOWN, e.BTN_DPAD_LEFT, e.BTN_DPAD_RIGHT, e.BTN_EAST,
        e.BTN_SOUTH, e.BTN_START, e.KEY_POWER]
ui = UInput({e.EV_KEY: keys, e.EV_SW: [e.SW_LID]}, name="twinfold-power-pad")
time.sleep(3)
rng = random.Random(int(sys.argv[2]))
def press(code, hold=0.12):
    ui.write(e.EV_KEY, code, 1); ui.syn(); time.sleep(hold)
    ui.write(e.EV_KEY, code, 0); ui.syn(); time.sleep(0.8)
if sys.argv[1] == "play":
    for _ in range(40):
        press(rng.choice(keys[:7]))
elif sys.argv[1] == "sleep":
    press(e.KEY_POWER, 0.3)
elif sys.argv[1] == "lid":
    ui.write(e.EV_SW, e.SW_LID, 1); ui.syn(); time.sleep(4)
    ui.write(e.EV_SW, e.SW_LID, 0); ui.syn(); time.sleep(2)
time.sleep(30)
ui.close()
"""


# --------------------------------------------------------------------------- wheels
def factory_wheel(image: Path, work: Path) -> Path:
    """The image's Twinfold wheel: kept beside the image by build.sh, else built from this
    checkout (deploy/lib.sh's build_wheel, as build.sh builds it)."""
    found = sorted(image.parent.glob("twinfold-*-py3-none-any.whl"))
    if found:
        return found[-1]
    out = work / "dist"
    repo = HERE.parent.parent
    cmd = f'. "{repo}/deploy/lib.sh" && build_wheel "{sys.executable}" "{repo}" "{out}"'
    return Path(subprocess.check_output(["bash", "-c", cmd], text=True).strip().splitlines()[-1])


def variant(wheel: Path, version: str, into: Path, broken: bool = False) -> Path:
    """The wheel as another version (its METADATA and .dist-info renamed); `broken`: its
    firmware raises as it boots (firmware/boot.py's first line)."""
    with zipfile.ZipFile(wheel) as src:
        infos = src.infolist()
        old = next(i.filename.split("/")[0] for i in infos if i.filename.endswith("/METADATA"))
        old_version = old.removeprefix("twinfold-").removesuffix(".dist-info")
        dest = into / f"twinfold-{version}-py3-none-any.whl"
        with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as out:
            for info in infos:
                data = src.read(info)
                name = info.filename.replace(old, f"twinfold-{version}.dist-info", 1)
                if name.endswith(".dist-info/METADATA"):
                    data = data.replace(f"Version: {old_version}".encode(),
                                        f"Version: {version}".encode(), 1)  # fmt: skip
                if broken and name == "firmware/boot.py":  # after `from __future__ ...`
                    head, sep, rest = data.partition(b"from __future__ import annotations\n")
                    fail = b'raise RuntimeError("a broken update: it fails at boot")\n'
                    data = head + sep + fail + rest if sep else fail + data
                out.writestr(name, data)
    return dest


def stage_wheels(disk: Path, image: Path, work: Path) -> dict[str, str]:
    """Three updates on the boot partition's updates/ folder (a USB stick's stand-in: not
    installed at boot); their versions by role."""
    base = factory_wheel(image, work)
    version = base.name.split("-")[1]
    folder = work / UPDATES
    folder.mkdir(exist_ok=True)
    versions = {"good": f"{version}.post1", "broken": f"{version}.post2", "mid": f"{version}.post3"}
    for role, v in versions.items():
        variant(base, v, folder, broken=role == "broken")
    spec = f"{disk}@@{qc.partitions(disk)[0]}"
    subprocess.run(["mcopy", "-s", "-o", "-i", spec, str(folder), "::/"], check=True)
    return versions


def wheel_in_guest(version: str) -> str:
    return f"/boot/firmware/{UPDATES}/twinfold-{version}-py3-none-any.whl"


# --------------------------------------------------------------------------- one unit
class Unit:
    """The guest with its probe's report file and every cut's record."""

    def __init__(self, guest: Guest, probe_log: Path) -> None:
        self.guest = guest
        self.probe_log = probe_log
        self.cuts: list[dict[str, object]] = []
        self.failures: list[str] = []
        self.reported = 0  # the last save the probe reported done, before the last cut
        self.verified = 0  # boots after a cut that passed `verify`
        self.report: Path | None = None  # written after every cut and every boot verified
        self.started = time.monotonic()

    def save_report(self) -> None:
        if self.report is not None:
            data = {"cuts": self.cuts, "verified_boots": self.verified,
                    "failures": self.failures,
                    "minutes": round((time.monotonic() - self.started) / 60, 1)}  # fmt: skip
            self.report.write_text(json.dumps(data, indent=1))

    def probe_done(self) -> int:
        if not self.probe_log.exists():
            return 0
        found = re.findall(rb"PROBE saved (\d+)\n", self.probe_log.read_bytes())
        return max((int(n) for n in found), default=0)

    def cut(self, why: str, how: str) -> None:
        """Cut the power: SIGKILL, or QMP quit (no shutdown either way)."""
        g = self.guest
        if how == "quit":
            with contextlib.suppress(CheckFailed, OSError, ValueError):
                g.qmp("quit")
        g.stop()
        self.reported = self.probe_done()
        self.cuts.append({"why": why, "how": how, "probe_done": self.reported})
        log(f"{g.name}: POWER CUT {len(self.cuts)} ({how}): {why}; probe saves done "
            f"{self.reported}")  # fmt: skip
        self.save_report()

    def boot(self) -> None:
        g = self.guest
        g.boot()
        g.shell_ready()
        qc.check_ready(g)

    def verify(self, label: str, expect_grown: bool = True) -> dict[str, object]:
        """Everything that must hold after a boot; a failure is recorded (and raised)."""
        g = self.guest
        g.put("/tmp/verify.py", VERIFY)
        out = g.sh(f"{FACTORY_PY} /tmp/verify.py", 300)
        m = re.search(r"VERIFY (\{.*\})", out)
        if m is None:
            raise CheckFailed(f"{g.name}: {label}: no verify output: {out[-500:]}")
        v = json.loads(m.group(1))
        bad = []
        mounts = v["mounts"]
        if not mounts.get("/", [0, 0, False])[2]:
            bad.append("the root is not read-only")
        if mounts.get("/var", [0, 0, True])[2]:
            bad.append("/var is not writable")
        if "/boot/firmware" in mounts and not mounts["/boot/firmware"][2]:
            bad.append("the boot partition is not read-only")
        for where, info in v["fs"].items():
            if info["state"] != "clean":
                bad.append(f"{where} ({info['dev']}) is {info['state']!r}")
        if v["ext4_errors"]:
            bad.append(f"EXT4 errors: {v['ext4_errors']}")
        # the units a power cut could break: file systems, their checks, the firmware's
        failed = [u for u in v["failed"] if re.match(r"(.*\.mount|systemd-fsck|systemd-remount"
                                                   r"|twinfold)", u)]  # fmt: skip
        if failed:
            bad.append(f"failed units: {failed}")
        elif v["failed"]:
            log(f"{g.name}: {label}: failed units (not the file systems' or the firmware's): "
                f"{v['failed']}")  # fmt: skip
        if v["store"] not in (None, ["ok"]):
            bad.append(f"the store's integrity_check: {v['store']}")
        if v["damaged"]:
            bad.append(f"a store was set aside as damaged: {v['damaged']}")
        if v["probe_store"] not in (None, ["ok"]):
            bad.append(f"the probe's store: {v['probe_store']}")
        if self.reported:
            n, setting = v["probe"] or [0, 0]
            if n < self.reported or setting < self.reported:
                bad.append(f"the last save done was {self.reported}, the store holds {n} "
                           f"(setting {setting})")  # fmt: skip
        if expect_grown and (v["disk_size"] - v["var_end"] > 2048 or not v["grown_mark"]):
            bad.append(f"/var does not fill the card: ends at {v['var_end']} of "
                       f"{v['disk_size']} sectors, marker {v['grown_mark']}")  # fmt: skip
        if v["partials"]:
            bad.append(f"half-installed slots left: {v['partials']}")
        state = qc.service(g)
        if state.get("ActiveState") != "active":
            bad.append(f"the service is {state.get('ActiveState')}")
        summary = (f"{label}: root {v['fs']['/']['state']}, /var {v['fs']['/var']['state']} "
                   f"({v['var_mib']} MiB), replays {len(v['replays'])}, store {v['store']}, "
                   f"probe {v['probe']} (done {self.reported}), runs "
                   f"{(v['slots'] or {}).get('starts')}")  # fmt: skip
        if bad:
            self.failures.append(f"{label}: " + "; ".join(bad))
            self.save_report()
            raise CheckFailed(f"{g.name}: {label}: " + "; ".join(bad))
        self.verified += 1
        self.save_report()
        log(f"{g.name}: verified: {summary}")
        return v

    def start_probe(self) -> None:
        g = self.guest
        g.put("/tmp/probe.py", PROBE)
        g.sh("mkdir -p /var/lib/twinfold-probe && stty -F /dev/ttyAMA0 raw -echo", 30)
        g.sh(f"(cd /tmp && {FACTORY_PY} /tmp/probe.py > /tmp/probe.err 2>&1 &)", 30)

    def pad(self, action: str, seed: int) -> None:
        g = self.guest
        g.put("/tmp/ppad.py", PAD)
        g.sh(f"(python3 /tmp/ppad.py {action} {seed} > /dev/null 2>&1 &)", 30)


def new_unit(image: Path, logs: Path, work: Path,
             guest_class: type[Guest] = Guest) -> tuple[Unit, Path]:  # fmt: skip
    disk = work / "power.img"
    subprocess.run(["cp", "--sparse=always", str(image), str(disk)], check=True)
    files = qc.boot_files(disk, work)
    files["dtb"] = qc.qemu_dtb(files["dtb"], work / "qemu.dtb")
    settings = (HERE / "files/twinfold.toml").read_text()
    qc.set_boot_file(disk, "twinfold.toml", settings + f"\n[boot]\nseed = {qc.SEED}\n")
    return unit_on(disk, files, logs, "power", guest_class), disk


def unit_on(disk: Path, files: dict[str, Path], logs: Path, name: str,
            guest_class: type[Guest] = Guest) -> Unit:  # fmt: skip
    """A unit on a prepared disk (new_unit's), its probe reporting into LOGS/NAME-probe.log."""
    probe_log = logs / f"{name}-probe.log"
    probe_log.unlink(missing_ok=True)
    guest = guest_class(name, disk, files, qc.cmdline(disk) + " twinfold.serial_shell", logs,
                        radio=probe_chardev(probe_log))  # fmt: skip
    return Unit(guest, probe_log)


def probe_chardev(path: Path) -> str:
    """The PL011 (ttyAMA0) into a file on the host, kept across boots."""
    return f"file,path={path},append=on"


# --------------------------------------------------------------------------- the cases
def first_boot_cut(unit: Unit, rng: random.Random) -> None:
    """Boot a fresh image and cut while /var grows (0-3 s after the growth starts)."""
    g = unit.guest
    g.boot()  # to userspace (a stalled kernel is retried); then systemd is quiet on ttyS1
    g.wait_for(rb"twinfold-grow-var: \S+: growing", qc.USERSPACE_SECONDS)
    delay = rng.uniform(0, 3)
    time.sleep(delay)
    unit.cut(f"first boot, {delay:.1f} s after /var started growing", "kill")


def journal_has(unit: Unit, pattern: str, seconds: float) -> str:
    """Wait for a line of the service's journal of this boot."""
    g = unit.guest
    deadline = time.monotonic() + seconds
    while True:
        out = g.sh("journalctl -b -u twinfold -o cat --no-pager | tail -n 400", 120)
        m = re.search(pattern, out)
        if m:
            return m.group(0)
        if time.monotonic() > deadline:
            raise CheckFailed(f"{g.name}: {pattern!r} not in the service's journal")
        time.sleep(5)


def slot_status(unit: Unit) -> dict[str, object]:
    out = unit.guest.sh(f"{FACTORY_PY} -m handheld.slots status", 120)
    return json.loads(out)  # type: ignore[no-any-return]


def invocation(unit: Unit) -> dict[str, str]:
    out = unit.guest.sh("systemctl show twinfold -p InvocationID -p ActiveState -p SubState", 60)
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def wait_runs(unit: Unit, version: str, seconds: float, before: str) -> None:
    """The service was started again (another invocation than `before`) and is READY on
    `version` (the slots' first, no failed start)."""
    g = unit.guest
    deadline = time.monotonic() + seconds
    while True:
        state = invocation(unit)
        status = slot_status(unit)
        if (state.get("ActiveState"), state.get("SubState")) == ("active", "running") and \
                state.get("InvocationID") != before and \
                status["starts"] == version and status["failed_starts"] == 0:  # fmt: skip
            return
        if time.monotonic() > deadline:
            raise CheckFailed(f"{g.name}: not READY on {version}: {state}, slots {status}")
        time.sleep(5)


def updates(unit: Unit, versions: dict[str, str], rng: random.Random) -> None:
    """A good update kept, a broken one rolled back, one cut at a random moment."""
    g = unit.guest
    good, broken, mid = versions["good"], versions["broken"], versions["mid"]
    factory = slot_status(unit)["starts"]
    started = time.monotonic()
    before = invocation(unit)["InvocationID"]
    g.sh(f"twinfold-update {wheel_in_guest(good)}", 600)
    wait_runs(unit, good, 600, before)
    journal_has(unit, rf"device: version v{re.escape(good)}\b", 120)
    log(f"{g.name}: the good update {good} runs and is kept (READY) after "
        f"{time.monotonic() - started:.0f} s")  # fmt: skip
    started = time.monotonic()
    before = invocation(unit)["InvocationID"]
    g.sh(f"twinfold-update {wheel_in_guest(broken)}", 600)
    wait_runs(unit, good, 900, before)
    status = slot_status(unit)
    if status["rolled_back"] is None or status["rolled_back"]["from"] != broken:
        raise CheckFailed(f"{g.name}: no rollback from {broken}: {status}")
    failed = g.sh("journalctl -b -u twinfold -o cat --no-pager | grep -c 'a broken update' || true")
    journal_has(unit, rf"device: version v{re.escape(good)} \({re.escape(broken)} undone\)", 120)
    log(
        f"{g.name}: the broken update {broken} failed {failed.strip()} starts and was rolled "
        f"back to {good} (the launcher says so) after {time.monotonic() - started:.0f} s"
    )
    unit.start_probe()
    g.sh(f"(twinfold-update {wheel_in_guest(mid)} > /dev/null 2>&1 &)", 60)
    delay = rng.uniform(0, 40)
    time.sleep(delay)
    unit.cut(f"an update to {mid}, {delay:.1f} s after it started", rng.choice(["kill", "quit"]))
    unit.boot()
    v = unit.verify("after the update was cut")
    running = (v["slots"] or {}).get("starts")
    if running not in (good, mid):
        raise CheckFailed(f"{g.name}: after the cut mid-update {running} runs (not {good}/{mid})")
    log(f"{g.name}: after the cut mid-update version {running} runs (factory {factory})")


def series(unit: Unit, cuts: int, rng: random.Random, versions: dict[str, str]) -> None:
    """`cuts` rounds: verify, probe, a random action, a random cut."""
    g = unit.guest
    update_n = 0
    base = versions["good"].rsplit(".post", 1)[0]
    for n in range(cuts):
        action = rng.choice(ACTIONS)
        unit.start_probe()
        if action in ("play", "sleep", "lid"):
            unit.pad(action, rng.randrange(1 << 30))
        elif action == "update":  # a new wheel each time: a version not yet installed
            update_n += 1
            start_update(unit, f"{base}.post{10 + update_n}", versions)
        delay = rng.uniform(0, CUT_WINDOW)
        time.sleep(delay)
        unit.cut(f"round {n + 1}: {action}, {delay:.1f} s after it started",
                 rng.choice(["kill", "quit"]))  # fmt: skip
        try:
            unit.boot()
            unit.verify(f"round {n + 1}")
        except CheckFailed as exc:
            log(f"{g.name}: FAILED after cut {len(unit.cuts)}: {exc}")
            if not unit.failures or unit.failures[-1] not in str(exc):
                unit.failures.append(f"round {n + 1}: {exc}")
            g.save_journal("twinfold", f"power-journal-{n + 1}")
            g.stop()
            unit.boot()  # go on: the series counts every failure


def start_update(unit: Unit, version: str, versions: dict[str, str]) -> None:
    """In the background, `twinfold-update` to a new version (the good wheel renamed in the
    guest)."""
    src = wheel_in_guest(versions["good"])
    unit.guest.sh(f"(cp {src} /tmp/w.whl && cd /tmp && {FACTORY_PY} -c \"{RENAME}\" {version} "
                  f"&& twinfold-update /tmp/twinfold-{version}-py3-none-any.whl "
                  "> /dev/null 2>&1 &)", 120)  # fmt: skip


# A wheel's new version inside the guest (the rounds' updates): /tmp/w.whl renamed.
RENAME = (
    "import sys, zipfile; v = sys.argv[1]; src = zipfile.ZipFile('/tmp/w.whl'); "
    "old = [n.split('/')[0] for n in src.namelist() if n.endswith('/METADATA')][0]; "
    "ov = old[len('twinfold-'):-len('.dist-info')]; "
    "out = zipfile.ZipFile(f'/tmp/twinfold-{v}-py3-none-any.whl', 'w'); "
    "[out.writestr(i.filename.replace(old, f'twinfold-{v}.dist-info', 1), "
    "src.read(i).replace(f'Version: {ov}'.encode(), f'Version: {v}'.encode(), 1) "
    "if i.filename.endswith('/METADATA') else src.read(i)) for i in src.infolist()]; out.close()"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("image", type=Path)
    parser.add_argument("--logs", type=Path, required=True)
    parser.add_argument("--cuts", type=int, default=3, help="rounds of the random series")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--no-updates", action="store_true")
    args = parser.parse_args(argv)
    args.logs.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="tf-power-"))
    rng = random.Random(args.seed)
    unit, disk = new_unit(args.image, args.logs, work)
    unit.report = args.logs / "power-report.json"
    versions = stage_wheels(disk, args.image, work)
    try:
        first_boot_cut(unit, rng)
        unit.boot()
        unit.verify("after the first boot was cut")
        if not args.no_updates:
            updates(unit, versions, rng)
        series(unit, args.cuts, rng, versions)
    except CheckFailed as exc:
        print(f"power_check: FAILED: {exc}", file=sys.stderr)
        unit.failures.append(str(exc))
    finally:
        unit.guest.remove()
        shutil.rmtree(work, ignore_errors=True)
        unit.save_report()
        log(
            f"power_check: {len(unit.cuts)} power cuts, {unit.verified} boots verified, "
            f"{len(unit.failures)} failures (report: {unit.report})"
        )
    return 1 if unit.failures else 0


if __name__ == "__main__":
    sys.exit(main())


# --------------------------------------------------------------------------- qemu_check's hooks
class CiPower:
    """The power-cut and update cases inside qemu_check.py's boot sequence (CI reuses its
    boots): `firstcut` cuts the first boot while /var grows; after READY and after the hard
    reset everything `verify` checks holds; `updates` runs the three update cases before
    the long POWER press."""

    def __init__(self, checks: list[str], disk: Path, image: Path, work: Path,
                 logs: Path) -> None:  # fmt: skip
        self.checks = set(checks)
        seed = int(time.time())
        log(f"power checks: seed {seed} (the random cut moments)")
        self.rng = random.Random(seed)
        self.probe_log = logs / "unit-probe.log"
        self.probe_log.unlink(missing_ok=True)
        self.versions = stage_wheels(disk, image, work) if "updates" in self.checks else {}
        self.unit: Unit | None = None

    def radio(self) -> str:
        return probe_chardev(self.probe_log)

    def attach(self, guest: Guest) -> None:
        self.unit = Unit(guest, self.probe_log)
        if "firstcut" in self.checks:
            first_boot_cut(self.unit, self.rng)

    def verify(self, label: str) -> None:
        assert self.unit is not None
        self.unit.verify(label)

    def before_power(self) -> None:
        assert self.unit is not None
        if "updates" in self.checks:
            updates(self.unit, self.versions, self.rng)
        log(f"power checks: {len(self.unit.cuts)} power cuts, every boot after them verified")
