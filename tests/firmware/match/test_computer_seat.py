"""The computer seat's pacing (issue 18): in-loop slices and a worker process decide the same
move at the same tick; workers are stopped on quit, restart and game end; late answers to
abandoned searches are discarded; suspend mid-search continues identically."""

from __future__ import annotations

import os
import random
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from firmware.game_api import Game as GameApi
from firmware.match import ComputerSeat, LocalSeat, Match
from firmware.match.profiles import PROFILES
from firmware.match.worker import SearchWorker, close_all
from firmware.testing import build_machine, run
from games.reversi.match import ReversiComputer, ReversiRules
from games.reversi.rules import Game
from hal.interfaces import RawInput


def position_with_empties(empties: int, seed: int) -> Game:
    rng = random.Random(seed)
    while True:
        game = Game()
        while not game.over and 64 - sum(game.score().values()) > empties:
            game.play(rng.choice(sorted(game.legal())))
        if not game.over:
            return Game(game.position)


def decide(rules: ReversiRules, seat: ComputerSeat[str]) -> tuple[str, int]:
    """(move, the poll at which it is played) for the side to move."""
    match = Match(rules, _seats(rules, seat))
    mover = rules.to_move()
    for poll in range(1, 100_000):
        before = len(match.history)
        match.step()
        if len(match.history) > before:
            played = match.history[-1]
            assert played.seat == mover
            return played.data.decode(), poll
    raise AssertionError("never decided")


def _seats(rules: ReversiRules, seat: ComputerSeat[str]) -> list:
    seats: list = [LocalSeat[str](), LocalSeat[str]()]
    seats[rules.to_move() or 0] = seat
    return seats


@pytest.mark.parametrize(("empties", "level"), [(40, 4), (30, 3), (14, 4), (12, 2)])
def test_worker_and_slices_decide_the_same_move_at_the_same_tick(empties: int, level: int) -> None:
    game = position_with_empties(empties, seed=empties)
    sliced = ComputerSeat(ReversiComputer(level, 7), 5_000)
    in_worker = ComputerSeat(ReversiComputer(level, 7), 5_000, worker=True, block=True)
    try:
        assert decide(ReversiRules(Game(game.start)), sliced) == decide(
            ReversiRules(Game(game.start)), in_worker
        )
        assert in_worker.late == 0
    finally:
        in_worker.close()


def test_the_move_waits_for_the_tick_its_work_fixes() -> None:
    game = position_with_empties(36, seed=3)
    seat = ComputerSeat(ReversiComputer(4, 1), 5_000)
    _move, poll = decide(ReversiRules(Game(game.start)), seat)
    probe = ReversiComputer(4, 1).start(ReversiRules(Game(game.start)), 0)
    while probe.think(10**9) is None:
        pass
    assert poll == max(24, -(-probe.units // 5_000))  # independent of how it was sliced


def test_a_killed_worker_costs_one_retried_decision_never_a_hang() -> None:
    """The seat's single worker killed mid-search (issue 36): a new worker searches the same
    state again, and the move and its poll are the in-loop slices' ones."""
    game = position_with_empties(36, seed=4)
    sliced = ComputerSeat(ReversiComputer(4, 5), 5_000)
    expected = decide(ReversiRules(Game(game.start)), sliced)
    rules = ReversiRules(Game(game.start))
    seat = ComputerSeat(ReversiComputer(4, 5), 5_000, worker=True, block=True)
    try:
        match = Match(rules, _seats(rules, seat))
        match.step()  # the search is asked of the worker
        assert seat._worker is not None and seat._worker.pid is not None
        os.kill(seat._worker.pid, signal.SIGKILL)
        polls = 1
        while not match.history:
            match.step()
            polls += 1
            assert polls <= expected[1]
        assert (match.history[-1].data.decode(), polls) == expected
        assert seat.retried == 1 and seat._worker.alive
    finally:
        seat.close()


def test_a_cancelled_search_answer_is_discarded() -> None:
    worker = SearchWorker()
    try:
        rules = ReversiRules(position_with_empties(30, seed=5))
        old = worker.submit(ReversiComputer(4, 2), rules, rules.to_move() or 0)
        worker.cancel()
        assert worker.result(old, wait=False) is None
        fresh = ReversiRules()
        job = worker.submit(ReversiComputer(1, 2), fresh, 0)
        answer = worker.result(job, wait=True)
        assert answer is not None and answer[0].decode() in fresh.legal_actions()
        assert worker.result(old, wait=False) is None
    finally:
        worker.close()
    assert not worker.alive


def test_close_all_stops_every_worker_at_once() -> None:
    workers = [SearchWorker(), SearchWorker()]
    rules = ReversiRules(position_with_empties(40, seed=1))
    workers[0].submit(ReversiComputer(4, 2), rules, rules.to_move() or 0)  # busy searching
    assert close_all() >= 2
    assert not any(w.alive for w in workers)


def _worker_machine(tmp: Path, cores: int | None = None, **options: str):
    m = build_machine(tmp)
    m.profile = PROFILES["desktop-worker"]
    if cores is not None:  # desktop-worker's cores depend on the machine: pin them
        m.profile = replace(m.profile, cores=cores)
    m.start_game("reversi", {"mode": "cpu", "level": "strong", "color": "white", **options})
    return m


def _search_processes(seat: ComputerSeat[str]) -> list[Any]:
    """The seat's worker process, or its pool's processes (issue 36)."""
    out = [seat._worker._process] if seat._worker is not None else []
    if seat._pool is not None:
        out += [proc.process for proc in seat._pool._procs]
    return out


@pytest.mark.parametrize("cores", [1, 3])
def test_quitting_the_game_stops_the_search_process(tmp_path: Path, cores: int) -> None:
    m = _worker_machine(tmp_path, cores)
    run(m, 5, draw=False)
    seat = m.game_scene().game.computer
    assert seat is not None
    processes = _search_processes(seat)
    assert len(processes) == cores and all(p.is_alive() for p in processes)
    m.to_launcher()  # what "quit" in the pause menu does
    assert not any(p.is_alive() for p in processes)


def test_game_end_closes_the_worker(tmp_path: Path) -> None:
    rules = ReversiRules(position_with_empties(8, seed=2))
    a = ComputerSeat(ReversiComputer(2, 1), 5_000, worker=True)
    b = ComputerSeat(ReversiComputer(1, 1), 5_000, worker=True)
    match = Match(rules, [a, b])
    while not match.over:
        match.step()
    assert a._worker is None and b._worker is None


def _frames(m, ticks: int) -> list[str]:
    out = []
    for _ in range(ticks):
        m.step()
        m.render()
        out.append(m.frame_hash())
    return out


@pytest.mark.parametrize("profile", ["desktop", "desktop-worker"])
def test_games_against_the_computer_are_frame_identical_across_runs(
    tmp_path: Path, profile: str
) -> None:
    def machine(sub: str):
        m = build_machine(tmp_path / sub, seed=11)
        m.profile = PROFILES[profile]
        m.start_game("reversi", {"mode": "cpu", "level": "strong", "color": "white"})
        return m

    a, b = machine("a"), machine("b")
    try:
        assert _frames(a, 200) == _frames(b, 200)
        assert len(a.game_scene().game.match.history) >= 1
    finally:
        close_all()


@pytest.mark.parametrize("cores", [1, 3])
def test_suspend_mid_search_in_a_worker_continues_identically(tmp_path: Path, cores: int) -> None:
    try:
        a = _worker_machine(tmp_path / "a", cores)
        run(a, 10)
        assert a.game_scene().game.thinking
        slot = a.snapshot()
        b = build_machine(tmp_path / "b")
        b.profile = a.profile
        b.restore(slot)
        assert _frames(a, 120) == _frames(b, 120)
    finally:
        close_all()


def test_reversi_says_thinking_only_after_half_a_second(tmp_path: Path) -> None:
    m = build_machine(tmp_path, seed=3)
    m.start_game("reversi", {"mode": "cpu", "level": "strong", "color": "white"})
    scene = m.game_scene().game
    shown = []
    for _ in range(45):
        m.step()
        m.render()
        shown.append((scene.thinking_ticks(), "Thinking" in scene_top_text(scene)))
    assert all(text == (ticks >= 30) for ticks, text in shown if ticks)
    assert any(text for _, text in shown)


def scene_top_text(scene) -> str:  # type: ignore[no-untyped-def]
    """What Reversi's message area says (the TopView it draws from)."""
    from games.reversi.scene.top_view import TopView

    captured: list[TopView] = []
    import games.reversi.scene.play as play

    original = play.draw_top
    play.draw_top = lambda surf, tr, view: captured.append(view)  # type: ignore[assignment]
    try:
        scene._frames.clear()
        scene.draw(pygame.Surface((256, 192)), pygame.Surface((256, 192)))
    finally:
        play.draw_top = original
    return "Thinking" if captured and captured[0].thinking is not None else ""


class _Pondering(GameApi):
    """A game whose computer is always thinking: for the firmware's generic badge."""

    def update(self, inp) -> None:  # type: ignore[no-untyped-def]
        self.ticks = getattr(self, "ticks", 0) + 1

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        top.fill((200, 200, 200))

    def thinking_ticks(self) -> int:
        return getattr(self, "ticks", 0)

    def save_state(self) -> dict:
        return {}

    def load_state(self, state: dict) -> None:
        return None


def test_firmware_badge_appears_after_half_a_second(tmp_path: Path) -> None:
    from firmware.game_api import Cartridge, GameContext
    from firmware.scenes.game_scene import GameScene

    m = build_machine(tmp_path)
    cart = Cartridge("ponder", "Ponder", "", lambda s: None, _Pondering)
    ctx = GameContext(m, cart, {}, 0)
    m.push(GameScene(m, cart, ctx, _Pondering(ctx)))
    inside_badge = (m.top.get_width() - 19, 12)
    seen = []
    for _ in range(40):
        m.step()
        m.render()
        seen.append((m.game_scene().game.thinking_ticks(), tuple(m.top.get_at(inside_badge))[:3]))
    assert {p for t, p in seen if t >= 30} == {(24, 28, 40)}
    assert {p for t, p in seen if t < 30} == {(200, 200, 200)}


def test_pause_menu_opens_while_the_computer_thinks(tmp_path: Path) -> None:
    m = build_machine(tmp_path, seed=3)
    m.start_game("reversi", {"mode": "cpu", "level": "strong", "color": "white"})
    run(m, 3)
    from hal.interfaces import Button

    m.hal.input.script = lambda t: RawInput(held=frozenset({Button.START}))  # type: ignore[attr-defined]
    run(m, 1)
    assert m.scene.name == "pause"


def test_profile_comes_from_the_command_line_or_the_movie_args_line(tmp_path: Path) -> None:
    import argparse

    from firmware.boot_arguments import apply_movie_args, profile_of
    from firmware.movie import parse_movie

    text = "# twinfold movie 1\n# args: --game reversi --profile pi-zero-2w\n0 tap 1 1\n"
    movie = parse_movie(text)
    args = argparse.Namespace(game=None, seed=None, option=[], profile=None)
    apply_movie_args(args, movie, "m.txt")
    assert profile_of(args).name == "pi-zero-2w"
    args = argparse.Namespace(game=None, seed=None, option=[], profile="desktop")
    apply_movie_args(args, movie, "m.txt")
    assert profile_of(args).name == "desktop"  # the command line wins
    assert profile_of(argparse.Namespace()).name == "desktop"
