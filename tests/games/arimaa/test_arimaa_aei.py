"""AEI v1 engine: a scripted session in process and over a pipe, bad input answered with a
log line, and the `aei` package's own tools (analyze, roundrobin) driving `twinfold aei`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.arimaa.aei.engine import AeiEngine
from games.arimaa.rules.game import Game
from games.arimaa.rules.notation import apply_move

VENV_BIN = Path(sys.executable).parent
GOLD_SETUP = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Ed2 Me2 Cf2 Dg2 Hh2"
SILVER_SETUP = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7"


class Session:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.engine = AeiEngine(self.out.append)

    def send(self, line: str) -> list[str]:
        start = len(self.out)
        assert self.engine.handle(line)
        while self.engine.searching and not self.engine.pondering:
            self.engine.poll()
        return self.out[start:]


def bestmove(lines: list[str]) -> str:
    moves = [line for line in lines if line.startswith("bestmove")]
    assert len(moves) == 1, lines
    return moves[0][len("bestmove ") :]


def test_scripted_session() -> None:
    s = Session()
    hello = s.send("aei")
    assert hello[0] == "protocol-version 1" and hello[-1] == "aeiok"
    assert any(line.startswith("id name") for line in hello)
    assert s.send("isready") == ["readyok"]
    s.send("newgame")
    s.send("setoption name level value 1")
    setup = bestmove(s.send("go"))
    game = Game()
    apply_move(game, setup)
    s.send(f"makemove {setup}")
    silver = bestmove(s.send("go"))
    apply_move(game, silver)
    s.send(f"makemove {silver}")
    for _ in range(3):
        move = bestmove(s.send("go"))
        apply_move(game, move)  # legal in our own referee
        s.send(f"makemove {move}")
    # depth option
    s.send("setoption name depth value 2")
    move = bestmove(s.send("go"))
    apply_move(game.__class__.from_json(game.to_json()), move)
    # time-control options switch to time-limited mode and still answer
    s.send("setoption name depth value 0")
    for name, value in (("tcmove", 1), ("tcreserve", 0), ("greserve", 0), ("sreserve", 0)):
        s.send(f"setoption name {name} value {value}")
    assert bestmove(s.send("go"))
    # ponder then stop: no bestmove while pondering
    s.send("go ponder")
    assert s.engine.pondering
    s.engine.poll()
    assert not any(line.startswith("bestmove") for line in s.send("stop"))
    assert not s.engine.searching
    assert not s.engine.handle("quit")


def test_stop_answers_with_a_bestmove_at_once() -> None:
    s = Session()
    s.send("aei")
    s.send("setoption name level value 5")
    s.send(f"makemove {GOLD_SETUP}")
    s.send(f"makemove {SILVER_SETUP}")
    s.engine.handle("go")
    s.engine.poll(200)
    s.engine.handle("isready")  # answered while searching
    assert s.out[-1] == "readyok"
    s.engine.handle("stop")
    move = bestmove(s.out)
    game = Game()
    apply_move(game, GOLD_SETUP)
    apply_move(game, SILVER_SETUP)
    apply_move(game, move)


def test_setposition_and_bad_input_are_logged_not_fatal() -> None:
    s = Session()
    s.send("aei")
    board = "[rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]"
    assert s.send(f"setposition g {board}") == []
    assert s.engine.game.side_to_move == 0
    for bad in (
        "setposition q [abc]",
        "setposition g [rrr]",
        "makemove Zz9n",
        "makemove Ed2n Ed3n Ed4n Ed5n Ed6n",
        "setoption name depth value lots",
        "setoption name level value 99",
        "frobnicate",
    ):
        out = s.send(bad)
        assert len(out) == 1 and out[0].startswith("log Error"), (bad, out)
    assert s.send("setoption name strange value 1")[0].startswith("log Warning")
    move = bestmove(s.send("go"))
    assert re.fullmatch(r"([RCDHMErcdhme][a-h][1-8][nsewx] ?)+", move)


def test_session_over_a_pipe() -> None:
    proc = subprocess.Popen(
        [str(VENV_BIN / "twinfold"), "aei"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(prefix: str) -> list[str]:
        lines = []
        while True:
            line = proc.stdout.readline()
            assert line, "engine closed its output"
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    try:
        send("aei")
        assert until("aeiok")[0] == "protocol-version 1"
        send("isready")
        assert until("readyok") == ["readyok"]
        send("newgame")
        send("setoption name level value 1")
        send("go")
        assert until("bestmove")[-1].startswith("bestmove R")
        send(f"makemove {GOLD_SETUP}")
        send(f"makemove {SILVER_SETUP}")
        send("go")
        move = until("bestmove")[-1][len("bestmove ") :]
        game = Game()
        apply_move(game, GOLD_SETUP)
        apply_move(game, SILVER_SETUP)
        apply_move(game, move)
        send("quit")
        assert proc.wait(timeout=60) == 0
        assert proc.stderr is not None and proc.stderr.read() == ""
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.slow
def test_analyze_script_drives_the_engine(tmp_path: Path) -> None:
    (tmp_path / "analyze.cfg").write_text(
        "[global]\ndefault_engine = twinfold\nstrict_checks = true\n\n"
        f"[twinfold]\ncmdline = {VENV_BIN / 'twinfold'} aei\nbot_level = 1\n"
    )
    (tmp_path / "game.txt").write_text(f"1g {GOLD_SETUP}\n1s {SILVER_SETUP}\n")
    proc = subprocess.run(
        [str(VENV_BIN / "analyze"), "--config", "analyze.cfg", "game.txt"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "bestmove:" in proc.stdout


@pytest.mark.slow
def test_roundrobin_against_simple_engine(tmp_path: Path) -> None:
    (tmp_path / "rr.cfg").write_text(
        "[global]\nbots = twinfold simple\nrounds = 3\ntimecontrol = none\n"
        "strict_setup = true\n\n"
        f"[twinfold]\ncmdline = {VENV_BIN / 'twinfold'} aei\nbot_level = 2\n\n"
        f"[simple]\ncmdline = {VENV_BIN / 'simple_engine'}\n"
    )
    proc = subprocess.run(
        [str(VENV_BIN / "roundrobin"), "--config", "rr.cfg"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert re.search(r"twinfold has 3 wins", out), out
    assert "simple has 0 wins" in out
    assert "Traceback" not in proc.stderr and "rror" not in proc.stderr
