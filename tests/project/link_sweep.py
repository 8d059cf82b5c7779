"""The Versus screens of every linked game (screen_sweep.sweep_versus_screens plays only
the two Reversi movies): two to four headless units on one in-memory radio, paired and
joined the way the lobby does it headless (`auto_accept`, `auto_join`), each unit's player
choosing its actions at random (Region Select's racers tap a shortest solution).

The matches come from the cartridges (issue 37, item 3): every game with `versus`, at every
count of units it takes (`Cartridge.link_units`), so a new game is swept with no table
edited. Its player is `act_at_random` (rule G8: random legal actions offered to this unit's
local seat of the scene's `match`, from a seeded generator) unless `ACTORS` has one of its
own, and `EXTRAS` may give a game host options and a longer match: both optional.

Each match is seen in its lobby (the host counting players, a guest waiting for the
host's start), in play (and the first screen of each phase), with the pause menu open, with
every guest waiting for a host gone quiet (then the host comes back and the match goes on),
at its end on every unit, and in the records list and the replay of two units."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from screen_sweep import Recorder, _tap, machine_in, recording

from firmware.cartridges import discover
from firmware.game_api import Cartridge, rule_broken
from firmware.machine import Machine
from firmware.match import LocalSeat, Match

NAMES = ("Hana", "Ken", "Mio", "Sora")  # the units' radio names (host first)
LINK_EVERY = 45  # ticks between two checks during a match
ACT_EVERY = 9  # ticks between two actions of one unit's player
PAUSE_AT = 90  # ticks into the match when each unit's pause menu is seen
QUIET_AT = 150  # ticks into the match when the host falls silent
QUIET = 60 * 6  # ticks the host stays silent at most: its guests' waiting screen shows by then
OVER_TICKS = 150  # ticks after the end before the result screens are checked
REPLAY_STEPS, REPLAY_EVERY = 5, 40  # a replay: actions stepped, ticks before a check

LONGEST = 60 * 60 * 4  # ticks a match is played at most (the movies in docs/movies/versus
# play two moves: here a whole game, its records, replay)


@dataclass(frozen=True)
class LinkMatch:
    """One swept match: the game, how many units, the host's options, ticks at most."""

    game: str
    units: int
    options: dict[str, str] = field(default_factory=dict)
    longest: int = LONGEST


# Optional extras for better coverage: the host's options and the longest match, by game.
EXTRAS: dict[str, tuple[dict[str, str], int]] = {
    # each side sets up on the board; a short clock: 30 s a turn
    "arimaa": ({"clock": "0:30/5/100/3/0/0", "setup": "choose"}, LONGEST),
    "regions": ({"surface": "8_18", "pattern": "1"}, 60 * 60 * 2),
    "panels": ({"target": "100"}, 60 * 60 * 6),
}


def link_matches(cartridges: Mapping[str, Cartridge]) -> dict[str, LinkMatch]:
    """Every game with versus, at every count of units it takes: named by the game alone
    when it takes one count, else `<id>-<units>` (sevens-2, sevens-3, sevens-4)."""
    out: dict[str, LinkMatch] = {}
    for cart in cartridges.values():
        if cart.link_units is None:
            continue
        lo, hi = cart.link_units
        options, longest = EXTRAS.get(cart.id, ({}, LONGEST))
        for units in range(lo, hi + 1):
            name = cart.id if lo == hi else f"{cart.id}-{units}"
            out[name] = LinkMatch(cart.id, units, dict(options), longest)
    return out


LINK_MATCHES = link_matches(discover())


def act_at_random(scene: Any, rng: random.Random) -> None:
    """The default player (rule G8): when this unit's local seat of the scene's `match` is
    to move and has nothing offered yet, a random legal action from `rng`."""
    match = getattr(scene, "match", None)
    if not isinstance(match, Match):
        return
    seat = match.to_move
    local = None if seat is None else match.seats[seat]
    if not isinstance(local, LocalSeat) or local.pending is not None:
        return
    actions = list(match.rules.legal_actions() or ())
    if actions:
        local.offer(rng.choice(actions))


def _act_arimaa(scene: Any, rng: random.Random) -> None:
    from games.arimaa.match import setup_action, turn_action
    from games.arimaa.rules.randomplay import random_turn

    if not scene.local_to_move():
        return
    if scene.phase == "setup":  # the arrangement shown, as the player's OK sends it
        side = scene.game.side_to_move
        scene._offer(setup_action(side, scene._arrangement(side), scene.rules.turn_used()))
        return
    if scene.phase != "play":
        return
    twin = scene.game.copy()
    random_turn(twin, rng)
    steps = [(s.frm, s.to) for s in twin.turns[-1]]
    scene._offer(turn_action(steps, scene.rules.turn_used()))


def _act_sevens(scene: Any, rng: random.Random) -> None:
    match = scene.match
    seat = None if match is None else match.to_move
    if seat is None or match.seats[seat].kind != "local" or scene.sending:
        return
    actions = list(match.rules.legal_actions() or [])
    if actions:
        scene._offer(rng.choice(actions))


def _act_reversi(scene: Any, rng: random.Random) -> None:
    from games.reversi.scene.controls import tap_square

    if scene.anim is None and scene.human_to_move():
        square = rng.choice(sorted(scene.game.legal()))
        tap_square(scene, square)
        if scene.preview == square:  # hints on: the first tap previews
            tap_square(scene, square)


def _act_regions(scene: Any, rng: random.Random) -> None:
    if scene.phase == "play" and not scene.queued and rng.random() < 0.2:
        solution = scene.solution()
        if solution:
            scene._select(solution[0])


def _act_panels(scene: Any, rng: random.Random) -> None:
    from games.panels.rules.actions import Back, Place, Rotate, Select

    if not scene.local_to_move() or scene.anims or scene.draft is not None:
        return
    actions = [
        a for a in scene.rules.legal_actions() if not isinstance(a, Select | Place | Rotate | Back)
    ]
    if actions:
        scene.locals[scene.state.current].offer(rng.choice(actions))
        scene._step()


# Players of their own for the five games (optional): they act through the scenes' input
# paths (a tapped square, an arrangement, a draft), which the default player does not reach.
ACTORS: dict[str, Callable[[Any, random.Random], None]] = {
    "reversi": _act_reversi,
    "arimaa": _act_arimaa,
    "sevens": _act_sevens,
    "regions": _act_regions,
    "panels": _act_panels,
}


def _note_results(m: Machine) -> Machine:
    """Note each game whose result the machine records (`ctx.finish`), for `_over`: a set
    read every tick costs nothing beside the game's own tick (a store query would)."""
    record, finished = m.record_result, set()

    def noted(game_id: str, result: Any, seed: int | None = None) -> None:
        record(game_id, result, seed=seed)
        finished.add(game_id)

    m.record_result = noted  # type: ignore[method-assign]
    m.finished = finished  # type: ignore[attr-defined]
    return m


def _over(m: Machine, game_id: str) -> bool:
    """The game has recorded its result on this unit (`ctx.finish`: rule G8)."""
    return game_id in m.finished  # type: ignore[attr-defined]


class Units:
    """Units on one lossless in-memory medium whose clock counts ticks."""

    def __init__(self, tmp: Path, language: str, count: int) -> None:
        from hal.link.memory import MemoryMedium

        self.tick = 0
        self.medium = MemoryMedium(None, lambda: self.tick / 60)
        self.machines: list[Machine] = []
        for name in NAMES[:count]:
            m = _note_results(
                machine_in(tmp / name, language, link=self.medium.attach(), link_name=name)
            )
            m.to_launcher()
            assert m.link is not None
            m.link.auto_accept = True
            self.machines.append(m)

    def step(self, machines: list[Machine] | None = None, act: Callable[[Machine], None] | None
             = None) -> None:
        self.tick += 1
        for m in machines if machines is not None else self.machines:
            if act is not None:
                act(m)
            m.step()

    def close(self) -> None:
        for m in self.machines:
            m.store.close()


# Called with each screen checked and its unit (a script saving pictures sets it).
LOOK: list[Callable[[str, Machine], None]] = []


def _seen(m: Machine, where: str) -> tuple[str, Recorder]:
    with recording() as rec:
        m.render()
    where = f"{where} {m.link.radio.name if m.link else '?'} ({m.scene.name})"
    for look in LOOK:
        look(where, m)
    return where, rec


def sweep_link_match(
    name: str, language: str, tmp: Path, match: LinkMatch | None = None
) -> Iterator[tuple[str, Recorder]]:
    """One match of LINK_MATCHES (or `match`, named `name`) from the lobby to the result
    screens (see the module)."""
    from firmware.link.session import State
    from firmware.scenes.pause import PauseScene
    from firmware.scenes.versus import LobbyScene, start_versus
    from firmware.scenes.versus_match import WaitingScene
    from tools.versus_screenshots import seeded_secrets

    match = match or LINK_MATCHES[name]
    game_id, count, options, longest = match.game, match.units, match.options, match.longest
    actor = ACTORS.get(game_id, act_at_random)
    rng = random.Random(name)
    with seeded_secrets():
        units = Units(tmp, language, count)
        host, guests = units.machines[0], units.machines[1:]
        try:
            start_versus(host, "host", game_id, options)
            for g in guests:
                start_versus(g, "join", game_id, {})
                assert isinstance(g.scene, LobbyScene)
                g.scene.auto_join = True
            playing = lambda: all(m.game_scene() is not None for m in units.machines)  # noqa: E731
            host_session = host.link.session  # type: ignore[union-attr]
            assert host_session is not None
            while not playing() and units.tick < 60 * 60:
                units.step()
                if len(host_session.guests) == len(guests) and host_session.can_start_now():
                    for m in units.machines:  # the host's "Start now", the guests waiting
                        yield _seen(m, f"{name} lobby, all here:")
                    host_session.start_now()
                if units.tick % LINK_EVERY == 0:
                    for m in units.machines:
                        yield _seen(m, f"{name} lobby tick {units.tick}:")
            assert playing(), f"{name}: the match never started"

            def act(m: Machine) -> None:
                game = m.game_scene()
                if game is not None and m.scene is game and units.tick % ACT_EVERY == 0:
                    actor(game.game, rng)

            start, paused, quiet, sent = units.tick, False, False, False
            phases: set[tuple[str, str]] = set()  # (unit, phase) seen
            over = lambda: all(_over(m, game_id) for m in units.machines)  # noqa: E731
            while units.tick - start < longest and not over():
                units.step(act=act)
                if units.tick % LINK_EVERY == 0:
                    for m in units.machines:
                        yield _seen(m, f"{name} play tick {units.tick}:")
                for m in units.machines:  # each phase's first screen (Arimaa's setup...)
                    game = m.game_scene()
                    phase = getattr(game.game, "phase", None) if game is not None else None
                    unit = m.link.radio.name if m.link is not None else "?"
                    if isinstance(phase, str) and (unit, phase) not in phases:
                        phases.add((unit, phase))
                        yield _seen(m, f"{name} {phase} begins:")
                for m in units.machines:  # a guest's card on its way to the host (Sevens)
                    game = m.game_scene()
                    if not sent and game is not None and getattr(game.game, "sending", False):
                        sent = True
                        yield _seen(m, f"{name} sending:")
                if not paused and units.tick - start >= PAUSE_AT:
                    paused = True
                    for m in units.machines:
                        game = m.game_scene()
                        assert game is not None
                        m.push(PauseScene(m, game))  # type: ignore[arg-type]
                        yield _seen(m, f"{name} paused:")
                        m.pop()
                if not quiet and units.tick - start >= QUIET_AT:
                    quiet = True
                    for _ in range(QUIET):  # the host falls silent; its guests wait
                        units.step(guests)
                        if all(isinstance(g.scene, WaitingScene) for g in guests):
                            break
                    for g in guests:
                        assert isinstance(g.scene, WaitingScene), f"{name}: no waiting screen"
                        yield _seen(g, f"{name} host silent:")
            assert over(), f"{name}: the match never ended"
            for _ in range(OVER_TICKS):
                units.step()
            for m in units.machines:
                assert m.link is not None and m.link.session is not None
                assert m.link.session.state is State.OVER, f"{name}: not over on every unit"
                yield _seen(m, f"{name} over:")
            for m in units.machines[:2]:  # the match in the records, and its replay
                yield from _records_and_replay(m, name, game_id)
        finally:
            units.close()


def _records_and_replay(m: Machine, name: str, game_id: str) -> Iterator[tuple[str, Recorder]]:
    """The game just played in the unit's records, its replay opened, stepped forward a few
    actions with its forward button and to the end with its last button (rule G1)."""
    from firmware.scenes.records import RecordsScene

    m.to_launcher(selected=game_id)
    assert m.cartridges[game_id].replay is not None, f"{name}: {rule_broken('G1')}"
    records = RecordsScene(m, game_id)
    assert records.records, f"{name}: no record: {rule_broken('G1')}"
    m.push(records)
    yield _seen(m, f"{name} records:")
    records._open(0)
    for _ in range(REPLAY_EVERY):
        m.step()
    yield _seen(m, f"{name} replay:")
    spots = list(m.scene.hotspots())
    forward = [k for k in spots if k.endswith(("forward", "next"))]
    last = [k for k in spots if k.endswith("last")]
    why = rule_broken("G1")
    assert forward and last, f"{name}: no replay buttons in {spots}: {why}"
    for _ in range(REPLAY_STEPS):  # a few actions in
        _tap(m, forward[0])
    yield _seen(m, f"{name} replay, a few actions in:")
    _tap(m, last[0])
    for _ in range(REPLAY_EVERY):
        m.step()
    yield _seen(m, f"{name} replay, at the end:")


UNIT_TICKS = 60 * 60 * 2  # ticks a game on one unit is played at most
GLANCE_TICKS = 60 * 10  # ticks a game the sweeps cannot play is seen


def games_without_movies(cartridges: Mapping[str, Cartridge]) -> list[str]:
    """The games no screenshot movie plays (docs/movies/<id>.txt, <id>-*.txt): the one-unit
    sweep plays them instead, so a new game is seen on one unit before it has movies."""
    from screen_sweep import MOVIES

    return [
        cid for cid in cartridges
        if not any(p.stem == cid or p.stem.startswith(f"{cid}-") for p in MOVIES)
    ]


def sweep_unit_game(game_id: str, language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """One game on one unit with its default options, to its end: its player (ACTORS, or
    `act_at_random`) for every seat this unit's people play, seen every LINK_EVERY ticks
    and at the end, then its records and replay where it has them. A game with no `match`
    for the default player (rule G8) and no player of its own is seen for its first
    GLANCE_TICKS only."""
    rng = random.Random(f"{game_id}:one unit")
    actor = ACTORS.get(game_id, act_at_random)
    m = _note_results(machine_in(tmp, language, game=game_id, seed=1))
    try:
        first = m.game_scene()
        playable = game_id in ACTORS or (
            first is not None and isinstance(getattr(first.game, "match", None), Match)
        )
        if not playable:
            for _ in range(GLANCE_TICKS):
                m.step()
                if m.tick % LINK_EVERY == 0:
                    yield _seen(m, f"{game_id} one unit, tick {m.tick}:")
            return
        while m.tick < UNIT_TICKS and not _over(m, game_id):
            game = m.game_scene()
            if game is not None and m.scene is game and m.tick % ACT_EVERY == 0:
                actor(game.game, rng)
            m.step()
            if m.tick % LINK_EVERY == 0:
                yield _seen(m, f"{game_id} one unit, tick {m.tick}:")
        assert _over(m, game_id), f"{game_id}: never ended on one unit: {rule_broken('G8')}"
        for _ in range(OVER_TICKS):
            m.step()
        yield _seen(m, f"{game_id} one unit, over:")
        if m.cartridges[game_id].replay is not None:
            yield from _records_and_replay(m, f"{game_id} one unit", game_id)
    finally:
        m.store.close()


def sweep_unit_games(language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """Every game without a screenshot movie, on one unit (none of the shipped games)."""
    for game_id in games_without_movies(discover()):
        yield from sweep_unit_game(game_id, language, tmp / game_id)


def sweep_link_screens(language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """Every match of LINK_MATCHES in turn."""
    for name in LINK_MATCHES:
        yield from sweep_link_match(name, language, tmp / name)


def sweep_lobby_labels(language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """The lobby's lines and labels a match on its way never shows: a guest finding no host
    yet, a host that needs another version, a pairing asked for, refused (and every other
    reason a pairing fails), a host already paired with, and two units with one radio id."""
    from firmware.link.pairing import Step
    from firmware.scenes.radio import PairedScene
    from firmware.scenes.versus import (
        PAIRING_FAILURE_TEXT,
        PairScene,
        VersusMenuScene,
        start_versus,
    )
    from tools.versus_screenshots import seeded_secrets

    with seeded_secrets():
        units = Units(tmp, language, 3)
        host, guest, other = units.machines
        try:
            assert host.link is not None and guest.link is not None and other.link is not None
            start_versus(guest, "join", "reversi", {})
            for _ in range(30):
                units.step([guest])
            yield _seen(guest, "lobby, nobody hosting:")
            host.link.auto_accept = False  # its player answers the pairing code
            start_versus(host, "host", "reversi", {})
            start_versus(other, "join", "reversi", {})
            version = host.cartridges["reversi"].rules_version
            assert other.link.session is not None
            other.link.session.look("reversi", version + 1)  # another firmware's rules
            hana = host.link.radio.id
            while hana not in guest.link.radio.nearby or hana not in other.link.radio.nearby:
                units.step()
                assert units.tick < 60 * 30, "no host heard"
            yield _seen(other, "lobby, another version:")
            guest.scene.choose(hana)  # type: ignore[attr-defined]
            units.step()
            yield _seen(guest, "lobby, asking to pair:")
            while not isinstance(host.scene, PairScene):
                units.step()
                assert units.tick < 60 * 60, "the host was never asked"
            yield _seen(host, "lobby, pairing code:")
            host.scene.no()
            radio = guest.link.radio
            while radio.pairing is None or radio.pairing.step is not Step.FAILED:
                units.step()
                assert units.tick < 60 * 90, "the refusal never arrived"
            yield _seen(guest, "lobby, pairing refused:")
            refused = radio.pairing.reason
            for reason in PAIRING_FAILURE_TEXT:  # every other reason, as the lobby says it
                radio.pairing.reason = reason
                yield _seen(guest, f"lobby, not paired ({reason}):")
            radio.pairing.reason = refused
            host.link.auto_accept = True
            radio.start_pairing(hana)  # paired, but not joined: the host shows as "paired"
            while hana not in radio.paired():
                units.step()
                assert units.tick < 60 * 120, "never paired"
            for _ in range(10):
                units.step()
            yield _seen(guest, "lobby, a paired host:")
            radio.id_clash = "Mio"
            yield _seen(guest, "lobby, one radio id on two units:")
            radio.id_clash = None
            guest.to_launcher(selected="reversi")  # each game's entry with its Versus button
            for game_id, cart in guest.cartridges.items():
                guest.to_launcher(selected=game_id)
                yield _seen(guest, f"launcher, {game_id} with the radio on:")
                if cart.versus:
                    guest.push(VersusMenuScene(guest, game_id))
                    yield _seen(guest, f"versus menu, {game_id}:")
            guest.push(PairedScene(guest))  # the units paired with, and forgetting one
            yield _seen(guest, "paired units:")
            guest.scene.forget(guest.scene.rows[0])  # type: ignore[attr-defined]
            yield _seen(guest, "paired units, forget one?")
        finally:
            units.close()
