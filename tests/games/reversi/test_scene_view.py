"""R-REV-VIEW through the real firmware, checked on the pixels of both screens."""

from __future__ import annotations

from reversi_driver import Driver, position_before_pass, square_centre, touch_script

from firmware.testing import run
from games.reversi.rules import Game, Position
from games.reversi.scene import layout, top_view


# ------------------------------------------------------------------ colour classes
def is_green(c) -> bool:
    r, g, b = c
    return g > r + 40 and g > b + 30


def is_red(c) -> bool:
    r, g, b = c
    return r > 180 and g < 100 and b < 100


def is_grey(c) -> bool:
    return max(c) - min(c) < 24 and 70 < sum(c) / 3 < 190


def is_blue(c) -> bool:
    r, g, b = c
    return b > r + 80 and b > g + 40


def is_orange(c) -> bool:
    r, g, b = c
    return r > 200 and 90 < g < 190 and b < 90


def is_pink_frame(c) -> bool:
    r, g, b = c
    return r > 200 and g < 120 and b > 100


def is_light_pink(c) -> bool:
    r, g, b = c
    return r > 230 and 150 < g < 225 and b > 180 and r - g > 25


def is_dark(c) -> bool:
    return max(c) < 90


def is_light(c) -> bool:
    return min(c) > 190


def corner(square: str) -> tuple[int, int]:
    """A pixel of the square's own background, outside the disc."""
    r = layout.SQUARE_RECTS[square]
    return r.x + 2, r.y + 2


def count_pixels(d: Driver, rect, pred, screen: str = "top") -> int:
    x, y, w, h = rect
    return sum(1 for i in range(x, x + w) for j in range(y, y + h) if pred(d.pixel(i, j, screen)))


# ------------------------------------------------------------------ 1: board and discs
def test_green_grid_board_with_round_discs(tmp_path):
    d = Driver(tmp_path)
    # Every empty square is green; grid lines between squares are darker than the felt.
    for square in ("a1", "h8", "c6", "f3"):
        assert is_green(d.pixel(*square_centre(square)))
    a1 = layout.SQUARE_RECTS["a1"]
    line, felt = d.pixel(a1.right, a1.centery), d.pixel(a1.centerx, a1.centery)
    assert sum(line) < sum(felt) - 60
    # Discs are round: the centre shows the disc, the square's corner still shows the felt.
    assert is_dark(d.pixel(*square_centre("e4"))) and is_light(d.pixel(*square_centre("d4")))
    for square in ("d4", "e4"):
        assert is_green(d.pixel(*corner(square)))
    # ... and shaded: the black disc has more than one shade of dark (pixel shading).
    r = layout.SQUARE_RECTS["e4"]
    shades = {d.pixel(x, y) for x in range(r.x, r.right) for y in range(r.y, r.bottom)}
    assert len([c for c in shades if is_dark(c)]) >= 3


# ------------------------------------------------------------------ 2, 3: scoreboard
def count_rect(color: str):
    x, y = top_view.COUNT_POS[color]
    w = 2 * 6 * top_view.COUNT_SCALE  # two digits of the 5x7 font
    return (x, y, w, 8 * top_view.COUNT_SCALE) if color == "black" else (x - w, y, w, 24)


def test_leaders_count_is_red(tmp_path):
    d = Driver(tmp_path)
    # 2-2: nobody leads, nothing red.
    assert count_pixels(d, count_rect("black"), is_red) == 0
    assert count_pixels(d, count_rect("white"), is_red) == 0
    d.play("f5")  # black 4, white 1
    assert count_pixels(d, count_rect("black"), is_red) > 10
    assert count_pixels(d, count_rect("white"), is_red) == 0
    d.play("f6")  # 3 - 3
    d.play("e6")  # black 5 - 2? whoever leads: check against the dump
    score = d.game["score"]
    leader = "black" if score["black"] > score["white"] else "white"
    trailer = "white" if leader == "black" else "black"
    assert score[leader] != score[trailer]
    assert count_pixels(d, count_rect(leader), is_red) > 10
    assert count_pixels(d, count_rect(trailer), is_red) == 0


def turn_disc_colour(d: Driver):
    """The disc picture of the "(disc) to move" indicator in the middle of the scoreboard."""
    y = top_view.TURN_Y
    face = d.pixel(128, 55, "top")
    for x in range(70, 128):
        c = d.pixel(x, y, "top")
        if c != face:
            return d.pixel(x + 4, y - 1, "top")
    raise AssertionError("no turn indicator")


def test_turn_indicator_shows_the_movers_disc(tmp_path):
    d = Driver(tmp_path)
    assert is_dark(turn_disc_colour(d))
    d.play("f5")
    assert is_light(turn_disc_colour(d))


def test_scoreboard_shows_both_disc_pictures(tmp_path):
    d = Driver(tmp_path)
    left = [d.pixel(x, 21, "top") for x in range(8, 30)]
    right = [d.pixel(x, 21, "top") for x in range(226, 250)]
    assert any(is_dark(c) for c in left) and any(is_light(c) for c in right)


# ------------------------------------------------------------------ 4: buttons
def text_bands(d: Driver, rect) -> int:
    """Separate horizontal bands of label text (near-white pixels) inside a button."""
    x, y, w, h = rect
    rows = [
        any(min(d.pixel(i, j)) > 225 for i in range(x + 3, x + w - 3))
        for j in range(y + 3, y + h - 3)
    ]
    bands, prev = 0, False
    for on in rows:
        bands += on and not prev
        prev = on
    return bands


def test_restart_and_hint_buttons_below_the_board_two_lines_equal_height(tmp_path):
    d = Driver(tmp_path)
    spots = d.hotspots()
    restart, hint = spots["button:restart"], spots["button:hint"]
    board_bottom = max(r[1] + r[3] for n, r in spots.items() if n.startswith("square:"))
    assert restart[1] >= board_bottom and hint[1] >= board_bottom
    assert restart[3] == hint[3] and restart[1] == hint[1]
    assert text_bands(d, restart) == 2 and text_bands(d, hint) == 2


def test_hint_button_colour_follows_the_level(tmp_path):
    d = Driver(tmp_path)
    x, y, _w, h = d.hotspots()["button:hint"]
    probe = (x + 5, y + h // 2)  # face, left of the label
    seen = []
    for _ in range(3):
        seen.append(d.pixel(*probe))
        d.tap("button:hint")
    assert is_grey(seen[0]) and is_blue(seen[1]) and is_orange(seen[2])
    assert is_grey(d.pixel(*probe))


# ------------------------------------------------------------------ 8: hints
def test_placeable_marks_are_translucent_and_round(tmp_path):
    d = Driver(tmp_path)
    felt = d.pixel(*square_centre("d3"))
    d.tap("button:hint")
    for square in ("d3", "c4", "f5", "e6"):  # legal: a mark that lets the felt through
        c = d.pixel(*square_centre(square))
        assert 20 < c[1] < felt[1] - 20  # black at part opacity over the felt: a blend
        assert is_green(d.pixel(*corner(square)))  # round: corners untouched
    for square in ("a1", "c3", "f6"):  # not legal: plain felt
        assert d.pixel(*square_centre(square)) == felt


def test_full_hints_show_translucent_flip_counts(tmp_path):
    d = Driver(tmp_path)
    d.play("f5")  # white: f4, d6, f6 each flip one disc; then black has a two-flip move
    d.play("d6")
    d.tap("button:hint")
    d.tap("button:hint")
    assert d.game["hint_level"] == "full"
    legal = d.scene.game.legal()
    felt = d.pixel(*square_centre("a1"))
    for square in legal:
        r = layout.SQUARE_RECTS[square]
        marked = [d.pixel(x, y) for x in range(r.x + 1, r.right) for y in range(r.y + 1, r.bottom)]
        digit = [c for c in marked if abs(sum(c) - sum(felt)) > 60]
        assert digit, square  # a number is drawn
        assert all(c[1] > 15 for c in digit)  # translucent: the felt shows through
    # The numbers differ when the counts differ: compare two squares with different counts.
    counts = {sq: len(f) for sq, f in legal.items()}
    if len(set(counts.values())) > 1:
        a = min(counts, key=counts.get)
        b = max(counts, key=counts.get)

        def img(sq):
            r = layout.SQUARE_RECTS[sq]
            return [
                d.pixel(x, y) for x in range(r.x + 1, r.right) for y in range(r.y + 1, r.bottom)
            ]

        assert img(a) != img(b)


# ------------------------------------------------------------------ 9: preview
def test_preview_frames_pink_highlights_flips_and_greys_the_rest(tmp_path):
    d = Driver(tmp_path)
    for move in ("f5", "d6", "c3", "d3"):
        d.play(move)
    d.tap("button:hint")  # placeable
    legal = d.scene.game.legal()
    square = max(sorted(legal), key=lambda s: len(legal[s]))
    before_moves = d.game["moves"]
    d.tap(f"square:{square}")
    g = d.game
    assert g["preview"] == square and g["moves"] == before_moves  # nothing played yet
    r = layout.SQUARE_RECTS[square]
    assert is_pink_frame(d.pixel(r.x, r.centery)) and is_pink_frame(d.pixel(r.centerx, r.y))
    mover = g["turn"]
    mine, theirs = ("B", "W") if mover == "black" else ("W", "B")
    flips = set(legal[square])
    for row, line in enumerate(g["board"]):
        for col, ch in enumerate(line):
            sq = f"{'abcdefgh'[col]}{row + 1}"
            c = d.pixel(*corner(sq))
            if ch == theirs and sq in flips:
                assert is_light_pink(c), sq
            elif ch == theirs:
                assert is_grey(c), sq
            elif ch == mine:
                assert is_green(c), sq  # own discs unchanged
    # Another legal square moves the preview; the same square again plays.
    other_square = next(s for s in sorted(legal) if s != square)
    d.tap(f"square:{other_square}")
    assert d.game["preview"] == other_square and d.game["moves"] == before_moves
    assert not is_pink_frame(d.pixel(r.x, r.centery))
    d.tap(f"square:{other_square}")
    d.settle()
    assert d.game["moves"] == [*before_moves, other_square] and d.game["preview"] is None


def test_without_hints_one_tap_plays(tmp_path):
    d = Driver(tmp_path)
    d.tap("square:d3")
    assert d.game["moves"] == ["d3"] and d.game["preview"] is None


# ------------------------------------------------------------------ 7: flip animation
def test_discs_flip_one_after_another_squashing_to_an_edge(tmp_path):
    rows = ["BWWWWW.."] + ["........"] * 6 + ["......WB"]
    d = Driver(tmp_path)
    d.restore(Game(Position.from_rows(rows, "black")))
    expected_order = Game(Position.from_rows(rows, "black")).play("g1").flipped
    assert len(expected_order) == 5
    turned: dict[str, int] = {}
    squashed = set()
    d.tap("square:g1", after=0)
    for t in range(200):
        for sq in expected_order:
            r = layout.SQUARE_RECTS[sq]
            centre = d.pixel(r.centerx + 1, r.centery + 1)
            if sq not in turned and is_dark(centre):
                turned[sq] = t
            if is_green(d.pixel(r.x + 4, r.centery + 1)):  # felt where the disc's side was
                squashed.add(sq)
        if not d.game["animating"]:
            break
        d.frames(1)
    assert set(turned) == set(expected_order)
    ticks = [turned[sq] for sq in expected_order]
    assert ticks == sorted(ticks) and len(set(ticks)) == len(ticks)  # one after another
    assert squashed == set(expected_order)
    assert d.game["board"][0] == "BBBBBBB."


# ------------------------------------------------------------------ 6: result overlay
def test_result_overlay_is_translucent_and_centred(tmp_path):
    rows = ["BW......"] + ["........"] * 7
    d = Driver(tmp_path)
    d.restore(Game(Position.from_rows(rows, "black")))
    probe = (layout.SQUARE_RECTS["h8"].centerx, layout.SQUARE_RECTS["h8"].centery)
    plain = d.pixel(*probe)
    d.play("c1")
    veiled = d.pixel(*probe)
    assert d.game["status"] == "over"
    # Translucent: darker, but the green board still shows through.
    assert plain[1] * 0.2 < veiled[1] < plain[1] * 0.8 and veiled[1] > veiled[0] + 10
    # Centred panel: its face spans symmetrically about the screen's centre.
    from firmware.gfx import palette as pal

    xs, ys = [], []
    for x in range(0, 256, 2):
        for y in range(0, 192, 2):
            if d.pixel(x, y) == pal.PANEL:
                xs.append(x)
                ys.append(y)
    assert abs((min(xs) + max(xs)) / 2 - 128) <= 2 and abs((min(ys) + max(ys)) / 2 - 96) <= 2
    x, y, w, h = d.hotspots()["button:play-again"]
    assert abs(x + w / 2 - 128) <= 1 and min(ys) < y and y + h < max(ys)
    # Play again starts over.
    d.tap("button:play-again")
    assert d.game["moves"] == [] and d.game["status"] == "playing"


# ------------------------------------------------------------------ 10: pass message
def test_pass_message_shows_the_passers_disc(tmp_path):
    game, square, passer = position_before_pass(seed=5)
    d = Driver(tmp_path)
    d.restore(game)
    area = top_view.MESSAGE_RECT
    pred = is_light if passer == "white" else is_dark
    before = count_pixels(d, area, pred)
    d.play(square)
    assert d.game["message"] == f"{passer.capitalize()} passed"
    assert count_pixels(d, area, pred) > before + 20  # the disc picture (and the text)


# ------------------------------------------------------------------ 11: long presses
def test_a_long_press_opens_nothing_and_plays_once(tmp_path):
    d = Driver(tmp_path)
    x, y = square_centre("f5")
    d.m.hal.input.script = touch_script(x, y, d.m.tick, 120)
    run(d.m, 130)
    assert d.m.scene.name == "reversi"
    assert d.game["moves"] == ["f5"]
