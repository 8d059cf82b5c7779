"""Killing Sevens' link glue: the members of a versus match (one person per unit, computers
in the seats no unit took) and its match from the link session's seats (sealed deals
included). The scene is reached through `LinkSource`, never by importing `play.py`.
"""

from __future__ import annotations

import random
from typing import Protocol

from firmware.game_api import GameContext, Versus
from firmware.match import Match, Seat
from games.sevens.ai.personalities import PERSONALITIES
from games.sevens.match import SevensComputer, SevensRules, SevensSealed, deal_for_link
from games.sevens.scene.setup import Setup


class LinkSource(Protocol):
    """What the link glue reads (the scene satisfies it)."""

    ctx: GameContext
    versus: Versus | None
    setup: Setup

    @property
    def _seed(self) -> str: ...


def versus_members(scene: LinkSource) -> list[str]:
    """One seat per unit (this unit's person `human`, the others `remote`), computers
    in the rest: the host's seat options where they name a personality."""
    session = scene.versus
    assert session is not None, "a versus match's members, in a versus match only"
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
    assert session is not None, "a versus match's seats, in a versus match only"
    rules: SevensRules
    if not session.sealed:
        rules = SevensRules.new(scene._seed, setup.rules)
    elif session.role == "host":
        assert session.deal_seed is not None, "a sealed host draws its deal seed first"
        rules = deal_for_link(session.deal_seed, setup.rules)
    else:
        assert session.opening is not None, "a sealed guest starts once its view arrived"
        rules = SevensSealed.from_json(session.opening["rules"])
    session.seats = 4  # the units' seats, then the computers' (see docs/games/sevens.md)
    seats = session.make_seats()
    if session.role == "host":
        for s, kind in enumerate(members):
            if kind in PERSONALITIES:
                seats[s] = scene.ctx.computer_seat(SevensComputer(kind, f"{scene._seed}:ai:{s}"))
    match = Match(rules, seats)

    def computer(seat: int) -> Seat[str]:
        kind = PERSONALITIES[seat % len(PERSONALITIES)]
        return scene.ctx.computer_seat(SevensComputer(kind, f"{scene._seed}:ai:{seat}"))

    # the host alone holds every hand: its computer may take the seat of a unit that is gone
    host = session.role == "host"
    session.attach(
        match,
        dealer=lambda seed: deal_for_link(seed, setup.rules),
        computer=computer if host else None,
    )
    return match

