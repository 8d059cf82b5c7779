"""The write log of QEMU's blklogwrites (dm-log-writes format) and the crash states replayed
from it (deploy/image/writelog.py, power_series.py's replay): logs built in memory, disks as
byte arrays; the crash states are compared with a plain replay of the requests written
here, not with the module's own output. One test reads a log QEMU itself wrote (qemu-io)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.deploy import image_scripts

DISK_SECTORS = 32


wl = image_scripts.load("writelog")

# A request: ("write", sector, data) / ("fua", sector, data) / ("discard", sector, n) / ("flush",)
write_op = st.tuples(
    st.sampled_from(["write", "fua"]),
    st.integers(0, DISK_SECTORS - 4),
    st.integers(1, 3).flatmap(lambda n: st.binary(min_size=n * 512, max_size=n * 512)),
)
discard_op = st.tuples(st.just("discard"), st.integers(0, DISK_SECTORS - 4), st.integers(1, 3))
ops_strategy = st.lists(
    st.one_of(write_op, write_op, discard_op, st.just(("flush",))), min_size=0, max_size=25
)


def build(ops: list[tuple], super_entries: int | None = None) -> bytes:
    out = [wl.encode_super(len(ops) if super_entries is None else super_entries)]
    for op in ops:
        if op[0] in ("write", "fua"):
            out.append(wl.encode_entry(op[1], op[2], wl.FUA if op[0] == "fua" else 0))
        elif op[0] == "discard":
            out.append(wl.encode_entry(op[1], b"", wl.DISCARD, nr_sectors=op[2]))
        else:
            out.append(wl.encode_entry(0, b"", wl.FLUSH))
    return b"".join(out)


def plain_disk(ops: list[tuple]) -> bytes:
    """The disk after the requests, in order (the reference)."""
    disk = bytearray(DISK_SECTORS * 512)
    for op in ops:
        if op[0] in ("write", "fua"):
            disk[op[1] * 512 : op[1] * 512 + len(op[2])] = op[2]
        elif op[0] == "discard":
            disk[op[1] * 512 : (op[1] + op[2]) * 512] = bytes(op[2] * 512)
    return bytes(disk)


def replayed(data: bytes, writes: list, tmp: Path, window: tuple[int, int] | None = None) -> bytes:
    log_path, disk_path = tmp / "log", tmp / "disk"
    log_path.write_bytes(data)
    disk_path.write_bytes(bytes(window[1] if window else DISK_SECTORS * 512))
    with open(log_path, "rb") as f, open(disk_path, "r+b") as d:
        wl.apply(writes, f.fileno(), d.fileno(), 512, window)
    return disk_path.read_bytes()


@given(ops_strategy)
def test_parse_reads_back_every_request(ops: list[tuple]) -> None:
    data = build(ops)
    log = wl.parse(data)
    assert len(log.entries) == len(ops)
    for op, e in zip(ops, log.entries, strict=True):
        if op[0] == "flush":
            assert e.flags == wl.FLUSH and not e.is_write
        elif op[0] == "discard":
            assert (e.sector, e.nr_sectors, e.flags) == (op[1], op[2], wl.DISCARD)
        else:
            assert (e.sector, e.flags & wl.FUA != 0) == (op[1], op[0] == "fua")
            assert data[e.data_at : e.data_at + e.nr_sectors * 512] == op[2]
    assert (log.entries[-1].end if ops else 512) == len(data)


@given(ops_strategy, st.integers(0, 30))
def test_super_block_may_lag_and_a_torn_entry_is_dropped(ops: list[tuple], lag: int) -> None:
    """QEMU writes nr_entries only at a flush; a kill mid-entry leaves a torn tail."""
    data = build(ops, super_entries=max(0, len(ops) - lag))
    assert len(wl.parse(data).entries) == len(ops)
    no_super = bytes(512) + data[512:]  # before the first flush QEMU has written no super block
    assert len(wl.parse(no_super).entries) == len(ops)
    torn = data + wl.encode_entry(3, b"\x01" * 1024)[:-100]
    assert len(wl.parse(torn).entries) == len(ops)


def test_not_a_log() -> None:
    with pytest.raises(wl.LogError):
        wl.parse(b"\x01" * 512)


@settings(max_examples=60)
@given(ops_strategy, st.data())
def test_completed_model_is_the_disk_after_the_first_k_requests(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple], data: st.DataObject
) -> None:
    cut = data.draw(st.integers(0, len(ops)))
    raw = build(ops)
    log = wl.parse(raw)
    tmp = tmp_path_factory.mktemp("c")
    got = replayed(raw, wl.crash_writes(log.entries, cut, "completed"), tmp)
    assert got == plain_disk(ops[:cut])
    # incremental replay (the series applies only the requests since the previous cut)
    first = data.draw(st.integers(0, cut))
    (tmp / "disk").write_bytes(bytes(DISK_SECTORS * 512))
    with open(tmp / "log", "rb") as f, open(tmp / "disk", "r+b") as d:
        wl.apply(wl.crash_writes(log.entries, first, "completed"), f.fileno(), d.fileno(), 512)
        wl.apply(wl.crash_writes(log.entries[first:cut], cut - first, "completed"),
                 f.fileno(), d.fileno(), 512)  # fmt: skip
    assert (tmp / "disk").read_bytes() == got


@settings(max_examples=60)
@given(ops_strategy, st.data())
def test_a_partition_window_is_that_slice_of_the_disk(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple], data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, DISK_SECTORS - 1)) * 512
    length = data.draw(st.integers(1, DISK_SECTORS * 512 - start))
    raw = build(ops)
    writes = wl.crash_writes(wl.parse(raw).entries, len(ops), "completed")
    tmp = tmp_path_factory.mktemp("w")
    part = replayed(raw, writes, tmp, (start, length))
    assert part == plain_disk(ops)[start : start + length]
    touched = [e for e in writes if wl.touches(e, 512, (start, length))]
    assert replayed(raw, touched, tmp, (start, length)) == part


@given(ops_strategy, st.data(), st.integers(0, 2**32))
def test_flush_model_keeps_what_a_flush_or_fua_made_durable(
    ops: list[tuple], data: st.DataObject, seed: int
) -> None:
    cut = data.draw(st.integers(0, len(ops)))
    entries = wl.parse(build(ops)).entries
    kept = wl.crash_writes(entries, cut, "flush", random.Random(seed))
    flushes = [i for i, op in enumerate(ops[:cut]) if op[0] == "flush"]
    barrier = flushes[-1] if flushes else -1
    indexes = [e.index for e in kept]
    assert indexes == sorted(indexes) and all(i < cut for i in indexes)
    for i, op in enumerate(ops[:cut]):
        must = op[0] != "flush" and (i < barrier or op[0] == "fua")
        if must:
            assert i in indexes
        if op[0] == "flush":
            assert i not in indexes


@given(ops_strategy, st.integers(0, 20000))
def test_count_at_is_the_entries_wholly_before_an_offset(ops: list[tuple], offset: int) -> None:
    log = wl.parse(build(ops))
    assert log.count_at(offset) == sum(1 for e in log.entries if e.end <= offset)


@pytest.mark.skipif(shutil.which("qemu-io") is None, reason="QEMU's qemu-io is not installed")
def test_a_log_qemu_wrote(tmp_path: Path) -> None:
    """QEMU's own blklogwrites: writes, a flush, zeroes, a discard, then replayed from zero."""
    disk, log_file = tmp_path / "disk", tmp_path / "log"
    disk.write_bytes(os.urandom(64 * 512))
    before = disk.read_bytes()
    log_file.write_bytes(b"")
    opts = (f"driver=blklogwrites,file.driver=file,file.filename={disk},log.driver=file,"
            f"log.filename={log_file}")  # fmt: skip
    cmds = ["write -P 0xab 4096 1024", "flush", "write -z 8192 512", "write -P 0xcd 0 512"]
    args = [a for c in cmds for a in ("-c", c)]
    subprocess.run(["qemu-io", "--image-opts", opts, *args], check=True, capture_output=True)
    log = wl.parse_file(str(log_file))
    assert [(e.sector, e.nr_sectors, e.flags) for e in log.entries[:4]] == [
        (8, 2, 0), (0, 0, wl.FLUSH), (16, 1, 0), (0, 1, 0)]  # fmt: skip
    copy = tmp_path / "copy"
    copy.write_bytes(before)
    with open(log_file, "rb") as f, open(copy, "r+b") as d:
        wl.apply(wl.crash_writes(log.entries, len(log.entries), "completed"), f.fileno(),
                 d.fileno(), 512)  # fmt: skip
    assert copy.read_bytes() == disk.read_bytes()
