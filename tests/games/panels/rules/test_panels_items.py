"""Items: the seed's two (reshuffle, renumber) and ours (swivel, prism); how they are earned."""

from __future__ import annotations

import pytest

from games.panels.rules import items as it
from games.panels.rules.actions import Determine, Place, Select, UseItem
from games.panels.rules.cards import RAINBOW
from games.panels.rules.game import GameState, IllegalAction
from games.panels.rules.positions import card as c
from games.panels.rules.positions import position
from games.panels.rules.stream import card_at, item_at


def test_reshuffle_replaces_the_whole_stock_from_the_stream() -> None:
    st = position(["..."], {}, [c(1, "1000"), c(2, "1000"), c(3, "1000")])
    st.players[0].items = [it.RESHUFFLE]
    st.card_index = 40
    st.apply(UseItem(0, 0))
    assert st.players[0].stock == [card_at(7, i, 0) for i in (40, 41, 42)]
    assert st.card_index == 43 and st.players[0].items == [] and st.item_used


def test_renumber_changes_a_placed_number_cyclically() -> None:
    st = position(["..."], {(0, 0): c(5, "0100"), (0, 2): c(1, "0001", "R")}, [c(1, "1000")])
    st.players[0].items = [it.RENUMBER, it.RENUMBER]
    st.apply(UseItem(0, 0, square=(0, 0), delta=1))
    assert st.field.get((0, 0)) == c(1, "0100")  # 5 + 1 wraps to 1
    assert st.check(UseItem(0, 0, square=(0, 2), delta=-1)) == "only one item may be used per turn"
    st.item_used = False
    st.apply(UseItem(0, 0, square=(0, 2), delta=-1))
    assert st.field.get((0, 2)) == c(5, "0001", "R")  # rainbow cards too; 1 - 1 wraps to 5


def test_swivel_turns_an_own_placed_card() -> None:
    st = position(["..."], {(0, 0): c(5, "0100"), (0, 1): c(2, "0100", 1)}, [c(1, "1000")])
    st.players[0].items = [it.SWIVEL]
    assert st.check(UseItem(0, 0, square=(0, 1))) == "swivel turns one of your own colour cards"
    st.apply(UseItem(0, 0, square=(0, 0)))
    assert st.field.get((0, 0)) == c(5, "0010")


def test_prism_makes_a_stock_card_rainbow() -> None:
    st = position(["..."], {}, [c(1, "1000"), c(2, "1000", "R")])
    st.players[0].items = [it.PRISM]
    assert st.check(UseItem(0, 0, stock=1)) == "that stock card is already a rainbow card"
    st.apply(UseItem(0, 0, stock=0))
    assert st.players[0].stock[0] == c(1, "1000", "R")
    assert st.players[0].stock[0].owner == RAINBOW


@pytest.mark.parametrize(
    ("kind", "action", "reason"),
    [
        (it.RENUMBER, UseItem(0, 0, square=(0, 1), delta=1), "renumber needs a placed card"),
        (
            it.RENUMBER,
            UseItem(0, 0, square=(0, 0), delta=2),
            "renumber changes a number by +1 or -1",
        ),
        (
            it.RENUMBER,
            UseItem(0, 0, square=(0, 2), delta=1),
            "renumber works on your own colour cards and rainbow cards",
        ),
        (it.SWIVEL, UseItem(0, 0), "swivel needs a square of the field"),
        (it.PRISM, UseItem(0, 0, stock=9), "prism needs a stock card to turn into a rainbow card"),
    ],
)
def test_bad_item_targets_are_refused(kind, action, reason) -> None:
    st = position(["..."], {(0, 0): c(5, "0100"), (0, 2): c(2, "0001", 1)}, [c(1, "1000")])
    st.players[0].items = [kind]
    before = st.to_json()
    with pytest.raises(IllegalAction) as info:
        st.apply(action)
    assert str(info.value) == reason and st.to_json() == before


def test_items_only_before_placing() -> None:
    st = position(["..."], {(0, 0): c(5, "0100")}, [c(1, "1000")])
    st.players[0].items = [it.RESHUFFLE]
    st.apply(Select(0, 0))
    st.apply(Place(0, (0, 1)))
    assert st.check(UseItem(0, 0)) == "items are used before placing a card (press back first)"


def test_a_three_card_yaku_earns_an_item_from_the_item_stream() -> None:
    st = position(["...", "..."], {(1, 0): c(1, "0100"), (1, 1): c(1, "0101")}, [c(1, "1001")])
    st.apply(Select(0, 0))
    st.apply(Place(0, (1, 2)))
    events = st.apply(Determine(0))
    assert st.players[0].items == [item_at(7, 0, it.ITEM_KINDS)]
    assert {"event": "item_earned", "item": st.players[0].items[0], "kept": True} in events
    assert st.item_index == 1


def test_with_items_off_a_three_card_yaku_earns_nothing() -> None:
    cards = {(1, 0): c(1, "0100"), (1, 1): c(1, "0101")}
    st = position(["...", "..."], cards, [c(1, "1001")], items=False)
    st.apply(Select(0, 0))
    st.apply(Place(0, (1, 2)))
    events = st.apply(Determine(0))
    assert st.players[0].score == 30 and st.players[0].items == [] and st.item_index == 0
    assert not any(e.get("event") == "item_earned" for e in events)
    assert GameState.from_json(st.to_json()).config.items is False


def test_a_two_card_yaku_without_perfect_earns_nothing_and_full_item_field_keeps_three() -> None:
    st = position(["..", ".."], {(1, 0): c(3, "0100")}, [c(3, "1001")])
    st.apply(Select(0, 0))
    st.apply(Place(0, (1, 1)))
    st.apply(Determine(0))
    assert st.players[0].score == 20 and st.players[0].items == []
    full = position([".."], {(0, 0): c(1, "0100")}, [c(4, "0001")])  # a two-card perfect
    full.players[0].items = [it.SWIVEL] * it.ITEM_CAPACITY
    full.apply(Select(0, 0))
    full.apply(Place(0, (0, 1)))
    events = full.apply(Determine(0))
    assert full.players[0].items == [it.SWIVEL] * it.ITEM_CAPACITY
    assert any(e.get("event") == "item_earned" and e["kept"] is False for e in events)
