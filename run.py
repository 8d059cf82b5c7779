#!/usr/bin/env python3
"""Bootstrap for a fresh machine: make `.venv`, install Twinfold into it, then run a command.

    python3 run.py emu [ARGS]     open the emulator (any `twinfold` subcommand works the same way)
    python3 run.py test [ARGS]    ruff, layer checker, import cycles, type checker, then the
                                  test suite but its soak runs (ARGS go to pytest)
    python3 run.py soak [ARGS]    the soak runs only (tests marked `soak`: long fuzz, cross-
                                  check and real-time multi-process runs; `.ci/run` runs them
                                  right after `test`)

Only the standard library is used here, so this works with nothing but Python 3.11+ and pip.
The virtual environment is refreshed whenever pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".twinfold-installed"


def _venv_python() -> Path:
    sub = "Scripts" if os.name == "nt" else "bin"
    return VENV / sub / ("python.exe" if os.name == "nt" else "python")


def _wanted_stamp() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{sys.version_info[:2]} {digest}"


def ensure_venv() -> Path:
    """Create and fill the virtual environment on first use (or after pyproject changes)."""
    if sys.version_info < (3, 11):  # noqa: UP036 - run.py must say so on an old Python
        sys.exit(f"run.py: Python 3.11 or newer is needed (this is {sys.version.split()[0]})")
    python = _venv_python()
    if python.exists() and STAMP.exists() and STAMP.read_text() == _wanted_stamp():
        return python
    if not python.exists():
        print("run.py: creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("run.py: installing Twinfold and its test tools into .venv ...", flush=True)
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "install", "--upgrade", "pip"], check=False)
    result = subprocess.run([*pip, "install", "-e", f"{ROOT}[dev]"])
    if result.returncode != 0:
        sys.exit("run.py: installing dependencies failed (see pip's message above)")
    STAMP.write_text(_wanted_stamp())
    return python


# The games' compiled accelerators (firmware/native.py builds them): library name -> its C
# sources. In the venv, named by the digest of the sources, so an edited source is built again.
NATIVE_LIBRARIES = {
    "reversi_search": (ROOT / "games" / "reversi" / "ai" / "native_search.c",),
    "arimaa_search": (
        ROOT / "games" / "arimaa" / "ai" / "native_steps.c",
        ROOT / "games" / "arimaa" / "ai" / "native_eval.c",
        ROOT / "games" / "arimaa" / "ai" / "native_search.c",
    ),
}


def ensure_native(python: str) -> None:
    """Build each accelerator with the system C compiler when it is missing for its sources;
    without a compiler say once (per source) that the pure-Python search is used."""
    for name, sources in NATIVE_LIBRARIES.items():
        if not all(s.exists() for s in sources):
            continue
        digest = hashlib.sha256(b"".join(s.read_bytes() for s in sources)).hexdigest()[:16]
        library = VENV / "lib" / "twinfold" / f"{name}-{digest}.so"
        told = VENV / f".twinfold-native-{name}-{digest}-failed"
        if library.exists() or told.exists():
            continue
        code = "import sys; from firmware.native import main; sys.exit(main(sys.argv[1:]))"
        build = [python, "-c", code, "build", str(library.parent), name, *map(str, sources)]
        if subprocess.run(build, cwd=ROOT).returncode != 0:
            told.write_text("the message above was shown once; delete this file to try again\n")


def _script(python: str, name: str) -> str:
    """A console script installed beside the venv's python (`lint-imports`)."""
    return str(Path(python).with_name(name + (".exe" if os.name == "nt" else "")))


# The packages the import-cycle check covers: every package of the project.
CYCLE_CHECKED = ("hal", "firmware", "games", "emulator", "handheld")


def check_steps(python: str) -> list[tuple[str, list[str]]]:
    """The static checks `test` runs before pytest, in order: each must pass to go on.

    The layer contracts and the mypy settings (checked packages, strictness) live in
    pyproject.toml; docs/architecture.md ("Layer checker and types") explains them.
    """
    cycles = str(ROOT / "tools" / "import_cycles.py")
    return [
        ("ruff (lint)", [python, "-m", "ruff", "check", "."]),
        ("lint-imports (layer contracts)", [_script(python, "lint-imports")]),
        ("import_cycles (cycle check)", [python, cycles, *CYCLE_CHECKED]),
        ("mypy (types)", [python, "-m", "mypy"]),
    ]


def run_pytest(python: str, marks: str, pytest_args: list[str], env: dict[str, str]) -> int:
    """pytest on every core, on the tests `marks` selects (unless ARGS choose with -m)."""
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    # worksteal: a worker that runs out takes tests queued for the other (a long test near
    # the end no longer leaves one core idle)
    workers = ["-n", "auto", "--dist", "worksteal"] if (os.cpu_count() or 1) > 1 else []
    chosen = any(a.startswith("-m") for a in pytest_args)
    select = [] if chosen else ["-m", marks]
    pytest = [python, "-m", "pytest", *workers, *select, *pytest_args]
    return subprocess.run(pytest, cwd=ROOT, env=env).returncode


def run_tests(python: str, pytest_args: list[str], env: dict[str, str]) -> int:
    """ruff, then the layer checker and the cycle check, then the type checker, then the
    test suite without its soak runs (they would double its time: `run.py soak`)."""
    for label, cmd in check_steps(python):
        result = subprocess.run(cmd, cwd=ROOT, env=env)
        if result.returncode != 0:
            print(f"run.py: {label} failed (see above); tests not run", file=sys.stderr)
            return result.returncode
    return run_pytest(python, "not soak", pytest_args, env)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help"}:
        print(__doc__)
        return 0 if argv else 2
    python = str(ensure_venv())
    ensure_native(python)
    command, rest = argv[0], argv[1:]
    env = dict(os.environ)
    if command == "test":
        return run_tests(python, rest, env)
    if command == "soak":
        return run_pytest(python, "soak", rest, env)
    return subprocess.run([python, "-m", "firmware.cli", command, *rest], env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
