"""Random taps on every hotspot (and off them) never break the Arimaa scene: the dump stays
consistent with the engine, and every applied action was legal (issue 13)."""

from __future__ import annotations

import random

from arimaa_driver import Driver
from hypothesis import given, settings
from hypothesis import strategies as st

from games.arimaa.rules import Game
from games.arimaa.rules.notation import parse_record, write_short


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["two", "cpu"]))
def test_random_taps_keep_the_scene_consistent(tmp_path_factory, seed: int, mode: str) -> None:
    rng = random.Random(seed)
    d = Driver(tmp_path_factory.mktemp("chaos"), seed=seed, draw=False, mode=mode, level="1")
    for _ in range(250):
        spots = d.hotspots()
        if spots and rng.random() < 0.9:
            name = rng.choice(sorted(spots))
            if name == "button:back":
                continue
            d.tap(name)
        else:
            d.tap_xy(rng.randrange(256), rng.randrange(192))
        g = d.game
        scene = d.scene
        # The stored record replays in the engine to the scene's position.
        replayed = parse_record("\n".join(g["record"])) if g["record"] else Game()
        assert replayed.position.boards == scene.game.position.boards
        if g["phase"] == "play" and not g["animating"] and scene.local_to_move():
            draft = scene._draft()
            assert g["position"] == write_short(draft.current)
            assert len(g["steps"]) <= 4 + 4  # steps plus capture tokens
        assert scene.match.refused == {}
