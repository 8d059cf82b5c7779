"""Link mode through two real firmware instances, without the radio (issue 16): each unit's
provisional steps stay local, determined placements travel as `Fix` actions with digests,
and both units build the same field from the shared config. The peer link's sessions and
lossy radio are the link layer's; here an in-memory medium delays (but does not lose)
messages."""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

from panels_driver import Driver

from firmware.match import MAX_ACTION_BYTES
from games.panels.rules import Determine, GameConfig, GameState, Pass, Place, Rotate, Select

WIRE = re.compile(rb"F[0-9],[0-4],[0-9]{1,2},[0-9]{1,2},[0-3]|X[0-9]|U[0-9],.*")


class Medium:
    """Messages from one unit to the other, each held for a random number of ticks."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.queues: dict[int, deque[list[Any]]] = {0: deque(), 1: deque()}
        self.sent: dict[int, list[bytes]] = {0: [], 1: []}

    def sender(self, seat: int):  # type: ignore[no-untyped-def]
        def send(data: bytes, digest: str) -> None:
            self.sent[seat].append(data)
            self.queues[1 - seat].append([self.rng.randrange(1, 20), data, digest])

        return send

    def tick(self, remotes: dict[int, Any]) -> None:
        for seat, queue in self.queues.items():
            if queue:
                queue[0][0] -= 1
                if queue[0][0] <= 0:
                    _, data, digest = queue.popleft()
                    remotes[seat].deliver(data, digest)


def test_two_units_play_to_the_target_with_identical_fields(tmp_path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    units = {0: Driver(tmp_path / "a", seed=1, mode="two"),
             1: Driver(tmp_path / "b", seed=2, mode="two")}
    config = GameConfig(seed=4242, target=100)
    medium = Medium(random.Random(7))
    remotes = {s: d.scene.start_link(config, s, medium.sender(s)) for s, d in units.items()}
    mirror = GameState.new(config)
    rng = random.Random(3)

    remote_anims: set[str] = set()

    def run(ticks: int = 1) -> None:
        for _ in range(ticks):
            medium.tick(remotes)
            for s, d in units.items():
                d.frames(1)
                anims = d.scene.anims
                if anims and anims[0].kind in ("glide", "rotate"):
                    if not anims[0].data["own"]:  # the other unit's card arriving
                        remote_anims.add(anims[0].kind)
                elif anims and anims[0].kind == "yaku" and anims[0].data["seat"] != s:
                    remote_anims.add("yaku")

    def idle_until(mover: int) -> None:
        for _ in range(3000):
            scenes = [d.scene for d in units.values()]
            quiet = all(not s.anims for s in scenes) and not any(medium.queues.values())
            if quiet and (units[mover].scene.local_to_move() or mirror.over):
                return
            run()
        raise AssertionError("the units did not settle")

    turns = 0
    while not mirror.over:
        p = mirror.current
        idle_until(p)
        d = units[p]
        other = units[1 - p]
        assert d.game["seat"] == p and d.game["mode"] == "link"
        placements = mirror.placements(p)
        if not placements:
            d.tap("button:pass")
            mirror.apply(Pass(p))
            continue
        stock, index, turns_ = rng.choice(placements)
        square = mirror.field.square(index)
        d.tap(f"stock:{stock}")
        mirror.apply(Select(p, stock))
        d.tap(f"square:{square[0]},{square[1]}")
        mirror.apply(Place(p, square))
        for _ in range(turns_):
            d.tap(f"square:{square[0]},{square[1]}")
            mirror.apply(Rotate(p))
        # the provisional card is on this unit only: nothing has been sent
        assert d.game["field"][square[0]][square[1]]["state"] == "provisional"
        assert other.game["field"][square[0]][square[1]] == "empty"
        sent_before = len(medium.sent[p])
        d.tap("button:determine")
        mirror.apply(Determine(p))
        assert len(medium.sent[p]) == sent_before + 1 and medium.sent[p][-1][:1] == b"F"
        idle_until(mirror.current if not mirror.over else p)
        for unit in units.values():
            g = unit.game
            assert g["scores"] == [pl.score for pl in mirror.players]
            assert g["stock_counts"] == [len(pl.stock) for pl in mirror.players]
        assert units[0].game["field"] == units[1].game["field"]
        # each unit shows only its own stock
        for s, unit in units.items():
            assert unit.game["stock"] == [c.to_json() for c in mirror.players[s].stock]
        turns += 1
        assert turns < 300
    run(5)
    for s, unit in units.items():
        assert unit.game["phase"] == "over" and unit.scene.match.divergences == 0
        assert unit.scene.rules.digest() == units[0].scene.rules.digest()
        stored = unit.m.store.list_records("panels")  # each unit records its own result
        winner = unit.game["winner"]
        outcome = "draw" if winner is None else "win" if winner == s else "loss"
        assert len(stored) == 1 and stored[0].record["outcome"] == outcome
        assert "button:play-again" not in unit.hotspots()  # a new game is the session's
    # the traffic: only determined placements, passes and items; no card ever travels
    for seat in (0, 1):
        for data in medium.sent[seat]:
            assert len(data) <= MAX_ACTION_BYTES and WIRE.fullmatch(data), data
    assert max(units[0].game["scores"]) >= 100 or mirror.end_reason != "target"
    assert turns >= 6
    # the opponent's card arrived with the glide, rotation and yaku animations
    assert {"glide", "rotate", "yaku"} <= remote_anims


def test_an_item_travels_as_itself_and_a_draft_never_does(tmp_path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    units = {0: Driver(tmp_path / "a", seed=1, mode="two"),
             1: Driver(tmp_path / "b", seed=2, mode="two")}
    config = GameConfig(seed=99, target=100, shape="square")
    sent: dict[int, list[tuple[bytes, str]]] = {0: [], 1: []}
    remotes = {s: d.scene.start_link(config, s, lambda data, digest, s=s: sent[s].append(
        (data, digest))) for s, d in units.items()}
    for d in units.values():  # both units hold the same item (as if earned earlier)
        d.scene.rules.state.players[0].items = ["reshuffle"]
    a, b = units[0], units[1]
    a.tap("stock:0")
    a.tap("square:3,3")
    a.settle()
    a.tap("item:reshuffle")
    a.tap("item:reshuffle")  # refused while a card is provisionally placed
    assert a.game["items"] == ["reshuffle"] and sent[0] == []
    a.tap("button:back")
    a.tap("button:back")
    a.tap("item:reshuffle")
    a.tap("item:reshuffle")
    a.settle()
    assert [data for data, _ in sent[0]] == [b"U0,0,,,,"]
    remotes[1].deliver(*sent[0][0])
    b.frames(30)
    assert b.scene.rules.digest() == a.scene.rules.digest()
    assert b.scene.match.divergences == 0 and b.game["stock_counts"] == a.game["stock_counts"]
    assert b.game["stock"] != a.game["stock"]  # each unit shows only its own stock


def test_a_resync_drops_the_local_draft(tmp_path) -> None:
    from games.panels.match import PanelsRules

    d = Driver(tmp_path, seed=1, mode="two")
    config = GameConfig(seed=5, target=100, shape="square")
    d.scene.start_link(config, 0, lambda data, digest: None)
    d.tap("stock:1")
    d.tap("square:2,2")
    d.settle()
    assert d.game["field"][2][2]["state"] == "provisional"
    host_state = PanelsRules.new(config)  # what the host would send on a divergence
    d.scene.match.replace_rules(PanelsRules.from_json(host_state.to_json()))
    d.frames(1)
    g = d.game
    assert g["field"][2][2] == "empty" and g["selected"] is None
    assert d.scene.draft is None
