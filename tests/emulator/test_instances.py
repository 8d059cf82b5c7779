"""Every running emulator is its own unit (issue 24, item 1): a second emulator on the same
data directory becomes instance 2 (its own store, radio id and log; the window title and
stderr say so), and an explicit --store held by another process is a one-line error naming
the holder. Real emulator processes, on SDL's dummy video driver."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware import instances, storage
from firmware.storage import Store

WAIT = 60.0  # generous on a shared machine: bounds a hang, not asserted


def emu(tmp_path: Path, *args: str, frames: int) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "HOME": str(tmp_path / "home"),
    }
    cmd = [sys.executable, "-m", "emulator", "--scale", "1", "--frames", str(frames), *args]
    return subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def wait_for_holder(store: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline and proc.poll() is None:
        if storage.lock_holder(store) == proc.pid and store.exists():
            return
        time.sleep(0.1)
    _, err = proc.communicate(timeout=5) if proc.poll() is not None else ("", "")
    pytest.fail(f"the first emulator did not start: {err[-1500:]}")


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return proc.returncode, out, err


def test_a_second_emulator_on_the_same_data_directory_is_instance_two(tmp_path: Path) -> None:
    base = tmp_path / "data" / "twinfold"
    link = f"air://inst-{os.getpid()}"
    first = emu(tmp_path, "--link", link, "--name", "Ann", frames=100_000)
    try:
        wait_for_holder(base / "store.db", first)
        second = emu(tmp_path, "--link", link, "--name", "Bob", frames=30)
        code, _, err = finish(second)
        assert code == 0, err
        assert "this one is instance 2" in err and str(base / "instance-2") in err
    finally:
        first.terminate()
        finish(first)
    second_dir = instances.instance_dir(base, 2)
    assert (second_dir / "store.db").exists() and (second_dir / "twinfold.log").exists()
    with Store.open(base / "store.db") as a, Store.open(second_dir / "store.db") as b:
        id_a, id_b = a.get_setting("radio")["id"], b.get_setting("radio")["id"]
    assert id_a != id_b  # two units, two radio ids
    # the first one gone, the next emulator is the first instance again
    third = emu(tmp_path, frames=5)
    code, _, err = finish(third)
    assert code == 0 and "instance" not in err


def test_the_window_title_names_the_instance(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import argparse

    from emulator import app as emu_app

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(emu_app, "default_data_dir", lambda: tmp_path / "twinfold")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from firmware.storage import Store;"
            f" s = Store.open({str(tmp_path / 'twinfold' / 'store.db')!r});"
            " print('ready', flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        from firmware.cli import build_parser

        args = build_parser().parse_args(["emu", "--scale", "1", "--frames", "2"])
        assert isinstance(args, argparse.Namespace)
        app = emu_app.App(args)
        try:
            assert app.instance is not None and app.instance.number == 2
            assert "(instance 2)" in emu_app.window_title(app)
        finally:
            app.shutdown()
        assert not storage.holds(tmp_path / "twinfold" / "instance-2" / "store.db")
    finally:
        holder.communicate("", timeout=30)


def test_an_explicit_store_in_use_is_one_line_naming_the_holder(tmp_path: Path) -> None:
    store = tmp_path / "shared.db"
    first = emu(tmp_path, "--store", str(store), frames=100_000)
    try:
        wait_for_holder(store, first)
        second = emu(tmp_path, "--store", str(store), frames=5)
        code, _, err = finish(second)
    finally:
        first.terminate()
        finish(first)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0] == (
        f"twinfold emu: error: the store {store} is in use by process {first.pid}"
    )
