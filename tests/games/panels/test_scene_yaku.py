"""Each yaku of the seed's figures, set up on the handheld and played by taps, is announced
on the upper screen with its points, group by group (issue 16; R-PAN-YAKU, -SCORE)."""

from __future__ import annotations

import pytest
from panels_driver import Driver

from firmware.gfx import palette as pal
from firmware.movie import MoviePlayer, parse_movie
from firmware.testing import run
from games.panels.rules.positions import card as c
from games.panels.rules.positions import position

FIGURES = {
    # name: (rows, placed cards, stock card, square, clockwise turns, announcements per group)
    "fig28-29": (["....", "....", "...."], {(1, 0): c(1, "0100"), (1, 1): c(1, "0101")},
                 c(1, "1100"), (1, 2), 3, [["same_number +30"]]),
    "fig30-31": (["...", "..."], {(1, 0): c(1, "0100"), (1, 2): c(1, "0001")},
                 c(1, "1101"), (1, 1), 0, [["same_number +20"], ["same_number +20"]]),
    "fig32-33": (["...", "...", "..."],
                 {(0, 0): c(2, "0110"), (1, 0): c(2, "1010"), (2, 1): c(3, "0101"),
                  (2, 2): c(4, "1001")},
                 c(2, "1100"), (2, 0), 0, [["same_number +30"], ["sequence +30"]]),
    "fig34-35": (["...", "...", "..."],
                 {(1, 0): c(2, "0110"), (2, 0): c(1, "1000"), (1, 2): c(4, "0011"),
                  (2, 2): c(5, "1000")},
                 c(3, "1101"), (1, 1), 0, [["sequence +30"], ["sequence +30"]]),
    "fig36-37": (["..", "..", ".."],
                 {(0, 0): c(4, "0110"), (1, 0): c(4, "1110"), (1, 1): c(4, "1001")},
                 c(4, "1001"), (0, 1), 3, [["same_number +40", "ring +40"]]),
    "fig37-perfect": (["..", ".."],
                      {(0, 0): c(4, "0110"), (1, 0): c(4, "1100"), (1, 1): c(4, "1001")},
                      c(4, "0011"), (0, 1), 0, [["same_number +40", "ring +40", "perfect +80"]]),
}


def accent_pixels(d: Driver, box: tuple[int, int, int, int]) -> int:
    x0, y0, w, h = box
    return sum(
        1
        for x in range(x0, x0 + w)
        for y in range(y0, y0 + h)
        if tuple(d.m.top.get_at((x, y)))[:3] == pal.ACCENT
    )


def placement_movie(d: Driver, stock: int, square: tuple[int, int], turns: int) -> str:
    """The player's taps as an input movie (frames from the machine's current tick): the
    stock card, the square, the card again `turns` times to rotate it, determine."""
    spots = d.hotspots()

    def centre(name: str) -> tuple[int, int]:
        x, y, w, h = spots[name]
        return x + w // 2, y + h // 2

    names = [f"stock:{stock}"] + [f"square:{square[0]},{square[1]}"] * (1 + turns)
    names.append("button:determine")
    lines = ["# twinfold movie 1"]
    frame = d.m.tick + 2
    for name in names:
        lines.append(f"{frame} tap {centre(name)[0]} {centre(name)[1]}")
        frame += 24  # after the glide or rotation
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", list(FIGURES))
def test_each_yaku_of_the_figures_is_announced_with_its_points(tmp_path, name) -> None:
    rows, cards, stock_card, square, turns, announced = FIGURES[name]
    d = Driver(tmp_path, draw=True, mode="two")
    d.restore(position(rows, cards, [stock_card]))  # the figure, through the state-slot path
    movie = placement_movie(d, 0, square, turns)
    d.m.hal.input.script = MoviePlayer(parse_movie(movie)).input_at  # type: ignore[attr-defined]
    end = d.m.tick + 2 + 24 * (turns + 2) + 4
    seen: list[list[str]] = []
    current = None
    for _ in range(1000):
        run(d.m, 1)
        g = d.m.dump()["game"]
        anim = d.scene.anims[0] if d.scene.anims else None
        if g["announce"] and anim is not current:
            current = anim
            seen.append(g["announce"])
            # the names and points are drawn on the upper screen, in the accent colour
            assert accent_pixels(d, (8, 80, 240, 36)) > 40
        if d.m.tick > end and not g["animating"]:
            break
    assert seen == announced
    total = sum(int(a.split("+")[1]) for group in announced for a in group)
    g = d.game
    assert g["scores"][0] == total
    expected = [a for group in announced for a in group]
    assert [f"{y['name']} +{y['points']}" for y in g["yaku"]] == expected
    # the upper screen's yaku list of the game holds them too
    assert [e[1] for e in d.scene.yaku_log] == [y["name"] for y in g["yaku"]]


def test_with_the_removal_rule_the_cards_leave_after_the_announcement(tmp_path) -> None:
    rows, cards, stock_card, square, turns, _ = FIGURES["fig28-29"]
    d = Driver(tmp_path, draw=True, mode="two")
    state = position(rows, cards, [stock_card], removal=True)
    d.restore(state)
    d.tap("stock:0")
    d.tap(f"square:{square[0]},{square[1]}")
    d.settle()
    for _ in range(turns):
        d.tap(f"square:{square[0]},{square[1]}")
        d.settle()
    d.tap("button:determine", after=0)
    kinds = []
    for _ in range(300):
        g = d.game
        if g["animation"] and (not kinds or kinds[-1] != g["animation"]):
            kinds.append(g["animation"])
        if g["animation"] == "yaku":
            # still drawn during the announcement: a card picture at (1, 0) (blue face)
            px = d.m.bottom.get_at((4 + 2, 8 + 22 + 11))[:3]
            assert px[2] > px[1]  # blue card face under the glow (an empty square is green)
        if not g["animating"]:
            break
        d.frames(1)
    assert kinds[:2] == ["yaku", "remove"]
    row = d.game["field"][1]
    assert row[:3] == ["empty", "empty", "empty"] and d.game["scores"][0] == 30
