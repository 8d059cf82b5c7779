"""Scoring arithmetic for every yaku and combination of yaku, and the end at the target."""

from __future__ import annotations

import pytest

from games.panels.rules.actions import Determine, Place, Select
from games.panels.rules.combination import PERFECT, RING, SAME_NUMBER, SEQUENCE, evaluate
from games.panels.rules.positions import card as c
from games.panels.rules.positions import field_of, position

# (name, rows, placed cards, new square, new card, expected kinds, expected points)
CASES = [
    # 2 cards, new card keeps an open upper connector: same number only = 2 x 10
    ("same", ["..", ".."], {(1, 0): c(3, "0100")}, (1, 1), c(3, "1001"), [SAME_NUMBER], 20),
    # 3-card run 1,2,3 from the new card, ends open: sequence only = 3 x 10
    (
        "sequence",
        ["...", "..."],
        {(1, 1): c(2, "1101"), (1, 2): c(3, "0001")},
        (1, 0),
        c(1, "0100"),
        [SEQUENCE],
        30,
    ),
    # descending run 5,4 with open ends
    ("sequence down", ["..", ".."], {(1, 1): c(4, "1001")}, (1, 0), c(5, "1100"), [SEQUENCE], 20),
    # 2x2 ring of 1,3,5,2 with one open connector: ring only = 4 x 10
    (
        "ring",
        ["..", "..", ".."],
        {(0, 0): c(1, "0110"), (1, 0): c(3, "1110"), (1, 1): c(5, "1001")},
        (0, 1),
        c(2, "0011"),
        [RING],
        40,
    ),
    # 2 closed cards 1 and 4: perfect only = 2 x 20
    ("perfect", [".."], {(0, 0): c(1, "0100")}, (0, 1), c(4, "0001"), [PERFECT], 40),
    # same number + perfect: 2 x 10 + 2 x 20
    (
        "same+perfect",
        [".."],
        {(0, 0): c(2, "0100")},
        (0, 1),
        c(2, "0001"),
        [SAME_NUMBER, PERFECT],
        60,
    ),
    # sequence + perfect (3 cards 3,4,5 closed): 3 x 10 + 3 x 20
    (
        "sequence+perfect",
        ["..."],
        {(0, 1): c(4, "0101"), (0, 2): c(5, "0001")},
        (0, 0),
        c(3, "0100"),
        [SEQUENCE, PERFECT],
        90,
    ),
    # ring + perfect (numbers differ): 4 x 10 + 4 x 20
    (
        "ring+perfect",
        ["..", ".."],
        {(0, 0): c(1, "0110"), (1, 0): c(3, "1100"), (1, 1): c(5, "1001")},
        (0, 1),
        c(2, "0011"),
        [RING, PERFECT],
        120,
    ),
    # same number + ring (FIG. 37 with one open connector): 40 + 40
    (
        "same+ring",
        ["..", "..", ".."],
        {(0, 0): c(4, "0110"), (1, 0): c(4, "1110"), (1, 1): c(4, "1001")},
        (0, 1),
        c(4, "0011"),
        [SAME_NUMBER, RING],
        80,
    ),
    # same number + ring + perfect: 40 + 40 + 80
    (
        "same+ring+perfect",
        ["..", ".."],
        {(0, 0): c(4, "0110"), (1, 0): c(4, "1100"), (1, 1): c(4, "1001")},
        (0, 1),
        c(4, "0011"),
        [SAME_NUMBER, RING, PERFECT],
        160,
    ),
    # three separate groups from right, down, left: each same number + perfect, 3 x (20 + 40)
    (
        "three groups",
        ["...", "..."],
        {(0, 0): c(5, "0100"), (0, 2): c(5, "0001"), (1, 1): c(5, "1000")},
        (0, 1),
        c(5, "0111"),
        [SAME_NUMBER, PERFECT, SAME_NUMBER, PERFECT, SAME_NUMBER, PERFECT],
        180,
    ),
    # one branching group of four 5s: same number counts whatever the shape, 40 + 80
    (
        "branching same",
        ["...", "..."],
        {(0, 1): c(5, "0111"), (0, 2): c(5, "0001"), (1, 1): c(5, "1000")},
        (0, 0),
        c(5, "0100"),
        [SAME_NUMBER, PERFECT],
        120,
    ),
    ("no yaku", ["..", ".."], {(1, 0): c(1, "0100")}, (1, 1), c(4, "1001"), [], 0),
]


@pytest.mark.parametrize(
    ("rows", "cards", "square", "new", "kinds", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_points_for_each_yaku_and_combination(rows, cards, square, new, kinds, expected) -> None:
    fld = field_of(rows, cards)
    fld.put(square, new)
    found = evaluate(fld, fld.index(square), 0)
    assert [y.kind for y in found] == kinds
    assert sum(y.points for y in found) == expected


def test_branching_group_from_one_connector_is_not_a_sequence() -> None:
    # new card 1 joins a card 2 that branches to 3 (right) and 3 (down): one group of 4
    fld = field_of(
        ["...", "..."], {(0, 1): c(2, "0111"), (0, 2): c(3, "0001"), (1, 1): c(3, "1000")}
    )
    fld.put((0, 0), c(1, "0100"))
    found = evaluate(fld, 0, 0)
    assert [y.kind for y in found] == [PERFECT]
    assert found[0].cards == 4 and found[0].points == 80


def test_score_accumulates_through_determine() -> None:
    st = position([".."], {(0, 0): c(2, "0100")}, [c(2, "0001")])
    before = st.players[0].score = 25
    st.apply(Select(0, 0))
    st.apply(Place(0, (0, 1)))
    st.apply(Determine(0))
    assert st.players[0].score == before + 60
    assert st.players[0].yaku == 2


def test_reaching_the_target_ends_the_game_with_the_mover_winning() -> None:
    st = position([".."], {(0, 0): c(2, "0100")}, [c(2, "0001")], target=100)
    st.players[0].score = 40  # + 60 = 100: exactly the target
    st.apply(Select(0, 0))
    st.apply(Place(0, (0, 1)))
    events = st.apply(Determine(0))
    assert st.over and st.winner == 0 and st.end_reason == "target"
    assert events[-1] == {"event": "game_over", "reason": "target", "winner": 0}
    assert st.legal_actions() == []


def test_below_the_target_the_game_goes_on() -> None:
    st = position(["...", "..."], {(0, 0): c(2, "0100")}, [c(2, "0001")], target=101)
    st.players[0].score = 40
    st.apply(Select(0, 0))
    st.apply(Place(0, (0, 1)))
    st.apply(Determine(0))
    assert not st.over and st.current == 1


def test_removal_rule_frees_the_squares_of_yaku_cards() -> None:
    st = position(
        ["...", "..."], {(0, 0): c(2, "0100"), (1, 0): c(5, "1000")}, [c(2, "0001")], removal=True
    )
    st.apply(Select(0, 0))
    st.apply(Place(0, (0, 1)))
    st.apply(Determine(0))
    assert st.players[0].score == 60
    assert st.field.get((0, 0)) is None and st.field.get((0, 1)) is None
    assert st.field.get((1, 0)) is not None  # not part of a yaku: stays
