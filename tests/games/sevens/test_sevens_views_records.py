"""Seat views, game records (save, load, replay), suspended games and the tally."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from sevens_tables import cards, table

from games.sevens.records import load_record, save_record
from games.sevens.rules import (
    Game,
    Options,
    RecordError,
    SeatView,
    Tally,
    parse_card,
    record_of,
    replay,
    seat_view,
)
from games.sevens.rules.board import cards_of
from games.sevens.simulator import play_game


def test_view_shows_own_hand_with_positions_and_frames() -> None:
    game = table(cards("2S"), cards("AH KC 8D"))
    view = seat_view(game, 0)
    hand = {h.card: h for h in view.hand_cards()}
    assert set(hand) == set(cards("AH KC 8D"))
    assert (hand[parse_card("AH")].row, hand[parse_card("AH")].column) == (1, 0)
    assert (hand[parse_card("KC")].row, hand[parse_card("KC")].column) == (3, 12)
    assert hand[parse_card("AH")].playable  # next to 2♠ diagonally
    assert hand[parse_card("8D")].playable  # next to 7♦
    assert not hand[parse_card("KC")].playable
    # the view's idea of playable is the game's
    for c in hand:
        assert hand[c].playable == game.is_playable(c)


def test_view_has_revealed_kills_counts_and_turn() -> None:
    game = table(cards("2S"), cards("AH KC"))
    victim = game.owner[parse_card("AS")]
    game.play(parse_card("AH"))
    for seat in range(4):
        view = seat_view(game, seat)
        assert view.victims == ((parse_card("AS"), victim),)
        assert view.killed_count[victim] == 1
        assert view.kills_count[0] == 1
        assert view.current == game.current
        assert list(view.cards_left) == [game.cards_left(s) for s in range(4)]
        assert cards_of(view.hand) == game.hand(seat)
    # the view round-trips through JSON
    view = seat_view(game, 2)
    again = SeatView.from_json(json.loads(json.dumps(view.to_json())))
    assert again == view


def test_view_of_another_seat_gives_no_legal_cards() -> None:
    game = Game.new(random.Random(4))
    other = (game.current + 1) % 4
    assert seat_view(game, other).legal_cards() == []
    assert seat_view(game, game.current).legal_cards() == game.legal_cards()


def test_kill_events_carry_cards_victims_and_killer() -> None:
    game = table(cards("5S 5D 4H 7S 8H"), cards("6H"))
    events = game.play(parse_card("6H"))
    for e in (e for e in events if e["type"] == "kill"):
        assert e["killer"] == 0
        assert e["victims"] == [game.owner[parse_card(c)] for c in e["cards"]]


@pytest.mark.parametrize("opts", [Options(), Options(4, True, True, True), Options(max_kill=1)])
def test_record_save_load_replay(tmp_path: Path, opts: Options) -> None:
    game = play_game(["cool", "hitman", "coward", "brute"], 11, 0, opts)
    path = tmp_path / "game.json"
    save_record(path, game, ["cool", "hitman", "coward", "brute"])
    loaded = load_record(path)
    assert loaded.events == game.events
    assert loaded.killed_count == game.killed_count
    assert loaded.kills_count == game.kills_count
    assert loaded.finish_order == game.finish_order
    assert loaded.ranking() == game.ranking()
    data = json.loads(path.read_text())
    assert data["seats"] == ["cool", "hitman", "coward", "brute"]


def test_suspended_game_resumes_exactly() -> None:
    rng = random.Random(9)
    game = Game.new(rng, Options(extra_turn=True))
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions()))
    resumed = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert resumed.current == game.current
    assert resumed.hands == game.hands
    assert resumed.legal_actions() == game.legal_actions()
    rng2 = random.Random(1)
    rng3 = random.Random(1)
    while not game.over:
        a = rng2.choice(game.legal_actions())
        b = rng3.choice(resumed.legal_actions())
        assert a == b
        assert game.apply(a) == resumed.apply(b)


def test_hand_built_table_record_replays() -> None:
    game = table(cards("2S"), cards("AH KC"))
    game.play(parse_card("AH"))
    again = replay(json.loads(json.dumps(record_of(game))))
    assert again.events == game.events


def _record() -> dict:
    return record_of(play_game(["cool", "simpleton", "simpleton", "brute"], 3))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda r: r.pop("hands"),
        lambda r: r["hands"][0].__setitem__(0, "ZZ"),
        lambda r: r["hands"][0].__setitem__(0, r["hands"][1][0]),
        lambda r: r["events"].pop(),
        lambda r: r["events"].insert(5, {"type": "pass", "seat": 0}),
        lambda r: r["events"][3].__setitem__("card", "KC"),
        lambda r: r.__setitem__("options", {"max_kill": 5}),
        lambda r: r.__setitem__("options", {"colour": "red"}),
        lambda r: r.__setitem__("events", "none"),
        lambda r: r["events"].append({"type": "kill", "killer": 0, "cards": [], "victims": []}),
    ],
)
def test_spoiled_records_are_refused(spoil) -> None:  # type: ignore[no-untyped-def]
    data = _record()
    spoil(data)
    with pytest.raises(RecordError):
        replay(data)


def test_unreadable_record_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not JSON"):
        load_record(bad)
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError):
        load_record(bad)


def test_tally_accumulates_and_round_trips() -> None:
    names = ["Ann", "Cool", "Hitman", "Coward"]
    tally = Tally()
    games = [play_game(["simpleton", "cool", "hitman", "coward"], 5, i) for i in range(6)]
    for g in games:
        tally.add(g, names)
    for seat, name in enumerate(names):
        t = tally.members[name]
        assert t.games == 6
        assert t.wins == sum(g.ranking()[0] == seat for g in games)
        assert t.killed == sum(g.killed_count[seat] for g in games)
        assert t.kills == sum(g.kills_count[seat] for g in games)
        assert t.place_sum == sum(g.ranking().index(seat) + 1 for g in games)
    assert sum(t.wins for t in tally.members.values()) == 6
    again = Tally.from_json(json.loads(json.dumps(tally.to_json())))
    assert again == tally
    tally.reset()
    assert tally.members == {}


def test_tally_refuses_bad_input() -> None:
    tally = Tally()
    game = Game.new(random.Random(2))
    with pytest.raises(ValueError):
        tally.add(game, ["a", "b", "c", "d"])  # not finished
    with pytest.raises(ValueError):
        Tally.from_json({"members": {"a": {"games": -1}}})
    with pytest.raises(ValueError):
        Tally.from_json([])
