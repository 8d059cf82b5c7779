"""The screens of a running versus match (issues 11 and 33): the link badge over the game,
the announcements when a seat changes hands, the waiting screen while a unit's link is lost
(with the time left before the computer takes its seat, and the host's "Play on without
..."), the offer of its seat to a unit that is back, the choice of the one left of two
(finish alone, or leave), and leaving when the match is over for this unit.

`watch` runs every tick: it puts up whichever of these the session's state calls for.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import pygame

from firmware.game_api import GameResult
from firmware.gfx import battery as battery_gfx
from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.link.session import State
from firmware.scenes.menu import MenuItem, MenuScene
from firmware.scenes.versus import (
    departure_text,
    failure_text,
    link_bars,
    names_text,
    radio_of,
    sentences,
    top_message,
)

if TYPE_CHECKING:
    from firmware.link.session import Session
    from firmware.scene import Host

log = logging.getLogger("twinfold.link")

# What every unit is told when a seat changes hands ({} is the unit's name).
ANNOUNCE_TEXT = {
    "takeover": ("The computer plays for {} now.", "{}の かわりに コンピュータが うちます。"),
    "back": ("{} is back and plays again.", "{}が もどって きました。"),
}


def announcement_text(machine: Host, kind: str, seat: int, session: Session) -> str:
    """The sentence announced over the game: why the unit is gone (if it is) and what
    becomes of its seat, in the player's language."""
    name = session.name_of(seat)
    said = str(machine.tr(*ANNOUNCE_TEXT[kind])).format(name)
    if kind == "takeover":
        why = [g for g in session.gone() if g[0] == seat]
        if why:
            said = sentences(machine, [departure_text(machine, why), said])
    return said


def seconds(ticks: int) -> int:
    """Ticks as whole seconds, rounded up (a wait never shows 0 s before it ends)."""
    return -(-ticks // 60)


def draw_link_overlay(machine: Host, top: pygame.Surface) -> None:
    """Partner name and link quality at the top screen's centre during a versus game."""
    service = machine.link
    if service is None or service.session is None:
        return
    session = service.session
    if session.state not in (State.PLAYING, State.WAITING, State.OVER):
        return
    game = machine.game_scene()
    x, y = game.cartridge.versus_badge if game is not None else (128, 36)
    named = game is None or game.cartridge.versus_badge_names
    name = session.partner_name()
    label = machine.tr(f"vs {name}", f"たいせん {name}") if named else ""
    w = text.size(label)[0] if label else -2
    box = pygame.Rect(x - (w + 25) // 2, y, w + 25, 16 if label else 13)
    widgets.bevel_rect(top, box, pal.PANEL_LO, radius=3, depth=1)
    if label:
        # a Japanese line (12 rows) fills the box's inner area; a Latin one sits a little lower
        text.draw(top, label, (box.x + 4, box.y + (2 if text.is_tall(label) else 4)), pal.TEXT,
                  valign="top")
    link_bars(top, (box.right - 17, box.y + (3 if label else 1)), session.quality())


def draw_announcement(machine: Host, top: pygame.Surface) -> None:
    """The latest announcement (a seat that changed hands) across the upper screen for a
    few seconds, over the game (as the battery's warning is)."""
    shown = announcement(machine)
    if shown:
        battery_gfx.draw_banner(top, shown, pal.TEAL)


def announcement(machine: Host) -> str:
    """The announcement shown now ("" when none): the service keeps the latest one."""
    service = machine.link
    if service is None or service.session is None or service.announced is None:
        return ""
    kind, seat, until = service.announced
    if machine.tick >= until:
        return ""
    return announcement_text(machine, kind, seat, service.session)


class WaitingScene(MenuScene):
    """A unit's link is lost: wait (it resumes by itself when it returns) with the time
    left before its seat goes to the computer (or, waiting for the host, before the match
    is over here); the host may play on at once; anyone may abandon the match."""

    name = "waiting"
    top_y = 110

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        self.t = 0
        tr = machine.tr
        session = radio_of(machine).session
        self.items = []
        if session is not None and session.role == "host" and session.units > 2:
            self.items.append(
                MenuItem(
                    "play_on",
                    lambda: tr(f"Play on without {self.lost_names()}",
                               f"{self.lost_names()}ぬきで つづける"),
                    self.play_on,
                    face=pal.ACCENT_LO,
                )
            )
        self.items.append(
            MenuItem(
                "abandon",
                lambda: tr("Abandon the game", "ゲームをやめる"),
                self.abandon,
                face=pal.DANGER,
            )
        )

    def abandon(self) -> None:
        leave_match(self.machine)

    def play_on(self) -> None:
        """The host's "Play on without Cy": the computer takes the lost seats now."""
        session = radio_of(self.machine).session
        if session is not None:
            session.play_on()

    def update(self, inp: InputState) -> None:
        self.t += 1
        session = radio_of(self.machine).session
        if session is None or session.state is not State.WAITING:
            self.machine.pop()
            return
        super().update(inp)

    def lost_names(self) -> str:
        """The units this unit hears nothing from now (never one still there)."""
        session = radio_of(self.machine).session
        if session is None:
            return ""
        return names_text(self.machine, [session.name_of(n) for n in session.lost_seats()])

    def time_left_text(self) -> str:
        """What happens when the wait ends, and in how long ("" if nothing is waited for)."""
        session = radio_of(self.machine).session
        left = session.time_left() if session is not None else None
        if session is None or left is None:
            return ""
        s, name, tr = seconds(left), self.lost_names(), self.machine.tr
        if session.lost_seats() == [0] and session.role == "guest":
            if session.units == 2 and not session.sealed:
                return str(tr(f"In {s} s you may finish alone.",
                              f"あと {s}びょうで ひとりで つづけられます。"))
            return str(tr(f"The match ends in {s} s unless {name} returns.",
                          f"あと {s}びょうで おわります ({name}が もどらなければ)。"))
        if session.units == 2:
            return str(tr(f"In {s} s you may finish alone.",
                          f"あと {s}びょうで ひとりで つづけられます。"))
        return str(tr(f"In {s} s the computer plays for {name}.",
                      f"あと {s}びょうで コンピュータが {name}の かわりに うちます。"))

    def draw_top(self, top: pygame.Surface) -> None:
        tr = self.machine.tr
        name = self.lost_names()
        dots = "." * (1 + (self.t // 20) % 3)
        left = self.time_left_text()
        top_message(
            top,
            tr("WAITING", "まっています"),
            [
                tr(f"The link to {name} is lost" + dots, f"{name}との つうしんが とぎれました"),
                "",
                tr("The game goes on by itself when it returns.", "もどれば つづきから"),
                *(["", left] if left else []),
            ],
            pal.TEAL,
        )
        link_bars(top, (120, 166), 0)

    def draw_bottom_backdrop(self, bottom: pygame.Surface) -> None:
        widgets.background(bottom)
        widgets.title_bar(bottom, self.machine.tr("Waiting for partner", "あいてを まっています"))

    def dump(self) -> dict[str, object]:
        session = radio_of(self.machine).session
        left = session.time_left() if session is not None else None
        return {"lost": self.lost_names(), "time_left": left, **super().dump()}


def leave_match(machine: Host) -> None:
    """Leave the running match (a goodbye, "left") for the launcher."""
    service = radio_of(machine)
    if service.session is not None:
        service.session.abandon("left")
    service.end_session()
    machine.to_launcher()


class ChoiceScene(MenuScene):
    """A choice over a running match: one way on (`key`, its label in English and
    Japanese, `choose`) or leaving the match; `bar` is the lower screen's title."""

    top_y = 110
    bar = ("", "")

    def __init__(self, machine: Host, key: str, label: tuple[str, str]) -> None:
        super().__init__(machine)
        tr = machine.tr
        self.items = [
            MenuItem(key, lambda: tr(*label), self.choose, face=pal.ACCENT_LO),
            MenuItem("leave", lambda: tr("Leave the match", "ゲームを ぬける"), self.leave,
                     face=pal.DANGER),
        ]

    def choose(self) -> None:
        raise NotImplementedError

    def leave(self) -> None:
        leave_match(self.machine)

    def draw_bottom_backdrop(self, bottom: pygame.Surface) -> None:
        widgets.background(bottom)
        widgets.title_bar(bottom, self.machine.tr(*self.bar))


class OfferScene(ChoiceScene):
    """This unit is back after the computer took its seat: take it back (from the next
    turn boundary, with the host's state) or leave the match."""

    name = "offer"
    bar = ("Your seat", "あなたの せき")

    def __init__(self, machine: Host) -> None:
        super().__init__(machine, "take", ("Take my seat back", "せきに もどる"))

    def choose(self) -> None:
        self.take()

    def take(self) -> None:
        session = radio_of(self.machine).session
        if session is not None:
            session.accept_seat()
        self.machine.pop()

    def update(self, inp: InputState) -> None:
        session = radio_of(self.machine).session
        if session is None or not session.offered:
            self.machine.pop()
            return
        super().update(inp)

    def draw_top(self, top: pygame.Surface) -> None:
        tr = self.machine.tr
        top_message(
            top,
            tr("WELCOME BACK", "おかえりなさい"),
            [
                tr("The computer played for you while you were away.",
                   "るすの あいだ コンピュータが かわりに うちました。"),
                "",
                tr("Take your seat back from the next turn?", "つぎの ばんから もどりますか?"),
            ],
        )


class StrandedScene(ChoiceScene):
    """Two units, the partner gone for good: finish the match alone (the game's computer
    plays the partner's side; Region Select's race is the player's puzzle alone) or
    leave."""

    name = "alone"
    bar = ("Partner gone", "あいてが いません")

    def __init__(self, machine: Host, message: str) -> None:
        super().__init__(machine, "finish", ("Finish alone", "ひとりで つづける"))
        self.message = message

    def choose(self) -> None:
        self.finish()

    def finish(self) -> None:
        session = radio_of(self.machine).session
        if session is not None and session.finish_alone():
            self.machine.pop()

    def leave(self) -> None:
        session = radio_of(self.machine).session
        game = self.machine.game_scene()
        if session is not None and game is not None:
            record_unfinished(self.machine, game.cartridge.id, session)
        leave_match(self.machine)

    def update(self, inp: InputState) -> None:
        session = radio_of(self.machine).session
        if session is None or session.state is not State.STRANDED:
            self.machine.pop()
            return
        super().update(inp)

    def draw_top(self, top: pygame.Surface) -> None:
        tr = self.machine.tr
        top_message(
            top,
            tr("PARTNER GONE", "あいてが いません"),
            [
                self.message,
                "",
                tr("Finish the game alone (the computer plays the other side), or leave.",
                   "ひとりで さいごまで (あいては コンピュータ)、または ぬける。"),
            ],
        )

    def dump(self) -> dict[str, object]:
        return {"message": self.message, **super().dump()}


def record_unfinished(machine: Host, game_id: str, session: Session) -> None:
    """A match over before its end (the host gone, or left alone and leaving): counted as
    played with no winner, and logged with why."""
    if session.match is None or session.match.over:
        return
    gone = ", ".join(f"{name} ({why})" for _, name, why in session.gone()) or "nobody"
    machine.record_result(
        game_id, GameResult(None, None, f"Unfinished: {gone}", None, f"みかんりょう: {gone}")
    )
    log.info("versus: the unfinished match is recorded (gone: %s)", gone)


def watch(machine: Host) -> None:
    """Called every tick: the waiting screen while a unit is lost, the offer of a seat back,
    the choice of the one left of two; leave when the match is over for this unit."""
    from firmware.scenes.prompts import NoticeScene

    service = machine.link
    if service is None or service.session is None:
        return
    session = service.session
    game = machine.game_scene()
    if game is None:
        return
    scene = machine.scene
    if session.state is State.WAITING and not isinstance(scene, WaitingScene):
        machine.push(WaitingScene(machine))
    elif session.offered and session.state is State.PLAYING and not isinstance(scene, OfferScene):
        machine.push(OfferScene(machine))
    elif session.state is State.STRANDED and not isinstance(scene, StrandedScene):
        if isinstance(scene, WaitingScene):
            machine.pop()
        said = departure_text(machine, session.gone())
        machine.push(StrandedScene(machine, said or failure_text(machine, "partner_left")))
    elif session.state is State.ABANDONED:
        if session.failure == "host_gone":
            record_unfinished(machine, game.cartridge.id, session)
        service.end_session()
        machine.to_launcher()
        why = "cheated" if session.cheated else session.failure or "partner_left"
        gone = session.gone()
        said = departure_text(machine, gone) if gone and not session.cheated else ""
        if said and why == "host_gone":
            said = sentences(machine, [said, failure_text(machine, why)])
        machine.push(NoticeScene(machine, said or failure_text(machine, why)))
