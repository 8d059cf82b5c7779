"""Building and loading the games' compiled accelerators (issue 36): one machinery for all.

A game's accelerator is plain C99 source (no Python headers, no C library) next to its
computer player, loaded with ctypes; the pure-Python engine stays the reference and the
fallback, so a missing library changes how long a decision takes, never which move it is.

`python3 run.py` builds every library with the system C compiler into the virtual
environment (`build`, through `main`), each named by the digest of its sources, so an edited
source is never run from a stale library; the Debian image cross-compiles the same sources
for arm64 under the same names (deploy/image/native-build). `TWINFOLD_NATIVE=0` turns every
accelerator off (benchmarks); `TWINFOLD_NATIVE_DIR` looks for the libraries elsewhere.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

CFLAGS = ("-std=c99", "-O2", "-fPIC", "-shared")


def library_dir() -> Path:
    """Where built libraries live: `TWINFOLD_NATIVE_DIR`, else the environment's prefix
    (the virtual environment `run.py` makes, or the image's)."""
    return Path(os.environ.get("TWINFOLD_NATIVE_DIR") or Path(sys.prefix) / "lib" / "twinfold")


def find_compiler() -> str | None:
    """The C compiler `build` uses: `CC` if set, else the system's `cc` or `gcc`."""
    wanted = os.environ.get("CC")
    if wanted:
        return shutil.which(wanted)
    return shutil.which("cc") or shutil.which("gcc")


def disabled() -> bool:
    return os.environ.get("TWINFOLD_NATIVE", "1") in {"0", "off", "no"}


def sources_digest(sources: tuple[Path, ...]) -> str:
    """16 hex digits of the sha256 of the sources, concatenated in order (what run.py and
    deploy/image/native-build compute too: `cat SOURCES | sha256sum`)."""
    return hashlib.sha256(b"".join(s.read_bytes() for s in sources)).hexdigest()[:16]


@dataclass(frozen=True)
class Library:
    """One accelerator: `name` (`reversi_search`), its C sources and what the messages call
    it (`reversi accelerator`)."""

    name: str
    sources: tuple[Path, ...]
    label: str

    def digest(self) -> str:
        return sources_digest(self.sources)

    def path(self, directory: Path | None = None) -> Path:
        return (directory or library_dir()) / f"{self.name}-{self.digest()}.so"

    def build(
        self, directory: Path | None = None, compiler: str | None = None
    ) -> tuple[Path | None, str]:
        """Compile the library unless it is there already: (its path or None, what
        happened). Written to a temporary name and renamed, so a half-written library is
        never loaded; older builds of the same library are removed."""
        target = self.path(directory)
        if target.exists():
            return target, f"{self.label}: {target} is up to date"
        cc = compiler or find_compiler()
        if cc is None:
            return None, f"{self.label}: no C compiler (cc); the pure-Python search is used"
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(suffix=".so", dir=target.parent)
        os.close(fd)
        try:
            done = subprocess.run(
                [cc, *CFLAGS, *map(str, self.sources), "-o", tmp], capture_output=True, text=True
            )
            if done.returncode != 0:
                first = (done.stderr.strip().splitlines() or ["no message"])[0]
                return None, f"{self.label}: {cc} failed ({first}); pure Python is used"
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        for old in target.parent.glob(f"{self.name}-*.so"):
            if old != target:
                old.unlink(missing_ok=True)
        return target, f"{self.label}: built {target}"

    def load(self) -> ctypes.CDLL | None:
        """The built library for these sources, or None (turned off, not built, unusable:
        said once on stderr)."""
        if disabled():
            return None
        path = self.path()
        if not path.exists():
            return None
        try:
            return ctypes.CDLL(str(path))
        except OSError as exc:
            print(f"{self.label} {path} unusable ({exc}); pure Python", file=sys.stderr)
            return None


def main(argv: list[str]) -> int:
    """`build DIR NAME SOURCE...`: what run.py's set-up calls for each library (from
    `python -c`, so run.py itself needs only the standard library)."""
    if len(argv) < 4 or argv[0] != "build":
        print("usage: main(['build', DIR, NAME, SOURCE, ...])", file=sys.stderr)
        return 2
    name = argv[2]
    library = Library(name, tuple(Path(s) for s in argv[3:]), f"{name} accelerator")
    path, message = library.build(Path(argv[1]))
    print(message)
    return 0 if path is not None else 1
