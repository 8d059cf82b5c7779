"""Items by touch (tap to read, tap again to use, before placing) and dragging a stock card
onto the field (issue 16)."""

from __future__ import annotations

from panels_driver import Driver

from firmware.testing import run
from games.panels.rules import UseItem
from games.panels.rules.positions import card as c
from games.panels.rules.positions import position
from hal.interfaces import RawInput, RawTouch

ROWS = ["....", "....", "...."]
PLACED = {(1, 1): c(2, "0110"), (0, 3): c(5, "0100", 1)}
STOCK = [c(1, "1000"), c(3, "0101"), c(4, "1100")]


def with_items(items: list[str]):
    state = position(ROWS, PLACED, list(STOCK))
    state.players[0].items = list(items)
    return state


def test_reshuffle_needs_a_second_tap_and_replaces_the_stock(tmp_path) -> None:
    d = Driver(tmp_path, draw=True, mode="two")
    state = with_items(["reshuffle"])
    d.restore(state)
    before = d.game
    d.tap("item:reshuffle")
    g = d.game
    assert g["item_mode"] == "armed" and g["stock"] == before["stock"]  # only its help shows
    d.tap("item:reshuffle")
    d.settle()
    expected = state.copy()
    expected.apply(UseItem(0, 0))
    g = d.game
    assert g["stock"] == [x.to_json() for x in expected.players[0].stock]
    assert g["items"] == [] and g["item_mode"] is None


def test_prism_turns_the_chosen_stock_card_rainbow(tmp_path) -> None:
    d = Driver(tmp_path, draw=True, mode="two")
    d.restore(with_items(["swivel", "prism"]))
    d.tap("item:prism")
    d.tap("item:prism")
    assert d.game["item_mode"] == "stock"
    d.tap("stock:2")
    d.settle()
    g = d.game
    assert g["stock"][2] == {"number": 4, "connectors": "1100", "owner": "rainbow"}
    assert g["items"] == ["swivel"]
    # one item per turn: the swivel is refused now (nothing changes)
    d.tap("item:swivel")
    d.tap("item:swivel")
    d.tap("square:1,1")
    d.settle()
    assert d.game["field"] == g["field"] and d.game["items"] == ["swivel"]


def test_renumber_asks_for_a_card_then_plus_or_minus(tmp_path) -> None:
    d = Driver(tmp_path, draw=True, mode="two")
    d.restore(with_items(["renumber"]))
    d.tap("item:renumber")
    d.tap("item:renumber")
    assert d.game["item_mode"] == "card"
    d.tap("square:0,3")  # the opponent's card: refused, still choosing
    assert d.game["item_mode"] == "card" and d.game["field"][0][3]["number"] == 5
    d.tap("square:1,1")
    assert d.game["item_mode"] == "delta" and "button:minus" in d.hotspots()
    d.tap("button:minus")
    d.settle()
    assert d.game["field"][1][1]["number"] == 1 and d.game["items"] == []


def test_back_leaves_the_item_unused(tmp_path) -> None:
    d = Driver(tmp_path, draw=True, mode="two")
    d.restore(with_items(["swivel"]))
    before = d.game
    d.tap("item:swivel")
    d.tap("item:swivel")
    d.tap("square:0,3")  # the opponent's card: refused, the choice stays open
    assert d.game["item_mode"] == "card" and d.game["field"] == before["field"]
    d.tap("button:back")
    g = d.game
    assert g["item_mode"] is None and g["items"] == ["swivel"] and g["field"] == before["field"]


def test_dragging_a_stock_card_onto_a_square_places_it(tmp_path) -> None:
    d = Driver(tmp_path, draw=True, mode="two")
    d.restore(with_items([]))
    start = d.m.tick
    x, y, w, h = d.hotspots()["stock:1"]
    sx, sy = x + w // 2, y + h // 2
    tx_, ty = 4 + 2 * 22 + 11, 8 + 1 * 22 + 11  # square 1,2 (next to the own card at 1,1)
    path = [(sx + (tx_ - sx) * k // 10, sy + (ty - sy) * k // 10) for k in range(11)]

    def script(t: int) -> RawInput:
        k = t - start
        if 0 <= k < len(path):
            return RawInput(touch=RawTouch(*path[k]))
        return RawInput()

    d.m.hal.input.script = script  # type: ignore[attr-defined]
    run(d.m, len(path) + 2, draw=True)
    d.settle()
    g = d.game
    assert g["selected"] == 1
    assert g["field"][1][2] == {"number": 3, "connectors": "0101", "owner": 0,
                                "state": "provisional"}


def cursor_to(d: Driver, name: str) -> None:
    """Walk the firmware's hotspot cursor to `name` with the D-pad."""
    from hal.interfaces import Button

    d.press(Button.RIGHT)  # the first press shows the cursor
    for _ in range(60):
        dump = d.m.dump()
        if dump["cursor"] == name:
            return
        spots = dump["hotspots"]
        cx, cy, cw, ch = spots[dump["cursor"]]
        tx, ty, tw, th = spots[name]
        dx, dy = (tx + tw / 2) - (cx + cw / 2), (ty + th / 2) - (cy + ch / 2)
        if abs(dx) >= abs(dy):
            d.press(Button.RIGHT if dx > 0 else Button.LEFT)
        else:
            d.press(Button.DOWN if dy > 0 else Button.UP)
    raise AssertionError(f"the cursor did not reach {name}")


def test_a_turn_with_the_buttons_alone(tmp_path) -> None:
    from hal.interfaces import Button

    d = Driver(tmp_path, draw=True, mode="two", field="square")
    cursor_to(d, "stock:2")
    d.press(Button.A)
    assert d.game["selected"] == 2
    cursor_to(d, "square:3,4")
    d.press(Button.A)
    d.settle()
    d.press(Button.A)  # on the provisional card: turn it
    d.settle()
    cursor_to(d, "button:determine")
    d.press(Button.A)
    d.settle()
    g = d.game
    assert g["field"][3][4]["state"] == "fixed" and g["turn"] == 1
