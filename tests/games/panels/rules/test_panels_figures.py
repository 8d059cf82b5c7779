"""The seed's figure examples (FIG. 6/7, 15, 24-26, 28-37) rebuilt and checked exactly."""

from __future__ import annotations

from games.panels.rules.actions import Determine, Place, Rotate, Select
from games.panels.rules.cards import DOWN, LEFT, RIGHT, UP, connectors_to_text
from games.panels.rules.combination import (
    PERFECT,
    RING,
    SAME_NUMBER,
    SEQUENCE,
    evaluate,
    find_groups,
)
from games.panels.rules.field import Field
from games.panels.rules.positions import card as c
from games.panels.rules.positions import field_of as field_with
from games.panels.rules.positions import position as make_state


def summary(fld: Field, square: tuple[int, int], player: int = 0) -> list[tuple]:
    return [(y.kind, y.direction, y.squares) for y in evaluate(fld, fld.index(square), player)]


def test_fig6_combined_fig7_not_combined() -> None:
    # FIG. 6: right connector of 106f meets left connector of 106g
    fig6 = field_with(["..."], {(0, 0): c(1, "0100"), (0, 1): c(3, "0001")})
    assert find_groups(fig6, fig6.index((0, 1)), 0) == [(LEFT, [1, 0])]
    # FIG. 7: 106f has a right connector, 106i has none on its left
    fig7 = field_with(["..."], {(0, 0): c(1, "0100"), (0, 1): c(3, "1000")})
    assert find_groups(fig7, fig7.index((0, 1)), 0) == []
    assert evaluate(fig7, fig7.index((0, 1)), 0) == []


def test_fig15_rotation_moves_connectors_clockwise() -> None:
    a = c(2, "1100")  # FIG. 15A: upper and right sides
    assert connectors_to_text(a.rotated().connectors) == "0110"  # 15B: right and lower
    assert connectors_to_text(a.rotated(2).connectors) == "0011"  # 15C: lower and left
    assert a.rotated().number == 2  # the number stays upright
    assert a.rotated(4) == a


def test_fig15_rotation_through_the_turn_machine() -> None:
    st = make_state(["...", "..."], {(0, 0): c(1, "0100")}, [c(2, "1100")])
    st.apply(Select(0, 0))
    st.apply(Place(0, (0, 1)))
    st.apply(Rotate(0))
    card = st.provisional_card()
    assert card is not None and connectors_to_text(card.connectors) == "0110"
    st.apply(Rotate(0))
    card = st.provisional_card()
    assert card is not None and connectors_to_text(card.connectors) == "0011"


# FIG. 24: player 1's colour card at B2, a rainbow card at D2, player 2's cards at C4 and A3
FIG24_ROWS = ["....."] * 5
FIG24_CARDS = {(1, 1): "P1", (1, 3): "R", (3, 2): "P2", (2, 0): "P2"}


def fig24_state(selected: str):
    cards = {sq: c(1, "1111", {"P1": 0, "P2": 1, "R": "R"}[who]) for sq, who in FIG24_CARDS.items()}
    stock = [c(3, "1010", "R" if selected == "rainbow" else 0)]
    return make_state(FIG24_ROWS, cards, stock)


def test_fig25_colour_card_goes_next_to_own_colour_or_rainbow() -> None:
    st = fig24_state("colour")
    expected = {(0, 1), (1, 0), (1, 2), (2, 1), (0, 3), (2, 3), (1, 4)}
    assert set(st.permitted_squares(0, 0)) == expected


def test_fig26_rainbow_card_anywhere_but_only_next_to_opponent() -> None:
    st = fig24_state("rainbow")
    empty = {(r, col) for r in range(5) for col in range(5)} - set(FIG24_CARDS)
    only_opponent = {(2, 2), (4, 2), (3, 1), (3, 3), (3, 0)}
    assert set(st.permitted_squares(0, 0)) == empty - only_opponent
    assert len(empty - only_opponent) == 16
    # more squares for the rainbow card than for a colour card (seed text on FIG. 26)
    assert len(st.permitted_squares(0, 0)) > len(fig24_state("colour").permitted_squares(0, 0))


def test_first_turn_any_empty_square() -> None:
    st = fig24_state("colour")
    st.players[0].turns = 1  # the current player's first turn
    assert len(st.permitted_squares(0, 0)) == 25 - len(FIG24_CARDS)


def test_fig28_29_three_card_same_number_leftward() -> None:
    rows = ["....", "....", "...."]
    fld = field_with(rows, {(1, 0): c(1, "0100"), (1, 1): c(1, "0101")})
    fld.put((1, 2), c(1, "1001"))  # card 291: upper and left connectors, number 1
    assert summary(fld, (1, 2)) == [(SAME_NUMBER, LEFT, ((1, 2), (1, 1), (1, 0)))]
    assert sum(y.points for y in evaluate(fld, fld.index((1, 2)), 0)) == 30


def test_fig30_31_two_two_card_combinations() -> None:
    fld = field_with(["...", "..."], {(1, 0): c(1, "0100"), (1, 2): c(1, "0001")})
    fld.put((1, 1), c(1, "1101"))  # card 311: upper, right and left connectors
    assert summary(fld, (1, 1)) == [
        (SAME_NUMBER, RIGHT, ((1, 1), (1, 2))),
        (SAME_NUMBER, LEFT, ((1, 1), (1, 0))),
    ]


def test_fig32_33_same_number_up_and_sequence_right() -> None:
    cards = {
        (0, 0): c(2, "0110"),  # its right connector stays open, so no perfect
        (1, 0): c(2, "1010"),
        (2, 1): c(3, "0101"),
        (2, 2): c(4, "1001"),  # its upper connector stays open
    }
    fld = field_with(["...", "...", "..."], cards)
    fld.put((2, 0), c(2, "1100"))  # card 331 at the corner of the L: upper and right
    assert summary(fld, (2, 0)) == [
        (SAME_NUMBER, UP, ((2, 0), (1, 0), (0, 0))),
        (SEQUENCE, RIGHT, ((2, 0), (2, 1), (2, 2))),
    ]


def test_fig34_35_two_three_card_sequences() -> None:
    cards = {
        (1, 0): c(2, "0110"),
        (2, 0): c(1, "1000"),
        (1, 2): c(4, "0011"),
        (2, 2): c(5, "1000"),
    }
    fld = field_with(["...", "...", "..."], cards)
    fld.put((1, 1), c(3, "1101"))  # card 351: upper, right and left connectors
    assert summary(fld, (1, 1)) == [
        (SEQUENCE, RIGHT, ((1, 1), (1, 2), (2, 2))),
        (SEQUENCE, LEFT, ((1, 1), (1, 0), (2, 0))),
    ]


def test_fig36_37_ring_and_same_number_counted_once() -> None:
    cards = {(0, 0): c(4, "0110"), (1, 0): c(4, "1110"), (1, 1): c(4, "1001")}
    fld = field_with(["..", "..", ".."], cards)
    fld.put((0, 1), c(4, "0011"))  # the new card at the upper right: left and lower
    result = summary(fld, (0, 1))
    # found first from the lower connector (order up, right, down, left); the left connector
    # leads into the same group, which is not evaluated a second time
    group = ((0, 1), (1, 1), (1, 0), (0, 0))
    assert result == [(SAME_NUMBER, DOWN, group), (RING, DOWN, group)]
    assert sum(y.points for y in evaluate(fld, fld.index((0, 1)), 0)) == 40 + 40


def test_fig37_closed_ring_is_also_perfect() -> None:
    cards = {(0, 0): c(4, "0110"), (1, 0): c(4, "1100"), (1, 1): c(4, "1001")}
    fld = field_with(["..", ".."], cards)
    fld.put((0, 1), c(4, "0011"))
    kinds = [y.kind for y in evaluate(fld, fld.index((0, 1)), 0)]
    assert kinds == [SAME_NUMBER, RING, PERFECT]


def test_opponent_colours_never_combine() -> None:
    fld = field_with(["..."], {(0, 0): c(3, "0100", 0)})
    fld.put((0, 1), c(3, "0001", 1))  # connectors meet, same number, other player
    assert find_groups(fld, fld.index((0, 1)), 1) == []
    assert evaluate(fld, fld.index((0, 1)), 1) == []


def test_rainbow_does_not_bridge_to_the_opponent() -> None:
    fld = field_with(["...."], {(0, 0): c(3, "0100", 0), (0, 1): c(3, "0101", "R")})
    fld.put((0, 2), c(3, "0001", 1))
    # the rainbow card's left connector meets player 1's card: unconnected for player 2
    assert summary(fld, (0, 2), player=1) == [(SAME_NUMBER, LEFT, ((0, 2), (0, 1)))]
    assert summary(fld, (0, 2), player=0) == []


def test_fig28_29_through_the_turn_machine_scores_30() -> None:
    st = make_state(
        ["....", "....", "...."],
        {(1, 0): c(1, "0100"), (1, 1): c(1, "0101")},
        [c(1, "1100")],
    )
    for action in (Select(0, 0), Place(0, (1, 2)), Rotate(0), Rotate(0), Rotate(0), Determine(0)):
        st.apply(action)
    assert st.players[0].score == 30
    assert [(y.kind, y.cards) for y in st.last_yaku] == [(SAME_NUMBER, 3)]
    placed = st.field.get((1, 2))
    assert placed is not None and connectors_to_text(placed.connectors) == "1001"
