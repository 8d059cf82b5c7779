"""The import-cycle check (issue 23): planted cycles are found and named, lazy and type-only
imports included; the real tree has none."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.import_cycles import PACKAGES, find_cycles

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "import_cycles.py"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_find_cycles_serves_any_package_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(
        tmp_path,
        {
            "cyca/__init__.py": "",
            # a lazy import (inside a function) ...
            "cyca/x.py": "def later():\n    import cycb.y\n",
            # ... and a type-only one close the loop x -> y -> z -> x
            "cycb/__init__.py": "",
            "cycb/y.py": "import cycb.z\n",
            "cycb/z.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import cyca.x\n",
            "cycb/free.py": "import cycb.y\n",  # imports into the loop, not part of it
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    (cycle,) = find_cycles(["cyca", "cycb"])
    assert cycle.modules == ("cyca.x", "cycb.y", "cycb.z")
    assert [(s.importer, s.imported) for s in cycle.steps] == [
        ("cyca.x", "cycb.y"),
        ("cycb.y", "cycb.z"),
        ("cycb.z", "cyca.x"),
    ]
    assert cycle.steps[0].line == 2 and cycle.steps[0].text == "import cycb.y"
    assert cycle.steps[2].text == "import cyca.x"
    assert "cyca.x -> cycb.y -> cycb.z -> cyca.x" in cycle.describe()
    assert find_cycles(["cycb"]) == []  # one package alone has no loop


def _copy(dest: Path, packages: tuple[str, ...]) -> Path:
    for package in packages:
        shutil.copytree(
            ROOT / package, dest / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return dest


def test_a_planted_cycle_in_a_copy_of_the_tree_fails_and_is_named(tmp_path: Path) -> None:
    packages = ("hal", "firmware", "emulator", "handheld")
    project = _copy(tmp_path, packages)
    service = project / "firmware" / "link" / "service.py"
    # the link service typing against the machine again: invisible to the layer contracts
    # (they leave type-only imports out), a cycle all the same
    service.write_text(
        service.read_text()
        + "\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import firmware.machine\n"
    )
    # the HAL's clock starting a backend when asked: a lazy import, a cycle too
    clock = project / "hal" / "clock.py"
    clock.write_text(
        clock.read_text() + "\n\ndef planted() -> None:\n    import hal.backends.headless\n"
    )
    env = dict(os.environ, PYTHONPATH=str(project))
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *packages],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    err = result.stderr
    assert "firmware.link.service -> firmware.machine  (line" in err, err
    assert "hal.clock -> hal.backends.headless  (line" in err, err
    assert ": import hal.backends.headless)" in err, err
    assert "import cycles: 2 found in hal, firmware, emulator, handheld" in err, err


def test_the_script_passes_the_unchanged_packages() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "hal", "firmware", "games", "emulator", "handheld"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(
        "import cycles: none in hal, firmware, games, emulator, handheld"
    )


def test_no_import_cycle_anywhere() -> None:
    """Every package together, so a loop across packages is seen too."""
    assert [c.describe() for c in find_cycles(PACKAGES)] == []
