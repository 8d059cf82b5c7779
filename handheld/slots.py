"""Updates that roll back (issue 35): Twinfold versions installed beside the factory one,
tried, kept only once they reach READY, and dropped after repeated failed starts.

The Debian image's root is read-only, and its Twinfold (`/opt/twinfold/venv`, "factory") can
never be damaged; this module, run from that venv as root, is the only code that decides
which version starts, so a broken update cannot break the decision. An update is a Twinfold
wheel, unpacked into its own slot under `/var/lib/twinfold-slots/` (the data partition) and
run by the factory venv's Python with the slot first on `PYTHONPATH` (the dependencies are
the factory venv's; a wheel that needs other ones is refused by its first start failing).

The state is one small JSON file (`state.json`): the slots, newest first (the first is the
one that starts; behind it only versions that have reached READY), the count of starts of
the first since it last reached READY, the wheels already installed (by SHA-256, so a wheel
left on the boot partition is installed once) and the last rollback (shown by the launcher).
Every change is written to `state.json.new`, fsynced and renamed over the old one, then the
folder fsynced: a power cut leaves the old state or the new one. A slot's files are unpacked
into `.partial-NAME`, synced to the card and only then renamed to `NAME` and named in the
state: the state never names a slot whose files are not all on the card; a cut mid-install
leaves a `.partial-` folder that the next run deletes.

The service (systemd) calls, as root: `prepare` before each start (ExecStartPre=+): a first
slot that has started MAX_STARTS times without reaching READY is dropped (a rollback to the
next, finally to the factory version) and the start is counted; it writes
`/run/twinfold/slot.env` for `twinfold-run`, which starts the chosen version; `ready` after
READY=1 (ExecStartPost=+): the count is cleared, the version is kept.

usage: python -m handheld.slots [--root DIR] prepare | ready | status
       python -m handheld.slots [--root DIR] install WHEEL | install-from DIR
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import sys
import zipfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from email.parser import Parser
from pathlib import Path, PurePosixPath
from typing import Any

SLOTS_DIR = "var/lib/twinfold-slots"
RUN_FILE = "run/twinfold/slot.env"
STATE = "state.json"
MAX_STARTS = 3  # starts without READY before a version is given up (a loaded unit may miss one)
KEPT = 2  # slots kept: the newest and the one before it (then the factory version)
PARTIAL = ".partial-"
MARK = "slot.json"  # in a slot: its version and wheel hash, written last before the rename
FACTORY = "factory"


class UpdateError(Exception):
    """A wheel that cannot be installed (said in one line; nothing changed)."""


@dataclass
class State:
    slots: list[str] = field(default_factory=list)  # newest first; the first one starts
    starts: int = 0  # starts of slots[0] since it last reached READY
    installed: list[str] = field(default_factory=list)  # SHA-256 of every wheel installed
    rolled_back: dict[str, str] | None = None  # {"from": version, "to": version}
    proven: list[str] = field(default_factory=list)  # the slots that have reached READY

    def to_json(self) -> str:
        return json.dumps(
            {"slots": self.slots, "starts": self.starts, "installed": self.installed,
             "rolled_back": self.rolled_back, "proven": self.proven},
            indent=1,
        )  # fmt: skip

    @staticmethod
    def from_json(text: str) -> State:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not an object")
        slots = [str(s) for s in data.get("slots", []) if isinstance(s, str)]
        installed = [str(s) for s in data.get("installed", []) if isinstance(s, str)]
        proven = [str(s) for s in data.get("proven", []) if isinstance(s, str)]
        starts = data.get("starts", 0)
        back = data.get("rolled_back")
        rolled = {str(k): str(v) for k, v in back.items()} if isinstance(back, dict) else None
        return State(slots, starts if isinstance(starts, int) else 0, installed, rolled, proven)


# --------------------------------------------------------------------------- the card
class Disk:
    """The file operations that change the card, in one place: the tests cut the power
    between any two of them (`ops` counts them; `cut_after` raises there)."""

    def __init__(self, cut_after: int | None = None) -> None:
        self.ops = 0
        self.cut_after = cut_after

    def step(self) -> None:
        self.ops += 1
        if self.cut_after is not None and self.ops > self.cut_after:
            raise PowerCut(self.ops)

    def write_atomic(self, path: Path, text: str) -> None:
        """`path` holds `text` or what it held before, whenever the power goes."""
        tmp = path.with_name(path.name + ".new")
        self.step()
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        self.step()
        os.replace(tmp, path)
        self.fsync_dir(path.parent)

    def fsync_dir(self, path: Path) -> None:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def unpack(self, wheel: zipfile.ZipFile, into: Path) -> None:
        self.step()
        into.mkdir(parents=True)
        for info in wheel.infolist():
            name = PurePosixPath(info.filename)
            if name.is_absolute() or ".." in name.parts:
                raise UpdateError(f"the wheel has a file outside itself: {info.filename}")
            if info.is_dir():
                continue
            dest = into.joinpath(*name.parts)
            dest.parent.mkdir(parents=True, exist_ok=True)
            with wheel.open(info) as src, open(dest, "wb") as out:
                shutil.copyfileobj(src, out)
            self.step()

    def compile(self, site: Path) -> None:
        """Byte-compile the slot as root: the service's user cannot write its __pycache__,
        and compiling at every start would cost seconds on a Zero 2 W."""
        self.step()
        compileall.compile_dir(str(site), quiet=1, workers=1)

    def sync(self) -> None:
        self.step()
        os.sync()

    def rename(self, src: Path, dest: Path) -> None:
        self.step()
        os.replace(src, dest)
        self.fsync_dir(dest.parent)

    def remove(self, path: Path) -> None:
        self.step()
        shutil.rmtree(path, ignore_errors=True)


class PowerCut(Exception):
    """Raised by a Disk told to cut the power (tests only)."""


# --------------------------------------------------------------------------- the slots
@dataclass(frozen=True)
class Choice:
    """What starts: a slot's unpacked wheel (None: the factory venv) and what to tell the
    launcher."""

    site: Path | None
    version: str
    rolled_back: dict[str, str] | None

    def env(self) -> str:
        """/run/twinfold/slot.env, read by twinfold-run (its values are versions and a path
        under SLOTS_DIR: no shell quoting needed)."""
        back = self.rolled_back or {}
        lines = [
            f"TWINFOLD_SLOT_SITE={self.site or ''}",
            f"TWINFOLD_SLOT_VERSION={self.version if self.site else ''}",
            f"TWINFOLD_ROLLED_BACK={back.get('from', '')}",
            f"TWINFOLD_ROLLED_BACK_TO={back.get('to', '')}",
            f"TWINFOLD_ROLLBACK_NOTICE={'' if back.get('told') else back.get('from', '')}",
        ]
        return "\n".join(lines) + "\n"


class Slots:
    """The slots under ROOT/var/lib/twinfold-slots (ROOT is / on a unit)."""

    def __init__(self, root: Path, disk: Disk | None = None,
                 factory_version: Callable[[], str] | None = None) -> None:  # fmt: skip
        self.root = root
        self.dir = root / SLOTS_DIR
        self.disk = disk or Disk()
        self._factory_version = factory_version or _factory_version

    # -- state
    def load(self) -> State:
        try:
            return State.from_json((self.dir / STATE).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return State()
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            # cannot happen by a power cut (the file is replaced whole): the card lies;
            # the factory version starts, and the next install writes a new state
            print(f"slots: {self.dir / STATE} unreadable, the factory version starts: {exc}",
                  file=sys.stderr)  # fmt: skip
            return State()

    def save(self, state: State) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.disk.write_atomic(self.dir / STATE, state.to_json())

    def complete(self, name: str) -> bool:
        return (self.dir / name / MARK).is_file()

    def version(self, name: str | None) -> str:
        if name is None:
            return self._factory_version()
        try:
            return str(json.loads((self.dir / name / MARK).read_text())["version"])
        except (OSError, ValueError, KeyError, TypeError):
            return name

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """One change at a time: an install (twinfold-update) and the service's prepare
        (which deletes half-unpacked slots) never overlap."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(self.dir / ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    # -- the service's calls
    def prepare(self) -> Choice:
        with self.locked():
            return self._prepare()

    def _prepare(self) -> Choice:
        """Before a start: give up a version that failed MAX_STARTS starts, count this one,
        and say which version starts."""
        state = self.load()
        changed = False
        live = [s for s in state.slots if self.complete(s)]
        if live != state.slots:  # only a lying card does this; never a power cut
            state.slots, state.starts, changed = live, 0, True
        if state.slots and state.starts >= MAX_STARTS:
            failed = state.slots.pop(0)
            # back to a version that has reached READY (or the factory one), never to one
            # that was itself replaced before it had proved itself
            state.slots = [s for s in state.slots if s in state.proven]
            after = state.slots[0] if state.slots else None
            state.rolled_back = {"from": self.version(failed), "to": self.version(after)}
            state.starts = 0
            changed = True
        if state.slots:
            state.starts += 1
            changed = True
        if changed:
            self.save(state)
        self.collect(state)
        first = state.slots[0] if state.slots else None
        site = self.dir / first / "site" if first else None
        return Choice(site, self.version(first), state.rolled_back)

    def ready(self) -> None:
        """The running version said READY=1: it is kept (and a rollback's notice, shown by
        this start, is not shown again)."""
        with self.locked():
            self._ready()

    def _ready(self) -> None:
        state = self.load()
        first = state.slots[0] if state.slots else None
        told = state.rolled_back is not None and not state.rolled_back.get("told")
        if state.starts or told or (first is not None and first not in state.proven):
            state.starts = 0
            if first is not None and first not in state.proven:
                state.proven = [*state.proven, first]
            if state.rolled_back is not None:
                state.rolled_back = {**state.rolled_back, "told": "yes"}
            self.save(state)

    def install(self, wheel_path: Path) -> tuple[str, bool]:
        """Unpack a Twinfold wheel into a new slot and make it the one that starts next;
        its version, and False when this wheel was installed before (nothing done: a wheel
        left on the boot partition, or one that was rolled back, is not tried again)."""
        with self.locked():
            return self._install(wheel_path)

    def _install(self, wheel_path: Path) -> tuple[str, bool]:
        try:
            data = wheel_path.read_bytes()
        except OSError as exc:
            raise UpdateError(f"cannot read {wheel_path}: {exc.strerror}") from exc
        sha = hashlib.sha256(data).hexdigest()
        try:
            wheel = zipfile.ZipFile(wheel_path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise UpdateError(f"{wheel_path} is not a wheel: {exc}") from exc
        with wheel:
            version = _wheel_version(wheel, wheel_path)
            state = self.load()
            if sha in state.installed:
                return version, False
            name = f"{version}-{sha[:12]}"
            self.dir.mkdir(parents=True, exist_ok=True)
            partial = self.dir / (PARTIAL + name)
            if partial.exists():
                self.disk.remove(partial)
            self.disk.unpack(wheel, partial / "site")
        self.disk.compile(partial / "site")
        mark = {"version": version, "sha256": sha, "wheel": wheel_path.name}
        (partial / MARK).write_text(json.dumps(mark) + "\n", encoding="utf-8")
        self.disk.sync()
        if (self.dir / name).exists():  # the same wheel, dropped by a rollback earlier
            self.disk.remove(self.dir / name)
        self.disk.rename(partial, self.dir / name)
        # kept behind it: the newest version that has reached READY (a version replaced
        # before it proved itself is never rolled back to)
        earlier = [s for s in state.slots if s != name and s in state.proven]
        state.slots = [name, *earlier][:KEPT]
        state.proven = [s for s in state.proven if s in state.slots]
        state.starts = 0
        state.installed = [*state.installed, sha][-32:]
        state.rolled_back = None
        self.save(state)
        self.collect(state)
        return version, True

    def collect(self, state: State) -> None:
        """Delete the slots the state no longer names and any half-unpacked one."""
        if not self.dir.is_dir():
            return
        for path in sorted(self.dir.iterdir()):
            if path.is_dir() and path.name not in state.slots:  # never .lock or state.json
                self.disk.remove(path)

    def status(self) -> dict[str, Any]:
        state = self.load()
        return {
            "starts": self.version(state.slots[0] if state.slots else None),
            "slots": [self.version(s) for s in state.slots],
            "failed_starts": state.starts,
            "rolled_back": state.rolled_back,
        }


def launcher_note(env: Mapping[str, str]) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
    """What the launcher says (English, Japanese), from twinfold-run's environment: the
    version in its corner when it is not the unit's own, and a notice (once) after a
    rollback; (None, None) on a unit without updates (and in the emulator)."""
    running = env.get("TWINFOLD_SLOT_VERSION", "")
    failed, back_to = env.get("TWINFOLD_ROLLED_BACK", ""), env.get("TWINFOLD_ROLLED_BACK_TO", "")
    note: tuple[str, str] | None = None
    if failed:
        note = (f"v{back_to} ({failed} undone)", f"v{back_to}（{failed} とりけし）")
    elif running:
        note = (f"v{running}", f"v{running}")
    notice: tuple[str, str] | None = None
    if failed and env.get("TWINFOLD_ROLLBACK_NOTICE"):
        notice = (
            f"The update to version {failed} did not start, so version {back_to} runs "
            "again. Your games and records are as they were.",
            f"バージョン {failed} が うごかなかったので、バージョン {back_to} に もどしました。"
            "ゲームと きろくは そのままです。",
        )
    return note, notice


def _wheel_version(wheel: zipfile.ZipFile, path: Path) -> str:
    metas = [n for n in wheel.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
    if len(metas) != 1:
        raise UpdateError(f"{path} is not a wheel (no single .dist-info/METADATA)")
    meta = Parser().parsestr(wheel.read(metas[0]).decode("utf-8", errors="replace"))
    if (meta.get("Name") or "").lower() != "twinfold":
        raise UpdateError(f"{path} is not Twinfold (it is {meta.get('Name')!r})")
    if "firmware/cli.py" not in wheel.namelist():
        raise UpdateError(f"{path} has no firmware/cli.py")
    version = str(meta.get("Version") or "")
    if not version or "/" in version or version.startswith("."):
        raise UpdateError(f"{path} has no usable version ({version!r})")
    return version


def _factory_version() -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version("twinfold")
    except importlib.metadata.PackageNotFoundError:
        return "?"


# --------------------------------------------------------------------------- the command
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m handheld.slots", description=__doc__)
    parser.add_argument("--root", type=Path, default=Path("/"))
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("prepare")
    sub.add_parser("ready")
    sub.add_parser("status")
    sub.add_parser("install").add_argument("wheel", type=Path)
    sub.add_parser("install-from").add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    slots = Slots(args.root)
    if args.command == "prepare":
        choice = slots.prepare()
        run = args.root / RUN_FILE
        run.parent.mkdir(parents=True, exist_ok=True)
        run.write_text(choice.env(), encoding="utf-8")  # /run: RAM, no fsync
        back = choice.rolled_back
        note = f" (rolled back from {back['from']})" if back else ""
        print(f"slots: version {choice.version} starts{note}")
    elif args.command == "ready":
        slots.ready()
    elif args.command == "status":
        print(json.dumps(slots.status(), indent=1))
    else:
        wheels = [args.wheel] if args.command == "install" else sorted(
            p for p in args.folder.glob("twinfold-*.whl") if p.is_file()
        )  # fmt: skip
        for wheel in wheels:
            try:
                version, new = slots.install(wheel)
            except UpdateError as exc:
                print(f"slots: {exc}", file=sys.stderr)
                return 1
            done = "installed; it starts next" if new else "was installed before: skipped"
            print(f"slots: {wheel.name}: version {version} {done}")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
