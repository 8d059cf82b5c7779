"""Drive the real firmware (headless) through Killing Sevens: taps, waits, pixels."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from firmware.storage import Store
from firmware.testing import GameDriver
from games.sevens.rules import Game, card_name, parse_card
from games.sevens.scene.setup import Setup
from hal.interfaces import RawInput, RawTouch

COMPUTERS = {"seat1": "cool", "seat2": "hitman", "seat3": "coward"}


def remember(tmp: Path, **settings: object) -> None:
    """Store the hint and bubble settings as the game's options dialog would have left them
    (they are not launcher options), unless a setup is stored already."""
    tmp.mkdir(parents=True, exist_ok=True)
    store = Store.open(tmp / "store.db")
    try:
        if store.get_setting("game:sevens:setup") is None:
            setup = Setup(hints=bool(settings["hints"]), bubbles=str(settings["bubbles"]))
            store.set_setting("game:sevens:setup", setup.to_json())
    finally:
        store.close()


class Driver(GameDriver):
    """A headless machine running Killing Sevens, with the inputs a player would give."""

    game_id = "sevens"
    tap_after = 1

    def __init__(
        self, tmp: Path, seed: int = 1, draw: bool = False, bubbles: str = "fast", **options: str
    ) -> None:
        for key, value in COMPUTERS.items():
            options.setdefault(key, value)
        remember(tmp, bubbles=bubbles, hints=options.pop("hints", "on") == "on")
        super().__init__(tmp, seed, draw, **options)

    def until_input(self, limit: int = 5000) -> str:
        """Run until a person must act (their turn, a hand-off or a dialog): returns what."""
        for _ in range(limit):
            g = self.game
            spots = self.hotspots()
            if g["phase"] != "play":
                return g["phase"]
            if "button:ok" in spots:
                return "handoff"
            if (g["playable"] or "button:pass" in spots) and not g["animating"]:
                return "turn"
            self.frames(1)
        raise AssertionError("nobody was asked to act")

    def play_card(self, card: str) -> None:
        self.tap(f"card:{card}")
        self.tap(f"card:{card}")


def expected_table(game: Game) -> list[str]:
    """The table as the issue defines it, written from the engine's played/killed sets."""
    rows = []
    for suit in "SHDC":
        row = ""
        for rank in "A23456789TJQK":
            card = parse_card(rank + suit)
            if card in killed_cards(game):
                row += "x"
            elif card in played_cards(game):
                row += rank
            else:
                row += "."
        rows.append(row)
    return rows


def killed_cards(game: Game) -> set[int]:
    return {parse_card(c) for e in game.events if e["type"] == "kill" for c in e["cards"]}


def played_cards(game: Game) -> set[int]:
    out = {parse_card(e["card"]) for e in game.events if e["type"] == "play"}
    for e in game.events:
        if e["type"] == "layout":
            out |= {parse_card(c) for c in e["cards"]}
    return out


def check_against(d: Driver, shadow: Game) -> None:
    g = d.game
    seat = g["seat"]
    assert g["table"] == expected_table(shadow)
    assert g["hand"] == [card_name(c) for c in shadow.hand(seat)]
    assert g["cards_left"] == [len(shadow.hand(s)) for s in range(4)]
    assert g["killed"] == shadow.killed_count and g["kills"] == shadow.kills_count
    assert g["finished"] == shadow.finish_order
    assert g["turn"] == shadow.current
    if g["playable"]:
        assert shadow.current == seat
        assert g["playable"] == [card_name(c) for c in shadow.legal_cards()]
    # conservation: hands + table + killed = 52, from the dump alone
    on_table = sum(ch not in ".x" for row in g["table"] for ch in row)
    dead = sum(ch == "x" for row in g["table"] for ch in row)
    assert sum(g["cards_left"]) + on_table + dead == 52
    assert dead == sum(g["killed"]) == sum(g["kills"])


def play_by_taps(d: Driver, rng: random.Random, check: bool = True, limit: int = 60000) -> None:
    """Random playable cards (two taps) or pass, by taps only, to the end of the game; the
    dump is compared with a shadow engine after every action anyone takes."""
    scene = d.scene
    deal = scene.rules.game
    shadow = Game([list(h) for h in deal.initial_hands], deal.options)
    seen = 0
    for _ in range(limit):
        history = d.scene.match.history
        while seen < len(history):
            action = d.scene.rules.decode(history[seen].data)
            shadow.apply({"type": "pass"} if action == "pass" else {"type": "play", "card": action})
            seen += 1
            if check:
                check_against(d, shadow)
        g = d.game
        if g["phase"] == "over":
            assert shadow.over and g["ranking"] == shadow.ranking()
            return
        spots = d.hotspots()
        if "button:ok" in spots:
            d.tap("button:ok")
        elif g["playable"] and not g["animating"]:
            card = rng.choice(g["playable"])
            d.tap(f"card:{card}")
            assert d.game["selected"] == card and d.game["frame"] == "yellow"
            d.tap(f"card:{card}")
        elif "button:pass" in spots and not g["animating"]:
            d.tap("button:pass")
        else:
            d.frames(1)
    raise AssertionError("the game did not finish")


class Tapper:
    """A person at one unit of a linked match: two taps on a random playable card, or
    pass, on their turn (while the game is the top screen); `queue` holds taps (points),
    raw inputs or idle ticks (None) to play first."""

    def __init__(self, seed: int) -> None:
        self.machine: Any = None
        self.rng = random.Random(seed)
        self.queue: list[tuple[int, int] | RawInput | None] = []

    def __call__(self, tick: int) -> RawInput:
        if self.queue:
            item = self.queue.pop(0)
            if isinstance(item, RawInput):
                return item
            return RawInput(touch=RawTouch(*item)) if item else RawInput()
        m = self.machine
        gs = m.game_scene() if m is not None else None
        if gs is None or m.scene is not gs or gs.game.anim is not None:
            return RawInput()
        if not gs.game.human_to_move():
            return RawInput()
        spots = gs.game.hotspots()
        playable = set(m.dump()["game"]["playable"])
        cards = [n for n in spots if n.startswith("card:") and n[5:] in playable]
        name = self.rng.choice(sorted(cards)) if cards else "button:pass"
        point = spots[name].center
        self.queue = ([point] * 2 + [None] * 2) * (2 if cards else 1)
        return RawInput()
