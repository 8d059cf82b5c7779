"""The layer checker and the type checker (issue 10).

Both run in `python3 run.py test` before pytest. Here they are shown to catch what they
are for: violations are planted in a temporary copy of the packages (with the real
pyproject.toml, so the real contracts and mypy settings are what is tested) and each run
must fail naming the planted line; the real tree must pass.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("hal", "firmware", "games", "emulator", "handheld")
# type-checked too (pyproject's mypy `files`): the scripts and the example game package
SCRIPTS = ("tools", "bench", "docs/examples/tictactoe")
LINT_IMPORTS = str(Path(sys.executable).with_name("lint-imports"))


def _copy_project(dest: Path) -> Path:
    for package in (*PACKAGES, *SCRIPTS):
        shutil.copytree(
            ROOT / package, dest / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    if (ROOT / ".mypy_cache").is_dir():  # speed only: mypy still checks every changed file
        shutil.copytree(ROOT / ".mypy_cache", dest / ".mypy_cache")
    return dest


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(cwd), COLUMNS="200")
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


# ---- layer checker ------------------------------------------------------------------------

# (file to plant in, line to append, what lint-imports must name)
LAYER_VIOLATIONS = [
    ("firmware/loop.py", "import emulator.app", "firmware.loop -> emulator.app"),
    ("hal/touch.py", "import firmware.input", "hal.touch -> firmware.input"),
    # no exception for backends: a driver importing the firmware is a violation too
    (
        "hal/backends/device/notify.py",
        "import firmware.boot",
        "hal.backends.device.notify -> firmware.boot",
    ),
    ("firmware/machine.py", "import handheld.app", "firmware.machine -> handheld.app"),
    ("emulator/keymap.py", "import handheld.app", "emulator.keymap -> handheld.app"),
    ("games/pop/scene.py", "import emulator.keymap", "games.pop.scene -> emulator.keymap"),
    ("games/reversi/rules/position.py", "import os", "games.reversi.rules.position -> os"),
    ("games/arimaa/rules/game.py", "import time", "games.arimaa.rules.game -> time"),
    ("games/pop/rules.py", "import pygame", "games.pop.rules -> pygame"),
    (
        "games/sevens/rules/view.py",
        "import firmware.gfx",
        "games.sevens.rules.view -> firmware.gfx",
    ),
    (
        "games/reversi/ai/__init__.py",
        "import games.reversi.scene",
        "games.reversi.ai -> games.reversi.scene",
    ),
    (
        "firmware/scenes/launcher.py",
        "import hal.backends.headless",
        "firmware.scenes.launcher -> hal.backends.headless",
    ),
    ("games/pop/scene.py", "import serial", "games.pop.scene -> serial"),
    # the firmware's own floors: the machine is given its scenes and games, the link service
    # its store, settings and tick; discovery and the shared arguments sit under the CLI
    (
        "firmware/machine.py",
        "import firmware.scenes.launcher",
        "firmware.machine -> firmware.scenes.launcher",
    ),
    (
        "firmware/machine.py",
        "import firmware.cartridges",
        "firmware.machine -> firmware.cartridges",
    ),
    (
        "firmware/scenes/error.py",
        "import firmware.machine",
        "firmware.scenes.error -> firmware.machine",
    ),
    (
        "firmware/link/service.py",
        "import firmware.machine",
        "firmware.link.service -> firmware.machine",
    ),
    ("firmware/cartridges.py", "import firmware.cli", "firmware.cartridges -> firmware.cli"),
    ("firmware/arguments.py", "import firmware.boot", "firmware.arguments -> firmware.boot"),
    ("firmware/game_api.py", "import firmware.scene", "firmware.game_api -> firmware.scene"),
]


def test_layer_checker_names_every_planted_violation(tmp_path: Path) -> None:
    project = _copy_project(tmp_path)
    for file, line, _ in LAYER_VIOLATIONS:
        _append(project / file, f"{line}  # planted")
    result = _run([LINT_IMPORTS, "--no-cache"], project)
    out = result.stdout + result.stderr
    assert result.returncode != 0, out
    for _, _, named in LAYER_VIOLATIONS:
        assert named in out, f"lint-imports did not report {named!r}:\n{out}"


def test_layer_checker_passes_the_unchanged_copy(tmp_path: Path) -> None:
    """The planted test above fails only because of what was planted."""
    result = _run([LINT_IMPORTS, "--no-cache"], _copy_project(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_games_may_not_touch_pygame_display_or_events(tmp_path: Path) -> None:
    """What the import graph cannot see (pygame is one node there) ruff's banned-api does."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    source = "import pygame\n\npygame.display.flip()\nEVENTS = pygame.event.get()\n"
    (tmp_path / "games" / "demo").mkdir(parents=True)
    (tmp_path / "games" / "demo" / "scene.py").write_text(source)
    (tmp_path / "firmware").mkdir()
    (tmp_path / "firmware" / "window.py").write_text(source)
    result = _run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "TID251", "."],
        tmp_path,
    )
    out = result.stdout + result.stderr
    assert result.returncode != 0, out
    assert "games/demo/scene.py:3" in out and "`pygame.display` is banned" in out
    assert "games/demo/scene.py:4" in out and "`pygame.event` is banned" in out
    assert "firmware/window.py" not in out  # the firmware side of the HAL may


# ---- type checker -------------------------------------------------------------------------

# (file to plant in, code to append, what mypy must name)
TYPE_VIOLATIONS = [
    ("hal/touch.py", "def planted(x):\n    return x", "hal/touch.py"),
    ("games/arimaa/rules/board.py", 'PLANTED: int = "text"', "games/arimaa/rules/board.py"),
    (
        "firmware/scene.py",
        "def planted_view(scene: Scene) -> int:\n    return scene.machine.no_such_thing",
        "firmware/scene.py",
    ),
    ("firmware/loop.py", "PLANTED_OK: int = 1  # type: ignore[assignment]", "firmware/loop.py"),
    # the handheld, the tools and the benches are held to the same strictness
    ("handheld/app.py", "def planted(x: int):\n    return x", "handheld/app.py"),
    ("tools/import_cycles.py", "PLANTED: list = []", "tools/import_cycles.py"),
    ("bench/ticktime.py", "def planted(x):\n    return x", "bench/ticktime.py"),
]
EXPECTED_CODES = (
    "[no-untyped-def]",
    "[assignment]",
    "[attr-defined]",
    "[unused-ignore]",
    "[no-untyped-def]",
    "[type-arg]",
    "[no-untyped-def]",
)


def test_type_checker_names_every_planted_error(tmp_path: Path) -> None:
    project = _copy_project(tmp_path)
    for file, code, _ in TYPE_VIOLATIONS:
        _append(project / file, code)
    # `games/*/rules` is a glob: a game added later is checked without editing the config.
    rules = project / "games" / "newgame" / "rules"
    rules.mkdir(parents=True)
    (project / "games" / "newgame" / "__init__.py").write_text("")
    (rules / "__init__.py").write_text("def score(board):\n    return len(board)\n")
    result = _run([sys.executable, "-m", "mypy"], project)
    out = result.stdout + result.stderr
    assert result.returncode != 0, out
    lines = out.splitlines()
    for (_, _, where), code in zip(TYPE_VIOLATIONS, EXPECTED_CODES, strict=True):
        assert any(where in line and code in line for line in lines), (
            f"mypy did not report {code} in {where}:\n{out}"
        )
    assert 'has no attribute "no_such_thing"' in out  # scenes see a typed Machine
    assert any(
        line.startswith("games/newgame/rules/__init__.py:1") and "[no-untyped-def]" in line
        for line in lines
    ), out


# ---- the real tree and run.py -------------------------------------------------------------


def test_real_tree_keeps_every_layer_contract() -> None:
    result = _run([LINT_IMPORTS], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_real_tree_type_checks() -> None:
    result = _run([sys.executable, "-m", "mypy"], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def _run_py() -> ModuleType:
    spec = importlib.util.spec_from_file_location("twinfold_run_py", ROOT / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _FakeRun:
    """Stands in for subprocess.run: records commands, fails the one named in `fail`."""

    def __init__(self, fail: str | None) -> None:
        self.fail = fail
        self.calls: list[list[str]] = []

    def __call__(self, cmd: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        self.calls.append(cmd)
        failed = self.fail is not None and any(self.fail in part for part in cmd)
        return subprocess.CompletedProcess(cmd, 1 if failed else 0)


def _tool(cmd: list[str]) -> str:
    if cmd[1:2] == ["-m"]:
        return cmd[2]
    script = Path(cmd[1]) if len(cmd) > 1 and cmd[1].endswith(".py") else Path(cmd[0])
    return script.stem if script.suffix == ".py" else script.name


def test_run_py_test_runs_ruff_layers_types_then_pytest(monkeypatch: pytest.MonkeyPatch) -> None:
    run_py = _run_py()
    fake = _FakeRun(fail=None)
    monkeypatch.setattr(run_py.subprocess, "run", fake)
    assert run_py.run_tests("/venv/bin/python", ["-k", "x"], {}) == 0
    tools = ["ruff", "lint-imports", "import_cycles", "mypy", "pytest"]
    assert [_tool(c) for c in fake.calls] == tools
    assert fake.calls[-1][-2:] == ["-k", "x"]  # test arguments go to pytest


@pytest.mark.parametrize(
    ("failing", "ran"),
    [
        ("ruff", ["ruff"]),
        ("lint-imports", ["ruff", "lint-imports"]),
        ("import_cycles", ["ruff", "lint-imports", "import_cycles"]),
        ("mypy", ["ruff", "lint-imports", "import_cycles", "mypy"]),
    ],
)
def test_run_py_test_stops_at_the_first_failing_check(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    failing: str,
    ran: list[str],
) -> None:
    run_py = _run_py()
    fake = _FakeRun(fail=failing)
    monkeypatch.setattr(run_py.subprocess, "run", fake)
    assert run_py.run_tests("/venv/bin/python", [], {}) == 1
    assert [_tool(c) for c in fake.calls] == ran  # pytest never started
    err = capsys.readouterr().err
    assert f"{failing} (" in err and "failed" in err and "tests not run" in err


def test_run_py_builds_each_accelerator_once_and_tells_once_without_a_compiler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run.py's set-up asks firmware.native to build each game's library when the venv has
    none for its sources; a failed build (no cc) is said once, not at every command."""
    run_py = _run_py()
    monkeypatch.setattr(run_py, "VENV", tmp_path)
    libraries = run_py.NATIVE_LIBRARIES
    assert set(libraries) == {"reversi_search", "arimaa_search"}
    assert all(s.exists() for sources in libraries.values() for s in sources)
    fake = _FakeRun(fail="build")
    monkeypatch.setattr(run_py.subprocess, "run", fake)
    run_py.ensure_native("/venv/bin/python")
    run_py.ensure_native("/venv/bin/python")
    assert [c[c.index("build") + 2] for c in fake.calls] == list(libraries)  # one try each
    assert len(list(tmp_path.glob(".twinfold-native-*-failed"))) == len(libraries)
    for marker in tmp_path.glob(".twinfold-native-*"):
        marker.unlink()
    built = _FakeRun(fail=None)
    monkeypatch.setattr(run_py.subprocess, "run", built)
    run_py.ensure_native("/venv/bin/python")
    assert len(built.calls) == len(libraries)
    target = tmp_path / "lib" / "twinfold"
    for call, (name, sources) in zip(built.calls, libraries.items(), strict=True):
        at = call.index("build")
        assert call[at + 1 :] == [str(target), name, *map(str, sources)]
    assert not list(tmp_path.glob(".twinfold-native-*"))
    target.mkdir(parents=True)
    for name, sources in libraries.items():
        digest = hashlib.sha256(b"".join(s.read_bytes() for s in sources)).hexdigest()[:16]
        (target / f"{name}-{digest}.so").write_bytes(b"")
    run_py.ensure_native("/venv/bin/python")
    assert len(built.calls) == len(libraries)  # built for these sources: nothing to do
