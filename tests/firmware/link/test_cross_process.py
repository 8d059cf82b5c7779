"""Across processes: two `twinfold headless` units on one `air://` channel pair and play a
scripted Reversi game to the same end; a third unit hosting on the same channel neither
disturbs nor joins the paired game. Real time (the link paces headless at 60 Hz): ~45 s."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.reversi.rules.position import Position
from games.reversi.scene import layout

# A complete game (Black wipes White out in eleven plies), found by search for this property:
# no square a side plays later is legal at any of that side's earlier turns. So each unit can
# tap all of its squares round and round from BASE on, and only the move due is ever played
# (R-REV-OP-3: an illegal or taken square changes nothing; after the end no square is live).
# Nothing is timed per ply: the two processes' frame counts drift apart on a loaded machine
# (one ply a second, on frames fixed in advance, lost a ply there), and a late move only
# delays the next one.
GAME = ["d3", "c5", "f6", "f3", "b5", "c4", "g2", "e2", "f1", "b4", "a4"]
BASE = 900  # frames for pairing and the start (15 s: 12 s was once too short at load 9)
PLY = 150  # frames the game may take per ply, on average (2.5 s)
FRAMES = BASE + PLY * len(GAME) + 60
TAP_EVERY = 6  # a tap is 3 frames down and 3 up


def side(color: str) -> list[str]:
    """The squares `color` plays in GAME, in order."""
    return GAME[color == "white" :: 2]


def movie(squares: list[str]) -> str:
    """Taps on `squares` in turn, each twice (with hints on, a first tap only previews),
    from BASE until the run's last second."""
    lines = ["# twinfold movie 1"]
    centres = [layout.SQUARE_RECTS[square].center for square in squares for _ in range(2)]
    for n, frame in enumerate(range(BASE, FRAMES - 60, TAP_EVERY)):
        x, y = centres[n % len(centres)]
        lines.append(f"{frame} tap {x} {y}")
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


def test_the_script_plays_only_the_move_due() -> None:
    """What makes the round-robin taps safe: GAME ends the game, and at each turn none of the
    mover's later squares is legal yet (were one, a tap could play it out of order)."""
    position = Position.start()
    for ply, square in enumerate(GAME):
        legal = set(position.legal_squares())
        assert square in legal, (ply, square)
        assert not legal & set(GAME[ply + 2 :: 2]), (ply, legal & set(GAME[ply + 2 :: 2]))
        position = position.play(square)
    assert position.is_over()


@pytest.mark.soak  # three real-time processes: `python3 run.py soak`
def test_two_processes_play_to_the_same_end_and_a_third_stays_out(tmp_path: Path) -> None:
    url = f"air://xproc-{os.getpid()}?baud=9600&delay_ms=10&jitter_ms=5"
    (tmp_path / "black.txt").write_text(movie(side("black")))
    (tmp_path / "white.txt").write_text(movie(side("white")))
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
        outs = [p.communicate(timeout=300)[0].decode() for p in (host, guest, third)]
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
