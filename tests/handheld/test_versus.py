"""Two `twinfold device` units (their own framebuffers, stores and logs) on one simulated
radio (`--link air://...`) pair with `--accept-pairing` and play a scripted Reversi game
from their movies to the same end, and both lower panels show the same board: what the
image's QEMU check (deploy/image/qemu_check.py --pair) does with two emulated Pis whose
UARTs are joined. Real time (the link paces the units at 60 Hz): about 45 s."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from device_config import config_file

from games.reversi.scene.layout import BOARD_RECT
from tests.firmware.link.test_cross_process import FRAMES, GAME, movie, side

pytestmark = [pytest.mark.slow, pytest.mark.soak]  # real-time processes: `run.py soak`

PANEL_W, PANEL_H, AT = 320, 240, (32, 24)  # the test panels; a screen centred on each


def board_pixels(fb: Path) -> bytes:
    """The board's square on the lower panel (an RGB565 file), row by row."""
    data, stride = fb.read_bytes(), PANEL_W * 2
    x0, y0 = AT[0] + BOARD_RECT.x, AT[1] + BOARD_RECT.y
    rows = (data[(y0 + y) * stride + 2 * x0 :][: 2 * BOARD_RECT.w] for y in range(BOARD_RECT.h))
    return b"".join(rows)


def unit(tmp: Path, framebuffer, name: str, args: list[str]) -> subprocess.Popen[bytes]:
    folder = tmp / name
    folder.mkdir()
    config = config_file(folder, framebuffer)
    cmd = [sys.executable, "-m", "firmware.cli", "device", "--config", config, "--name", name]
    cmd += ["--frames", str(FRAMES), "--dump", str(folder / "dump.json"), *args]
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def test_two_units_pair_and_play_to_the_same_board(tmp_path: Path, framebuffer) -> None:
    url = f"air://device-{os.getpid()}?baud=9600&delay_ms=10&jitter_ms=5"
    (tmp_path / "black.movie").write_text(movie(side("black")))
    (tmp_path / "white.movie").write_text(movie(side("white")))
    common = ["--link", url, "--game", "reversi", "--accept-pairing"]
    host = unit(tmp_path, framebuffer, "Hana", [*common, "--versus", "host",
                "--movie", str(tmp_path / "black.movie")])  # fmt: skip
    guest = unit(tmp_path, framebuffer, "Ken", [*common, "--versus", "join",
                 "--movie", str(tmp_path / "white.movie")])  # fmt: skip
    try:
        outs = [p.communicate(timeout=300)[0].decode() for p in (host, guest)]
    finally:
        for p in (host, guest):
            if p.poll() is None:
                p.kill()
    assert [host.returncode, guest.returncode] == [0, 0], outs
    h, g = (json.loads((tmp_path / n / "dump.json").read_text()) for n in ("Hana", "Ken"))
    assert h["game"]["moves"] == g["game"]["moves"] == GAME
    assert h["game"]["board"] == g["game"]["board"] and h["game"]["status"] == "over"
    assert (h["game"]["seat"], g["game"]["seat"]) == ("black", "white")
    assert h["link"]["partner"] == "Ken" and g["link"]["partner"] == "Hana"
    # the units' own panels: the same finished board on both
    ours, theirs = board_pixels(tmp_path / "Hana" / "fb1"), board_pixels(tmp_path / "Ken" / "fb1")
    assert any(ours) and ours == theirs


def test_versus_needs_a_game_and_a_radio(tmp_path: Path, framebuffer, capsys) -> None:
    from firmware.cli import main

    config = config_file(tmp_path, framebuffer)  # its radio is off
    assert main(["device", "--config", config, "--versus", "host", "--frames", "1"]) == 2
    assert "--versus needs --game" in capsys.readouterr().err
    args = ["device", "--config", config, "--versus", "host", "--game", "reversi"]
    assert main([*args, "--frames", "1"]) == 2
    assert "--versus needs the radio" in capsys.readouterr().err
    bad = ["--link", str(tmp_path / "no-such-port"), "--frames", "1"]
    assert main([*args, *bad]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot open the link" in err[0] and "no-such-port" in err[0]
