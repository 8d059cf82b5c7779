"""Sevens, turn flow, passing, extra turns, going out, skipping and the winner."""

from __future__ import annotations

import json
import random

import pytest
from sevens_tables import cards, table

from games.sevens.rules import Game, Options, RuleError, parse_card
from games.sevens.rules.cards import SEVENS


def deal_with(fixed: dict[str, int]) -> list[list[int]]:
    """A deal where the named cards go to the given seats; the rest fill up to 13 each."""
    hands: list[list[int]] = [[], [], [], []]
    for name, seat in fixed.items():
        hands[seat].append(parse_card(name))
    rest = [c for c in range(52) if c not in {parse_card(n) for n in fixed}]
    for c in rest:
        seat = min(range(4), key=lambda s: (len(hands[s]) >= 13, len(hands[s])))
        hands[seat].append(c)
    return hands


def test_holder_of_seven_of_diamonds_starts_with_it() -> None:
    game = Game(deal_with({"7D": 2, "7S": 3, "8D": 2}))
    assert game.current == 2
    assert game.legal_cards() == [parse_card("7D")]
    before = json.dumps(game.to_json())
    with pytest.raises(RuleError):
        game.play(parse_card("8D"))
    with pytest.raises(RuleError):
        game.pass_turn()
    assert json.dumps(game.to_json()) == before
    game.play(parse_card("7D"))
    assert game.current == 3
    # 7♠ is two rows away from 7♦, yet any seven may be played
    assert parse_card("7S") in game.legal_cards()
    game.play(parse_card("7S"))
    assert game.played & (1 << 6)  # 7♠ on the table (row 0, column 6)


def test_seven_playable_later_without_neighbours() -> None:
    game = Game(deal_with({"7D": 0, "7C": 1, "7H": 2}))
    game.play(parse_card("7D"))
    game.play(parse_card("7C"))  # below 7♦: adjacent anyway
    assert parse_card("7H") in game.legal_cards()  # seat 2 may hold it back or play it
    assert len(game.legal_cards()) > 1


def test_laid_out_sevens_are_placed_in_suit_order() -> None:
    hands = deal_with({"7S": 1, "7H": 3, "7D": 2, "7C": 1})
    game = Game(hands, Options(sevens_laid_out=True))
    layout = game.events[0]
    assert layout["type"] == "layout"
    assert layout["cards"] == ["7S", "7H", "7D", "7C"]
    assert layout["seats"] == [1, 3, 2, 1]
    for s in range(4):
        assert not set(game.hand(s)) & set(SEVENS)
    assert sum(game.cards_left(s) for s in range(4)) == 48
    assert game.current == 2  # the holder of the 7 of diamonds starts
    # with only the sevens out, the sixes and eights are the playable cards
    assert game.legal_cards() == [c for c in game.hand(2) if c % 13 in (5, 7)]


def test_pass_only_when_nothing_is_playable() -> None:
    # seat 0 holds only K♣ and A♠, far from anything played
    game = table(cards("7S 7H 7C 6D 8D"), cards("KC AS"), owners={parse_card("8S"): 1})
    assert game.legal_actions() == [{"type": "pass"}]
    with pytest.raises(RuleError):
        game.play(parse_card("KC"))
    events = game.pass_turn()
    assert events[0] == {"type": "pass", "seat": 0}
    assert game.current == 1
    # a seat with a playable card may not pass
    with pytest.raises(RuleError):
        game.pass_turn()


def _chain_table(extra: bool) -> Game:
    # seat 0 can kill A♠ (with A♥) and then 5♥ and 6♠ (with 6♥); 9♦ kills nothing
    return table(
        cards("2S 5S 5D 4H 7S 7H 8H 7C"),
        cards("AH 6H 9D"),
        options=Options(extra_turn=extra),
    )


def test_extra_turn_chains_while_killing() -> None:
    game = _chain_table(extra=True)
    events = game.play(parse_card("AH"))
    assert {"type": "extra_turn", "seat": 0} in events
    assert game.current == 0
    events = game.play(parse_card("6H"))
    assert any(e["type"] == "kill" for e in events)
    assert game.current == 0
    events = game.play(parse_card("9D"))
    assert not any(e["type"] == "kill" for e in events)
    assert game.current == 1  # no kill: the turn moves on


def test_no_extra_turn_without_the_option() -> None:
    game = _chain_table(extra=False)
    events = game.play(parse_card("AH"))
    assert any(e["type"] == "kill" for e in events)
    assert not any(e["type"] == "extra_turn" for e in events)
    assert game.current == 1


def _nearly_done(hands: list[list[int]], current: int) -> Game:
    """Everything but the given hands is on the table; single cards only die (max 1), so
    pairs and chains of free cards are still alive."""
    rest = [c for c in range(52) if c not in {x for h in hands for x in h}]
    return Game.from_table(hands, rest, current, Options(max_kill=1))


def test_going_out_at_the_start_of_a_turn() -> None:
    # seat 1 has no cards left (they were taken in an earlier turn): it goes out on its turn
    hands = [cards("2H JC"), [], cards("QC"), cards("KC AH")]
    game = _nearly_done(hands, 0)
    events = game.play(parse_card("JC"))
    finish = [e for e in events if e["type"] == "finish"]
    assert finish == [{"type": "finish", "seat": 1, "place": 1}]
    assert game.current == 2


def test_going_out_by_playing_the_last_card() -> None:
    hands = [cards("JC"), cards("QC"), cards("KC"), cards("AH 2H")]
    game = _nearly_done(hands, 0)
    events = game.play(parse_card("JC"))
    assert events[1] == {"type": "finish", "seat": 0, "place": 1}
    assert game.current == 1
    assert game.finished(0)


def test_going_out_by_killing_ones_own_last_cards() -> None:
    # seat 0 holds A♥ and A♠; playing A♥ encloses its own A♠ and empties its hand
    hands = [cards("AH AS"), cards("JC"), cards("QC"), cards("KC")]
    game = _nearly_done(hands, 0)
    events = game.play(parse_card("AH"))
    types = [e["type"] for e in events]
    assert types[:3] == ["play", "kill", "finish"]
    assert events[2]["seat"] == 0
    assert game.killed_count[0] == 1 and game.kills_count[0] == 1


def test_killed_in_another_turn_goes_out_one_turn_later() -> None:
    # seat 2 kills seat 1's last card (A♠); seat 1 goes out only when its turn comes
    played = cards("2S 7S 7H 7C 7D")
    hands = [[], cards("AS"), cards("AH 8D 9D"), cards("6D 6H QC")]
    hands[0] = [c for c in range(52) if c not in set(played) | {x for h in hands for x in h}]
    game = Game.from_table(hands, played, 2)
    events = game.play(parse_card("AH"))
    assert any(e["type"] == "kill" and e["victims"] == [1] for e in events)
    assert not game.finished(1)
    assert game.cards_left(1) == 0
    for seat in (3, 0):
        assert game.current == seat
        assert not game.finished(1)
        events = game.apply(game.legal_actions()[0])
    # the turn reached seat 1: it goes out now and play moves on to seat 2
    assert {"type": "finish", "seat": 1, "place": 1} in events
    assert game.current == 2


def test_finished_players_are_skipped() -> None:
    hands = [cards("JC"), cards("QC AH"), cards("KC"), cards("2H")]
    game = _nearly_done(hands, 0)
    game.play(parse_card("JC"))  # seat 0 out
    order = []
    while not game.over:
        order.append(game.current)
        game.apply(game.legal_actions()[0])
    assert 0 not in order
    assert game.events[-1]["type"] == "end"
    assert game.finish_order[0] == 0
    assert sorted(game.finish_order) == [0, 1, 2, 3]


def _ranked(killed: list[int], kills: list[int], order: list[int]) -> list[int]:
    game = Game.new(random.Random(1))
    game.killed_count = killed
    game.kills_count = kills
    game.finish_order = order
    return game.ranking()


def test_winner_fewest_killed_first() -> None:
    assert _ranked([3, 1, 2, 4], [0, 0, 9, 9], [0, 1, 2, 3])[0] == 1


def test_tie_on_killed_goes_to_most_kills() -> None:
    assert _ranked([1, 1, 2, 4], [2, 5, 9, 9], [0, 1, 2, 3])[:2] == [1, 0]


def test_tie_on_killed_and_kills_goes_to_first_out() -> None:
    assert _ranked([1, 1, 1, 1], [2, 2, 2, 3], [2, 0, 1, 3]) == [3, 2, 0, 1]


def test_whole_game_ends_with_a_ranking() -> None:
    rng = random.Random(5)
    game = Game.new(rng)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    end = game.events[-1]
    assert end["type"] == "end" and end["ranking"] == game.ranking()
    assert game.winner() == game.ranking()[0]
    with pytest.raises(RuleError):
        game.pass_turn()
