"""`twinfold headless` with a player at the controls, for the network tests: run as

    python tests/firmware/link/lan_player.py SEED PLAYERS -- headless --link lan://... --versus ...

It runs the real command (`firmware.cli.main`) with one addition: after every machine tick
the unit's player acts as a person would at the controls: a hosting player presses Start in
the lobby once PLAYERS units are in (a full table starts by itself), and in the game each
player acts once it is this unit's turn. A timed movie cannot play a card game whose turns
come when the network brings them. Reversi plays the shortest complete game (nine plies,
Black wipes White out), ply by ply as the turns come; Killing Sevens a random legal card
(or a pass) of its own seat, seeded by SEED.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run as a script: the checkout first

from firmware.machine import Machine  # noqa: E402 (the checkout on sys.path first)

# The shortest complete game (found by search): Black wipes White out in nine plies.
GAME = ["c4", "c3", "c2", "b4", "a5", "f4", "g4", "c5", "d6"]


def act_reversi(scene: Any, rng: random.Random) -> None:
    from games.reversi.scene.controls import tap_square

    moves = scene.game.moves
    if scene.anim is None and scene.human_to_move() and len(moves) < len(GAME):
        square = GAME[len(moves)]
        tap_square(scene, square)
        if scene.preview == square:  # hints on: the first tap previews
            tap_square(scene, square)


def act_sevens(scene: Any, rng: random.Random) -> None:
    """A random legal card of this unit's seat (the link sweep's player); the player skips
    every animation and computer's line at once (A, or the skip button), as an impatient
    player does."""
    from link_sweep import _act_sevens

    if scene.anim is not None:
        scene.anim = None
    if scene.talk.busy:
        scene.talk.skip()
    _act_sevens(scene, rng)


ACTORS = {"reversi": act_reversi, "sevens": act_sevens}


def main(argv: list[str]) -> int:
    sys.path.insert(1, str(ROOT / "tests" / "project"))  # link_sweep's players
    seed, players, rest = argv[0], int(argv[1]), argv[argv.index("--") + 1 :]
    rng = random.Random(seed)
    step = Machine.step

    def step_and_play(machine: Machine) -> None:
        step(machine)
        session = machine.link.session if machine.link is not None else None
        if (
            session is not None
            and session.role == "host"
            and 1 + len(session.guests) >= players
            and session.can_start_now()
        ):
            session.start_now()  # the lobby's Start button
        running = machine.game_scene()
        actor = ACTORS.get(running.cartridge.id) if running is not None else None
        if running is not None and actor is not None:
            actor(running.game, rng)

    Machine.step = step_and_play  # type: ignore[method-assign]
    from firmware.cli import main as cli

    return cli(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
