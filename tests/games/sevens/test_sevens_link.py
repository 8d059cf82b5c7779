"""Killing Sevens over the link: three units and one computer seat on a lossy in-memory
medium play a whole game by taps to identical tables and rankings on every unit, and no
guest's memory or incoming messages ever hold a card of another seat before it is played or
killed (the sealed deal, firmware/link/session.py)."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import pygame
import pytest
from sevens_driver import Tapper, remember

from firmware.link.session import ACTION, Session
from firmware.link.testbed import Air, prepaired
from firmware.scenes.versus import LobbyScene, start_versus
from firmware.storage import Store
from firmware.testing import scripted_machine
from games.sevens.match import SevensSealed
from games.sevens.rules import board, parse_card
from games.sevens.rules.cards import SEVEN_OF_DIAMONDS, SEVENS
from games.sevens.rules.sealed import UNKNOWN
from games.sevens.scene.setup import Setup
from hal.interfaces import Button, RawInput
from hal.link.air import Impairments
from hal.link.memory import MemoryMedium


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


def play_linked(tmp_path: Path, sealed: bool = True) -> tuple[list[Session], list[Any], Spy]:
    """Three units (host seat 0, guests 1 and 2) and a computer play one game by taps."""
    air = Air(Impairments(baud=9600, loss=0.1, corrupt=0.002, delay_ms=20, jitter_ms=10, seed=5))
    radios = prepaired(air, "Host", "G1", "G2")
    sessions = [Session(r) for r in radios]
    spy = Spy(sessions)
    options = {"max_kill": "9", "three_walls": "off", "sevens_first": "last", "extra_turn": "on"}
    sessions[0].host_game("sevens", options, seats=3, sealed=sealed)
    for s in sessions[1:]:
        s.look("sevens")

    def tick_sessions() -> None:
        for s in sessions:
            s.tick()

    air.run(300, until=lambda: (tick_sessions(), all(s.hosts() for s in sessions[1:]))[1])
    for s in sessions[1:]:
        assert s.join(radios[0].id)
    machines: dict[int, Any] = {}
    for _ in range(60 * 900):
        air.run(1)
        tick_sessions()
        for i, session in enumerate(sessions):
            if i not in machines and session.ready:  # as the lobby does: start when ready
                remember(tmp_path / str(i), bubbles="fast", hints=True)
                tapper = Tapper(i)
                m = scripted_machine(tmp_path / str(i), tapper)
                m.start_game("sevens", dict(session.options), versus=session)
                tapper.machine = m
                machines[i] = m
        for m in machines.values():
            m.step()
        spy.check_memory()
        if len(machines) == 3 and all(
            m.dump()["game"]["phase"] == "over" for m in machines.values()
        ):
            break
    return sessions, [machines[i] for i in range(3)], spy


def test_three_units_and_a_computer_finish_one_game_alike(tmp_path: Path) -> None:
    sessions, machines, spy = play_linked(tmp_path)
    dumps = [m.dump()["game"] for m in machines]
    assert all(d["phase"] == "over" and d["mode"] == "link" for d in dumps)
    assert len({str(d["table"]) for d in dumps}) == 1
    assert len({str(d["ranking"]) for d in dumps}) == 1
    assert sorted(d["seat"] for d in dumps) == [0, 1, 2]
    assert all(d["members"][3] == "coward" for d in dumps)  # seat 4's first-time computer
    assert all(s.divergences == 0 for s in sessions)
    # the hands never travelled: every message a guest received, checked against the deal
    spy.check_messages()
    # every action of the game reached both guests (the deal, so the game's length, is drawn
    # at pairing: a fixed count would fail on a short game)
    host_match = sessions[0].match
    assert host_match is not None
    actions = len(host_match.history)
    assert actions >= 13 and spy.checked["A"] == 2 * actions
    assert spy.checked["state"] == 2 and spy.checked["U"] == 2
    assert spy.memory_checks > 1000
    assert all(not s.cheated for s in sessions)


def test_the_spy_catches_a_deal_every_unit_knows(tmp_path: Path) -> None:
    """The checks above can fail: unsealed, every unit deals the whole table itself."""
    with pytest.raises(AssertionError, match="held the whole deal"):
        play_linked(tmp_path, sealed=False)


class Spy:
    """Records what each guest receives, with the cards public at that moment (played or
    killed on the host, which is never behind), and checks each guest's memory every tick."""

    def __init__(self, sessions: list[Session]) -> None:
        self.sessions = sessions
        self.inbox: dict[int, list[tuple[int, bool, bytes]]] = {1: [], 2: []}
        self.checked: dict[str, int] = {}
        self.memory_checks = 0
        for i in (1, 2):
            radio = sessions[i].radio
            take = radio.take_messages

            def spying(take: Any = take, i: int = i) -> list[tuple[bytes, bytes]]:
                msgs = take()
                for _src, msg in msgs:
                    self.inbox[i].append((self.public(), self.host_over(), bytes(msg)))
                return list(msgs)

            radio.take_messages = spying  # type: ignore[method-assign]

    def host_game(self) -> Any:
        match = self.sessions[0].match
        return match.rules.game if match is not None else None

    def public(self) -> int:
        game = self.host_game()
        return (game.played | game.killed) if game is not None else 0

    def host_over(self) -> bool:
        game = self.host_game()
        return game is not None and game.over

    def hand(self, seat: int) -> set[int]:
        return set(self.host_game().initial_hands[seat])

    def starting(self) -> set[int]:
        """Cards whose holder the start announces: the 7 of diamonds (its holder opens) and,
        laid out, the sevens."""
        return {SEVEN_OF_DIAMONDS, *SEVENS}

    def check_memory(self) -> None:
        """A guest's rules hold its own hand and the public table, nothing else."""
        for i in (1, 2):
            session = self.sessions[i]
            assert session.deal_seed is None or self.host_over(), "a guest knew the deal seed"
            if session.match is None or self.host_over():
                continue
            assert isinstance(session.match.rules, SevensSealed), "a guest held the whole deal"
            game = session.match.rules.game
            seat = game.seat
            assert all(game.hands[s] == 0 for s in range(4) if s != seat)
            assert all(game.initial_hands[s] == [] for s in range(4) if s != seat)
            known = {c for c in range(52) if game.owner[c] not in (UNKNOWN, seat)}
            public = board.cards_of(game.played | game.killed)
            assert known <= set(public) | self.starting(), "a guest knew an unplayed card's owner"
            saved = session.match.save()["rules"]  # what a suspend would store
            assert "hands" not in saved and {parse_card(c) for c in saved["hand"]} == self.hand(
                seat
            )
            self.memory_checks += 1

    def check_messages(self) -> None:
        for i in (1, 2):
            seat = self.sessions[i].seat
            assert seat is not None
            mine = self.hand(seat)
            parts: dict[int, bytes] = {}
            for public, over, msg in self.inbox[i]:
                kind, body = chr(msg[0]), msg[1:]
                assert kind in "WRNGASUEBLTH", f"unexpected message {kind!r}"
                self.checked[kind] = self.checked.get(kind, 0) + 1
                seen = {c for c in range(52) if board.BIT[c] & public} | mine
                if kind == "A":
                    data = body[ACTION.size :]
                    if data[:2] != b"--":
                        card = parse_card(data[:2].decode())
                        assert card in seen, f"an action message named {data[:2]!r} early"
                elif kind == "S":
                    k, n = body[0], body[1]
                    parts[k] = body[2:]
                    if len(parts) == n:
                        blob = b"".join(parts[j] for j in range(n))
                        parts.clear()
                        self.check_state(json.loads(zlib.decompress(blob)), seat, seen)
                        self.checked["state"] = self.checked.get("state", 0) + 1
                elif kind == "U":
                    assert over, "the randoms were revealed before the game was over"

    def check_state(self, data: dict[str, Any], seat: int, seen: set[int]) -> None:
        rules = data["rules"]
        assert rules["seat"] == seat
        assert {parse_card(c) for c in rules["hand"]} == self.hand(seat)
        assert {parse_card(c) for c, _s in rules["known"]} <= self.starting()
        for e in rules["events"]:
            for name in [e.get("card"), *list(e.get("cards", []))]:
                if name is not None and e["type"] != "layout":
                    assert parse_card(name) in seen, f"the state named {name} early"


class TwoUnits:
    """Two firmware units on simulated air, from the launcher's lobby: Hana hosts Killing
    Sevens for four seats (her remembered rules: extra turns on), Ken joins, Hana taps
    "Start now"."""

    def __init__(self, tmp_path: Path) -> None:
        self.clock = 0.0
        self.medium = MemoryMedium(
            Impairments(baud=9600, loss=0.05, delay_ms=20, jitter_ms=10, seed=9),
            lambda: self.clock,
        )
        self.machines: list[Any] = []
        self.tappers: list[Tapper] = []
        self.sending_ticks = 0  # ticks a guest's card was on its way to the host
        (tmp_path / "Hana").mkdir()
        store = Store.open(tmp_path / "Hana" / "store.db")
        store.set_setting("game:sevens:setup", Setup(extra_turn=True, bubbles="fast").to_json())
        store.close()
        for i, name in enumerate(("Hana", "Ken")):
            remember(tmp_path / name, bubbles="fast", hints=False)
            tapper = Tapper(i)
            m = scripted_machine(tmp_path / name, tapper, link=self.medium.attach(), link_name=name)
            m.to_launcher()
            m.link.auto_accept = True
            tapper.machine = m
            self.machines.append(m)
            self.tappers.append(tapper)
        self.host, self.guest = self.machines

    def run(self, ticks: int, until: Any) -> None:
        for tick in range(ticks):
            self.clock += 1 / 60
            for m in self.machines:
                m.step()
                gs = m.game_scene()
                if gs is not None and gs.game.sending:
                    self.sending_ticks += 1
                    m.render()  # "Sending to the host..." while the card travels
                elif tick % 20 == 0:
                    m.render()  # the guest's screens draw from its sealed view
            if until():
                return

    def start(self, by_button: bool = False) -> None:
        host, guest = self.machines
        start_versus(host, "host", "sevens", {"max_kill": "4"})
        start_versus(guest, "join", "sevens", {})
        assert isinstance(guest.scene, LobbyScene)
        guest.scene.auto_join = True
        self.run(60 * 60, until=lambda: host.scene.dump().get("can_start"))
        lobby = host.scene.dump()
        assert lobby["joined"] == 1 and lobby["can_start"]
        host.render()  # the lobby with its "Start now" button draws
        if by_button:  # START alone, no stylus
            self.tappers[0].queue = [RawInput(held=frozenset({Button.START}))] * 2 + [None] * 2
        else:
            point = host.scene.hotspots()["button:start"].center
            self.tappers[0].queue = [point, point, None, None]
        self.run(60 * 60, until=lambda: all(m.game_scene() is not None for m in self.machines))


@pytest.mark.parametrize("by_button", [False, True], ids=["stylus", "start-button"])
def test_two_units_start_from_the_launcher_with_who_is_here(
    tmp_path: Path, by_button: bool
) -> None:
    """The launcher's lobby: a host of four seats, one guest joins, the host taps "Start
    now"; the session shrinks to the two units, computers take seats 2 and 3, the guest
    sees only its own hand, and both units record the same game with every hand."""
    units = TwoUnits(tmp_path)
    units.start(by_button)
    machines, guest, run = units.machines, units.guest, units.run
    sessions = [m.link.session for m in machines]
    rules = {"max_kill": "4", "three_walls": "off", "sevens_first": "off", "extra_turn": "on"}
    assert sessions[0].options == sessions[1].options == rules  # "last": the host's choices
    assert [s.seats for s in sessions] == [4, 4]  # widened by the game after the start
    assert sessions[0].sealed and sessions[1].sealed
    dumps = [m.dump()["game"] for m in machines]
    assert [d["seat"] for d in dumps] == [0, 1]
    assert dumps[0]["members"][2:] == dumps[1]["members"][2:] == ["hitman", "coward"]
    guest_game = guest.game_scene().game.table
    assert all(guest_game.hands[s] == 0 for s in (0, 2, 3))  # a view: its own hand only
    run(60 * 900, until=lambda: all(m.dump()["game"]["phase"] == "over" for m in machines))
    dumps = [m.dump()["game"] for m in machines]
    assert all(d["phase"] == "over" for d in dumps)
    assert dumps[0]["table"] == dumps[1]["table"] and dumps[0]["ranking"] == dumps[1]["ranking"]
    records = [m.store.list_records("sevens") for m in machines]
    assert len(records[0]) == len(records[1]) == 1
    a, b = (r[0].record for r in records)
    assert a["hands"] == b["hands"] and a["events"] == b["events"]  # every hand, on both
    assert units.sending_ticks > 0  # the guest's cards went by way of the host
    assert all(s.agreed and not s.cheated for s in sessions)


def test_a_guest_that_catches_the_host_says_so_and_nobody_records(tmp_path: Path) -> None:
    """The randoms the host reveals at the end do not match its commitment (as when it dealt
    a deal of its choosing): the guest's end check fails, it tells its player why, and
    neither unit records the game."""
    units = TwoUnits(tmp_path)
    units.start()
    radio = units.guest.link.session.radio
    take = radio.take_messages

    def forged() -> list[tuple[bytes, bytes]]:
        return [(src, b"U" + bytes(len(m) - 1) if m[:1] == b"U" else m) for src, m in take()]

    radio.take_messages = forged  # type: ignore[method-assign]
    units.run(60 * 900, until=lambda: units.guest.scene.name == "notice")
    assert units.guest.scene.name == "notice"
    assert "did not check out" in units.guest.scene.message
    units.run(60 * 10, until=lambda: units.host.scene.name == "notice")
    assert units.host.scene.name == "notice"  # the host is told the guest left
    assert [m.store.list_records("sevens") for m in units.machines] == [[], []]
