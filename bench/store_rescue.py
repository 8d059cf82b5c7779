"""How much of a damaged store comes back (issue 35, item 1): hundreds of random damages
(bytes, whole pages, a truncated file, a torn write-ahead log; firmware/store_trials.py) and
the share of rows that come back exactly, per kind; every trial also checks that nothing a
backup held was lost. Then the cost of the open's row check on a large store.

    .venv/bin/python bench/store_rescue.py [--trials N] [--dir DIR] [--records N]

`--trials` per kind (default 100); `--dir` where the trials run (default a temporary folder;
a tmpfs such as /dev/shm spares the disk the syncs of every commit).
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware.storage import Store, StoreError
from firmware.store_rescue import unsound_row
from firmware.store_trials import KINDS, Trial, run_trial


def series(root: Path, trials: int) -> list[Trial]:
    """Every trial; one whose store would not open again (the unit would not boot) is
    printed and left out of the table."""
    out = []
    for kind in KINDS:
        for seed in range(trials):
            try:
                out.append(run_trial(root / "trial", kind, seed))
            except StoreError as exc:
                print(f"OPEN FAILED after {kind} seed {seed}: {exc}")
    return out


def report(results: list[Trial]) -> list[str]:
    lines = [
        "kind      trials  told  rows    exact   present  backup rows  backup kept",
    ]
    for kind in KINDS:
        rs = [t for t in results if t.kind == kind]
        total = sum(t.total for t in rs)
        lines.append(
            f"{kind:9} {len(rs):6}  {sum(t.notice is not None for t in rs):4}  {total:6}"
            f"  {sum(t.exact for t in rs) / total:6.1%}  {sum(t.present for t in rs) / total:7.1%}"
            f"  {sum(t.backup_total for t in rs):11}  {sum(t.backup_kept for t in rs):5}/{len(rs)}"
        )
    total = sum(t.total for t in results)
    lines.append(
        f"all       {len(results):6}  {sum(t.notice is not None for t in results):4}  {total:6}"
        f"  {sum(t.exact for t in results) / total:6.1%}"
        f"  {sum(t.present for t in results) / total:7.1%}"
        f"  {sum(t.backup_total for t in results):11}"
        f"  {sum(t.backup_kept for t in results):5}/{len(results)}"
    )
    return lines


def open_cost(root: Path, records: int) -> str:
    """Median time to open a sound store of `records` game records (quick_check plus the
    row check), five opens after the first."""
    path = root / "big" / "store.db"
    with Store.open(path, ours=True) as s:
        for i in range(records):
            s.add_record("pop", {"i": i, "moves": list(range(60)), "pad": "x" * 400})
    size = path.stat().st_size
    times, checks = [], []
    for _ in range(6):
        start = time.perf_counter()
        Store.open(path, ours=True).close()
        times.append(time.perf_counter() - start)
        conn = sqlite3.connect(path)
        start = time.perf_counter()
        assert unsound_row(conn) is None
        checks.append(time.perf_counter() - start)
        conn.close()
    backups = []
    with Store.open(path, ours=True) as s:
        for _ in range(5):
            start = time.perf_counter()
            s.backup("game")
            backups.append(time.perf_counter() - start)
    return (
        f"open of a sound store with {records} records ({size / 1e6:.1f} MB):"
        f" median {statistics.median(times[1:]) * 1000:.0f} ms, of which the row check"
        f" {statistics.median(checks[1:]) * 1000:.0f} ms; a backup of it (a game's end):"
        f" median {statistics.median(backups) * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=100, help="trials per kind")
    parser.add_argument("--dir", type=Path, default=None, help="where the trials run")
    parser.add_argument("--records", type=int, default=5000, help="records of the big store")
    args = parser.parse_args()
    logging.getLogger("twinfold").setLevel(logging.ERROR)
    root = Path(tempfile.mkdtemp(prefix="twinfold-rescue-", dir=args.dir))
    try:
        start = time.perf_counter()
        results = series(root, args.trials)
        if results:
            print(f"{len(results)} damaged stores in {time.perf_counter() - start:.0f} s")
            print("\n".join(report(results)))
        lost = [t for t in results if not t.backup_kept]
        for t in lost:
            print(f"LOST what a backup held: {t.kind} seed {t.seed}")
        print(open_cost(root, args.records))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
