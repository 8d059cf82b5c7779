"""The host-side "would it start" checks of each crash state (deploy/image/crash_start.py)
and the choice of the states booted (power_series.py's pick_boots, workload): partition
tables, FAT images, update slots and stores made here, each once whole and once damaged the
way the check must catch; the expected outcomes come from how they were made, not from the
module."""

from __future__ import annotations

import base64
import hashlib
import io
import random
import shutil
import sqlite3
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.storage import Store
from handheld import slots as slots_mod
from tests.deploy import image_scripts

cs = image_scripts.load("crash_start")
ps = image_scripts.load("power_series")

DISK = 2 << 30  # bytes
# the boot partition, the root, /var (not yet grown)
ENTRIES = [(0x0C, 8192, 524288), (0x83, 532480, 2150400), (0x83, 2682880, 1000000)]


def mbr(var_sectors: int | None = None, entries: list[tuple[int, int, int]] = ENTRIES) -> bytes:
    out = bytearray(512)
    for i, (kind, first, size) in enumerate(entries):
        if i == 2 and var_sectors is not None:
            size = var_sectors
        struct.pack_into("<4xB3xII", out, 446 + 16 * i, kind, first, size)
    out[510:512] = b"\x55\xaa"
    return bytes(out)


GROWN = DISK // 512 - ENTRIES[2][1]


# --------------------------------------------------------------------------- the table
def test_the_images_table_and_the_grown_one_pass() -> None:
    base = mbr()
    assert cs.check_table(base, base, DISK, ENTRIES[2][2] * 512) == []
    assert cs.check_table(mbr(GROWN), base, DISK, ENTRIES[2][2] * 512) == []
    assert cs.check_table(mbr(GROWN), base, DISK, GROWN * 512) == []


@given(st.integers(1, (1 << 32) - 1))
def test_any_other_length_of_var_is_caught(sectors: int) -> None:
    problems = cs.check_table(mbr(sectors), mbr(), DISK, None)
    assert bool(problems) == (sectors not in (ENTRIES[2][2], GROWN))


@given(st.integers(0, 1), st.integers(0, 2), st.integers(1, 1 << 20))
def test_a_change_to_another_entry_is_caught(entry: int, field: int, delta: int) -> None:
    changed = [list(e) for e in ENTRIES]
    was = changed[entry][field]
    changed[entry][field] = (was + 1 + delta % 255) % 256 if field == 0 else was + delta
    table = mbr(None, [(a, b, c) for a, b, c in changed])
    assert cs.check_table(table, mbr(), DISK, None)


def test_a_file_system_bigger_than_its_partition_is_caught() -> None:
    # the growth's resize2fs committed, but the table is the image's: the kernel refuses it
    problems = cs.check_table(mbr(), mbr(), DISK, GROWN * 512)
    assert any("bigger than its partition" in p for p in problems)


def test_no_signature_is_caught() -> None:
    assert cs.check_table(bytes(512), mbr(), DISK, None)


def test_growth_stages() -> None:
    base = mbr()
    assert cs.growth_stage(base, base, ENTRIES[2][2] * 512) == "boot: before the growth"
    assert cs.growth_stage(mbr(GROWN), base, ENTRIES[2][2] * 512) == "boot: resizing"
    assert cs.growth_stage(mbr(GROWN), base, GROWN * 512) == "boot: grown"


# --------------------------------------------------------------------------- the FAT
needs_fat = pytest.mark.skipif(
    not (shutil.which("mkfs.vfat") and shutil.which("fsck.vfat") and shutil.which("mcopy")),
    reason="dosfstools and mtools",
)


def fat(tmp_path: Path, toml: bytes | None) -> Path:
    img = tmp_path / "boot.img"
    subprocess.run(["mkfs.vfat", "-C", str(img), "4096"], check=True, capture_output=True)
    if toml is not None:
        (tmp_path / "t.toml").write_bytes(toml)
        subprocess.run(["mcopy", "-i", str(img), str(tmp_path / "t.toml"), "::/twinfold.toml"],
                       check=True)  # fmt: skip
    return img


@needs_fat
def test_a_whole_fat_passes(tmp_path: Path) -> None:
    assert cs.check_fat(fat(tmp_path, b'[unit]\nkind = "handheld"\n')) == []


@needs_fat
def test_a_damaged_fat_is_caught(tmp_path: Path) -> None:
    img = fat(tmp_path, b"[unit]\n")
    data = bytearray(img.read_bytes())
    (per_sector,) = struct.unpack_from("<H", data, 11)
    (reserved,) = struct.unpack_from("<H", data, 14)
    at = per_sector * reserved + 40  # a free cluster of the first FAT marked used: FATs differ
    data[at : at + 4] = b"\xff\xff\xff\xff"
    img.write_bytes(bytes(data))
    assert any(p.startswith("fsck.vfat") for p in cs.check_fat(img))


@needs_fat
def test_a_missing_or_torn_twinfold_toml_is_caught(tmp_path: Path) -> None:
    assert any("unreadable" in p for p in cs.check_fat(fat(tmp_path, None)))
    shutil.rmtree(tmp_path)
    tmp_path.mkdir()
    assert any("does not parse" in p for p in cs.check_fat(fat(tmp_path, b'[unit\nkind = "h')))


# --------------------------------------------------------------------------- the slots
FILES = {"firmware/cli.py": b"VERSION = 'x'\n", "games/a.py": b"A = 1\n"}


def wheel(folder: Path, version: str) -> Path:
    """A Twinfold wheel with a RECORD (hashes as pip writes them)."""
    info = f"twinfold-{version}.dist-info"
    files = {**FILES, f"{info}/METADATA": f"Name: twinfold\nVersion: {version}\n".encode()}
    rows = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        rows.append(f"{path},sha256={digest},{len(data)}")
    rows.append(f"{info}/RECORD,,")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for path, data in files.items():
            z.writestr(path, data)
        z.writestr(f"{info}/RECORD", "\n".join(rows) + "\n")
    dest = folder / f"twinfold-{version}-py3-none-any.whl"
    dest.write_bytes(buf.getvalue())
    return dest


def installed(tmp_path: Path, version: str = "0.1.0.post11") -> Path:
    root = tmp_path / "unit"
    slots = slots_mod.Slots(root, factory_version=lambda: "0.1.0")
    slots.install(wheel(tmp_path, version))
    return root / "var"


def test_an_installed_slot_would_start(tmp_path: Path) -> None:
    var = installed(tmp_path)
    assert cs.check_slots(var.parent, "0.1.0", {"0.1.0.post11"}) == ("0.1.0.post11", [])


def test_no_slots_start_the_factory_version(tmp_path: Path) -> None:
    assert cs.check_slots(tmp_path, "0.1.0", {"0.1.0.post11"}) == ("0.1.0", [])


def test_a_version_not_installed_by_the_recording_is_caught(tmp_path: Path) -> None:
    var = installed(tmp_path, "0.9")
    version, problems = cs.check_slots(var.parent, "0.1.0", {"0.1.0.post11"})
    assert version == "0.9" and problems


@pytest.mark.parametrize("damage", ["missing", "changed"])
def test_a_slot_short_of_a_file_is_caught(tmp_path: Path, damage: str) -> None:
    var = installed(tmp_path)
    (site,) = (var / "lib/twinfold-slots").glob("0.1.0.post11-*/site")
    if damage == "missing":
        (site / "games/a.py").unlink()
    else:
        (site / "games/a.py").write_bytes(b"A = 2\n")
    _, problems = cs.check_slots(var.parent, "0.1.0", {"0.1.0.post11"})
    assert any("games/a.py" in p for p in problems)


def test_a_renamed_wheel_is_checked_by_its_code(tmp_path: Path) -> None:
    """The QEMU checks' updates: the image's wheel with its .dist-info renamed, RECORD not
    rewritten; its code files are still checked."""
    var = installed(tmp_path)
    (site,) = (var / "lib/twinfold-slots").glob("0.1.0.post11-*/site")
    (site / "twinfold-0.1.0.post11.dist-info").rename(site / "twinfold-0.1.0.dist-info")
    assert cs.record_problems(site) == []
    (site / "firmware/cli.py").write_bytes(b"")
    assert cs.record_problems(site) == ["firmware/cli.py: its sha256 is not the RECORD's"]
    (site / "twinfold-0.1.0.dist-info/METADATA").unlink()
    assert "twinfold-0.1.0.dist-info/METADATA: missing" in cs.record_problems(site)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 40))
def test_an_install_cut_at_any_step_would_start(cut: int) -> None:
    """Every cut of an install (slots.Disk's steps) leaves a state the check passes: the old
    version or the new one, whole."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        root = folder / "unit"
        slots = slots_mod.Slots(root, slots_mod.Disk(cut), factory_version=lambda: "0.1.0")
        try:
            slots.install(wheel(folder, "0.1.0.post11"))
            done = True
        except slots_mod.PowerCut:
            done = False
        version, problems = cs.check_slots(root, "0.1.0", {"0.1.0.post11"})
        assert problems == []
        if done:
            assert version == "0.1.0.post11"


def test_a_rollback_is_caught(tmp_path: Path) -> None:
    var = installed(tmp_path)
    slots = slots_mod.Slots(var.parent, factory_version=lambda: "0.1.0")
    for _ in range(slots_mod.MAX_STARTS):
        slots.prepare()
    _, problems = cs.check_slots(var.parent, "0.1.0", {"0.1.0.post11"})
    assert any("rollback" in p for p in problems)


# --------------------------------------------------------------------------- the stores
def test_a_store_opens(tmp_path: Path) -> None:
    path = tmp_path / "lib/twinfold/store.db"
    with Store.open(path, ours=True) as store:
        store.set_setting("x", 1)
    assert cs.open_store(path, True) == ("ok", [])
    assert path.exists() and not list(path.parent.glob("*.damaged-*"))  # the original is kept


def test_no_store_is_fresh(tmp_path: Path) -> None:
    assert cs.open_store(tmp_path / "store.db", True) == ("fresh", [])


def test_a_damaged_store_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    with Store.open(path, ours=True) as store:
        for n in range(200):
            store.set_setting(f"k{n}", "x" * 200)
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    data[4096 : 4096 * 3] = bytes(range(256)) * 32  # pages 2-3 overwritten
    path.write_bytes(bytes(data))
    outcome, problems = cs.open_store(path, True)
    assert outcome in ("repaired", "error") and problems


def test_would_start_on_a_var_copy(tmp_path: Path) -> None:
    var = installed(tmp_path)
    with Store.open(var / "lib/twinfold/store.db", ours=True) as store:
        store.set_setting("x", 1)
    out, problems = cs.would_start(var, "0.1.0", {"0.1.0.post11"})
    assert problems == []
    assert out == {"starts": "0.1.0.post11", "store": "ok", "probe": "fresh"}


# --------------------------------------------------------------------------- power_series
def test_workload_orders() -> None:
    assert ps.workload("lid, update,sleep,play") == ["lid", "update", "sleep", "play"]
    for bad in ("play,sleep,lid", "play,sleep,lid,update,play", "play,sleep,lid,reboot"):
        with pytest.raises(ValueError):
            ps.workload(bad)


stage_names = st.sampled_from(["boot: resizing", "boot: before the growth", "boot: grown",
                               "READY", "play", "sleep", "lid", "update",
                               "READY on 0.1.0.post11"])  # fmt: skip


@given(st.lists(stage_names, min_size=1, max_size=40), st.integers(0, 12), st.integers(0, 99))
def test_pick_boots_takes_each_stage_first(stages: list[str], k: int, seed: int) -> None:
    states = [{"cut": 10 * i, "phase": "x", "stage": s} for i, s in enumerate(stages)]
    picked = ps.pick_boots(states, k, random.Random(seed))
    assert len(picked) == len(set(picked)) == min(k, len(states))
    # a stage's group: the first BOOT_ORDER entry it starts with ("READY on ..." before "READY")
    group = {s: next(b for b in ps.BOOT_ORDER if s.startswith(b)) for s in stages}
    wanted = [b for b in ps.BOOT_ORDER if b in group.values()][:k]
    got = [group[stages[c // 10]] for c in picked[: len(wanted)]]
    assert got == wanted


def test_pick_boots_in_the_order_asked() -> None:
    stages = ("boot: grown", "update", "lid", "READY on 0.1.0.post11")
    states = [{"cut": c, "phase": "x", "stage": s} for c, s in enumerate(stages, 1)]
    assert ps.pick_boots(states, 2, random.Random(0), ("lid", "READY on")) == [3, 4]
    assert set(ps.pick_boots(states, 3, random.Random(0), ("lid",))[1:]) < {1, 2, 4}


def test_a_store_cut_before_its_first_commit(tmp_path: Path) -> None:
    """An SQLite file in WAL mode with no table yet (the second recording's state 116,499):
    the firmware's own store (`ours=True`) opens as a fresh one; a path not vouched for is
    refused (NotAStore), which the check reports."""
    path = tmp_path / "probe.db"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.close()
    assert cs.open_store(path, True) == ("ok", [])
    outcome, problems = cs.open_store(path, False)
    assert outcome == "error" and "NotAStore" in problems[0]


needs_e2fs = pytest.mark.skipif(
    not (shutil.which("mke2fs") and shutil.which("debugfs")), reason="e2fsprogs"
)


@needs_e2fs
@pytest.mark.parametrize("saves", [0, 3])
def test_stores_read_from_an_ext4_image(tmp_path: Path, saves: int) -> None:
    """power_series.stores on a /var made here: the probe's saves, or (none) a probe store
    cut before its first commit, read as no save yet; the slots copied out beside them."""
    var = tmp_path / "var"
    probe = var / "lib/twinfold-probe/probe.db"
    probe.parent.mkdir(parents=True)
    if saves:
        with Store.open(probe, ours=True) as store:
            for n in range(1, saves + 1):
                store.save_suspend("reversi", {"n": n}, {"n": n})
                store.set_setting("probe", n)
    else:
        db = sqlite3.connect(probe)
        db.execute("PRAGMA journal_mode=WAL")
        db.close()
    (var / "lib/twinfold-slots").mkdir(parents=True)
    (var / "lib/twinfold-slots/state.json").write_text("{}")
    img = tmp_path / "var.img"
    subprocess.run(["mke2fs", "-q", "-t", "ext4", "-d", str(var), str(img), "8M"], check=True)
    out = ps.stores(img, tmp_path / "dump")
    assert out["store"] is None and out["probe"] == ["ok"]
    assert out["probe_n"] == [saves, saves]
    assert out.get("probe_empty", False) == (saves == 0)
    assert (tmp_path / "dump/lib/twinfold-slots/state.json").read_text() == "{}"
