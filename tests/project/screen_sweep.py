"""Every screen the screenshot movies reach, in English and in Japanese, with a record of
each text drawn (where, on which surface, inside which button) for the fit and translation
checks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from firmware.gfx import trace
from firmware.headless import build_machine, movie_length
from firmware.machine import Machine
from firmware.movie import parse_movie
from firmware.store_rescue import StoreNotice

ROOT = Path(__file__).resolve().parents[2]
MOVIES = sorted((ROOT / "docs" / "movies").glob("*.txt"))
LANGUAGES = ("en", "ja")
CHECKS = 30  # frames checked per movie (spread evenly, the last one included)


@dataclass
class Drawn:
    """One text put on a surface: its ink's rect, and the box it lies on (firmware.gfx.trace:
    the whole box and its inner area), if any."""

    surface: pygame.Surface
    text: str
    ink: pygame.Rect
    box: pygame.Rect | None
    seq: int = 0
    base: int = 0  # the row under the baseline
    scale: int = 1
    inner: pygame.Rect | None = None


@dataclass
class Cover:
    """An opaque box (panel, button) drawn over whatever was there before it."""

    surface: pygame.Surface
    rect: pygame.Rect
    seq: int


@dataclass
class Recorder:
    drawn: list[Drawn] = field(default_factory=list)
    covers: list[Cover] = field(default_factory=list)
    badges: list[Cover] = field(default_factory=list)  # the versus link badge's boxes

    def hidden(self, d: Drawn) -> bool:
        """True when a box drawn after `d` covers all of it (a result panel over a row)."""
        return any(
            c.surface is d.surface and c.seq > d.seq and c.rect.contains(d.ink)
            for c in self.covers
        )

    def layered(self, a: Drawn, b: Drawn) -> bool:
        """True when the later of the two lies on a box of its own drawn after the earlier
        one (a dialog over the screen, a badge): they are not one row of text."""
        first, second = (a, b) if a.seq < b.seq else (b, a)
        return any(
            c.surface is a.surface and first.seq < c.seq < second.seq
            and c.rect.contains(second.ink) and not c.rect.contains(first.ink)
            for c in self.covers
        )

    def hidden_between(self, a: Drawn, b: Drawn) -> bool:
        """True when a box drawn after `a` and before `b` covers where they meet."""
        meet = a.ink.clip(b.ink)
        return any(
            c.surface is a.surface and a.seq < c.seq < b.seq and c.rect.contains(meet)
            for c in self.covers
        )

    def fill(self, seen: trace.Trace, badges: list[tuple[int, int]]) -> None:
        """Take what a trace saw: each text with its own box, each box as a cover."""
        for t in seen.texts:
            own = seen.own_box(t)
            self.drawn.append(Drawn(
                t.surface, t.text, t.ink, None if own is None else own.rect, t.seq, t.base,
                t.scale, None if own is None else own.inner,
            ))
        self.covers = [Cover(b.surface, b.rect, b.seq) for b in seen.boxes]
        for first, last in badges:
            self.badges += self.covers[first:last]


@contextmanager
def recording() -> Iterator[Recorder]:
    """Record every text and box drawn (firmware.gfx.trace) while the block runs."""
    from firmware.scenes import versus_match as versus

    rec = Recorder()
    real_overlay = versus.draw_link_overlay
    badges: list[tuple[int, int]] = []
    with trace.recording() as seen:

        def overlay(machine, top: pygame.Surface) -> None:  # type: ignore[no-untyped-def]
            before = len(seen.boxes)
            real_overlay(machine, top)
            badges.append((before, len(seen.boxes)))

        versus.draw_link_overlay = overlay  # type: ignore[assignment]
        try:
            yield rec
        finally:
            versus.draw_link_overlay = real_overlay  # type: ignore[assignment]
            rec.fill(seen, badges)


def _movie_kwargs(args: tuple[str, ...]) -> dict[str, object]:
    kw: dict[str, object] = {}
    options: dict[str, str] = {}
    it = iter(args)
    for arg in it:
        value = next(it)
        if arg == "--game":
            kw["game"] = value
        elif arg == "--seed":
            kw["seed"] = int(value)
        elif arg == "--option":
            key, _, v = value.partition("=")
            options[key] = v
    kw["options"] = options
    return kw


def machine_in(tmp: Path, language: str, **kw: object) -> Machine:
    """A headless machine whose stored language is `language` from its first frame."""
    store = tmp / "store.db"
    first = build_machine(tmp / "setup", store_path=store)
    first.settings.language = language
    first.save_settings()
    first.store.close()
    return build_machine(tmp / "run", store_path=store, **kw)  # type: ignore[arg-type]


def sweep_movie(movie_path: Path, language: str, tmp: Path) -> Iterator[tuple[int, Recorder]]:
    """Play a screenshot movie; at CHECKS frames, render with recording on and yield it."""
    movie = parse_movie(movie_path.read_text(encoding="utf-8"))
    kw = _movie_kwargs(tuple(movie.args))
    from firmware.movie import MoviePlayer

    player = MoviePlayer(movie)
    m = machine_in(tmp, language, **kw)
    m.hal.input.script = player.input_at  # type: ignore[attr-defined]
    length = movie_length(movie)
    checks = {length - 1 - i * length // CHECKS for i in range(CHECKS)}
    try:
        for frame in range(length):
            m.step()
            if frame in checks:
                with recording() as rec:
                    m.render()
                yield frame, rec
    finally:
        m.store.close()


def sweep_setup_screens(language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """Every game's setup screen with every choice of every option shown in turn."""
    from firmware.cartridges import discover
    from firmware.scenes.setup import SetupScene

    m = machine_in(tmp, language)
    try:
        for cart in discover().values():
            scene = SetupScene(m, cart)
            m.push(scene)
            for opt in cart.options:
                for choice in opt.choices:
                    scene.values[opt.key] = choice
                    with recording() as rec:
                        m.render()
                    yield f"{cart.id} setup {opt.key}={choice}", rec
                scene.values[opt.key] = opt.default
            m.pop()
    finally:
        m.store.close()


# The options that open a game where its "?" button is (optional extras: by default a game
# is opened with its defaults, and a game without the button there has no help pages).
HELP_OPTIONS: dict[str, dict[str, str]] = {"arimaa": {"setup": "default", "mode": "two"}}


def _tap(m: Machine, name: str) -> None:
    from firmware.testing import run, tap_script

    x, y = m.scene.hotspots()[name].center
    m.hal.input.script = tap_script({m.tick: (x, y)})  # type: ignore[attr-defined]
    run(m, 5, draw=False)


def _next_page_button(m: Machine) -> str | None:
    """The button that turns a help page: a hotspot named ...next (the help's own first)."""
    names = sorted(k for k in m.scene.hotspots() if k.endswith("next"))
    return next((k for k in names if "help" in k), names[0] if names else None)


def sweep_help_screens(language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """Every how-to-play page of every game with a help button ("button:help" on its first
    screen), page by page (Reversi and Bubble Pop have none)."""
    from firmware.cartridges import discover
    from firmware.testing import run

    for game in discover():
        m = machine_in(tmp / game, language, game=game, seed=1, options=HELP_OPTIONS.get(game))
        try:
            run(m, 5, draw=False)
            if "button:help" not in m.scene.hotspots():
                continue
            _tap(m, "button:help")
            for page in range(12):
                with recording() as rec:
                    m.render()
                yield f"{game} help page {page + 1}", rec
                game_scene = getattr(m.scene, "game", m.scene)
                before = getattr(game_scene, "help_page", None)
                next_button = _next_page_button(m)
                if next_button is None:
                    break
                _tap(m, next_button)
                if getattr(game_scene, "help_page", None) in (before, None):
                    break  # the last page's "next" does nothing, or closes the pages
        finally:
            m.store.close()


def sweep_first_start(language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """The first start's language choice (drawn the same whatever the language)."""
    from firmware.scenes.language import LanguageScene

    m = machine_in(tmp, language)
    try:
        m.push(LanguageScene(m, m.pop))
        with recording() as rec:
            m.render()
        yield "language choice", rec
    finally:
        m.store.close()


DRAW_SEED = 34  # Panel Link played at random from this seed ends in a draw


def sweep_result_screens(language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """The game-over screens of Bubble Pop (every bubble let go) and of Panel Link (a game
    played out at once by choosing legal actions at random, against the computer and for
    two players, won and drawn), each as the player sees it."""
    import random

    from firmware.testing import run
    from games.panels.scene import effects

    m = machine_in(tmp / "pop", language, game="pop", seed=2)
    try:
        for _ in range(600):
            run(m, 10, draw=False)
            if m.scene.game.game.s.over:  # type: ignore[attr-defined]
                break
        assert m.scene.game.game.s.over, "Bubble Pop never ended"  # type: ignore[attr-defined]
        with recording() as rec:
            m.render()
        yield "pop game over", rec
    finally:
        m.store.close()
    # seed 34 fills the field with no yaku made: a draw at 0 to 0
    for mode, seed in (("cpu", 1), ("cpu", 2), ("two", 3), ("two", 4), ("two", DRAW_SEED)):
        m = machine_in(tmp / f"panels-{mode}-{seed}", language, game="panels", seed=seed,
                       options={"mode": mode, "target": "100"})
        try:
            run(m, 5, draw=False)
            scene = m.scene.game  # type: ignore[attr-defined]
            rules, pick = scene.rules, random.Random(seed)
            yaku_log = []
            while rules.to_move() is not None:
                for event in rules.apply(rules.to_move(), pick.choice(rules.legal_actions())):
                    if event["type"] == "fixed":  # the yaku made, listed on the top screen
                        yaku_log += effects.log_entries(event)
            assert (rules.state.winner is None) == (seed == DRAW_SEED), "not the draw wanted"
            scene._reset_view()
            scene.yaku_log = yaku_log
            run(m, 5, draw=False)
            with recording() as rec:
                m.render()
            yield f"panels game over ({mode}, seed {seed})", rec
        finally:
            m.store.close()


VERSUS_LAST = 700  # the versus movies' last tick (the guest's reply in Reversi)
VERSUS_EVERY = 10  # ticks between two checks of the versus screens


def sweep_versus_screens(language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """The Versus screens of two headless units on one in-memory radio, as
    tools/versus_screenshots.py plays them (docs/movies/versus: the Versus menu, hosting and
    waiting, the lobby's list of nearby units, the pairing code, the game with its link
    badge); then the guest alone until its partner is lost (the waiting screen); then every
    failure notice of a join, a pairing or a session, and every way a unit is said to be
    gone from a match (one unit; three at once)."""
    from firmware.scenes.prompts import NoticeScene
    from firmware.scenes.versus import (
        DEPARTURE_TEXT,
        FAILURE_TEXT,
        departure_text,
        failure_text,
        sentences,
    )
    from firmware.scenes.versus_match import WaitingScene
    from hal.link.memory import MemoryMedium
    from tools.versus_screenshots import MOVIES as VERSUS_MOVIES
    from tools.versus_screenshots import UNITS, seeded_secrets

    clock = {"t": 0.0}
    medium = MemoryMedium(None, lambda: clock["t"])
    units: dict[str, Machine] = {}
    with seeded_secrets():
        try:
            for role, name in UNITS:
                movie = parse_movie((VERSUS_MOVIES / f"{role}.txt").read_text(encoding="utf-8"))
                units[role] = machine_in(tmp / role, language, movie=movie,
                                         link=medium.attach(), link_name=name)
                units[role].to_launcher()
            for tick in range(VERSUS_LAST + 1):
                clock["t"] = tick / 60
                for m in units.values():
                    m.step()
                if tick % VERSUS_EVERY == 0:
                    for role, m in units.items():
                        with recording() as rec:
                            m.render()
                        yield f"versus {role} tick {tick} ({m.scene.name})", rec
            guest = units["guest"]  # the host goes quiet: the guest waits for it
            tick = VERSUS_LAST
            while not isinstance(guest.scene, WaitingScene) and tick < VERSUS_LAST + 60 * 60:
                tick += 1
                clock["t"] = tick / 60
                guest.step()
            assert isinstance(guest.scene, WaitingScene), "the guest never missed its partner"
            for _ in range(3):  # its dots count up to three
                for _ in range(20):
                    tick += 1
                    clock["t"] = tick / 60
                    guest.step()
                with recording() as rec:
                    guest.render()
                yield f"versus guest waiting, tick {tick}", rec
            for why in FAILURE_TEXT:
                guest.push(NoticeScene(guest, failure_text(guest, why)))
                with recording() as rec:
                    guest.render()
                yield f"versus failure {why}", rec
                guest.pop()
            many = [(1, "Ken", "quit"), (2, "Mio", "lost"), (3, "Sora", "restarted")]
            hosts = [[(0, "Hana", why)] for why in DEPARTURE_TEXT]
            for gone in [[(1, "Ken", why)] for why in DEPARTURE_TEXT] + [many] + hosts:
                said = departure_text(guest, gone)
                if gone[0][0] == 0:  # the host gone: the match cannot go on (issue 33)
                    said = sentences(guest, [said, failure_text(guest, "host_gone")])
                guest.push(NoticeScene(guest, said))
                with recording() as rec:
                    guest.render()
                yield f"versus gone {gone}", rec
                guest.pop()
            yield from sweep_seat_screens(guest)
        finally:
            for m in units.values():
                m.store.close()


class _SeatSession:
    """A match of three or four units as its screens read it (issue 33: the waiting
    screen with the time left and "Play on without ...", a seat offered back, the one left
    of two): the session the screens of `sweep_seat_screens` are drawn for."""

    def __init__(self, role: str, units: int, state: Any) -> None:
        self.role, self.units, self.state = role, units, state
        self.sealed, self.offered, self.seat, self.alone = True, True, 1, False
        self.names = ["Hana", "Ken", "Mio", "Sora"][:units]
        self.match = None

    def lost_seats(self) -> list[int]:
        return [0] if self.role == "guest" else list(range(1, self.units))

    def name_of(self, seat: int) -> str:
        return self.names[seat]

    def time_left(self) -> int:
        return 1199  # twenty seconds, the longest wait shown

    def gone(self) -> list[tuple[int, str, str]]:
        return [(1, "Ken", "quit")]

    def quality(self) -> int:
        return 0

    def partner_name(self) -> str:
        return "Hana"


def sweep_seat_screens(unit: Machine) -> Iterator[tuple[str, Recorder]]:
    """Issue 33's screens of a running match on `unit` (in a game): the waiting screen of
    a host of four units (three lost: the longest names line, the "Play on" button) and
    of a guest waiting for its host, the seat offered back, the one left of two, and the
    announcements over the game when a seat changes hands."""
    from firmware.gfx import battery as battery_gfx
    from firmware.gfx import palette as pal
    from firmware.link.session import State
    from firmware.scenes.versus import departure_text
    from firmware.scenes.versus_match import (
        ANNOUNCE_TEXT,
        OfferScene,
        StrandedScene,
        WaitingScene,
        announcement_text,
    )

    service = unit.link
    assert service is not None
    real = service.session
    try:
        for role, units in (("host", 4), ("host", 3), ("guest", 3), ("guest", 2)):
            service.session = _SeatSession(role, units, State.WAITING)  # type: ignore[assignment]
            unit.push(WaitingScene(unit))
            with recording() as rec:
                unit.render()
            yield f"versus waiting ({role} of {units} units)", rec
            unit.pop()
        service.session = _SeatSession("guest", 3, State.PLAYING)  # type: ignore[assignment]
        unit.push(OfferScene(unit))
        with recording() as rec:
            unit.render()
        yield "versus seat offered back", rec
        unit.pop()
        service.session = _SeatSession("host", 2, State.STRANDED)  # type: ignore[assignment]
        unit.push(StrandedScene(unit, departure_text(unit, [(1, "Ken", "quit")])))
        with recording() as rec:
            unit.render()
        yield "versus partner gone for good", rec
        unit.pop()
        session = _SeatSession("host", 4, State.PLAYING)
        for kind in ANNOUNCE_TEXT:
            for seat, name, why in [(1, "Ken", "quit"), (3, "Sora", "lost")]:
                session.gone = lambda s=seat, n=name, w=why: [(s, n, w)]  # type: ignore[method-assign]
                words = announcement_text(unit, kind, seat, session)  # type: ignore[arg-type]
                with recording() as rec:
                    unit.render()
                    battery_gfx.draw_banner(unit.top, words, pal.TEAL)
                yield f"versus announced: {words}", rec
    finally:
        service.session = real


# The failure the error screen shows: where, and the exception (its own words, in English).
ERROR = ("regions.update", ValueError("a pattern with no regions left"))


def store_notices() -> list[tuple[str, StoreNotice]]:
    """The store's notices after damage, with long names (firmware/store_rescue.py)."""
    from firmware import store_rescue
    from firmware.store_rescue import Salvage, repaired_notice

    aside = "store.db.damaged-12"
    most = {"records": 12345, "saved": 5, "pairings": 12, "settings": 9, "scores": 5}
    everything = set(store_rescue.TABLES[t][2] for t in store_rescue.TABLES)
    return [
        ("store damaged", store_rescue.damaged_notice(aside, "x")),
        ("store repaired, all read", repaired_notice(
            aside, "x", counts=most, found=Salvage(opened=True), from_backup=True)),
        ("store repaired, some unreadable", repaired_notice(
            aside, "x", counts=most, found=Salvage(failed=everything, opened=True),
            from_backup=True)),
        ("store repaired from a backup only", repaired_notice(
            aside, "x", counts=most, found=Salvage(), from_backup=True)),
    ]


def _update_screens(
    m: Machine, seen: Callable[[str], tuple[str, Recorder]]
) -> Iterator[tuple[str, Recorder]]:
    """The launcher's version in its corner (an update runs; one was rolled back) and the
    rollback's notice (handheld/slots.py), with long version numbers."""
    from firmware.scenes.prompts import NoticeScene
    from handheld.slots import launcher_note

    back = {"TWINFOLD_ROLLED_BACK": "10.12.3", "TWINFOLD_ROLLED_BACK_TO": "10.12.2",
            "TWINFOLD_ROLLBACK_NOTICE": "1"}  # fmt: skip
    notice = launcher_note(back)[1]
    assert notice is not None
    m.push(NoticeScene(m, notice[0], ja=notice[1]))
    yield seen("an update rolled back")
    m.pop()
    for where, env in (("rolled back", back), ("running", {"TWINFOLD_SLOT_VERSION": "10.12.3"})):
        m.version_note = launcher_note(env)[0]
        m.to_launcher()
        yield seen(f"launcher, an update {where}")
    m.version_note = None


def sweep_system_screens(language: str, tmp: Path) -> Iterator[tuple[str, Recorder]]:
    """The firmware's screens no movie opens: each game's records list when empty, the
    radio name keyboard (empty, typed, too long), the button test, the touch calibration,
    the error screen, the saved-game prompts (at boot and from the launcher), a question
    asked before acting, and the launcher showing each game with a saved game waiting."""
    from firmware.scenes.buttontest import ButtonTestScene
    from firmware.scenes.calibration import CalibrationScene
    from firmware.scenes.error import ErrorScene
    from firmware.scenes.prompts import ConfirmScene, NoticeScene, ResumeScene
    from firmware.scenes.radio import RadioNameScene
    from firmware.scenes.records import RecordsScene
    from firmware.settings import RADIO_NAME_MAX

    def seen(where: str) -> tuple[str, Recorder]:
        with recording() as rec:
            m.render()
        return where, rec

    m = machine_in(tmp, language)
    try:
        for game_id in m.cartridges:
            m.push(RecordsScene(m, game_id))
            yield seen(f"{game_id} records, none yet")
            m.pop()
        keyboard = RadioNameScene(m)
        m.push(keyboard)
        yield seen("radio name, empty")
        keyboard.text = ("Hana" + "0123456789")[:RADIO_NAME_MAX]
        yield seen("radio name, typed")
        _tap(m, "key:A")  # one letter too many
        assert keyboard.error, "no word on a name too long"
        yield seen("radio name, too long")
        m.pop()
        for scene in (ButtonTestScene(m), CalibrationScene(m)):
            m.push(scene)
            yield seen(scene.name)
            m.pop()
        m.push(ErrorScene(m, *ERROR))
        yield seen("error")
        m.pop()
        for at_boot in (True, False):
            m.push(ResumeScene(m, "sevens", {}, {}, at_boot=at_boot, new_game=m.pop))
            yield seen(f"saved game, {'at boot' if at_boot else 'from the launcher'}")
            m.pop()
        m.push(ConfirmScene(m, m.tr("Restart", "はじめから"), m.pop))
        yield seen("a question")
        m.pop()
        for game_id in m.cartridges:  # the launcher's word that a saved game waits
            m.saved.add(game_id)
            m.to_launcher(selected=game_id)
            yield seen(f"launcher, {game_id} with a saved game")
        for where, notice in store_notices():
            m.push(NoticeScene(m, notice.en, ja=notice.ja))
            yield seen(where)
            m.pop()
        from firmware.scenes.boot import left_out_notice

        for count in (1, 3):  # games that could not be loaded (firmware/cartridges.py)
            en, ja = left_out_notice(count)
            m.push(NoticeScene(m, en, ja=ja))
            yield seen(f"{count} games left out")
            m.pop()
        yield from _update_screens(m, seen)
    finally:
        m.store.close()
