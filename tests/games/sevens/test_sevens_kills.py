"""Kills on hand-built tables: single cards, rectangles under each maximum, walls, shapes."""

from __future__ import annotations

import pytest
from sevens_tables import border, cards, killed_cards, rect, table

from games.sevens.rules import Options, parse_card
from games.sevens.rules.options import MAX_KILL_CHOICES


@pytest.mark.parametrize(
    ("played", "move", "victim"),
    [
        ("2S", "AH", "AS"),  # corner: two sides are wall
        ("AH AC", "2D", "AD"),  # left edge: one side is wall
        ("5S 5D 4H", "6H", "5H"),  # middle: four played neighbours
        ("5S 5D", "4H", None),  # 5♥ still has 6♥ free: no kill
    ],
)
def test_single_card_kills(played: str, move: str, victim: str | None) -> None:
    for max_kill in MAX_KILL_CHOICES:
        game = table(cards(played), cards(move), options=Options(max_kill=max_kill))
        events = game.play(parse_card(move))
        if victim is None:
            assert killed_cards(events) == set()
            continue
        assert killed_cards(events) == {parse_card(victim)}
        kill = next(e for e in events if e["type"] == "kill")
        assert kill["killer"] == 0
        assert kill["victims"] == [game.owner[parse_card(victim)]]
        assert game.killed_count[game.owner[parse_card(victim)]] == 1
        assert game.kills_count[0] == 1


# rectangles placed so that, once their border is played, nothing else on the table is an
# enclosed rectangle: (rows, columns, the border card played last)
RECTANGLES = {
    2: ((1, 1, 2, 3), "5H"),
    4: ((1, 2, 2, 3), "5H"),
    6: ((1, 2, 2, 4), "6H"),
    9: ((0, 2, 2, 4), "6S"),
    12: ((1, 3, 7, 10), "QH"),
}


@pytest.mark.parametrize("size", sorted(RECTANGLES))
@pytest.mark.parametrize("max_kill", MAX_KILL_CHOICES)
def test_rectangles_die_only_up_to_the_maximum(size: int, max_kill: int) -> None:
    bounds, last = RECTANGLES[size]
    group = rect(*bounds)
    assert len(group) == size
    mover = parse_card(last)
    played = border(group) - {mover}
    game = table(played, [mover], options=Options(max_kill=max_kill))
    events = game.play(mover)
    expected = group if size <= max_kill else set()
    assert killed_cards(events) == expected
    if expected:
        assert game.kills_count[0] == size
        assert sum(game.killed_count) == size


@pytest.mark.parametrize("max_kill", MAX_KILL_CHOICES)
@pytest.mark.parametrize("three_walls", [False, True])
def test_three_wall_rectangles_need_the_option(max_kill: int, three_walls: bool) -> None:
    # the A column: wall above, below and to the left
    group = rect(0, 3, 0, 0)
    mover = parse_card("2C")
    game = table(border(group) - {mover}, [mover], options=Options(max_kill, three_walls))
    events = game.play(mover)
    dies = three_walls and max_kill >= 4
    assert killed_cards(events) == (group if dies else set())

    # the A and 2 columns: 8 cards, three walls
    group = rect(0, 3, 0, 1)
    mover = parse_card("3H")
    game = table(border(group) - {mover}, [mover], options=Options(max_kill, three_walls))
    events = game.play(mover)
    dies = three_walls and max_kill >= 8
    assert killed_cards(events) == (group if dies else set())


@pytest.mark.parametrize("three_walls", [False, True])
def test_two_wall_rectangles_die_either_way(three_walls: bool) -> None:
    group = rect(0, 1, 0, 1)  # top-left corner: A♠ 2♠ A♥ 2♥
    mover = parse_card("2D")
    game = table(border(group) - {mover}, [mover], options=Options(9, three_walls))
    assert killed_cards(game.play(mover)) == group
    group = rect(2, 3, 10, 12)  # bottom-right corner, 6 cards
    mover = parse_card("JH")
    game = table(border(group) - {mover}, [mover], options=Options(6, three_walls))
    assert killed_cards(game.play(mover)) == group


@pytest.mark.parametrize(
    "shape",
    [
        {(0, 0), (0, 1), (1, 0)},  # L in a corner
        {(1, 2), (1, 3), (1, 4), (2, 3)},  # T in the middle
        {(1, 2), (2, 2), (2, 3)},  # small L in the middle
        {(0, 3), (1, 3), (1, 4)},
    ],
)
@pytest.mark.parametrize("max_kill", MAX_KILL_CHOICES)
def test_enclosed_groups_that_are_not_rectangles_never_die(
    shape: set[tuple[int, int]], max_kill: int
) -> None:
    group = {r * 13 + c for r, c in shape}
    edge = sorted(border(group))
    mover = edge[-1]
    game = table(set(edge) - {mover}, [mover], options=Options(max_kill, True))
    events = game.play(mover)
    assert killed_cards(events) == set()
    assert sum(game.killed_count) == 0


def test_one_play_can_kill_several_groups() -> None:
    # 6♥ closes 5♥ (left), 7♥ (right) and 6♠ (above, between 5♠ and 7♠)
    game = table(cards("5S 5D 4H 7S 8H"), cards("6H"))
    events = game.play(parse_card("6H"))
    kills = [e for e in events if e["type"] == "kill"]
    assert len(kills) == 3
    assert killed_cards(events) == set(cards("5H 7H 6S"))
    assert game.kills_count[0] == 3


def test_a_group_and_a_single_card_in_one_play() -> None:
    # playing 5♥ closes the 2-card group 3♥ 4♥ and the single 5♠
    game = table(cards("3S 4S 3D 4D 2H 6S"), cards("5H"))
    events = game.play(parse_card("5H"))
    assert killed_cards(events) == set(cards("3H 4H 5S"))
    assert len([e for e in events if e["type"] == "kill"]) == 2


def test_own_cards_are_killed_too_and_credited_to_the_player() -> None:
    owners = {parse_card("AS"): 0}
    game = table(cards("2S"), cards("AH QC"), owners=owners)
    events = game.play(parse_card("AH"))
    kill = next(e for e in events if e["type"] == "kill")
    assert kill["victims"] == [0] and kill["killer"] == 0
    assert game.killed_count[0] == 1 and game.kills_count[0] == 1
    assert parse_card("AS") not in game.hand(0)
