#!/usr/bin/env python3
"""The long power-cut series (issue 35) as crash states replayed from a write log, the way
Linux's crash-consistency tests do it (dm-log-writes, CrashMonkey).

usage: power_series.py IMAGE --logs DIR [--states N] [--boots K] [--seed S] [--work DIR]
                       [--order A,B,C,D] [--stages S,...] [--phase all|record|check|boot]

A cut and the next boot of the image in QEMU cost about 4 minutes on the project's machine
(power_check.py's series), so hundreds of cuts are out of reach that way. Here the image is
booted ONCE, its SD card behind QEMU's `blklogwrites` driver, which logs every request the
guest's card receives (writelog.py reads the log). The workload is power_check's series':
power_check's probe (saves through the firmware's Store three times a second, each one
reported on the PL011 UART once committed; its `set_setting` is the settings change), play,
a short POWER press, the lid closed and opened, and an update through `twinfold-update`
(kept once READY). The host notes the log's size each time the probe reports a save: every
write of that save was logged before the guest saw its commit return, so a save noted at
log size S is in every crash state that keeps the entries wholly before S.

Then, without booting, for N random cut points: the disk after a cut there (writelog.py's
"completed" model: the emulated card has no volatile cache, the kernel sends it no FLUSH),
checked on the host: e2fsck replays the journal of /var (and of the root, if a cut touched
it) and nothing else is wrong (preen's orphan release is the kernel's own, the only other
change allowed; then `e2fsck -fn` is clean), the store and the probe's store (debugfs rdump,
with their WALs) pass `PRAGMA integrity_check`, every save reported before the cut is in
the probe's store, and the unit would start (crash_start.py: the partition table and /var's
size, the FAT boot partition and twinfold.toml, the slots' choice, Store.open of both
stores). A few cut points are aimed inside the first boot's growth of /var. Then K of the
states, one per stage first (pick_boots), are booted in QEMU to READY and checked with
power_check's `verify`. The reports: DIR/power-series.json, DIR/power-series-boots.json.
`--order` sets the recording's actions (a second recording in another order).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import crash_start as cs  # noqa: E402
import power_check as pc  # noqa: E402
import qemu_check as qc  # noqa: E402
import writelog as wl  # noqa: E402
from qemu_check import CheckFailed, Guest, log  # noqa: E402

STORES = ("/lib/twinfold", "/lib/twinfold-probe", "/lib/twinfold-slots")  # in /var's fs


# --------------------------------------------------------------------------- recording
class Recorder(Guest):
    """The guest with its card behind blklogwrites; every (re)start begins from the prepared
    disk and an empty log (a boot attempt that stalled leaves nothing behind)."""

    base: Path
    write_log: Path

    def start(self) -> None:
        subprocess.run(["cp", "--sparse=always", str(self.base), str(self.image)], check=True)
        self.write_log.write_bytes(b"")
        self.drive = (f"if=sd,driver=blklogwrites,file.driver=file,file.filename={self.image},"
                      f"log.driver=file,log.filename={self.write_log}")  # fmt: skip
        super().start()


class Reports(threading.Thread):
    """Polls the probe's UART file and the log's size: (save, log bytes) for each save, the
    size read after the report was seen (so at least the save's position)."""

    def __init__(self, probe_log: Path, write_log: Path) -> None:
        super().__init__(daemon=True)
        self.probe_log, self.write_log = probe_log, write_log
        self.saves: list[tuple[int, int]] = []
        self.done = threading.Event()

    def run(self) -> None:
        seen = 0
        while not self.done.is_set():
            text = self.probe_log.read_bytes() if self.probe_log.exists() else b""
            size = self.write_log.stat().st_size if self.write_log.exists() else 0
            found = [int(n) for n in re.findall(rb"PROBE saved (\d+)\n", text)]
            for n in found[seen:]:
                self.saves.append((n, size))
            seen = max(seen, len(found))
            time.sleep(0.1)


SECONDS = {"play": 50, "sleep": 20, "lid": 20, "update": 20}  # after the action (its start)


ACTIONS = ("play", "sleep", "lid", "update")


def workload(order: str) -> list[str]:
    """The recording's actions in the order given (`--order`, comma-separated): each of
    play, sleep (POWER short), lid and update once. The first recording's order was
    play,sleep,lid,update; another order cuts the update amid other writes."""
    actions = [a.strip() for a in order.split(",") if a.strip()]
    if sorted(actions) != sorted(ACTIONS):
        raise ValueError(f"--order must name each of {', '.join(ACTIONS)} once: {order!r}")
    return actions


def record(image: Path, logs: Path, work: Path, rng: random.Random,
           order: str = "play,sleep,lid,update") -> dict[str, object]:  # fmt: skip
    unit, disk = pc.new_unit(image, logs, work, guest_class=Recorder)
    versions = pc.stage_wheels(disk, image, work)
    base = work / "base.img"
    disk.rename(base)
    g = unit.guest
    assert isinstance(g, Recorder)
    g.base, g.write_log = base, work / "writes.log"
    reports = Reports(unit.probe_log, g.write_log)
    marks: list[tuple[str, int]] = []

    def mark(what: str) -> None:
        marks.append((what, g.write_log.stat().st_size))
        log(f"recording: {what} at log byte {marks[-1][1]}")

    started = time.monotonic()
    try:
        unit.boot()
        reports.start()
        mark("READY")
        unit.start_probe()
        for action in workload(order):
            mark(action)
            if action == "update":
                version = versions["good"].rsplit(".post", 1)[0] + ".post11"
                before = pc.invocation(unit)["InvocationID"]
                pc.start_update(unit, version, versions)
                pc.wait_runs(unit, version, 900, before)
                mark(f"READY on {version}")
            else:
                unit.pad(action, rng.randrange(1 << 30))
            time.sleep(SECONDS[action])
        unit.cut("end of the recording", "kill")
        mark("cut")
    finally:
        reports.done.set()
        g.remove()
    return {"base": str(base), "disk": str(disk), "write_log": str(g.write_log),
            "files": {k: str(v) for k, v in g.files.items()}, "saves": reports.saves,
            "marks": marks, "versions": versions, "order": order,
            "record_minutes": round((time.monotonic() - started) / 60, 1)}  # fmt: skip


# --------------------------------------------------------------------------- checking
def windows(disk: Path) -> dict[str, tuple[int, int]]:
    """Byte windows of the root and /var (to the card's end: /var grows to fill it)."""
    starts = qc.partitions(disk)
    size = disk.stat().st_size
    return {"root": (starts[1], starts[2] - starts[1]), "var": (starts[2], size - starts[2])}


def fsck(image: Path) -> tuple[list[str], str]:
    """A journal replay, then only the orphan release preen does, then clean: the problems
    (none if so) and what the replay and preen printed."""
    problems = []
    replay = subprocess.run(["e2fsck", "-E", "journal_only", "-y", str(image)],
                            capture_output=True, text=True)  # fmt: skip
    if replay.returncode not in (0, 1):
        problems.append(f"journal replay: rc {replay.returncode}: {replay.stdout[-300:]}")
    preen = subprocess.run(["e2fsck", "-f", "-p", str(image)], capture_output=True, text=True)
    other = [ln for ln in preen.stdout.splitlines()[1:]
             if ln.strip() and "orphaned inode" not in ln and "files," not in ln]  # fmt: skip
    if preen.returncode not in (0, 1) or other:
        problems.append(f"preen: rc {preen.returncode}: {preen.stdout[-400:]}")
    final = subprocess.run(["e2fsck", "-f", "-n", str(image)], capture_output=True, text=True)
    if final.returncode != 0:
        problems.append(f"not clean after the replay: rc {final.returncode}: "
                        f"{final.stdout[-400:]}")  # fmt: skip
    return problems, (replay.stdout + preen.stdout).strip()[-300:]


def check_root(part: Path, scratch: Path) -> list[str]:
    """fsck's problems with the root: read in place when its journal holds nothing to
    replay (the common case: it is read-only but for a few first-boot seconds), else on a
    copy."""
    head = subprocess.run(["dumpe2fs", "-h", str(part)], capture_output=True, text=True).stdout
    if "needs_recovery" in head:
        sparse_copy(part, scratch)
        return fsck(scratch)[0]
    final = subprocess.run(["e2fsck", "-f", "-n", str(part)], capture_output=True, text=True)
    if final.returncode == 0:
        return []
    sparse_copy(part, scratch)  # orphans, say: what preen would do, on a copy
    return fsck(scratch)[0]


def stores(image: Path, into: Path) -> dict[str, object]:
    """The stores' integrity_check and the probe's last save, from /var's file system
    (copied to INTO/lib: the stores and the update slots, for crash_start after it)."""
    shutil.rmtree(into, ignore_errors=True)
    (into / "lib").mkdir(parents=True)
    for folder in STORES:
        subprocess.run(["debugfs", "-R", f"rdump {folder} {into / 'lib'}", str(image)],
                       capture_output=True, check=True)  # fmt: skip
    out: dict[str, object] = {}
    for name, path in (("store", into / "lib/twinfold/store.db"),
                       ("probe", into / "lib/twinfold-probe/probe.db")):  # fmt: skip
        if not path.exists():
            out[name] = None
            continue
        db = sqlite3.connect(path)  # a copy: opening it may replay its WAL
        try:
            out[name] = [r[0] for r in db.execute("PRAGMA integrity_check")]
            tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if name == "probe" and out[name] == ["ok"] and not tables.fetchall():
                out["probe_n"] = [0, 0]  # created, cut before its first commit: no save yet
                out["probe_empty"] = True
            elif name == "probe" and out[name] == ["ok"]:
                rows = db.execute("SELECT state FROM saved_games WHERE game_id = 'reversi'")
                state = rows.fetchall()
                setting = db.execute("SELECT value FROM settings WHERE key = 'probe'").fetchall()
                out["probe_n"] = [json.loads(state[0][0])["n"] if state else 0,
                                  json.loads(setting[0][0]) if setting else 0]  # fmt: skip
        except sqlite3.DatabaseError as exc:
            out[name] = [f"{type(exc).__name__}: {exc}"]
        finally:
            db.close()
    return out


def sparse_copy(src: Path, dest: Path) -> None:
    subprocess.run(["cp", "--sparse=always", str(src), str(dest)], check=True)


def extract(base: Path, window: tuple[int, int], dest: Path) -> None:
    """One partition of the base disk into its own sparse file."""
    subprocess.run(["dd", f"if={base}", f"of={dest}", "bs=64K", "iflag=skip_bytes,count_bytes",
                    f"skip={window[0]}", f"count={window[1]}", "conv=sparse", "status=none"],
                   check=True)  # fmt: skip
    os.truncate(dest, window[1])


def cut_points(n: int, total: int, ready: int, rng: random.Random) -> list[int]:
    """Half uniform over the whole log, half over the workload (after READY)."""
    points = {rng.randint(0, total) for _ in range(n // 2)}
    while len(points) < n and len(points) < total + 1:
        points.add(rng.randint(ready, total) if len(points) % 2 else rng.randint(0, total))
    return sorted(points)


class Recording:
    """The recording's log, with the saves and the workload's marks as entry counts."""

    def __init__(self, rec: dict[str, object]) -> None:
        self.rec = rec
        self.log = wl.parse_file(str(rec["write_log"]))
        raw_saves: list[list[int]] = rec["saves"]  # type: ignore[assignment]
        raw_marks: list[list[object]] = rec["marks"]  # type: ignore[assignment]
        self.saves = [(n, self.log.count_at(size)) for n, size in raw_saves]
        self.marks = [(str(what), self.log.count_at(int(str(size)))) for what, size in raw_marks]
        self.ready = next(c for what, c in self.marks if what == "READY")

    def committed(self, cut: int) -> int:
        """The last save reported with every write of it among the first `cut` entries."""
        return max((n for n, at in self.saves if at <= cut), default=0)

    def phase(self, cut: int) -> str:
        return [what for what, c in self.marks if c <= cut][-1] if cut >= self.ready else "boot"

    def cuts(self, states: int, seed: int, table: tuple[int, int] | None = None) -> list[int]:
        """The cut points checked (the same for one seed and count): `states` drawn, and
        with `table` (the bytes before the first partition) a few aimed inside the first
        boot's growth of /var, which the draw may miss: just after the last write to the
        partition table, then 16, 64, 256, 1024 and 4096 requests later (resize2fs runs
        in there)."""
        drawn = cut_points(states, len(self.log.entries), self.ready, random.Random(seed))
        if table is None:
            return drawn
        ss = self.log.sectorsize
        writes = [e.index for e in self.log.entries if wl.touches(e, ss, table)]
        aimed = {writes[-1] + 1 + k for k in (0, 16, 64, 256, 1024, 4096)} if writes else set()
        return sorted(set(drawn) | {c for c in aimed if c <= len(self.log.entries)})


def replay(rec: dict[str, object], states: int, work: Path, seed: int) -> dict[str, object]:
    base = Path(str(rec["base"]))
    recd = Recording(rec)
    the_log = recd.log
    entries = the_log.entries
    ss = the_log.sectorsize
    saves, marks, ready = recd.saves, recd.marks, recd.ready
    flushes = sum(1 for e in entries if e.flags & wl.FLUSH)
    fuas = sum(1 for e in entries if e.flags & wl.FUA)
    starts = qc.partitions(base)
    win = {"table": (0, starts[0]), "boot": (starts[0], starts[1] - starts[0]), **windows(base)}
    regions = win
    per_region = {
        name: sum(1 for e in entries if wl.touches(e, ss, w)) for name, w in regions.items()
    }
    log(f"replay: requests per region: {per_region}")
    log(f"replay: {len(entries)} entries ({flushes} FLUSH, {fuas} FUA), READY at {ready}, "
        f"{len(saves)} saves reported")  # fmt: skip
    parts = {name: work / f"{name}.part" for name in win}
    for name, w in win.items():
        extract(base, w, parts[name])
    fds = {name: os.open(p, os.O_RDWR) for name, p in parts.items()}
    log_fd = os.open(str(rec["write_log"]), os.O_RDONLY)
    scratch, dump = work / "scratch.img", work / "dump"
    results: list[dict[str, object]] = []
    done = 0
    root_checked: list[str] | None = None
    with open(base, "rb") as f:
        base_mbr = f.read(cs.SECTOR)
    disk_bytes = base.stat().st_size
    factory = str(rec["versions"]["good"]).rsplit(".post", 1)[0]  # type: ignore[index]
    allowed = {v for what, _ in marks if (v := what.removeprefix("READY on ")) != what}
    try:
        for cut in recd.cuts(states, seed, win["table"]):
            new = wl.crash_writes(entries[done:cut], cut - done, "completed")
            root_changed = root_checked is None or any(wl.touches(e, ss, win["root"]) for e in new)
            for name, w in win.items():
                wl.apply(new, log_fd, fds[name], ss, w)
            done = cut
            phase, committed = recd.phase(cut), recd.committed(cut)
            result: dict[str, object] = {"cut": cut, "phase": phase, "committed": committed}
            problems: list[str] = []
            if root_changed:
                root_checked = check_root(parts["root"], scratch)
            problems += [f"root: {p}" for p in root_checked or []]
            sparse_copy(parts["var"], scratch)
            var_problems, printed = fsck(scratch)
            problems += [f"/var: {p}" for p in var_problems]
            result["fsck"] = printed
            problems += [f"boot partition: {p}" for p in cs.check_fat(parts["boot"])]
            mbr = os.pread(fds["table"], cs.SECTOR, 0)
            size = None if var_problems else cs.fs_bytes(scratch)
            problems += [f"table: {p}" for p in cs.check_table(mbr, base_mbr, disk_bytes, size)]
            var_bytes = cs.mbr_entries(mbr)[cs.VAR_ENTRY][2] * cs.SECTOR
            result["growth"] = [var_bytes, size]
            result["stage"] = phase if phase != "boot" else cs.growth_stage(
                mbr, base_mbr, size)  # fmt: skip
            if not var_problems:
                found = stores(scratch, dump)
                result.update(found)
                if found["store"] not in (None, ["ok"]):
                    problems.append(f"the store's integrity_check: {found['store']}")
                if found["probe"] not in (None, ["ok"]):
                    problems.append(f"the probe's integrity_check: {found['probe']}")
                probe_n: list[int] = found.get("probe_n") or [0, 0]  # type: ignore[assignment]
                n, setting = probe_n
                if n < committed or setting < committed:
                    problems.append(f"lost saves: {committed} was reported committed, the store "
                                    f"holds {n} (setting {setting})")  # fmt: skip
                start, start_problems = cs.would_start(dump, factory, allowed)
                result["start"] = start
                problems += [f"start: {p}" for p in start_problems]
            result["problems"] = problems
            results.append(result)
            if problems:
                log(f"replay: cut {cut} ({phase}): FAILED: {problems}")
            if len(results) % 20 == 0:
                log(f"replay: {len(results)} crash states checked")
    finally:
        for fd in (*fds.values(), log_fd):
            os.close(fd)
    return {"entries": len(entries), "flushes": flushes, "fuas": fuas, "ready_entry": ready,
            "per_region": per_region,
            "marks": marks, "saves_reported": len(saves), "states": results}  # fmt: skip


def boot_state(rec: dict[str, object], cut: int, committed: int, logs: Path,
               work: Path) -> str:  # fmt: skip
    """The whole card after a cut, booted to READY and verified."""
    base = Path(str(rec["base"]))
    disk = work / f"state-{cut}.img"
    sparse_copy(base, disk)
    the_log = wl.parse_file(str(rec["write_log"]))
    writes = wl.crash_writes(the_log.entries, cut, "completed")
    with open(disk, "r+b") as d, open(str(rec["write_log"]), "rb") as f:
        wl.apply(writes, f.fileno(), d.fileno(), the_log.sectorsize)
    files = {k: Path(v) for k, v in rec["files"].items()}  # type: ignore[attr-defined]
    unit = pc.unit_on(disk, files, logs, f"state{cut}")
    unit.reported = committed
    try:
        unit.boot()
        try:
            v = unit.verify(f"crash state {cut}")
        finally:  # the service's journal of this boot (RAM only): why it restarted, if it did
            unit.guest.save_journal("twinfold", "journal")
        restarts = qc.service(unit.guest).get("NRestarts")
        return (f"READY, verified (probe {v['probe']}, runs "
                f"{(v['slots'] or {}).get('starts')}, NRestarts {restarts})")  # fmt: skip
    finally:
        unit.guest.remove()
        disk.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("image", type=Path)
    parser.add_argument("--logs", type=Path, required=True)
    parser.add_argument("--states", type=int, default=300, help="crash states checked")
    parser.add_argument("--boots", type=int, default=3, help="crash states booted")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--stages", help="the stages booted first (comma-separated, "
                        f"of: {', '.join(BOOT_ORDER)}; default all, in that order)")  # fmt: skip
    parser.add_argument("--cut", type=int, action="append",
                        help="boot this checked cut point (again), not picked ones")  # fmt: skip
    parser.add_argument("--shell-seconds", type=int, default=qc.SHELL_SECONDS,
                        help="the wait for the guest's serial shell (a first boot at a high "
                        "load can pass the default)")  # fmt: skip
    parser.add_argument("--order", default="play,sleep,lid,update",
                        help="the recording's actions, comma-separated")  # fmt: skip
    parser.add_argument("--work", type=Path, help="kept (the log, the base disk)")
    parser.add_argument("--phase", choices=("all", "record", "check", "boot"), default="all",
                        help="check/boot: reuse --work's recording")  # fmt: skip
    args = parser.parse_args(argv)
    qc.SHELL_SECONDS = args.shell_seconds
    args.logs.mkdir(parents=True, exist_ok=True)
    work = args.work or Path(tempfile.mkdtemp(prefix="tf-series-"))
    work.mkdir(parents=True, exist_ok=True)
    recording = work / "recording.json"
    if args.phase in ("all", "record"):
        rec = record(args.image, args.logs, work, random.Random(args.seed), args.order)
        recording.write_text(json.dumps(rec, indent=1))
    rec = json.loads(recording.read_text())
    bad = False
    if args.phase in ("all", "check"):
        started = time.monotonic()
        out = replay(rec, args.states, work, args.seed)
        out["replay_minutes"] = round((time.monotonic() - started) / 60, 1)
        out["record_minutes"] = rec["record_minutes"]
        report = args.logs / "power-series.json"
        report.write_text(json.dumps(out, indent=1))
        states: list[dict[str, object]] = out["states"]  # type: ignore[assignment]
        failed = [s for s in states if s["problems"]]
        log(f"power_series: {len(states)} crash states checked, {len(failed)} failed "
            f"(report {report})")  # fmt: skip
        bad = bool(failed)
    if args.phase in ("all", "boot"):
        bad = boot_some(rec, args, work) or bad
    return 1 if bad else 0


# The order in which boot_some takes one checked state of each stage (then any other)
BOOT_ORDER = ("boot: resizing", "update", "boot: before the growth", "boot: grown", "lid",
              "sleep", "play", "READY on", "READY")  # fmt: skip


def pick_boots(states: list[dict[str, object]], k: int, rng: random.Random,
               order: tuple[str, ...] = BOOT_ORDER) -> list[int]:  # fmt: skip
    """K checked cut points to boot: one drawn from each stage in `order` (BOOT_ORDER's
    names: the first boot's growth and the update first) while K lasts, then drawn from
    the rest."""
    by_stage: dict[str, list[int]] = {}
    for s in states:
        stage = str(s.get("stage", s["phase"]))
        key = next((b for b in BOOT_ORDER if stage.startswith(b)), stage)
        by_stage.setdefault(key, []).append(int(str(s["cut"])))
    picked = [rng.choice(by_stage[b]) for b in order if b in by_stage][:k]
    rest = sorted({int(str(s["cut"])) for s in states} - set(picked))
    return picked + rng.sample(rest, min(len(rest), k - len(picked)))


def boot_some(rec: dict[str, object], args: argparse.Namespace, work: Path) -> bool:
    """Boot --boots of the cut points the check's report (LOGS/power-series.json) holds,
    picked by pick_boots (their own generator, so the check and the boots may run apart):
    any failed."""
    recd = Recording(rec)
    checked = json.loads((args.logs / "power-series.json").read_text())["states"]
    order = tuple(a.strip() for a in args.stages.split(",")) if args.stages else BOOT_ORDER
    cuts = args.cut or pick_boots(checked, args.boots, random.Random(args.seed + 1), order)
    report = args.logs / "power-series-boots.json"
    booted: list[list[object]] = []
    for cut in cuts:
        phase, committed = recd.phase(cut), recd.committed(cut)
        log(f"power_series: booting crash state {cut} ({phase}, save {committed} committed)")
        try:
            outcome = boot_state(rec, cut, committed, args.logs, work)
        except CheckFailed as exc:
            outcome = f"FAILED: {exc}"
        booted.append([cut, phase, committed, outcome])
        log(f"power_series: booted crash state {booted[-1]}")
        report.write_text(json.dumps(booted, indent=1))
    return any(str(b[3]).startswith("FAILED") for b in booted)


if __name__ == "__main__":
    sys.exit(main())
