"""Whole-game properties over any options and seats (hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sevens_tables import options_st

from games.sevens.ai.personalities import PERSONALITIES, Personality, make_player
from games.sevens.rules import Game, Options, SeatView, card_name, replay, seat_view
from games.sevens.rules.board import GRID, cards_of

seats_st = st.lists(st.sampled_from(PERSONALITIES), min_size=4, max_size=4)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _play(seed: int, options: Options, seats: list[str], check=None) -> Game:  # type: ignore[no-untyped-def]
    game = Game.new(random.Random(seed), options)
    players = [make_player(k, random.Random(seed * 10 + s)) for s, k in enumerate(seats)]
    steps = 0
    while not game.over:
        steps += 1
        assert steps <= 52 * 4 * 4, "the game does not end"
        seat = game.current
        view = seat_view(game, seat)
        if check is not None:
            check(game, seat, view)
        game.apply(players[seat].choose(view))
    return game


@SETTINGS
@given(seed=st.integers(0, 2**32), options=options_st, seats=seats_st)
def test_every_game_ends_with_every_card_played_or_killed(
    seed: int, options: Options, seats: list[str]
) -> None:
    game = _play(seed, options, seats)
    assert game.over
    assert game.played | game.killed == GRID
    assert game.played & game.killed == 0
    assert all(game.cards_left(s) == 0 for s in range(4))
    assert sorted(game.finish_order) == [0, 1, 2, 3]
    killed_events = [c for e in game.events if e["type"] == "kill" for c in e["cards"]]
    assert sorted(killed_events) == sorted(card_name(c) for c in cards_of(game.killed))
    # the killed and kill counts add up, and match the events
    assert sum(game.killed_count) == sum(game.kills_count) == len(killed_events)
    for s in range(4):
        assert game.killed_count[s] == sum(
            e["victims"].count(s) for e in game.events if e["type"] == "kill"
        )
        assert game.kills_count[s] == sum(
            len(e["cards"]) for e in game.events if e["type"] == "kill" and e["killer"] == s
        )
    plays = [e for e in game.events if e["type"] == "play"]
    laid = 4 if options.sevens_laid_out else 0
    assert len(plays) + laid + len(killed_events) == 52
    # the record replays to the same final state
    again = replay(json.loads(json.dumps(game.to_json())))
    assert again.events == game.events
    assert again.ranking() == game.ranking()


@SETTINGS
@given(seed=st.integers(0, 2**32), options=options_st, seats=seats_st)
def test_computer_input_never_holds_other_hands(
    seed: int, options: Options, seats: list[str]
) -> None:
    seen: list[int] = []

    def check(game: Game, seat: int, view: SeatView) -> None:
        assert view.seat == seat
        assert view.hand == game.hands[seat]
        hidden = {card_name(c) for s in range(4) if s != seat for c in game.hand(s)}
        text = json.dumps(view.to_json())
        words = set(text.replace('"', " ").replace(",", " ").replace("[", " ").split())
        assert not hidden & words
        seen.append(seat)

    _play(seed, options, seats, check)
    assert seen


def test_personalities_refuse_anything_but_a_view() -> None:
    game = Game.new(random.Random(3))
    player: Personality = make_player("cool", random.Random(1))
    try:
        player.choose(game)  # type: ignore[arg-type]
    except TypeError:
        pass
    else:
        raise AssertionError("a computer player accepted the whole game")


@SETTINGS
@given(seed=st.integers(0, 2**32), options=options_st)
def test_random_legal_play_always_finishes(seed: int, options: Options) -> None:
    rng = random.Random(seed)
    game = Game.new(rng, options)
    for _ in range(52 * 4 * 4):
        if game.over:
            break
        actions = game.legal_actions()
        assert actions
        if actions != [{"type": "pass"}]:
            assert all(a["type"] == "play" for a in actions)
        game.apply(rng.choice(actions))
    assert game.over
