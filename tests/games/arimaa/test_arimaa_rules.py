"""Scenario tests for every rule: steps, freezing, captures, pushes and pulls, whole turns,
end of game in the official order, repetition and immobilisation (R-ARI-TURN, R-ARI-END)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.arimaa.rules.board import GOLD, SILVER, parse_square
from games.arimaa.rules.game import Game, IllegalStep
from games.arimaa.rules.notation import parse_diagram, write_turn
from games.arimaa.rules.position import (
    NAMED_SETUPS,
    Position,
    check_boards,
    named_setup,
    random_setup,
    validate_setup,
)
from games.arimaa.rules.randomplay import random_game
from games.arimaa.rules.steps import turn_results


def board(rows: str, side: int = GOLD) -> Game:
    """A game started from a diagram given as 8 rows of 8 cells (rank 8 first)."""
    lines = [" +-----------------+"]
    for i, row in enumerate(rows.split()):
        lines.append(f"{8 - i}| {' '.join(row)} |")
    lines += [" +-----------------+", "   a b c d e f g h"]
    pos, _ = parse_diagram("\n".join(lines))
    return Game(start=Position(pos.boards, side))


def sq(name: str) -> int:
    return parse_square(name)


def at(game: Game, name: str) -> str | None:
    piece = game.current.piece_at(sq(name))
    if piece is None:
        return None
    return "RCDHME"[piece[1]] if piece[0] == GOLD else "rcdhme"[piece[1]]


EMPTYISH = """
r.......
........
........
........
........
........
........
.......R
"""


# ---- setup ------------------------------------------------------------------------------------
def test_setup_validation_rejects_wrong_rank_and_counts() -> None:
    good = named_setup(GOLD, "default")
    validate_setup(GOLD, good)
    moved = dict(good)
    kind = moved.pop(sq("a1"))
    moved[sq("a3")] = kind
    with pytest.raises(ValueError, match="ranks 1-2"):
        validate_setup(GOLD, moved)
    swapped = dict(good)
    swapped[sq("a1")] = 5  # a second elephant, one rabbit short
    with pytest.raises(ValueError, match="needs"):
        validate_setup(GOLD, swapped)
    with pytest.raises(ValueError):
        validate_setup(SILVER, good)  # gold's squares for silver


def test_named_and_random_setups_are_legal() -> None:
    for name in NAMED_SETUPS:
        for side in (GOLD, SILVER):
            validate_setup(side, named_setup(side, name))
    rng = random.Random(3)
    for side in (GOLD, SILVER):
        validate_setup(side, random_setup(side, rng))


def test_game_flow_setup_then_gold_moves() -> None:
    game = Game()
    assert game.in_setup and game.side_to_move == GOLD
    with pytest.raises(IllegalStep):
        game.step("d2", "d3")
    game.setup(named_setup(GOLD, "default"))
    assert game.side_to_move == SILVER
    game.setup(named_setup(SILVER, "default"))
    assert not game.in_setup and game.side_to_move == GOLD and game.turn_label == "2g"


# ---- steps, rabbits, freezing -----------------------------------------------------------------
def test_rabbit_cannot_step_backwards_but_others_can() -> None:
    game = board("""
    ........
    ........
    ........
    ...r....
    ........
    ...R..D.
    ........
    ........
    """)
    targets = {s.to for s in game.legal_steps() if s.frm == sq("d3")}
    assert targets == {sq("c3"), sq("e3"), sq("d4")}
    assert sq("g2") in {s.to for s in game.legal_steps() if s.frm == sq("g3")}
    with pytest.raises(IllegalStep, match="backwards"):
        game.step("d3", "d2")


def test_frozen_piece_cannot_move_until_a_friend_arrives() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ...e....
    ...D....
    ........
    ......R.
    """)
    assert game.frozen_squares() == [sq("d3")]
    with pytest.raises(IllegalStep, match="frozen"):
        game.step("d3", "c3")
    game2 = board("""
    ........
    ........
    ........
    ........
    ...e....
    ...D....
    ...R....
    ........
    """)
    assert game2.frozen_squares() == []
    assert any(s.frm == sq("d3") for s in game2.legal_steps())


def test_a_turn_cannot_end_unchanged_or_with_no_step() -> None:
    game = board(EMPTYISH)
    assert game.can_end_turn() == (False, "take at least one step")
    game.step("h1", "g1")
    game.step("g1", "h1")
    ok, why = game.can_end_turn()
    assert not ok and "change" in why
    game.undo_step()
    assert game.can_end_turn() == (True, None)


# ---- captures ---------------------------------------------------------------------------------
def test_stepping_onto_an_unprotected_trap_captures_the_mover() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ........
    ........
    ..D.....
    R.......
    """)
    assert game.capture_if(sq("c2"), sq("c3")) == (sq("c3"), GOLD, 2)
    step = game.step("c2", "c3")
    assert step.captured == (sq("c3"), GOLD, 2)
    assert at(game, "c3") is None
    assert write_turn(game.turn_steps) == "Dc2n Dc3x"


def test_protection_lost_mid_turn_captures_the_piece_left_on_the_trap() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ........
    ..D.....
    ..C.....
    R.......
    """)
    assert at(game, "c3") == "D"  # protected by the cat
    step = game.step("c2", "b2")
    assert step.captured == (sq("c3"), GOLD, 2)
    assert at(game, "c3") is None and at(game, "b2") == "C"
    game.undo_step()
    assert at(game, "c3") == "D" and at(game, "c2") == "C"


def test_two_protectors_one_leaves_no_capture() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ........
    .CD.....
    ..C.....
    R.......
    """)
    assert game.step("c2", "d2").captured is None
    assert at(game, "c3") == "D"


def test_pushed_and_pulled_enemies_are_captured_on_traps() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ........
    ........
    ..cE....
    R.......
    """)
    push_start = game.step("c2", "c3")  # the silver cat pushed onto the trap
    assert push_start.role == "push" and push_start.captured == (sq("c3"), SILVER, 1)
    game.step("d2", "c2")
    assert at(game, "c2") == "E" and at(game, "c3") is None
    game2 = board("""
    ........
    ........
    ........
    ........
    ........
    ...c....
    ...E....
    R.......
    """)
    game2.step("d2", "e2")
    pull = game2.step("d3", "d2")
    assert pull.role == "pull" and pull.captured is None
    game3 = board("""
    ........
    ........
    ........
    ........
    ........
    ........
    ..Ed....
    R.......
    """)
    game3.step("c2", "b2")
    assert game3.step("d2", "c2").role == "pull"
    game3.undo_step()
    game3.undo_step()
    game3.step("c2", "c3")  # elephant steps onto the trap (captured), then pulls: legal
    pull = game3.step("d2", "c2")
    assert pull.role == "pull" and at(game3, "c3") is None


# ---- push / pull edge cases -------------------------------------------------------------------
def test_frozen_pusher_cannot_push() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ...m....
    ...Hr...
    ........
    ......R.
    """)
    assert sq("d3") in game.frozen_squares()
    assert not any(s.frm == sq("e3") for s in game.legal_steps())
    assert game.actions_from(sq("d3")) == []


def test_rabbit_can_be_pushed_backwards() -> None:
    game = board("""
    ........
    ........
    ........
    ....r...
    ....D...
    ........
    ........
    R.......
    """)
    actions = game.actions_from(sq("e4"))
    push_north = [a for a in actions if a.kind == "push" and a.victim_to == sq("e6")]
    assert push_north, actions  # north is backwards for a silver rabbit
    game.step("e5", "e6")
    game.step("e4", "e5")
    assert at(game, "e6") == "r" and at(game, "e5") == "D"


def test_push_must_be_completed_and_needs_two_steps() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ....r...
    ....D...
    ........
    R.......
    """)
    game.step("e4", "f4")
    assert game.pending_push == sq("e4")
    assert game.can_end_turn() == (False, "finish the push first")
    with pytest.raises(IllegalStep, match="finish the push"):
        game.step("a1", "a2")
    game.step("e3", "e4")
    game.step("a1", "a2")
    game.step("a2", "a3")
    # one step left: no push can start
    assert not any(s.role == "push" for s in game.legal_steps())


def test_pull_after_push_sequence() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ...c....
    ...D....
    ....Er..
    R.......
    """)
    game.step("d4", "d5")
    game.step("d3", "d4")
    assert not any(s.role == "pull" for s in game.legal_steps())
    game.step("e2", "e1")
    pull = game.step("f2", "e2")
    assert pull.role == "pull"
    assert game.can_end_turn() == (True, None)
    game.end_turn()
    assert write_turn(game.turns[-1]) == "cd4n Dd3n Ee2s rf2w"


def test_equal_strength_cannot_push() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ....d...
    ....D...
    ........
    R.......
    """)
    assert not [a for a in game.actions_from(sq("e3")) if a.kind != "step"]


def test_actions_from_lists_steps_pushes_and_pulls() -> None:
    game = board("""
    ........
    ........
    ........
    ........
    ....c...
    ....E...
    ........
    R.......
    """)
    actions = game.actions_from(sq("e3"))
    kinds = {a.kind for a in actions}
    assert kinds == {"step", "push", "pull"}
    for action in actions:
        for frm, to in action.steps:
            game.step(frm, to)
        for _ in action.steps:
            game.undo_step()
    pulls = [a for a in actions if a.kind == "pull"]
    assert {a.target for a in pulls} == {sq("d3"), sq("f3"), sq("e2")}


# ---- whole turns ------------------------------------------------------------------------------
def test_turn_results_are_distinct_and_legal() -> None:
    game = random_game(11, 12)
    results = game.legal_turns()
    assert results
    for boards, steps in list(results.items())[:40]:
        game.play_turn(list(steps))
        assert game.position.boards == boards
        # undo by rebuilding from the record
        game = Game.from_json(
            {**game.to_json(), "turns": game.to_json()["turns"][:-1], "result": None}
        )


# ---- end of game, in order --------------------------------------------------------------------
GOAL_BOARD = """
........
R.......
........
........
........
...E....
...r...m
........
"""


def test_mover_wins_when_both_sides_rabbits_reach_goal_in_one_turn() -> None:
    game = board(GOAL_BOARD)
    game.play_turn([(sq("d2"), sq("d1")), (sq("d3"), sq("d2")), (sq("a7"), sq("a8"))])
    assert game.result is not None and (game.result.winner, game.result.reason) == (GOLD, "goal")


def test_opponent_rabbit_pushed_into_its_goal_wins_for_the_opponent() -> None:
    game = board(GOAL_BOARD)
    game.play_turn([(sq("d2"), sq("d1")), (sq("d3"), sq("d2")), (sq("a7"), sq("b7"))])
    assert game.result is not None and (game.result.winner, game.result.reason) == (SILVER, "goal")


def test_rabbit_passing_through_the_goal_does_not_win() -> None:
    game = board(GOAL_BOARD)
    game.step("d2", "d1")
    game.step("d3", "d2")
    game.step("d2", "e2")
    pull = game.step("d1", "d2")
    assert pull.role == "pull"
    game.end_turn()
    assert game.result is None


ELIMINATION_BOARD = """
........
.......m
........
.....E..
.....r..
..R.....
..D.....
........
"""


def test_both_sides_lose_their_last_rabbit_in_one_turn_mover_wins() -> None:
    game = board(ELIMINATION_BOARD)
    game.play_turn([(sq("f4"), sq("f3")), (sq("f5"), sq("f4")), (sq("c2"), sq("b2"))])
    assert not game.position.rabbits(GOLD) and not game.position.rabbits(SILVER)
    assert (game.result.winner, game.result.reason) == (GOLD, "elimination")


def test_mover_losing_its_last_rabbit_loses() -> None:
    game = board(ELIMINATION_BOARD)
    game.play_turn([(sq("c2"), sq("b2"))])
    assert (game.result.winner, game.result.reason) == (SILVER, "elimination")


def test_goal_is_checked_before_elimination() -> None:
    game = board("""
    ........
    R.......
    ........
    ........
    ........
    ..R.....
    ..D.....
    ......r.
    """)
    # gold's rabbit reaches goal and gold's other rabbit is captured: goal decides first
    game.play_turn([(sq("a7"), sq("a8")), (sq("c2"), sq("b2"))])
    assert (game.result.winner, game.result.reason) == (GOLD, "goal")


def test_immobilised_opponent_loses() -> None:
    game = board("""
    r.......
    M.......
    ........
    ........
    ........
    ........
    .......R
    ........
    """)
    game.play_turn([(sq("h2"), sq("g2"))])
    assert (game.result.winner, game.result.reason) == (GOLD, "immobilisation")


def test_immobilised_when_every_turn_would_be_a_third_repetition() -> None:
    game = board("""
    r.......
    ........
    .R......
    ........
    ........
    ........
    .......R
    ........
    """)
    after = game.current.boards
    after = (after[0] ^ (1 << sq("h2")) ^ (1 << sq("g2")), *after[1:])
    for result in turn_results(after, SILVER):
        game.repetitions[(result, GOLD)] = 2
    game.play_turn([(sq("h2"), sq("g2"))])
    assert (game.result.winner, game.result.reason) == (GOLD, "immobilisation")


def test_third_repetition_is_not_allowed() -> None:
    game = board("""
    .......e
    r.......
    ........
    ........
    ........
    ........
    R.......
    .......E
    """)
    cycle = [("h1", "h2"), ("h8", "h7"), ("h2", "h1"), ("h7", "h8")]
    for frm, to in cycle:  # the start position now occurred twice
        game.play_turn([(sq(frm), sq(to))])
    for frm, to in cycle[:3]:
        game.play_turn([(sq(frm), sq(to))])
    game.step("h7", "h8")
    ok, why = game.can_end_turn()
    assert not ok and "third" in why
    assert all(b != game.current.boards for b in game.legal_turns())
    game.undo_step()
    game.step("h7", "g7")
    assert game.can_end_turn() == (True, None)


def test_resignation() -> None:
    game = board(EMPTYISH)
    assert game.resign(GOLD).winner == SILVER
    with pytest.raises(IllegalStep):
        game.step("h1", "g1")


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    turns=st.integers(0, 25),
    picks=st.lists(st.integers(0, 999), max_size=4),
)
def test_steps_keep_invariants_undo_and_resume_mid_turn(
    seed: int, turns: int, picks: list[int]
) -> None:
    game = random_game(seed, turns)
    if game.result is not None:
        return
    start = json.dumps(game.to_json())
    for pick in picks:
        steps = game.legal_steps()
        if not steps:
            break
        step = steps[pick % len(steps)]
        game.step(step.frm, step.to)
        check_boards(game.boards)  # no unprotected piece left on a trap
        assert game.current.piece_at(step.to) is not None or step.captured is not None
    resumed = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert resumed.boards == game.boards and resumed.turn_steps == game.turn_steps
    while game.turn_steps:
        game.undo_step()
    assert json.dumps(game.to_json()) == start
