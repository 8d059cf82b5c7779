"""The boot path (firmware/boot.py), fresh seeds per game start, and backend commands found
through the `twinfold.commands` entry points."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.boot import BootConfig, BootError, boot
from firmware.cli import backend_command_modules, build_parser
from firmware.cli import main as cli_main
from firmware.testing import run
from hal.backends.headless import headless_hal

ROOT = Path(__file__).resolve().parents[2]


def dump(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert cli_main(["headless", "--dump", "-", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_boot_builds_a_machine_with_store_and_log_in_the_data_dir(tmp_path: Path) -> None:
    machine = boot(headless_hal(tmp_path), BootConfig(game="pop", seed=7))
    try:
        assert machine.game_scene() is not None and machine.dump()["seed"] == 7
        assert (tmp_path / "store.db").exists() and (tmp_path / "twinfold.log").exists()
    finally:
        machine.store.close()


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (BootConfig(game="no-such-game", log=False), "no game"),
        (BootConfig(options={"mode": "two"}, log=False), "need a game"),
        (BootConfig(game="pop", options={"nope": "1"}, log=False), "no option"),
    ],
)
def test_bad_boot_requests_are_one_line_errors(
    tmp_path: Path, config: BootConfig, message: str
) -> None:
    with pytest.raises(BootError, match=message):
        boot(headless_hal(tmp_path), config)


def test_store_path_that_is_a_folder_or_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    for path, message in ((tmp_path, "is a folder"), (tmp_path / "plain" / "s.db", "is a file")):
        with pytest.raises(BootError, match=message):
            boot(headless_hal(tmp_path), BootConfig(store_path=path))


def test_two_game_starts_without_seed_differ_and_with_seed_agree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "s.db")
    first = dump(capsys, "--game", "pop", "--store", store)
    second = dump(capsys, "--game", "pop", "--store", store)
    assert isinstance(first["seed"], int) and isinstance(second["seed"], int)
    assert first["seed"] != second["seed"]
    pinned = [dump(capsys, "--game", "pop", "--store", store, "--seed", "42") for _ in range(2)]
    assert pinned[0]["seed"] == pinned[1]["seed"] == 42


def test_fresh_seeds_give_different_bubbles_and_pinned_seeds_the_same(tmp_path: Path) -> None:
    def bubbles(seed: int | None) -> str:
        machine = boot(headless_hal(tmp_path), BootConfig(game="pop", seed=seed, log=False))
        run(machine, 90)
        machine.store.close()
        return machine.frame_hash()  # the screens show where the bubbles are

    assert bubbles(None) != bubbles(None)
    assert bubbles(9) == bubbles(9)


def test_restart_draws_a_fresh_seed_unless_pinned(tmp_path: Path) -> None:
    for pinned in (None, 11):
        machine = boot(headless_hal(tmp_path), BootConfig(game="pop", seed=pinned, log=False))
        scene = machine.game_scene()
        before = scene.ctx.seed
        scene.restart()
        machine.store.close()
        assert (scene.ctx.seed == before) == (pinned is not None)


def test_suspend_keeps_the_seed_and_resume_uses_it(tmp_path: Path) -> None:
    machine = boot(headless_hal(tmp_path), BootConfig(game="pop", log=False))
    run(machine, 30)
    seed = machine.game_scene().ctx.seed
    assert machine.suspend_game()
    suspended = machine.store.load_suspend()
    assert suspended is not None and suspended.meta["seed"] == seed
    machine.start_game("pop", {}, suspended.state, seed=suspended.meta["seed"])
    assert machine.game_scene().ctx.seed == seed
    snapshot = machine.snapshot()
    assert snapshot is not None and snapshot["seed"] == seed
    machine.store.close()


def test_finished_game_record_carries_its_seed(tmp_path: Path) -> None:
    from firmware.game_api import GameResult

    machine = boot(headless_hal(tmp_path), BootConfig(game="pop", seed=123, log=False))
    machine.game_scene().ctx.finish(GameResult("win", 3, "done", record={"moves": []}))
    records = machine.store.list_records("pop")
    machine.store.close()
    assert records[0].record["seed"] == 123


def test_emu_comes_from_the_entry_point_group_declared_in_pyproject() -> None:
    assert backend_command_modules()["emu"] == "emulator.commands:register"
    subcommands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert "emu" in subcommands and "headless" in subcommands


def test_the_firmware_never_imports_the_emulator() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "firmware").rglob("*.py")
        if "import emulator" in path.read_text() or "from emulator" in path.read_text()
    ]
    assert offenders == []


def test_headless_movie_args_line_is_used_and_the_command_line_wins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    movie = tmp_path / "m.txt"
    movie.write_text("# twinfold movie 1\n# args: --game pop --seed 5\n3 tap 10 10\n")
    assert dump(capsys, "--movie", str(movie))["seed"] == 5
    assert dump(capsys, "--movie", str(movie))["scene"] == "pop"
    assert dump(capsys, "--movie", str(movie), "--seed", "6")["seed"] == 6
    bad = tmp_path / "bad.txt"
    bad.write_text("# twinfold movie 1\n# args: --frames 3\n")
    assert cli_main(["headless", "--movie", str(bad)]) == 2
    assert "only --game, --seed, --option and --profile" in capsys.readouterr().err


def _store_with_a_damaged_page(path: Path) -> bytes:
    from firmware.storage import Store

    with Store.open(path) as s:
        for i in range(40):
            s.add_record("pop", {"i": i, "pad": "x" * 1500})
    data = bytearray(path.read_bytes())
    data[4096 + 8 : 4096 + 600] = b"\xa5" * 592  # a b-tree page; the header stays whole
    path.write_bytes(bytes(data))
    return bytes(data)


def test_damaged_store_is_logged_and_announced_on_stderr(tmp_path: Path) -> None:
    """Issue 34, item 13: one line on stderr in plain words; SQLite's report in the log."""
    store = tmp_path / "store.db"
    damaged = _store_with_a_damaged_page(store)
    proc = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "headless", "--store", str(store)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "damaged" in lines[0] and "store.db.damaged-1" in lines[0]
    assert "Brought back: 40 game records" in lines[0] and "***" not in lines[0]
    log = (tmp_path / "twinfold.log").read_text()
    assert "store.db.damaged-1" in log and "*** in database main ***" in log
    assert (tmp_path / "store.db.damaged-1").read_bytes() == damaged


@pytest.mark.parametrize("content", [b"not a database at all" * 300, b"", b"x"])
def test_a_file_that_is_not_a_store_is_refused_in_one_line_and_left_alone(
    tmp_path: Path, content: bytes
) -> None:
    """Issue 34, item 12: `--store FILE` never renames a person's file."""
    mine = tmp_path / "notes.txt"
    mine.write_bytes(content or b"\x00" * 10)
    before = mine.read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "headless", "--store", str(mine)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "notes.txt is not a Twinfold store" in lines[0], lines
    assert mine.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "twinfold.log") == ["notes.txt"]


def test_the_dump_may_go_into_the_folder_shots_makes(tmp_path: Path) -> None:
    """Issue 37, item 7: `--shots D --dump D/x.json` with no D yet wrote both; a dump into a
    folder nothing makes, or under a file, is still refused in one line with nothing run."""
    shots = tmp_path / "new" / "shots"
    assert cli_main(["headless", "--game", "pop", "--seed", "1", "--shots", str(shots),
                     "--dump", str(shots / "x.json")]) == 0
    assert json.loads((shots / "x.json").read_text())["seed"] == 1
    assert (shots / "top.png").exists() and (shots / "bottom.png").exists()
    (tmp_path / "plain").write_text("x")
    for shots_dir, dump_path, message in (
        (tmp_path / "a", tmp_path / "b" / "x.json", "no folder"),
        (tmp_path / "c", tmp_path / "plain" / "x.json", "is not a folder"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "firmware.cli", "headless", "--shots", str(shots_dir),
             "--dump", str(dump_path)],
            capture_output=True, text=True, cwd=ROOT,
        )
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], lines
        assert not shots_dir.exists() and not dump_path.exists()
