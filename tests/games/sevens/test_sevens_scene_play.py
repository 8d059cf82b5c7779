"""Killing Sevens through the real firmware, headless, by taps only (issue 14): whole games
against the five personalities under every option with the dump checked against an engine
kept by the test, the frames and refusals of the hand, passing, hot-seat hand-offs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sevens_driver import Driver, play_by_taps

from games.sevens.rules import Options, parse_card
from games.sevens.scene import sprites

CARD_FACES = {sprites.FACE, sprites.FACE_DIM}

# Every option value appears at least once; the five personalities take turns in the seats.
GAMES = [
    ({"max_kill": "1"}, ("simpleton", "cool", "hitman")),
    ({"max_kill": "4", "three_walls": "on"}, ("coward", "brute", "simpleton")),
    ({"max_kill": "6", "sevens_first": "on"}, ("cool", "hitman", "coward")),
    ({"max_kill": "9", "extra_turn": "on", "hints": "off"}, ("brute", "simpleton", "cool")),
    (
        {"max_kill": "12", "three_walls": "on", "sevens_first": "on", "extra_turn": "on"},
        ("hitman", "coward", "brute"),
    ),
    ({"max_kill": "12", "three_walls": "off", "bubbles": "slow"}, ("cool", "brute", "hitman")),
]


@pytest.mark.parametrize(("options", "computers"), GAMES)
def test_whole_games_by_taps_follow_the_engine(
    tmp_path: Path, options: dict[str, str], computers: tuple[str, str, str]
) -> None:
    seats = {f"seat{i + 1}": p for i, p in enumerate(computers)}
    d = Driver(tmp_path, seed=len(options) * 7 + len(computers[0]), **seats, **options)
    g = d.game
    assert g["phase"] == "play" and g["members"] == ["human", *computers]
    rules = Options(
        max_kill=int(options["max_kill"]),
        three_walls=options.get("three_walls") == "on",
        sevens_laid_out=options.get("sevens_first") == "on",
        extra_turn=options.get("extra_turn") == "on",
    )
    assert d.scene.rules.game.options == rules
    play_by_taps(d, random.Random(len(options)))
    # the finished game is stored: statistics, a record, the running totals
    assert d.m.store.get_stats("sevens")["played"] == 1
    assert len(d.m.store.list_records("sevens")) == 1
    assert d.hotspots().keys() >= {"button:play-again", "button:members", "button:reset"}


def to_a_turn_with(d: Driver, want: str, rng: random.Random) -> None:
    """Play randomly (game after game) until the person's turn shows a hand with `want`:
    `blocked` (a card that cannot be played besides playable ones) or `stuck` (nothing
    playable)."""
    for _ in range(400000):
        g = d.game
        if g["phase"] == "over":
            d.tap("button:play-again")  # the next deal
            continue
        spots = d.hotspots()
        mine = (g["playable"] or "button:pass" in spots) and not g["animating"]
        if mine:
            blocked = [c for c in g["hand"] if c not in g["playable"]]
            if want == "blocked" and g["playable"] and blocked:
                return
            if want == "stuck" and not g["playable"]:
                return
            if g["playable"]:
                d.play_card(rng.choice(g["playable"]))
            else:
                d.tap("button:pass")
        else:
            d.frames(1)
    raise AssertionError(f"never reached a turn with {want}")


def test_unplayable_card_shows_red_and_a_second_tap_changes_nothing(tmp_path: Path) -> None:
    d = Driver(tmp_path, seed=5, draw=True)
    to_a_turn_with(d, "blocked", random.Random(2))
    g = d.game
    card = next(c for c in g["hand"] if c not in g["playable"])
    d.tap(f"card:{card}")
    g = d.game
    assert g["selected"] == card and g["frame"] == "red"
    # the red frame sits on the card's place on the upper screen
    from games.sevens.scene import layout

    rect = layout.cell_rect(parse_card(card))
    assert d.m.top.get_at((rect.centerx, rect.y - 2))[:3] == sprites.BLOCKED
    before, frame, history = d.game, d.m.frame_hash(), len(d.scene.match.history)
    d.tap(f"card:{card}")
    assert d.game == before and d.m.frame_hash() == frame
    assert len(d.scene.match.history) == history
    # pass is refused while a card is playable: no button, and a tap where it would be
    # changes nothing
    assert "button:pass" not in d.hotspots()
    d.tap_xy(layout.PASS_RECT.centerx, layout.PASS_RECT.centery)
    assert d.game == before and len(d.scene.match.history) == history
    # a playable card: yellow frame, and the second tap plays it
    playable = g["playable"][0]
    d.tap(f"card:{playable}")
    assert d.game["frame"] == "yellow"
    d.tap(f"card:{playable}")
    assert len(d.scene.match.history) == history + 1
    assert playable not in d.game["hand"]


def test_pass_exists_only_when_nothing_is_playable(tmp_path: Path) -> None:
    d = Driver(tmp_path, seed=8)
    to_a_turn_with(d, "stuck", random.Random(4))
    assert "button:pass" in d.hotspots() and d.game["pass"] is True
    assert not any(
        name.startswith("card:") and name[5:] in d.game["playable"] for name in d.hotspots()
    )
    history = len(d.scene.match.history)
    d.tap("button:pass")
    assert len(d.scene.match.history) == history + 1
    assert d.scene.rules.decode(d.scene.match.history[history].data) == "pass"


def face_pixels(d: Driver) -> int:
    surf = d.m.bottom
    return sum(
        1
        for x in range(0, 256, 2)
        for y in range(60, 166, 2)
        if tuple(surf.get_at((x, y)))[:3] in CARD_FACES
    )


def test_hotseat_never_shows_a_hand_under_anothers_name(tmp_path: Path) -> None:
    d = Driver(tmp_path, seed=2, draw=True, seat1="human", seat2="cool", seat3="simpleton")
    assert d.game["mode"] == "two"
    render = d.m.render
    shown = {"hands": 0}

    def checked_render() -> None:
        # every frame: a hand on screen belongs to the person whose turn it is
        render()
        spots = d.scene.hotspots()
        if any(name.startswith("card:") for name in spots):
            g = d.game
            assert g["seat"] == g["turn"] and g["handoff"] is None
            assert {n[5:] for n in spots if n.startswith("card:")} == set(g["hand"])
            shown["hands"] += 1

    d.m.render = checked_render  # type: ignore[method-assign]
    rng = random.Random(9)
    handoffs = turns = 0
    for _ in range(60000):
        g = d.game
        if g["phase"] == "over":
            break
        spots = d.hotspots()
        if g["handoff"] is not None:
            handoffs += 1
            name = g["names"][g["turn"]]
            assert g["handoff"] == name
            assert face_pixels(d) == 0, f"a card face shows while '{name}' is asked for"
            assert not any(k.startswith("card:") for k in spots)
            d.tap("button:ok")
            assert d.game["seat"] == g["turn"]
            continue
        if (g["playable"] or "button:pass" in spots) and not g["animating"]:
            turns += 1
            assert g["seat"] == g["turn"] and g["members"][g["seat"]] == "human"
            if g["playable"]:
                assert face_pixels(d) > 0  # the check above can see a hand
                d.play_card(rng.choice(g["playable"]))
            else:
                d.tap("button:pass")
        else:
            d.frames(1)
    assert d.game["phase"] == "over"
    assert handoffs >= 4 and turns > handoffs and shown["hands"] > 100


def test_two_people_seats_from_the_members_options(tmp_path: Path) -> None:
    d = Driver(tmp_path, seed=2, seat1="human", seat2="human", seat3="human")
    g = d.game
    assert g["members"] == ["human"] * 4 and g["handoff"] is not None
    assert g["names"] == ["Player 1", "Player 2", "Player 3", "Player 4"]


def test_bubbles_show_the_personalities_lines(tmp_path: Path) -> None:
    d = Driver(tmp_path, seed=4, seat1="hitman", seat2="hitman", seat3="brute")
    from games.sevens.ai.voices import LINES

    g = d.game
    assert g["names"] == ["You", "Hitman", "Hitman #2", "Brute"]
    lines = {en for per in LINES.values() for situation in per.values() for en, _ in situation}
    assert g["line"] in lines
    bubble = d.scene.talk.current
    assert bubble is not None and bubble.left > 0
    d.tap("button:skip")  # a tap on the bubble moves on to the next line
    assert d.scene.talk.current is not bubble


def test_buttons_alone_play_a_card(tmp_path: Path) -> None:
    # P-GAME-2: the firmware cursor walks the hotspots, A taps the one under it.
    from hal.interfaces import Button

    d = Driver(tmp_path, seed=1)
    to_a_turn_with(d, "blocked", random.Random(1))
    history = len(d.scene.match.history)
    d.press(Button.RIGHT)  # shows the cursor
    target = d.game["playable"][0]
    for _ in range(40):
        here = d.m.dump()["cursor"]
        if here == f"card:{target}":
            break
        spots = d.hotspots()
        tx, ty, _, _ = spots[f"card:{target}"]
        hx, hy, _, _ = spots[here]
        if abs(hy - ty) > 10:
            d.press(Button.DOWN if ty > hy else Button.UP)
        else:
            d.press(Button.RIGHT if tx > hx else Button.LEFT)
    assert d.m.dump()["cursor"] == f"card:{target}"
    d.press(Button.A)
    assert d.game["selected"] == target and d.game["frame"] == "yellow"
    d.press(Button.A)
    assert len(d.scene.match.history) == history + 1 and target not in d.game["hand"]


def test_a_tap_on_nothing_changes_nothing(tmp_path: Path) -> None:
    # P-GAME-2: on your turn, taps between the cards, on the table's screen edge or on the
    # status line change neither the dump nor the frame.
    d = Driver(tmp_path, seed=3, draw=True)
    to_a_turn_with(d, "blocked", random.Random(3))
    while d.scene.talk.busy:  # let the lines run out: the screen is still
        d.frames(1)
    before, frame = d.game, d.m.frame_hash()
    spots = d.hotspots()
    for x, y in ((128, 56), (1, 100), (254, 150), (128, 114), (40, 188)):
        assert not any(
            r[0] <= x < r[0] + r[2] and r[1] <= y < r[1] + r[3] for r in spots.values()
        ), (x, y)
        d.tap_xy(x, y)
        assert d.game == before and d.m.frame_hash() == frame


def test_alone_against_computers_the_announcements_say_you(tmp_path: Path) -> None:
    from games.sevens.ai.voices import Speech

    d = Driver(tmp_path)
    scene = d.scene
    seat = scene.humans[0]
    cases = {
        f"Player {seat + 1} plays 8♦.": "You play 8♦.",
        f"Player {seat + 1} passes.": "You pass.",
        f"Player {seat + 1} is out.": "You are out.",
        f"Player {seat + 1} lost 9♠ 8♠.": "You lost 9♠ 8♠.",
        f"Player {seat + 1} killed 2 card(s).": "You killed 2 card(s).",
        f"Player {seat + 1} wins.": "You win.",
    }
    for en, want in cases.items():
        said = scene._personal(Speech(seat, "play", en, f"プレイヤー{seat + 1}がパス", None))
        assert said.en == want and said.ja == "あなたがパス"
    lines = Speech(1, "play", "As calculated.", "計算通りだ。", "cool")
    assert scene._personal(lines) == lines


def test_the_dumped_ranking_is_live(tmp_path: Path) -> None:
    d = Driver(tmp_path, seed=9)
    rng = random.Random(9)
    for _ in range(3000):
        g = d.game
        if sum(g["killed"]) >= 2 or g["phase"] != "play":
            break
        if g["playable"] and not g["animating"]:
            d.play_card(rng.choice(g["playable"]))
        elif "button:pass" in d.hotspots() and not g["animating"]:
            d.tap("button:pass")
        else:
            d.frames(1)
    g = d.game
    assert sum(g["killed"]) >= 2

    # best first: fewest killed, then most kills, then the earlier finish
    def key(s: int) -> tuple[int, int, int]:
        out = g["finished"].index(s) if s in g["finished"] else 4
        return (g["killed"][s], -g["kills"][s], out)

    assert g["ranking"] == sorted(range(4), key=key)
