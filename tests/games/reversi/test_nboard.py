"""NBoard protocol session and GGF: scripted sessions, round trips, bad input."""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from reversi_reference import legal, play, rows, start_board

from firmware.cli import main as cli_main
from games.reversi.ggf import GgfError, GgfGame, format_ggf, parse_ggf
from games.reversi.nboard import NBoardSession
from games.reversi.rules import Game

EDAX_SAMPLE = (
    "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]"
    "TY[8]BO[8 ---------------------------O*------*O--------------------------- *]"
    "B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)"
)
MOVE_LINE = re.compile(r"^=== ([A-H][1-8]|PA)/(-?\d+\.\d\d)/(\d+\.\d\d)$")
SEARCH_LINE = re.compile(r"^search ([A-H][1-8]) (-?\d+\.\d\d) 0 (\d+|100%)$")


def session():
    out: list[str] = []
    err: list[str] = []
    return NBoardSession(out.append, err.append, clock=lambda: 0.0), out, err


def reference_legal_after(moves: list[str]) -> set[str]:
    board, me = start_board(), "B"
    for m in moves:
        if not legal(board, me):
            me = "W" if me == "B" else "B"
        board = play(board, me, m.lower())
        me = "W" if me == "B" else "B"
    if not legal(board, me):
        me = "W" if me == "B" else "B"
    return {s.upper() for s in legal(board, me)}


def test_scripted_session_gives_well_formed_legal_answers():
    s, out, err = session()
    for line in ["nboard 2", "set depth 3", f"set game {EDAX_SAMPLE}", "ping 1", "go"]:
        s.handle(line)
    assert out[0] == "set myname Twinfold" and out[1] == "set myname Twinfold3"
    assert "pong 1" in out
    moves = [ln for ln in out if ln.startswith("===")]
    assert len(moves) == 1
    m = MOVE_LINE.match(moves[0])
    assert m, moves[0]
    history = ["F5", "F6", "D3", "C5", "E6", "F7", "E7", "F4"]
    assert m.group(1) in reference_legal_after(history)
    # go does not play the move; the GUI sends it back with "move".
    assert s.game.moves == [h.lower() for h in history]
    s.handle(f"move {m.group(1)}/{m.group(2)}/0.1")
    assert len(s.game.moves) == 9
    out.clear()
    s.handle("hint 3")
    hints = [ln for ln in out if ln.startswith("search")]
    assert 1 <= len(hints) <= 3 and all(SEARCH_LINE.match(h) for h in hints)
    assert {SEARCH_LINE.match(h).group(1) for h in hints} <= reference_legal_after(
        [*history, m.group(1)]
    )
    assert out[-1] == "status"
    out.clear()
    for line in ["learn", "set contempt 2", "ping 9"]:
        s.handle(line)
    assert out == ["learned", "pong 9"] and s.contempt == 2.0
    assert not err


def test_bad_lines_change_nothing_and_explain_on_stderr():
    s, out, err = session()
    s.handle("nboard 2")
    s.handle(f"set game {EDAX_SAMPLE}")
    before = (s.game.to_json(), s.depth, s.contempt)
    out.clear()
    for bad in [
        "move Z9",
        "move A1",
        "move PA",
        "move",
        "set depth x",
        "set depth 0",
        "set contempt",
        "set game (;GM[Chess];)",
        "set game nonsense",
        "hint x",
        "nboard",
        "frobnicate 3",
    ]:
        s.handle(bad)
    assert (s.game.to_json(), s.depth, s.contempt) == before
    assert out == []  # stdout stays protocol-only
    assert len(err) == 12


def test_bare_move_from_old_nboard():
    s, _, err = session()
    s.handle("F5")
    s.handle("d6")
    assert s.game.moves == ["f5", "d6"] and not err
    s.handle("Z1")  # not a square: refused, nothing changes
    assert s.game.moves == ["f5", "d6"] and len(err) == 1


def test_analyze_reports_every_position_then_status():
    s, out, _ = session()
    s.handle("nboard 2")
    s.handle("set depth 1")
    s.handle(
        "set game (;GM[Othello]TY[8]BO[8 "
        + "-" * 27
        + "O*------*O"
        + "-" * 27
        + " *]B[F5]W[D6]B[C3];)"
    )
    out.clear()
    s.handle("analyze")
    lines = [ln for ln in out if ln.startswith("analysis")]
    assert [int(ln.split()[1]) for ln in lines] == [3, 2, 1, 0]
    assert all(re.fullmatch(r"analysis \d+ -?\d+\.\d\d", ln) for ln in lines)
    assert out[-1] == "status"


def test_pass_is_acknowledged_once():
    # Seeded random game until an automatic pass happens, then the GUI's "move PA".
    import random

    rng = random.Random(3)
    for _ in range(500):
        s, _, err = session()
        while not s.game.over:
            sq = rng.choice(sorted(s.game.legal()))
            s.handle(f"move {sq}")
            if s.game.last_pass and not s.game.over:
                plies = list(s.game.plies)
                s.handle("move PA")
                assert not err and s.game.plies == plies
                s.handle("move PA")  # a second one is refused
                assert len(err) == 1
                return
    raise AssertionError("no pass found in 500 seeded games")


def test_command_line_session():
    script = "nboard 2\nset depth 2\nping 5\ngo\nquit\n"
    proc = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "nboard"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:3] == ["set myname Twinfold", "set myname Twinfold2", "pong 5"]
    move = next(ln for ln in lines if ln.startswith("==="))
    assert MOVE_LINE.match(move).group(1) in {"D3", "C4", "F5", "E6"}


def test_command_line_bad_depth_is_one_line(capsys):
    assert cli_main(["nboard", "--depth", "99"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["twinfold nboard: error: --depth must be 1..60"]


# --- GGF --------------------------------------------------------------------------------
def test_parse_edax_sample():
    g = parse_ggf(EDAX_SAMPLE)
    assert g.black == "./mEdax" and g.white == "chris" and g.result == "?"
    assert g.game.moves == ["f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4"]
    assert g.tags["TI"] == "15:00"


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 1000), max_size=64), names, names, st.integers(0, 6))
def test_ggf_round_trip(choices, black, white, start_plies):
    # A game from a (possibly non-standard) start position with auto passes on the way.
    g = Game()
    for pick in choices[:start_plies]:
        if g.over:
            break
        g.play(sorted(g.legal())[pick % len(g.legal())])
    game = Game(g.position)
    for pick in choices[start_plies:]:
        if game.over:
            break
        game.play(sorted(game.legal())[pick % len(game.legal())])
    text = format_ggf(GgfGame(game, black, white, "?", {"PC": "Twinfold"}))
    back = parse_ggf(text)
    assert back.game == game and back.game.plies == game.plies
    assert (back.black, back.white) == (black, white)
    assert back.game.position.rows() == game.position.rows()
    assert format_ggf(back) == text


@given(st.text(max_size=80))
def test_ggf_garbage_is_refused_cleanly(text):
    try:
        parse_ggf(text)
    except GgfError as exc:
        assert str(exc)


def test_ggf_rejects_illegal_and_out_of_turn():
    base = "(;GM[Othello]TY[8]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *]"
    for moves in ["B[A1]", "W[F5]", "B[F5]B[D6]", "B[PA]", "B[Q9]"]:
        try:
            parse_ggf(base + moves + ";)")
        except GgfError:
            continue
        raise AssertionError(f"accepted {moves}")


def test_reference_agrees_with_sample_position():
    g = parse_ggf(EDAX_SAMPLE)
    board, me = start_board(), "B"
    for m in g.game.moves:
        board = play(board, me, m)
        me = "W" if me == "B" else "B"
    assert g.game.position.rows() == rows(board)


def test_level_chosen_by_name_or_number():
    s, out, err = session()
    s.handle("nboard 2")
    s.handle("set depth strong")
    assert out[-1] == "set myname Twinfold-strong" and s.level == 4
    s.handle("set level 1")
    assert out[-1] == "set myname Twinfold-beginner" and s.level == 1
    s.handle("set level novice")
    assert s.level == 2
    s.handle("set depth 5")  # a number goes back to the plain depth search
    assert s.level is None and s.depth == 5
    for bad in ("set level 9", "set level grandmaster", "set depth wizard", "set level"):
        s.handle(bad)
    assert s.level is None and s.depth == 5 and len(err) == 4
    assert all("level" in e or "depth" in e for e in err)


def test_level_play_over_nboard_is_the_handheld_level_move():
    from games.reversi.ai import choose_move

    s, out, _ = session()
    s.handle(f"set game {EDAX_SAMPLE}")
    for level in (1, 2, 3):
        s.handle(f"set level {level}")
        out.clear()
        s.handle("go")
        move = MOVE_LINE.match(next(ln for ln in out if ln.startswith("===")))
        assert move.group(1).lower() == choose_move(s.game.position, level, s.seed)


class PipedSession:
    """An NBoardSession driven by `run` from a pipe, as the `twinfold nboard` command drives
    it: lines are written to `writer`, answers collect in `lines`."""

    def __init__(self, depth: int, moves: list[str]) -> None:
        import os
        import threading

        self.lines: list[str] = []
        self.got_pong = threading.Event()
        self.session = NBoardSession(self._out)
        read_fd, write_fd = os.pipe()
        self.reader, self.writer = os.fdopen(read_fd, "r"), os.fdopen(write_fd, "w")
        self.runner = threading.Thread(target=self.session.run, args=(self.reader,), daemon=True)
        self.runner.start()
        self.send(f"nboard 2\nset depth {depth}\n" + "".join(f"move {m}\n" for m in moves))

    def _out(self, line: str) -> None:
        self.lines.append(line)
        if line.startswith("pong"):
            self.got_pong.set()

    def send(self, text: str) -> None:
        self.writer.write(text)
        self.writer.flush()

    def finish(self) -> None:
        """`ping 8` and `quit`: the session answers and ends; no move was ever sent."""
        self.send("ping 8\nquit\n")
        self.runner.join(30)
        assert not self.runner.is_alive()
        assert "pong 7" in self.lines and "pong 8" in self.lines
        assert self.lines.index("pong 7") < self.lines.index("pong 8")
        assert not any(ln.startswith("===") for ln in self.lines)  # the stopped go sent none
        self.writer.close()
        self.reader.close()


def test_ping_is_answered_while_solving():
    """`run` reads input on its own thread: a ping stops a long search at once and is
    answered; the stopped search sends no move, and later lines are still handled."""
    import time

    # 20 empties, depth 60 and a huge exact budget: minutes of work if nothing stops it.
    game = Game()
    rng = __import__("random").Random(12)
    while game.position.empties() > 20:
        game.play(rng.choice(sorted(game.legal())))
    piped = PipedSession(60, game.moves)
    piped.send("go\n")
    time.sleep(0.5)  # the search is under way
    started = time.monotonic()
    piped.send("ping 7\n")
    assert piped.got_pong.wait(10), piped.lines
    assert time.monotonic() - started < 10
    piped.finish()


def test_command_line_level(capsys):
    assert cli_main(["nboard", "--level", "wizard"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--level must be one of" in err[0]
    proc = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "nboard", "--level", "novice"],
        input="nboard 2\ngo\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    move = next(ln for ln in proc.stdout.splitlines() if ln.startswith("==="))
    assert MOVE_LINE.match(move).group(1) in {"D3", "C4", "F5", "E6"}


def test_ping_is_answered_during_an_exact_solve(monkeypatch):
    """The search is held at its first slice of the exact endgame solve until the ping has
    been written, so the ping is certain to arrive while the solve runs: it is answered,
    the solve is stopped unfinished and sends no move, and the session goes on."""
    import random
    import threading

    from games.reversi import nboard
    from games.reversi.ai import Thinker

    solving, ping_sent = threading.Event(), threading.Event()
    thinkers: list[Thinker] = []

    class GatedThinker(Thinker):
        def think(self, node_budget):
            result = super().think(node_budget)
            if result is None and self.search.solving and not solving.is_set():
                solving.set()
                assert ping_sent.wait(10)
            return result

        def __init__(self, search):
            super().__init__(search)
            thinkers.append(self)

    monkeypatch.setattr(nboard, "Thinker", GatedThinker)
    # Exactly the solver's number of empties, from random play (long solves).
    rng = random.Random(3)
    game = Game()
    while game.position.empties() > nboard.EXACT_EMPTIES:
        game.play(rng.choice(sorted(game.legal())))
    assert game.position.empties() == nboard.EXACT_EMPTIES and game.position.has_move()
    piped = PipedSession(10, game.moves)
    piped.send("go\n")
    assert solving.wait(30), piped.lines
    piped.send("ping 7\n")
    ping_sent.set()
    assert piped.got_pong.wait(30), piped.lines
    piped.finish()
    (thinker,) = thinkers
    assert thinker.result is None  # stopped unfinished, in its exact phase
    assert thinker.search.exact_empties == nboard.EXACT_EMPTIES
