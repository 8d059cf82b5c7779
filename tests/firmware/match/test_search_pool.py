"""The search pool (issue 36): a split Arimaa turn search gives the same turn and value on
one process, on a pool, and (at a fixed depth) as the unsplit search; a pool process killed
mid-search costs its part one retry, never a hang; the landing tick's makespan."""

from __future__ import annotations

import os
import random
import signal
from typing import Any

from firmware.match.driver import Match, Seat
from firmware.match.pool import SearchPool
from firmware.match.seats import MIN_THINK_TICKS, ComputerSeat, LocalSeat, makespan
from games.arimaa.ai.goal import find_goal
from games.arimaa.ai.levels import searcher_for
from games.arimaa.ai.search import Limits, Searcher
from games.arimaa.ai.split import join, run_parts
from games.arimaa.match import (
    SPLIT_PARTS,
    ArimaaAction,
    ArimaaComputer,
    ArimaaRules,
)
from games.arimaa.rules.game import Game
from games.arimaa.rules.position import Position
from games.arimaa.rules.randomplay import sparse_boards
from games.reversi.ai.players import STRONGEST, join_parts, split_root
from games.reversi.ai.search import Search
from games.reversi.ai.search import Thinker as ReversiThinker
from games.reversi.match import ReversiComputer, ReversiRules
from games.reversi.rules import Game as ReversiGame


def _game(seed: int, pieces: int = 9) -> Game:
    """A position with few pieces (a whole turn is quick to search), no goal this turn."""
    rng = random.Random(seed)
    while True:
        game = Game(start=Position(sparse_boards(rng, pieces), rng.randrange(2)))
        pos = game.position
        if find_goal(pos.boards, pos.side) is None and len(game.legal_turns()) > 30:
            return game


def _in_one_process(parts: list[Any], rules: Any, seat: int) -> tuple[list[Any], list[int]]:
    """Each part's result and units, one after another in this process."""
    results, units = [], []
    for part in parts:
        thinker = part.start(rules, seat)
        while (done := thinker.think(50_000)) is None:
            pass
        results.append(done)
        units.append(thinker.units)
    return results, units


def _on_a_pool(parts: list[Any], rules: Any, seat: Any, size: int) -> tuple[list[Any], list[int]]:
    """The parts' results and units from a fresh pool of `size` processes."""
    pool = SearchPool(size)
    try:
        pool.submit(parts, rules, seat)
        answer = pool.poll(wait_for=True)
    finally:
        pool.close()
    assert answer is not None
    return answer


def _rules(seed: int) -> ArimaaRules:
    rules = ArimaaRules.new(None)
    rules.game = _game(seed)
    return rules


def test_split_search_agrees_with_the_whole_search_at_a_fixed_depth() -> None:
    """A whole turn (depth 4) split three ways: the same best value as in one search (and
    the same depth: both stop early on a win)."""
    for seed in (11, 12, 13):
        pos = _game(seed).position
        whole = Searcher(pos.boards, pos.side, Limits(depth=4, full_turn=True))
        whole.run()
        parts = [
            Searcher(pos.boards, pos.side, Limits(depth=4, full_turn=True), part=(i, 3))
            for i in range(3)
        ]
        _, score, depth = run_parts(parts)
        assert (score, depth) == (whole.score, whole.depth_done)


def test_pool_and_one_process_choose_the_same_turn() -> None:
    rules = _rules(13)
    player = ArimaaComputer(3, 1)
    parts = player.split(rules, rules.to_move())
    assert parts is not None and len(parts) == SPLIT_PARTS
    results, _ = _in_one_process(parts, rules, rules.to_move())
    answer = _on_a_pool(parts, rules, rules.to_move(), 2)
    assert player.join(rules, rules.to_move(), answer[0]) == player.join(
        rules, rules.to_move(), results
    )
    pos = rules.game.position
    assert join(pos.boards, pos.side, answer[0]) == join(pos.boards, pos.side, results)


def test_a_killed_pool_process_costs_one_retried_part_never_a_hang() -> None:
    rules = _rules(14)
    player = ArimaaComputer(3, 2)
    parts = player.split(rules, rules.to_move())
    assert parts is not None
    pool = SearchPool(2)
    try:
        pool.submit(parts, rules, rules.to_move())
        os.kill(pool.pids[0], signal.SIGKILL)
        answer = pool.poll(wait_for=True)
        assert answer is not None and pool.retried == 1
        reference = _on_a_pool(parts, rules, rules.to_move(), 1)
        assert answer[0] == reference[0]
    finally:
        pool.close()


def test_makespan_gives_each_part_to_the_first_free_process() -> None:
    assert makespan([5, 3, 4], 3) == 5
    assert makespan([5, 3, 4], 2) == 7  # 5 | 3 then 4
    assert makespan([5, 3, 4], 1) == 12
    assert makespan([], 3) == 0


def test_the_whole_search_of_a_level_is_unchanged_by_the_part_argument() -> None:
    game = _game(15)
    a = searcher_for(game, 2)
    b = searcher_for(game, 2, part=(0, 1))
    assert a.run() == b.run() and a.nodes == b.nodes


def test_a_seat_with_cores_plays_the_split_decision_at_the_makespans_tick() -> None:
    """Through the match layer: a computer seat given two cores runs the three parts on its
    pool and plays the joined turn at the poll its makespan on two processes fixes."""
    rules = _rules(16)
    me = rules.to_move()
    player = ArimaaComputer(3, 3)
    parts = player.split(rules, me)
    assert parts is not None
    results, units = _in_one_process(parts, rules, me)
    expected = player.join(rules, me, results)
    budget = 5_000
    due = max(MIN_THINK_TICKS, -(-makespan(units, 2) // budget))
    seats: list[Seat[ArimaaAction]] = [LocalSeat(), LocalSeat()]
    computer = ComputerSeat(player, budget, worker=True, cores=2)
    seats[me] = computer
    match = Match(rules, seats)
    try:
        polls = 0
        while len(match.history) == 0:
            match.step()
            polls += 1
            assert polls <= due
        assert polls == due and computer._pool is not None
        assert match.history[0].data == rules.encode(expected)
    finally:
        computer.close()


def _reversi(empties: int, seed: int) -> ReversiRules:
    rng = random.Random(seed)
    while True:
        game = ReversiGame()
        while not game.over and 64 - sum(game.score().values()) > empties:
            game.play(rng.choice(sorted(game.legal())))
        if not game.over and len(game.legal()) >= 6:
            return ReversiRules(ReversiGame(game.position))


def test_reversi_split_search_agrees_with_the_whole_search_at_a_fixed_depth() -> None:
    """Root moves dealt to three searches: at a fixed depth the best of their values is the
    whole search's value, and the joined move is one with that value."""
    for seed in (1, 2):
        pos = _reversi(40, seed).game.position
        p, o = pos.player, pos.opponent
        whole = ReversiThinker(Search(p, o, max_depth=4, node_limit=10**9)).finish()
        masks = split_root(pos, STRONGEST, 3)
        assert masks is not None and sum(m.bit_count() for m in masks) == len(
            ReversiGame(pos).legal()
        )
        results = []
        for mask in masks:
            search = Search(p, o, max_depth=4, node_limit=10**9, root_moves=mask)
            final = ReversiThinker(search).finish()
            results.append((search.iterations, final.depth))
        best = max(it[-1][1] for it, _ in results)
        assert best == whole.score
        chosen = join_parts(results)
        assert any(it[-1][2] == chosen and it[-1][1] == best for it, _ in results)


def test_reversi_pool_and_one_process_choose_the_same_move() -> None:
    rules = _reversi(40, 3)
    me = rules.to_move()
    assert me is not None
    player = ReversiComputer(STRONGEST, 1, tick_budget=2_000)
    parts = player.split(rules, me)
    assert parts is not None and len(parts) == 3
    results, _ = _in_one_process(parts, rules, me)
    answer = _on_a_pool(parts, rules, me, 2)
    assert answer[0] == results
    assert player.join(rules, me, answer[0]) == player.join(rules, me, results)
