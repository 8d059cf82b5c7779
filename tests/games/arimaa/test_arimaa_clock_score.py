"""Time controls (R-ARI-TIME, claim 28) in ticks and the halted-game score (claim 29)."""

from __future__ import annotations

import pytest

from games.arimaa.rules.board import GOLD, SILVER, parse_square
from games.arimaa.rules.clock import Clock, TimeControl, TimeControlError
from games.arimaa.rules.game import Game
from games.arimaa.rules.position import named_setup
from games.arimaa.rules.score import score, score_winner

S = 60  # ticks per second


def test_parse_standard_notation() -> None:
    tc = TimeControl.parse("0:30/5/100/3/0/0")
    assert (tc.move, tc.reserve, tc.percent, tc.reserve_limit) == (30 * S, 300 * S, 100, 180 * S)
    assert (tc.game_time, tc.game_turns, tc.max_turn) == (0, 0, 0)
    tc2 = TimeControl.parse("1m30s/2/50/0/1:30/5")
    assert tc2.move == 90 * S and tc2.percent == 50
    assert tc2.game_time == 90 * 60 * S and tc2.max_turn == 300 * S
    assert TimeControl.parse("0:15/1/100/0/40t").game_turns == 40
    assert TimeControl.parse(tc2.notation()) == tc2


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("0:30", "expected"),
        ("abc/5", "M field"),
        ("0:30/x", "R field"),
        ("0:30/5/1x0", "P field"),
        ("0:30/5/100/3/4q", "G field"),
        ("0:30/5/100/3/0/zz", "T field"),
        ("0:30/5/150", "over 100"),
        ("/5", "required"),
    ],
)
def test_malformed_time_controls_name_the_field(text: str, field: str) -> None:
    with pytest.raises(TimeControlError, match=field):
        TimeControl.parse(text)


def test_reserve_accrues_by_percentage_and_is_capped() -> None:
    clock = Clock(TimeControl.parse("0:30/1/50/1:10"))
    clock.tick(GOLD, 10 * S)  # 20 s unused, 50% = 10 s added
    clock.turn_done(GOLD)
    assert clock.reserves[GOLD] == 70 * S
    clock.tick(GOLD, 0)
    clock.turn_done(GOLD)  # 30 s unused -> 15 s, capped at 70 s
    assert clock.reserves[GOLD] == 70 * S
    clock.tick(SILVER, 40 * S)  # 10 s over M comes out of the reserve
    clock.turn_done(SILVER)
    assert clock.reserves[SILVER] == 50 * S


def test_loss_on_time_after_m_plus_reserve() -> None:
    clock = Clock(TimeControl.parse("0:30/0:20"))
    assert clock.allowed(GOLD) == 50 * S
    assert clock.tick(GOLD, 50 * S) is None
    assert clock.tick(GOLD, 1) == "time"


def test_maximum_turn_time_t_limits_the_turn() -> None:
    clock = Clock(TimeControl.parse("0:30/10/100/0/0/0:40"))
    assert clock.allowed(GOLD) == 40 * S
    assert clock.tick(GOLD, 40 * S + 1) == "time"


def test_game_loses_on_time_through_ticks() -> None:
    game = Game(TimeControl.parse("0:01/0"))
    assert game.tick(S) is None
    result = game.tick(1)
    assert result is not None and (result.winner, result.reason) == (SILVER, "time")


def test_game_time_limit_halts_and_scores() -> None:
    game = Game(TimeControl.parse("0:30/5/100/0/0:01"))
    game.setup(named_setup(GOLD, "default"))
    game.setup(named_setup(SILVER, "default"))
    result = None
    for _ in range(60):
        result = game.tick(S)
        if result:
            break
    assert result is not None and result.reason == "score" and result.winner is None  # equal


def test_turn_limit_halts_after_g_turns_then_scores() -> None:
    game = Game(TimeControl.parse("0:30/5/100/0/2t"))
    game.setup(named_setup(GOLD, "default"))
    game.setup(named_setup(SILVER, "default"))
    game.play_turn(
        [(parse_square("a2"), parse_square("a3")), (parse_square("a3"), parse_square("a4"))]
    )
    assert game.result is None
    game.play_turn([(parse_square("h7"), parse_square("h6"))])
    assert game.result is not None and game.result.reason == "score"
    # gold's rabbit... none moved; gold moved a horse forward, silver a horse: equal score
    assert game.result.winner == score_winner(game.position.boards)


def test_score_formula_by_hand() -> None:
    boards = [0] * 12
    boards[0] = (1 << parse_square("a2")) | (1 << parse_square("b8"))  # rows 2 and 8
    boards[5] = 1 << parse_square("d4")  # elephant
    boards[6] = 1 << parse_square("a7")  # silver rabbit, row 2 from silver's side
    boards[6 + 1] = 1 << parse_square("c8")  # silver cat
    # gold: Rp = 2^3 + 8^3 = 520, P = 1 + 1 + 6 = 8, C = 2 -> 520 + 8 * 3 = 544
    assert score(tuple(boards), GOLD) == 544
    # silver: Rp = 2^3 = 8, P = 1 + 2 = 3, C = 1 -> 8 + 3 * 2 = 14
    assert score(tuple(boards), SILVER) == 14
    assert score_winner(tuple(boards)) == GOLD
