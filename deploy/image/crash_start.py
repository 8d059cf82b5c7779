"""Would the unit start from this crash state? The host-side checks power_series.py runs on
every crash state (issue 35), beside its fsck and integrity checks, so that "reaches READY"
is checked for every state and not only for the few booted in QEMU.

What the unit's start reads from the card, each step run here on the state's own files:

- the partition table (the first boot's growth of /var rewrites its last entry): the MBR
  is whole, /var's entry is the image's or reaches the card's end, and /var's file system
  (after its journal replay) is no bigger than that entry says; else the kernel refuses
  to mount it ("bad geometry") and the boot stops in emergency mode;
- the boot partition (FAT, mounted read-only; the firmware, the kernel, `twinfold.toml`):
  `fsck.vfat -n` finds nothing, and `twinfold.toml` is read (mtools) and parses as TOML;
- the update slots (`handheld/slots.py`, run by the service before each start): `prepare`
  on a copy of `/var/lib/twinfold-slots` picks a version the recording installed (or the
  factory one), leaves no half-unpacked slot, rolls nothing back, and the chosen slot's
  files are all there with the hashes its wheel's RECORD gives;
- the stores (`firmware/storage.py`): `Store.open` of a copy of the firmware's store (as
  `firmware/boot.py` opens it, `ours=True`) and of the probe's store (as the probe opens
  it, `ours=True` too) opens them without setting either aside as damaged (no salvage, no
  notice), and migrates them if needed. `ours=True` matters: a store cut after its file
  was made and before its first commit is an SQLite file without tables, which
  `Store.open` without it refuses at every start (NotAStore, by design: such a file at a
  path the user named may be anyone's); the second recording's check found one such
  probe store (state 116,499), when the probe still opened it without `ours`.

Pure but for the tools it calls (fsck.vfat, mtype); no QEMU.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import shutil
import struct
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SECTOR = 512
VAR_ENTRY = 2  # the MBR entry of /var (the third partition, the last)


# --------------------------------------------------------------------------- partition table
def mbr_entries(mbr: bytes) -> list[tuple[int, int, int]]:
    """(type, first sector, sectors) of the MBR's four entries."""
    return [struct.unpack_from("<4xB3xII", mbr, 446 + 16 * i) for i in range(4)]


def check_table(mbr: bytes, base_mbr: bytes, disk_bytes: int, fs_bytes: int | None) -> list[str]:
    """The crash state's MBR against the image's: only /var's length may differ, and only
    to reach the card's end; /var's file system (`fs_bytes`, after its journal replay) fits
    in the entry."""
    problems = []
    if mbr[510:512] != b"\x55\xaa":
        return ["the MBR has no boot signature"]
    now, was = mbr_entries(mbr), mbr_entries(base_mbr)
    for i, (a, b) in enumerate(zip(now, was, strict=True)):
        if i != VAR_ENTRY and a != b:
            problems.append(f"MBR entry {i + 1} changed: {b} -> {a}")
    kind, first, size = now[VAR_ENTRY]
    if (kind, first) != was[VAR_ENTRY][:2]:
        problems.append(f"/var's MBR entry moved: {was[VAR_ENTRY]} -> {now[VAR_ENTRY]}")
    grown = disk_bytes // SECTOR - first
    if size not in (was[VAR_ENTRY][2], grown):
        problems.append(f"/var's MBR entry is {size} sectors: neither the image's "
                        f"{was[VAR_ENTRY][2]} nor the card's end ({grown})")  # fmt: skip
    if fs_bytes is not None and fs_bytes > size * SECTOR:
        problems.append(f"/var's file system ({fs_bytes} bytes) is bigger than its partition "
                        f"({size * SECTOR} bytes): the kernel would not mount it")  # fmt: skip
    return problems


def growth_stage(mbr: bytes, base_mbr: bytes, fs_size: int | None) -> str:
    """Where a first-boot state stands in the growth of /var: "boot: before the growth"
    (the image's table), "boot: resizing" (the table grown, the file system not yet),
    "boot: grown"."""
    size = mbr_entries(mbr)[VAR_ENTRY][2]
    if size == mbr_entries(base_mbr)[VAR_ENTRY][2]:
        return "boot: before the growth"
    if fs_size is None or fs_size < size * SECTOR - (1 << 20):
        return "boot: resizing"
    return "boot: grown"


def fs_bytes(part: Path) -> int:
    """An ext4 file system's size (dumpe2fs -h: block count x block size)."""
    out = subprocess.run(["dumpe2fs", "-h", str(part)], capture_output=True, text=True).stdout
    fields = dict(ln.split(":", 1) for ln in out.splitlines() if ":" in ln)
    return int(fields["Block count"]) * int(fields["Block size"])


# --------------------------------------------------------------------------- boot partition
def check_fat(part: Path) -> list[str]:
    """`fsck.vfat -n` clean, and twinfold.toml read and parsed."""
    problems = []
    fsck = subprocess.run(["fsck.vfat", "-n", str(part)], capture_output=True, text=True)
    if fsck.returncode != 0:
        problems.append(f"fsck.vfat -n: rc {fsck.returncode}: {fsck.stdout[-300:]}")
    toml = subprocess.run(["mtype", "-i", str(part), "::/twinfold.toml"], capture_output=True)
    if toml.returncode != 0:
        problems.append(f"twinfold.toml unreadable: {toml.stderr.decode(errors='replace')}")
    else:
        try:
            tomllib.loads(toml.stdout.decode())
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            problems.append(f"twinfold.toml does not parse: {exc}")
    return problems


# --------------------------------------------------------------------------- the slots
def record_problems(site: Path) -> list[str]:
    """Every file the slot's wheel RECORD lists is there with its hash (a slot is named in
    state.json only after its files were synced: a cut must never leave one short). The
    .dist-info folder's own files are left out but for METADATA being there: the QEMU
    checks' updates are the image's wheel renamed to another version (power_check.py's
    `variant`, RENAME), whose folder and METADATA change while RECORD keeps the old ones."""
    records = sorted(site.glob("*.dist-info/RECORD"))
    if len(records) != 1:
        return [f"{site}: {len(records)} RECORD files"]
    problems = []
    if not (records[0].parent / "METADATA").is_file():
        problems.append(f"{records[0].parent.name}/METADATA: missing")
    with records[0].open(newline="") as f:
        for row in csv.reader(f):
            if not row or not row[1] or row[0].split("/")[0].endswith(".dist-info"):
                continue
            path = site / row[0]
            algo, _, want = row[1].partition("=")
            try:
                data = path.read_bytes()
            except OSError as exc:
                problems.append(f"{row[0]}: {exc.strerror}")
                continue
            got = base64.urlsafe_b64encode(hashlib.new(algo, data).digest()).rstrip(b"=")
            if got.decode() != want:
                problems.append(f"{row[0]}: its {algo} is not the RECORD's")
    return problems


def check_slots(root: Path, factory: str, allowed: set[str]) -> tuple[str, list[str]]:
    """`Slots.prepare` on ROOT/var/lib/twinfold-slots (a copy: it counts the start and
    deletes half-unpacked slots): the version that would start, and the problems."""
    sys.path.insert(0, str(REPO))
    try:
        from handheld import slots as sl
    finally:
        sys.path.remove(str(REPO))
    slots = sl.Slots(root, factory_version=lambda: factory)
    choice = slots.prepare()
    problems = []
    if choice.version not in allowed | {factory}:
        problems.append(f"the slots start {choice.version!r}, not one of {sorted(allowed)}")
    if choice.rolled_back is not None:
        problems.append(f"a rollback after a cut: {choice.rolled_back}")
    if slots.dir.is_dir():
        left = [p.name for p in slots.dir.iterdir() if p.name.startswith(sl.PARTIAL)]
        if left:
            problems.append(f"half-unpacked slots left after prepare: {left}")
    if choice.site is not None:
        problems += [f"slot {choice.version}: {p}" for p in record_problems(choice.site)[:5]]
    return choice.version, problems


# --------------------------------------------------------------------------- the stores
def open_store(path: Path, ours: bool) -> tuple[str, list[str]]:
    """`Store.open` on a copy of the store (with its WAL): 'fresh' (none yet: the firmware
    makes one), 'ok', or the problems (set aside, refused, an error)."""
    sys.path.insert(0, str(REPO))
    try:
        from firmware.storage import Store, StoreError
    finally:
        sys.path.remove(str(REPO))
    if not path.exists():
        return "fresh", []
    with tempfile.TemporaryDirectory(prefix="tf-store-") as tmp:
        copy = Path(tmp) / path.name
        for f in sorted(path.parent.glob(path.name + "*")):  # its WAL, SHM and backups
            if f.is_dir():
                shutil.copytree(f, Path(tmp) / f.name)
            elif not f.name.endswith(".lock"):
                shutil.copy2(f, Path(tmp) / f.name)
        try:
            store = Store.open(copy, ours=ours)
        except (StoreError, OSError) as exc:
            return "error", [f"Store.open: {type(exc).__name__}: {exc}"]
        try:
            notice = store.notice
            aside = sorted(p.name for p in Path(tmp).glob("*.damaged-*"))
        finally:
            store.close()
    if notice is not None or aside:
        return "repaired", [f"Store.open set the store aside as damaged: {aside}, {notice}"]
    return "ok", []


def would_start(var_root: Path, factory: str, allowed: set[str]) -> tuple[dict[str, str],
                                                                          list[str]]:  # fmt: skip
    """The slots' choice and both stores' opening, on /var's files copied to VAR_ROOT (its
    lib/twinfold, lib/twinfold-probe, lib/twinfold-slots): what each gave, the problems."""
    with tempfile.TemporaryDirectory(prefix="tf-start-") as tmp:
        root = Path(tmp)
        slots_dir = var_root / "lib/twinfold-slots"
        if slots_dir.is_dir():
            shutil.copytree(slots_dir, root / "var/lib/twinfold-slots", symlinks=True)
        version, problems = check_slots(root, factory, allowed)
    out = {"starts": version}
    lib = var_root / "lib"
    for name, path, ours in (("store", lib / "twinfold/store.db", True),
                             ("probe", lib / "twinfold-probe/probe.db", True)):  # fmt: skip
        out[name], found = open_store(path, ours)
        problems += [f"{name}: {p}" for p in found]
    return out, problems
