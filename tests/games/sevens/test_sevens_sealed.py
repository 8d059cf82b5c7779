"""The sealed deal of linked Killing Sevens: a seat's view (`SealedGame`, `SevensSealed`)
follows the whole game exactly from its own hand and the disclosures, and a sealed session
catches a host that deals unfairly, names a wrong victim or passes with a playable card."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sevens_tables import options_st

from firmware.link.packet import ID_BYTES
from firmware.link.session import ACTION, Session, State
from firmware.link.testbed import Air, prepaired
from firmware.match import ActionError, LocalSeat, Match, RelaySeat
from games.sevens.match import (
    PASS,
    SevensRules,
    SevensSealed,
    deal_for_link,
    pack_victims,
    unpack_victims,
)
from games.sevens.rules import Options, RecordError, board, card_name
from games.sevens.rules.sealed import UNKNOWN, SealedGame, starting_owners
from hal.link.air import Impairments


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), options=options_st, pick=st.randoms(use_true_random=False))
def test_every_view_follows_the_whole_game(seed: int, options: Options, pick: Any) -> None:
    full = SevensRules.new(seed, options)
    views = [full.sealed_view(s) for s in range(4)]
    while full.to_move() is not None:
        seat = full.to_move()
        assert seat is not None
        action = pick.choice(list(full.legal_actions()))
        events = full.apply(seat, action)
        wire = full.encode(action) + full.disclosure(events)
        for s, view in enumerate(views):
            view_events = view.apply(seat, view.decode(wire))
            assert view_events == events  # the same events, victims and all
            assert view.digest() == full.public_digest()
            game = view.game
            assert game.hand(s) == full.game.hand(s)
            assert [game.cards_left(o) for o in range(4)] == [
                full.game.cards_left(o) for o in range(4)
            ]
            # nothing of the other hands: no cards, and no owner of a card still held
            assert all(
                game.hands[o] == 0 and game.initial_hands[o] == [] for o in range(4) if o != s
            )
            held = board.GRID & ~full.game.played & ~full.game.killed & ~full.game.hands[s]
            for c in board.cards_of(held):  # only the start's announced sevens are known
                assert game.owner[c] == UNKNOWN or c in starting_owners(full.game)
        # a view saved and loaded (a resync, a suspend) is the same view
        again = SevensSealed.from_json(views[seat].to_json())
        assert again.to_json() == views[seat].to_json()
    for view in views:
        assert view.unseal(full) is None
    assert full.game.ranking() == views[1].game.ranking()


def test_a_view_refuses_a_wrong_disclosure_and_changes_nothing() -> None:
    """Disclosures a view can see are wrong: one victim too many or too few, its own killed
    card given to another seat, a card it never held given to itself."""
    options = Options(max_kill=12, three_walls=True, extra_turn=True)
    checked = 0
    for seed in range(40):
        full = SevensRules.new(seed, options)
        views = [full.sealed_view(s) for s in range(4)]
        rng = random.Random(seed)
        while full.to_move() is not None:
            seat = full.to_move()
            assert seat is not None
            action = rng.choice(list(full.legal_actions()))
            events = full.apply(seat, action)
            victims = [v for e in events if e["type"] == "kill" for v in e["victims"]]
            before = [v.to_json() for v in views]
            for s, view in enumerate(views):
                if not victims:
                    break
                bad = [[*victims, 0], victims[:-1]]
                if s in victims:  # its own card said to be another seat's
                    i = victims.index(s)
                    bad.append([*victims[:i], (s + 1) % 4, *victims[i + 1 :]])
                else:  # a card it never held said to be its own
                    bad.append([s] * len(victims))
                for lie in bad:
                    text = f"{action}>{''.join(map(str, lie))}" if lie else action
                    assert view.check(seat, text) is not None, (text, victims)
                    with pytest.raises(ActionError):
                        view.apply(seat, text)
                    checked += 1
            assert [v.to_json() for v in views] == before  # nothing changed
            wire = full.encode(action) + full.disclosure(events)
            for v in views:
                v.apply(seat, v.decode(wire))  # the true disclosure is taken
    assert checked > 100


@given(st.lists(st.integers(0, 3), max_size=60))
def test_disclosures_round_trip(victims: list[int]) -> None:
    assert unpack_victims(pack_victims(victims)) == victims
    assert len(pack_victims(victims)) <= 1 + 15


@given(
    st.one_of(st.binary(max_size=20), st.binary(min_size=2, max_size=5).map(lambda b: b"8D" + b))
)
def test_any_wire_bytes_decode_or_are_refused(data: bytes) -> None:
    view = SevensRules.new(1).sealed_view(1)
    try:
        action = view.decode(data)
    except ActionError:
        return
    assert view.encode(action) == data


def test_a_damaged_view_is_refused_with_a_reason() -> None:
    data = SevensRules.new(3).sealed_view(2).to_json()
    for bad in (
        {**data, "hand": data["hand"][:-1]},
        {**data, "seat": 7},
        {**data, "known": []},
        {**data, "events": [{"type": "play", "seat": 0, "card": "KS"}]},
        [],
    ):
        with pytest.raises(RecordError):
            SealedGame.from_json(bad)


# ------------------------------------------------------------------------- sessions
def sealed_sessions(units: int = 3) -> tuple[Air, list[Session]]:
    air = Air(Impairments(baud=9600, loss=0.05, delay_ms=20, jitter_ms=10, seed=4))
    ids = [bytes([0x10 + i]) * ID_BYTES for i in range(units)]  # the same run every time
    radios = prepaired(air, *("Host", "G1", "G2", "G3")[:units], ids=ids)
    sessions = [Session(r) for r in radios]
    for i, s in enumerate(sessions):
        s._secret = bytes([i + 1]) * 16  # fixed randoms: the same deal every run
    sessions[0].host_game("sevens", {}, seats=units, sealed=True)
    for s in sessions[1:]:
        s.look("sevens")
    air.run(300, until=lambda: (tick(sessions), all(s.hosts() for s in sessions[1:]))[1])
    for s in sessions[1:]:
        assert s.join(radios[0].id)
    air.run(900, until=lambda: (tick(sessions), all(s.seed is not None for s in sessions))[1])
    return air, sessions


def tick(sessions: list[Session]) -> None:
    for s in sessions:
        s.tick()


def play(air: Air, sessions: list[Session], host_rules: SevensRules, seed: int = 0) -> None:
    """Every seat (the host's own seats 0 and 3, the guests' 1 and 2) plays random cards."""
    rng = random.Random(seed)
    matches: dict[int, Match[str]] = {}
    options = host_rules.game.options
    for _ in range(60 * 300):
        air.run(1)
        tick(sessions)
        for i, s in enumerate(sessions):
            if i in matches or not s.ready:
                continue
            rules = host_rules if i == 0 else SevensSealed.from_json(s.opening["rules"])
            s.seats = 4
            seats = s.make_seats()
            if i == 0:
                seats[3] = LocalSeat()
            matches[i] = Match(rules, seats)
            s.attach(matches[i], dealer=lambda d: deal_for_link(d, options))
        for i, m in matches.items():
            seat = m.to_move
            if seat is not None and (seat == sessions[i].seat or (i == 0 and seat == 3)):
                source = m.seats[seat]
                assert isinstance(source, LocalSeat | RelaySeat)
                choices = list(m.rules.legal_actions())
                source.offer(rng.choice(choices))
            m.step()
        if all(s.state in (State.OVER, State.ABANDONED) for s in sessions):
            break


def test_an_honest_host_is_checked_and_every_unit_ends_with_the_whole_game() -> None:
    air, sessions = sealed_sessions()
    host = sessions[0]
    assert host.deal_seed is not None and all(s.deal_seed is None for s in sessions[1:])
    assert len({s.seed for s in sessions}) == 1  # the shared (non-dealing) seed
    rules = deal_for_link(host.deal_seed)
    play(air, sessions, rules)
    assert all(s.state is State.OVER and s.agreed and not s.cheated for s in sessions)
    digests = {s.match.rules.digest() for s in sessions if s.match is not None}
    assert digests == {rules.digest()}  # the guests replayed the host's whole game
    guest_rules = sessions[1].match.rules if sessions[1].match else None
    assert isinstance(guest_rules, SevensRules) and not isinstance(guest_rules, SevensSealed)
    assert guest_rules.game.initial_hands == rules.game.initial_hands  # all hands, for Records


class LyingVictims(SevensRules):
    """A modified host: the first killed card of one of its own seats (0 and 3) is said to
    be the other one's; neither guest can tell at the time."""

    lied = False

    def disclosure(self, events: list[dict[str, Any]]) -> bytes:
        victims = [v for e in events if e["type"] == "kill" for v in e["victims"]]
        if not self.lied and victims[:1] in ([0], [3]):
            other = 3 - victims[0]
            if self.game.cards_left(other) > victims.count(other):
                self.lied = True
                victims[0] = other
        return pack_victims(victims)


class PassingCheat(SevensRules):
    """A modified host whose own seat passes once with a playable card (saving it)."""

    passed = False

    def check(self, seat: int, action: str) -> str | None:
        if action == PASS and seat == 3 and not self.passed:
            return None
        return super().check(seat, action)

    def apply(self, seat: int, action: str) -> list[dict[str, Any]]:
        if action != PASS or not self.game.legal_cards():
            return super().apply(seat, action)
        self.passed = True
        self.game.events.append({"type": "pass", "seat": seat})  # what the host announces
        self.game._advance(seat)
        return [{"type": "pass", "seat": seat}]

    def legal_actions(self) -> list[str]:
        if self.to_move() == 3 and not self.passed and self.game.legal_cards():
            return [PASS]
        return list(super().legal_actions())


def test_a_wrong_victim_is_caught_at_once_and_the_host_state_wins() -> None:
    """The disclosure disagrees with the public digest the host sends beside it: the guests
    see the difference after that action and adopt the host's own (true) view."""
    air, sessions = sealed_sessions()
    rules = LyingVictims(deal_for_link(sessions[0].deal_seed or 0).game)
    play(air, sessions, rules, seed=2)
    assert rules.lied
    assert all(g.divergences >= 1 and g.resyncs >= 1 for g in sessions[1:])
    assert all(s.state is State.OVER and s.agreed and not s.cheated for s in sessions)
    assert {s.match.rules.digest() for s in sessions if s.match} == {rules.digest()}


@pytest.mark.parametrize("cheat", ["deal", "pass"])
def test_a_cheating_host_is_caught_at_the_end(cheat: str) -> None:
    """A host whose announcements agree with its own (unfair) game: the end check deals the
    committed randoms' game again and replays every action through the whole rules."""
    air, sessions = sealed_sessions()
    host = sessions[0]
    assert host.deal_seed is not None
    rules: SevensRules
    if cheat == "deal":  # a deal of the host's choosing, not the committed randoms'
        rules = deal_for_link(host.deal_seed + 1)
    else:
        rules = PassingCheat(deal_for_link(host.deal_seed).game)
    play(air, sessions, rules, seed=2)
    guests = sessions[1:]
    if isinstance(rules, PassingCheat):
        assert rules.passed
    assert all(g.cheated and g.state is State.ABANDONED for g in guests), [
        (g.state, g.note) for g in guests
    ]
    assert all("does not check out" in g.note for g in guests)
    assert all(not g.agreed for g in guests)
    assert host.state is State.ABANDONED  # told, so nobody records the result


def test_a_guest_cannot_act_for_another_seat_or_play_a_card_it_lacks() -> None:
    _air, sessions = sealed_sessions()
    host, g1 = sessions[0], sessions[1]
    rules = next(r for r in map(deal_for_link, range(99)) if r.to_move() == 1)
    host.seats = 4
    seats = host.make_seats()
    match: Match[str] = Match(rules, seats)
    host.attach(match)
    lacks = next(c for c in range(52) if c not in rules.game.hand(1))
    for seat, card in ((2, rules.game.hand(2)[0]), (1, lacks)):
        head = ACTION.pack(0, seat, bytes(6))
        host._on_message_safe(g1.radio.id, b"P" + head + card_name(card).encode())
    match.step()
    assert match.history == []  # nothing applied
    assert host.radio.counters.rejected["illegal"] == 1  # the action for seat 2
    assert match.refused == {"remote": 1}  # the card seat 1 does not hold
    assert "does not hold" in (match.last_refusal or "")
