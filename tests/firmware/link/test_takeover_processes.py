"""A guest SIGKILLed (issue 33): three `twinfold headless` processes on one `air://`
channel play Killing Sevens (host Hana, guests Ken and Cy, a computer in the fourth seat),
each with a player at the controls (lan_player.py); once the match is under way Cy's
process is killed outright. Hana and Ken name Cy lost, the host's computer takes Cy's seat
after the grace period (`--link-grace`), and the two finish the match alike, the sealed
deal checking out on Ken. Real time (the link paces headless at 60 Hz): ~20 s."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # real time: three processes at the 60 Hz pace

HERE = Path(__file__).resolve().parent
NAMES = ("Hana", "Ken", "Cy")
GRACE = 120  # ticks (2 s) before the computer takes a lost unit's seat
TIMEOUT = 300  # seconds the match may take on a loaded machine


def _unit(tmp: Path, i: int, url: str) -> subprocess.Popen[bytes]:
    name = NAMES[i]
    folder = tmp / name
    folder.mkdir()
    cmd = [sys.executable, str(HERE / "lan_player.py"), str(i + 1), str(len(NAMES)), "--"]
    cmd += ["headless", "--link", url, "--game", "sevens", "--accept-pairing", "--name", name]
    cmd += ["--versus", "host" if i == 0 else "join", "--until-over", "--link-grace", str(GRACE)]
    cmd += ["--frames", str(60 * 240), "--store", str(folder / "store.db")]
    cmd += ["--dump", str(folder / "dump.json")]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = (folder / "out.txt").open("wb")
    return subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)


def _wait_for(path: Path, words: str, proc: subprocess.Popen[bytes]) -> None:
    """Until `words` are in the unit's log (it logs each action): never a fixed sleep."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and words in path.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise AssertionError(f"{path} never said {words!r}")


def test_a_guest_killed_mid_game_has_its_seat_taken_and_the_others_finish(
    tmp_path: Path,
) -> None:
    url = f"air://takeover-{os.getpid()}?baud=19200&delay_ms=10"
    procs = [_unit(tmp_path, i, url) for i in range(len(NAMES))]
    try:
        _wait_for(tmp_path / "Cy" / "twinfold.log", "versus: action 4 by seat", procs[2])
        procs[2].send_signal(signal.SIGKILL)
        procs[2].wait(timeout=30)
        for proc in procs[:2]:
            proc.wait(timeout=TIMEOUT)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    outs = [(tmp_path / n / "out.txt").read_text(errors="replace") for n in NAMES[:2]]
    assert [p.returncode for p in procs[:2]] == [0, 0], outs
    dumps: list[dict[str, Any]] = [
        json.loads((tmp_path / n / "dump.json").read_text()) for n in NAMES[:2]
    ]
    seat = dumps[0]["link"]["gone"][0]["seat"]  # Cy's (the guests' seats go by who joined first)
    for unit in dumps:
        link = unit["link"]
        assert link["state"] == "over", link
        assert link["gone"] == [{"seat": seat, "name": "Cy", "why": "lost"}], link
        assert link["computer"] == [seat] and link["rejected"]["illegal"] == 0, link
        parts = link["parts"][str(seat)]
        assert parts[0] == ["Cy", 0] and parts[-1][0] == "computer"
        assert unit["game"]["phase"] == "over"
    for key in ("table", "killed", "ranking", "finished"):
        assert dumps[0]["game"][key] == dumps[1]["game"][key], key
    logs = [(tmp_path / n / "twinfold.log").read_text(errors="replace") for n in NAMES[:2]]
    assert all(f"versus: Cy (seat {seat}) is gone: lost" in log for log in logs)
    assert all(f"the computer plays Cy's seat (seat {seat})" in log for log in logs)
    assert "does not check out" not in logs[1]  # Ken's check of the sealed deal passed
