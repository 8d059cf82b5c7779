"""The image's layout for power cuts (deploy/image/power_layout.sh, files/twinfold-grow-var)
and the QEMU power check's wheels (deploy/image/power_check.py), without QEMU: the first
boot's partition growth rewrites only the last MBR entry's length, and the check's updates
are the image's wheel under another version (one of them failing at boot)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import struct
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

IMAGE = Path(__file__).resolve().parents[2] / "deploy/image"


def load(name: str, path: Path) -> ModuleType:
    loader = importlib.machinery.SourceFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


grow = load("grow_var", IMAGE / "files/twinfold-grow-var")


def mbr(entries: list[tuple[int, int, int]]) -> bytes:
    out = bytearray(512)
    for i, (kind, first, size) in enumerate(entries):
        struct.pack_into("<4xB3xII", out, 446 + 16 * i, kind, first, size)
    out[510:512] = b"\x55\xaa"
    return bytes(out)


LAYOUT = [(0x0C, 8192, 524288), (0x83, 532480, 2142208), (0x83, 2674688, 225280)]


def test_the_last_partition_grows_to_the_disk_end_and_nothing_else_changes():
    disk = 4194304  # 2 GiB in sectors
    before = mbr(LAYOUT)
    after = grow.grown_table(before, 2674688, disk)
    assert after is not None and len(after) == 512
    changed = [i for i in range(512) if before[i] != after[i]]
    assert changed and all(446 + 32 + 12 <= i < 446 + 32 + 16 for i in changed)
    assert struct.unpack_from("<I", after, 446 + 32 + 12)[0] == disk - 2674688
    assert grow.grown_table(after, 2674688, disk) is None  # done: the next boot changes nothing


@given(
    first=st.integers(2048, 10**7),
    size=st.integers(2048, 10**7),
    extra=st.integers(0, 10**8),
)
def test_growth_is_exact_for_any_sizes(first, size, extra):
    disk = first + size + extra
    table = mbr([(0x0C, 8, 1000), (0x83, first, size)])
    after = grow.grown_table(table, first, disk)
    if extra < 2048:
        assert after is None
    else:
        assert after is not None
        assert struct.unpack_from("<4xB3xII", after, 446 + 16)[1:] == (first, disk - first)
        assert after[:446] == table[:446] and after[446 + 32 :] == table[446 + 32 :]


@pytest.mark.parametrize(
    ("table", "start", "why"),
    [
        (mbr(LAYOUT)[:510] + b"\0\0", 2674688, "no MBR"),
        (mbr(LAYOUT), 532480, "not the last one"),
        (mbr(LAYOUT), 12345, "no MBR entry starts"),
    ],
)
def test_a_table_it_cannot_grow_safely_is_left_alone(table, start, why):
    with pytest.raises(SystemExit, match=why):
        grow.grown_table(table, start, 4194304)


def test_the_var_split_leaves_an_empty_mount_point(tmp_path):
    root = tmp_path / "root"
    (root / "var/lib/twinfold").mkdir(parents=True)
    (root / "var/lib/twinfold/store.db").write_text("x")
    script = f'. "{IMAGE}/power_layout.sh" && power_split_var "{root}" "{tmp_path}/var"'
    subprocess.run(["bash", "-c", script], check=True)
    assert list((root / "var").iterdir()) == []
    assert (tmp_path / "var/lib/twinfold/store.db").read_text() == "x"
    assert (tmp_path / "var/lib/twinfold-slots").is_dir()


def test_the_checks_updates_are_the_wheel_under_other_versions(tmp_path):
    sys.path.insert(0, str(IMAGE))
    try:
        power = load("power_check", IMAGE / "power_check.py")
    finally:
        sys.path.remove(str(IMAGE))
    wheel = tmp_path / "twinfold-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("twinfold-0.1.0.dist-info/METADATA", "Name: twinfold\nVersion: 0.1.0\n")
        z.writestr("twinfold-0.1.0.dist-info/RECORD", "")
        z.writestr("firmware/boot.py", "OK = 1\n")
    good = power.variant(wheel, "0.1.0.post1", tmp_path)
    broken = power.variant(wheel, "0.1.0.post2", tmp_path, broken=True)
    with zipfile.ZipFile(good) as z:
        assert "Version: 0.1.0.post1" in z.read("twinfold-0.1.0.post1.dist-info/METADATA").decode()
        assert z.read("firmware/boot.py") == b"OK = 1\n"
    with zipfile.ZipFile(broken) as z:
        assert z.read("firmware/boot.py").startswith(b"raise RuntimeError")
