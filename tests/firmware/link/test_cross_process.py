"""Across processes: two `twinfold headless` units on one `air://` channel pair and play a
scripted Reversi game to the same end; a third unit hosting on the same channel neither
disturbs nor joins the paired game. Real time (the link paces headless at 60 Hz): ~28 s."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from games.reversi.scene import layout

# The shortest complete game (found by search): Black wipes White out in nine plies.
GAME = ["c4", "c3", "c2", "b4", "a5", "f4", "g4", "c5", "d6"]
BASE = 900  # frames for pairing and the start (15 s: 12 s was once too short at load 9)
SLOT = 60  # one ply per second; taps repeat inside the slot (early ones are ignored)
FRAMES = BASE + SLOT * len(GAME) + 120


def movie(plies: list[tuple[int, str]]) -> str:
    lines = ["# twinfold movie 1"]
    for index, square in plies:
        x, y = layout.SQUARE_RECTS[square].center
        for k in range(0, SLOT - 10, 10):
            lines.append(f"{BASE + index * SLOT + k} tap {x} {y}")
    return "\n".join(lines) + "\n"


def headless(tmp: Path, name: str, args: list[str], frames: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    cmd = [
        sys.executable,
        "-m",
        "firmware.cli",
        "headless",
        "--name",
        name,
        "--frames",
        str(frames),
        "--dump",
        str(tmp / f"{name}.json"),
        *args,
    ]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def test_two_processes_play_to_the_same_end_and_a_third_stays_out(tmp_path: Path) -> None:
    url = f"air://xproc-{os.getpid()}?baud=9600&delay_ms=10&jitter_ms=5"
    (tmp_path / "black.txt").write_text(movie([(i, s) for i, s in enumerate(GAME) if i % 2 == 0]))
    (tmp_path / "white.txt").write_text(movie([(i, s) for i, s in enumerate(GAME) if i % 2]))
    common = ["--link", url, "--game", "reversi", "--accept-pairing"]
    host = headless(
        tmp_path,
        "Hana",
        [*common, "--versus", "host", "--movie", str(tmp_path / "black.txt")],
        FRAMES,
    )
    guest = headless(
        tmp_path,
        "Ken",
        [*common, "--versus", "join", "--movie", str(tmp_path / "white.txt")],
        FRAMES,
    )
    third = None
    try:
        time.sleep(BASE / 60)  # the pair has joined; now a third unit starts hosting
        third = headless(tmp_path, "Mio", [*common, "--versus", "host"], FRAMES - BASE)
        outs = [p.communicate(timeout=120)[0].decode() for p in (host, guest, third)]
    finally:
        for p in (host, guest, third):
            if p is not None and p.poll() is None:
                p.kill()
    assert [p.returncode for p in (host, guest, third)] == [0, 0, 0], outs
    h, g, t = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("Hana", "Ken", "Mio"))
    for unit in (h, g):  # the taps are timed: a game that started after them has no moves
        assert "moves" in unit["game"], f"the game had not started by frame {BASE}: {unit}"
    assert h["game"]["moves"] == g["game"]["moves"] == GAME
    assert h["game"]["board"] == g["game"]["board"] and h["game"]["status"] == "over"
    assert (h["game"]["seat"], g["game"]["seat"]) == ("black", "white")
    assert h["link"]["partner"] == "Ken" and g["link"]["partner"] == "Hana"
    assert h["link"]["state"] == g["link"]["state"] == "over"
    assert t["scene"] == "lobby" and t["link"]["partner"] is None
    assert t["link"]["state"] == "hosting"
