"""Killing Sevens' link glue: the members of a versus match (one person per unit, computers
in the seats no unit took) and its match from the link session's seats (sealed deals
included). The scene is reached through `LinkSource`, never by importing `play.py`.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from firmware.game_api import GameContext
from firmware.match import Match
from games.sevens.ai.personalities import PERSONALITIES
from games.sevens.match import SevensComputer, SevensRules, SevensSealed, deal_for_link
from games.sevens.scene.setup import Setup


class LinkSource(Protocol):
    """What the link glue reads (the scene satisfies it)."""

    ctx: GameContext
    versus: Any
    setup: Setup

    @property
    def _seed(self) -> str: ...


def versus_members(scene: LinkSource) -> list[str]:
    """One seat per unit (this unit's person `human`, the others `remote`), computers
    in the rest: the host's seat options where they name a personality."""
    session = scene.versus
    units = int(session.seats)
    rng = random.Random(f"{scene._seed}:members")
    out = ["human" if s == session.seat else "remote" for s in range(units)]
    for s in range(units, 4):
        kind = scene.setup.seats[s - 1]
        out.append(kind if kind in PERSONALITIES else rng.choice(PERSONALITIES))
    return out


def versus_match(scene: LinkSource, setup: Setup, members: list[str]) -> Match[str]:
    """The session's seats: local for this unit, remote for the other units, and the
    computers: the host runs them (the session forwards their actions to the guests,
    where they are remote seats). Sealed (the launcher's way): the host deals from a
    seed only it knows and each guest starts from its own view of the deal."""
    session = scene.versus
    rules: SevensRules
    if not session.sealed:
        rules = SevensRules.new(scene._seed, setup.rules)
    elif session.role == "host":
        rules = deal_for_link(session.deal_seed, setup.rules)
    else:
        rules = SevensSealed.from_json(session.opening["rules"])
    session.seats = 4  # the units' seats, then the computers' (see docs/games/sevens.md)
    seats = session.make_seats()
    if session.role == "host":
        for s, kind in enumerate(members):
            if kind in PERSONALITIES:
                seats[s] = scene.ctx.computer_seat(SevensComputer(kind, f"{scene._seed}:ai:{s}"))
    match = Match(rules, seats)
    computer = None
    if session.role == "host":  # it alone holds every hand: its computer takes a gone seat

        def computer(seat: int) -> Any:
            kind = PERSONALITIES[seat % len(PERSONALITIES)]
            return scene.ctx.computer_seat(SevensComputer(kind, f"{scene._seed}:ai:{seat}"))

    session.attach(match, dealer=lambda seed: deal_for_link(seed, setup.rules), computer=computer)
    return match

