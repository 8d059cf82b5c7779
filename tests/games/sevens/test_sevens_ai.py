"""Computer personalities: legal, reproducible, distinct, and true to their descriptions."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.sevens.ai.analysis import assess, assess_all
from games.sevens.ai.personalities import PERSONALITIES, make_player
from games.sevens.rules import Game, Options, SeatView, parse_card, seat_view
from games.sevens.simulator import play_game


def positions(n_games: int, options: Options | None = None) -> Iterator[tuple[Game, SeatView]]:
    """Decision points with a real choice, from games between mixed personalities."""
    for i in range(n_games):
        rng = random.Random(i)
        game = Game.new(rng, options or Options(max_kill=[1, 4, 6, 9, 12][i % 5]))
        players = [
            make_player(k, random.Random(i * 7 + s)) for s, k in enumerate(PERSONALITIES[1:])
        ]
        while not game.over:
            view = seat_view(game, game.current)
            if len(view.legal_cards()) > 1:
                yield game, view
            game.apply(players[game.current].choose(view))


def test_assessment_kills_match_the_rules() -> None:
    for game, view in positions(6):
        for card in view.legal_cards():
            a = assess(view, card)
            trial = Game.from_json(game.to_json())
            events = trial.play(card)
            killed = [
                (c, v)
                for e in events
                if e["type"] == "kill"
                for c, v in zip(e["cards"], e["victims"], strict=True)
            ]
            assert a.gain == sum(v != view.seat for _, v in killed)
            assert a.loss == sum(v == view.seat for _, v in killed)


def test_every_personality_plays_legally_and_reproducibly() -> None:
    for key in PERSONALITIES:
        seats = [key, "simpleton", key, "cool"]
        a = play_game(seats, 21)
        b = play_game(seats, 21)
        assert a.events == b.events
        assert a.over


def test_hitman_never_misses_a_kill() -> None:
    checked = 0
    for _, view in positions(25):
        if view.seat is None:
            continue
        found = assess_all(view, view.legal_cards())
        if not any(a.gain > a.loss for a in found):
            continue
        choice = make_player("hitman", random.Random(0)).choose(view)
        chosen = next(a for a in found if a.card == parse_card(choice["card"]))
        best = max(a.gain - a.loss for a in found)
        assert chosen.gain - chosen.loss == best
        checked += 1
    assert checked > 10


def test_coward_never_harms_itself_when_it_can_avoid_it() -> None:
    checked = 0
    for _, view in positions(25):
        found = assess_all(view, view.legal_cards())
        choice = make_player("coward", random.Random(0)).choose(view)
        chosen = next(a for a in found if a.card == parse_card(choice["card"]))
        assert chosen.loss == min(a.loss for a in found)
        # among plays that lose nothing now, it takes one of the least risky
        if chosen.loss == 0 and min(a.loss for a in found) == 0:
            checked += 1
    assert checked > 50


def test_brute_prefers_endangering_opponents_more_than_cool_does() -> None:
    brute_sum = cool_sum = 0.0
    for _, view in positions(15):
        found = {a.card: a for a in assess_all(view, view.legal_cards())}
        b = parse_card(make_player("brute", random.Random(0)).choose(view)["card"])
        c = parse_card(make_player("cool", random.Random(0)).choose(view)["card"])
        brute_sum += found[b].opp_danger - found[b].own_danger
        cool_sum += found[c].opp_danger - found[c].own_danger
    assert brute_sum > cool_sum


def test_cool_keeps_its_own_cards_safer_than_brute() -> None:
    brute_sum = cool_sum = 0.0
    for _, view in positions(15):
        found = {a.card: a for a in assess_all(view, view.legal_cards())}
        b = parse_card(make_player("brute", random.Random(0)).choose(view)["card"])
        c = parse_card(make_player("cool", random.Random(0)).choose(view)["card"])
        brute_sum += found[b].own_danger
        cool_sum += found[c].own_danger
    assert cool_sum < brute_sum


def test_personalities_are_distinct_policies() -> None:
    views = [v for _, v in positions(8)]
    choices = {
        k: [make_player(k, random.Random(0)).choose(v)["card"] for v in views]
        for k in PERSONALITIES
    }
    for i, a in enumerate(PERSONALITIES):
        for b in PERSONALITIES[i + 1 :]:
            assert choices[a] != choices[b], f"{a} and {b} always agree"


def test_simpleton_plays_a_random_playable_card() -> None:
    _, view = next(positions(1))
    legal = view.legal_cards()
    picks = {make_player("simpleton", random.Random(s)).choose(view)["card"] for s in range(60)}
    assert {parse_card(p) for p in picks} == set(legal)


def test_pass_and_forced_plays() -> None:
    game = Game.new(random.Random(2))
    starter = game.current
    view = seat_view(game, starter)
    for key in PERSONALITIES:
        assert make_player(key, random.Random(0)).choose(view) == {"type": "play", "card": "7D"}
    other = seat_view(game, (starter + 1) % 4)  # not its turn: nothing to play
    assert make_player("cool", random.Random(0)).choose(other) == {"type": "pass"}


def test_unknown_personality_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown personality"):
        make_player("genius", random.Random(0))
