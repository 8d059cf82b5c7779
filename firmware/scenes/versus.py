"""Versus over the radio (issue 11): host or join, the nearby units, the pairing code and
the lobby until the match starts (the screens of a running match, a partner gone included,
are in versus_match.py).

Every screen is a set of named hotspots, so the stylus or the D-pad cursor with A drive it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.link.pairing import Step
from firmware.link.session import State
from firmware.scene import Scene, hit
from firmware.scenes.menu import MenuItem, MenuScene
from hal.interfaces import Button

if TYPE_CHECKING:
    from firmware.link.pairing import Pairing
    from firmware.link.service import LinkService
    from firmware.link.session import Session
    from firmware.scene import Host


def radio_of(machine: Host) -> LinkService:
    """The unit's radio: every screen here is reached only while it is on."""
    if machine.link is None:
        raise RuntimeError("versus screens need the radio (--link)")
    return machine.link


MESSAGE_W = 216  # the room of a line of the upper screen's message panel


def top_message(
    top: pygame.Surface, title: str, lines: list[str], color: tuple[int, int, int] = pal.ACCENT
) -> None:
    widgets.background(top)
    widgets.panel(top, pygame.Rect(10, 10, 236, 172))
    text.draw(top, title, (128, 22), color, scale=2, align="center", shadow=pal.OUTLINE)
    y = 56
    for line in lines:
        for row in text.wrap(line, MESSAGE_W):
            text.draw(top, row, (128, y), pal.TEXT, align="center")
            y += 13


# Why a join, a pairing or a session failed (firmware/link/session.py FAILURES), as shown.
FAILURE_TEXT = {
    "no_answer": ("The host did not answer.", "ホストから へんじが ありません。"),
    "full": ("The host has no free seat.", "ホストの せきが いっぱいです。"),
    "other_game": ("The host offers another game.", "ホストは べつの ゲームです。"),
    "version": (
        "Needs the same version: update the firmware on both units.",
        "おなじ バージョンが ひつようです。",
    ),
    "started": ("The host has already started.", "ホストは もう はじめました。"),
    "refused": ("The host refused.", "ホストに ことわられました。"),
    "host_left": ("The host went away.", "ホストが いなくなりました。"),
    "host_restarted": ("The host restarted.", "ホストが さいきどう しました。"),
    "guest_left": ("A player left before the start.", "はじまる まえに ぬけた ひとが います。"),
    "partner_left": ("Your partner left the game.", "あいてが ゲームを やめました。"),
    "partner_restarted": ("Your partner restarted or left.", "あいてが さいきどう しました。"),
    "host_gone": (
        "The match cannot go on without the host.",
        "ホストが いないと つづけられません。",
    ),
    # a sealed game whose end check failed (firmware/link/session.py `cheated`)
    "cheated": (
        "The host's deal or plays did not check out. The game is not recorded.",
        "ホストの くばりかた・てが ただしくありません。きろくしません。",
    ),
}

# Why a pairing failed (firmware/link/pairing.py and radio.py reasons, by how they begin).
PAIRING_FAILURE_TEXT = {
    "the other player declined": ("the other player said no.", "あいてが ことわりました"),
    "declined here": ("cancelled here.", "こちらで やめました"),
    "no answer": (
        "no answer. Is the other unit hosting, near and switched on?",
        "へんじが ありません。あいては ちかくで ゲームを ひらいていますか?",
    ),
    "the other unit's commitment": ("the codes did not check out.", "コードが あいません"),
    "the other unit's confirmation": ("the codes did not check out.", "コードが あいません"),
    "bad pairing message": ("a garbled message.", "つうしんが みだれました"),
}


def pairing_failure_text(machine: Any, reason: str) -> str:
    """The link layer's reason in the player's language (an unknown one: English as is)."""
    for start, (en, ja) in PAIRING_FAILURE_TEXT.items():
        if reason.startswith(start):
            return str(machine.tr(en, ja))
    return str(machine.tr(reason + ".", "つうしんエラー"))


def failure_text(machine: Any, why: str) -> str:
    en, ja = FAILURE_TEXT.get(why, (why, why))
    return str(machine.tr(en, ja))


# A unit gone from a running match, by why (firmware/link/session.py DEPARTURES; "quit"
# reads as "left"), as shown: {} is the unit's name (or names).
DEPARTURE_TEXT = {
    "left": ("{} left the game.", "{}が ゲームを ぬけました。"),
    "restarted": ("{} restarted.", "{}が さいきどう しました。"),
    "lost": ("The link to {} is lost.", "{}との つうしんが とぎれました。"),
}


# The host gone from a running match (seat 0: it holds the deal), by why, as shown.
HOST_DEPARTURE_TEXT = {
    "left": ("{} (the host) left the game.", "ホストの {}が ゲームを ぬけました。"),
    "restarted": ("{} (the host) restarted.", "ホストの {}が さいきどう しました。"),
    "lost": ("The link to {} (the host) is lost.", "ホストの {}との つうしんが とぎれました。"),
}


def sentences(machine: Any, said: list[str]) -> str:
    """Sentences one after another: a space between English ones, none between Japanese
    ones (`tr` keeps the English for an empty Japanese text, so it cannot say "")."""
    return ("" if machine.tr("en", "ja") == "ja" else " ").join(s for s in said if s)


def names_text(machine: Any, names: list[str]) -> str:
    """Unit names as one phrase in the player's language ("Bob, Cy" / "Bob、Cy")."""
    return str(machine.tr(", ".join(names), "、".join(names)))


def departure_text(machine: Any, gone: list[tuple[int, str, str]]) -> str:
    """Who is gone and why, one sentence per why ("Cy left the game. The link to Bob is
    lost."), in the player's language."""
    groups: dict[str, list[str]] = {}
    said: list[str] = []
    for seat, name, why in gone:
        why = why if why in DEPARTURE_TEXT else "left"
        if seat == 0:  # the host, named as such ("Ann (the host) left the game.")
            said.append(str(machine.tr(*HOST_DEPARTURE_TEXT[why])).format(name))
        else:
            groups.setdefault(why, []).append(name)
    said += [
        str(machine.tr(*DEPARTURE_TEXT[why])).format(names_text(machine, names))
        for why, names in groups.items()
    ]
    return sentences(machine, said)


def link_bars(surf: pygame.Surface, pos: tuple[int, int], bars: int) -> None:
    """The link-quality indicator: three bars, lit by quality (0 = lost)."""
    x, y = pos
    for i in range(3):
        h = 4 + i * 3
        color = (pal.OK if bars >= 2 else pal.ACCENT) if i < bars else pal.PANEL_LO
        if bars == 0:
            color = pal.DANGER if i == 0 else pal.PANEL_LO
        surf.fill(pal.OUTLINE, (x + i * 5 - 1, y + 10 - h - 1, 5, h + 2))
        surf.fill(color, (x + i * 5, y + 10 - h, 3, h))


class VersusMenuScene(MenuScene):
    """Host a game or join one, for the game selected in the launcher."""

    name = "versus"
    back_key = "back"
    top_y = 60

    def __init__(self, machine: Host, game_id: str) -> None:
        super().__init__(machine)
        self.game_id = game_id
        tr = machine.tr
        cart = machine.cartridges[game_id]
        self.title = tr(f"Versus: {cart.title}", f"たいせん: {cart.title_ja or cart.title}")
        self.items = [
            MenuItem(
                "host", lambda: tr("Host a game", "ゲームをひらく"), self.host, face=pal.ACCENT_LO
            ),
            MenuItem("join", lambda: tr("Join a game", "ゲームにはいる"), self.join),
            MenuItem("back", lambda: tr("Back", "もどる"), machine.pop),
        ]

    def host(self) -> None:
        start_versus(self.machine, "host", self.game_id, {})

    def join(self) -> None:
        start_versus(self.machine, "join", self.game_id, {})

    def draw_top(self, top: pygame.Surface) -> None:
        tr = self.machine.tr
        name = radio_of(self.machine).radio.name if self.machine.link else "-"
        top_message(
            top,
            tr("VERSUS", "たいせん"),
            [
                tr("Play against a unit nearby over the radio.", "ちかくの ほんたいと たいせん"),
                "",
                tr(f"This unit is called {name}.", f"この ほんたいの なまえ: {name}"),
            ],
        )

    def dump(self) -> dict[str, object]:
        return {"game": self.game_id, **super().dump()}


def start_versus(machine: Host, role: str, game_id: str, options: dict[str, str]) -> None:
    """Begin hosting or looking for a host of `game_id` (the menu, or `--versus`)."""
    service = radio_of(machine)
    cart = machine.cartridges[game_id]
    session = service.new_session()
    if role == "host":
        resolved = {
            k: v for k, v in cart.resolve_options(options).items() if k in cart.versus_options
        }
        if cart.versus_resolve is not None:
            resolved = cart.versus_resolve(resolved, machine.new_context(cart, resolved, 0))
        seats = cart.link_units[1] if cart.link_units is not None else 2
        session.host_game(
            game_id,
            resolved,
            seats=seats,
            sealed=cart.versus_sealed,
            rules_version=cart.rules_version,
        )
    else:
        session.look(game_id, cart.rules_version)
    machine.push(LobbyScene(machine, game_id))


class LobbyScene(Scene):
    """Before the match: the host waits for a guest; a guest picks a nearby host (pairing
    first if needed). Starts the game once options and the shared seed are agreed."""

    name = "lobby"

    def __init__(self, machine: Host, game_id: str, auto_join: bool = False) -> None:
        super().__init__(machine)
        self.game_id = game_id
        self.auto_join = auto_join
        self.want: bytes | None = None  # the host we are pairing with, to join afterwards
        self.t = 0
        self._asked: object = None

    @property
    def session(self) -> Session:
        """The session this lobby was opened for (`start_versus` makes it first)."""
        session = radio_of(self.machine).session
        if session is None:
            raise RuntimeError("the lobby's session has ended")
        return session

    def _units(self) -> list[Any]:
        return self.session.hosts()[:4] if self.session.role == "guest" else []

    def hotspots(self) -> dict[str, pygame.Rect]:
        spots: dict[str, pygame.Rect] = {}
        if self.session.role == "guest" and self.session.state is State.LOOKING:
            for i, b in enumerate(self._units()):
                spots[f"unit:{b.src.hex()}"] = pygame.Rect(16, 34 + i * 30, 224, 26)
        if self.session.can_start_now():
            spots["button:start"] = pygame.Rect(16, 130, 224, 24)
        spots["button:back"] = pygame.Rect(16, 160, 224, 24)
        return spots

    def update(self, inp: InputState) -> None:
        self.t += 1
        session = self.session
        radio = radio_of(self.machine).radio
        pairing = radio.pairing
        if (
            pairing is not None
            and pairing.step is Step.CONFIRM
            and self._asked is not pairing
            and not radio_of(self.machine).auto_accept
        ):
            self._asked = pairing
            self.machine.push(PairScene(self.machine))
            return
        if self.want is not None and pairing is not None and pairing.step is Step.FAILED:
            self.want = None  # the lobby says why; a tap (or auto-join) asks again
        if self.want is not None and self.want in radio.paired() and session.state is State.LOOKING:
            session.join(self.want)
            self.want = None
        if session.ready:
            self.machine.start_game(self.game_id, dict(session.options), versus=session)
            return
        if session.state is State.ABANDONED:
            self.leave()
            if session.failure:  # never back to the menu without a word
                from firmware.scenes.prompts import NoticeScene

                why = failure_text(self.machine, session.failure)
                self.machine.push(NoticeScene(self.machine, why))
            return
        if session.role == "guest" and session.state is State.LOOKING and self.auto_join:
            hosts = [b for b in self._units() if session.mismatch(b) is None]
            if hosts and self.want is None:
                self.choose(hosts[0].src)
        if Button.B in inp.pressed:
            self.leave()
            return
        name = hit(self.hotspots(), inp)
        if name == "button:back":
            self.leave()
        elif name == "button:start" or (Button.START in inp.pressed and session.can_start_now()):
            self.machine.play("select")
            session.start_now()  # with who is here; the game fills the other seats
        elif name is not None and name.startswith("unit:"):
            self.machine.play("select")
            self.choose(bytes.fromhex(name.split(":", 1)[1]))

    def choose(self, host: bytes) -> None:
        radio = radio_of(self.machine).radio
        seen = radio.nearby.get(host)
        if seen is not None and self.session.mismatch(seen[0]) is not None:
            self.session._fail("version")  # shown in the lobby; nothing is sent
            return
        if host in radio.paired():
            self.session.join(host)
        else:
            self.want = host
            radio.start_pairing(host)

    def leave(self) -> None:
        radio_of(self.machine).radio.cancel_pairing()
        radio_of(self.machine).end_session()
        self.machine.pop()

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.machine.tr
        session = self.session
        cart = self.machine.cartridges[self.game_id]
        dots = "." * (1 + (self.t // 20) % 3)
        radio = radio_of(self.machine).radio
        title_ja = cart.title_ja or cart.title
        host = session.partner_name()  # a guest's host
        if session.role == "host" and session.seats > 2:
            joined, most = 1 + len(session.guests), session.seats
            lines = [
                tr(f"Hosting {cart.title} as {radio.name}.", f"{title_ja} をひらいています"),
                tr(f"{joined} of up to {most} players here", f"{joined}/{most}人 あつまりました"),
                tr("Waiting for players" + dots, "あいてを まっています" + dots),
            ]
            if session.can_start_now():
                lines.append(tr("START: play with who is here", "START: このメンバーで はじめる"))
        elif session.role == "host":
            lines = [
                tr(f"Hosting {cart.title} as {radio.name}.", f"{title_ja} をひらいています"),
                tr("Waiting for a player" + dots, "あいてを まっています" + dots),
            ]
        elif session.state is State.LOOKING:
            lines = [tr("Looking for hosts of " + cart.title + dots, "さがしています" + dots)]
            if radio.pairing is not None and radio.pairing.step is Step.ASKING:
                lines.append(tr("Asking to pair" + dots, "ペアリング中" + dots))
            elif radio.pairing is not None and radio.pairing.step is Step.FAILED:
                why = pairing_failure_text(self.machine, radio.pairing.reason)
                lines.append(tr(f"Not paired: {why}", f"ペアに なりませんでした: {why}"))
            elif session.failure:
                lines.append(failure_text(self.machine, session.failure))
        elif session.seat is not None and session.seats > 2 and not session.commits_known():
            lines = [
                tr(f"Joined {host}.", f"{host} に さんかしました"),
                tr("Waiting for the host to start", "ホストの スタートを まっています") + dots,
            ]
        else:
            lines = [
                tr(f"Joined {host}.", f"{host} に さんかしました"),
                tr("Agreeing on the game" + dots, "じゅんびちゅう" + dots),
            ]
        if radio.id_clash is not None:
            lines = [
                tr(
                    f"Another unit ({radio.id_clash}) uses this unit's radio id: give each"
                    " unit its own data directory.",
                    f"ほかの ほんたい({radio.id_clash})が おなじ IDを つかっています。",
                ),
                *lines,
            ]
        if session.options:
            language = self.machine.settings.language
            known = {o.key for o in cart.options}
            shown = [
                f"{tr(opt.label, opt.label_ja or opt.label)}: {opt.shown(v, language)}"
                for k, v in session.options.items()
                if k in known
                for opt in (cart.option(k),)
            ]
            # two to a line where they fit (else one): every option with its name, never
            # broken in the middle of a word
            lines.append("")
            for i in range(0, len(shown), 2):
                pair = "   ".join(shown[i : i + 2])
                lines += [pair] if text.size(pair)[0] <= MESSAGE_W else shown[i : i + 2]
        top_message(top, tr("VERSUS", "たいせん"), lines)
        widgets.background(bottom)
        joined = session.role == "guest" and session.state is not State.LOOKING
        if joined:
            title = tr("Joined", "さんかちゅう")
        elif session.role == "guest":
            title = tr("Nearby units", "ちかくの ほんたい")
        else:
            title = tr("Hosting", "ホスト")
        widgets.title_bar(bottom, title)
        if joined:  # whose game this unit is in, as the host's screen shows it
            host = text.fit(session.partner_name(), 240, scale=2)
            text.draw(bottom, host, (128, 44), pal.ACCENT, scale=2, align="center")
        spots = self.hotspots()
        paired = radio.paired()
        units = self._units()
        for b in units:
            rect = spots.get(f"unit:{b.src.hex()}")
            if rect is None:
                continue
            widgets.button(bottom, rect, "")
            if session.mismatch(b) is not None:
                note, color = tr("needs the same version", "バージョンが ちがう"), pal.DANGER
            elif b.src in paired:
                note, color = tr("paired", "ペアずみ"), pal.OK
            else:
                note, color = tr("new", "はじめて"), pal.ACCENT
            note_w = text.size(note)[0]
            name = b.name
            while text.size(name)[0] > rect.w - 24 - note_w and len(name) > 2:
                name = name[:-2] + "…"
            text.draw(bottom, name, (rect.x + 8, rect.y + 9), pal.TEXT)
            text.draw(bottom, note, (rect.right - 8, rect.y + 9), color, align="right")
        if session.role == "guest" and session.state is State.LOOKING and not units:
            text.draw(
                bottom,
                tr("No host found yet" + dots, "みつかりません" + dots),
                (128, 80),
                pal.TEXT_DIM,
                align="center",
            )
        if session.role == "host":
            text.draw(bottom, radio.name, (128, 44), pal.ACCENT, scale=2, align="center")
            names = [radio.paired()[g.peer].name for g in session.guests if g.peer in paired]
            for i, name in enumerate(names[:3]):
                text.draw(bottom, "+ " + name, (128, 74 + i * 14), pal.OK, align="center")
        if "button:start" in spots:
            label = tr("Start now", "このメンバーで はじめる")
            widgets.button(bottom, spots["button:start"], label)
        widgets.button(bottom, spots["button:back"], tr("Cancel", "やめる"))

    def dump(self) -> dict[str, Any]:
        return {
            "role": self.session.role,
            "state": self.session.state.value,
            "units": [
                {"name": b.name, "id": b.src.hex(), "compatible": self.session.mismatch(b) is None}
                for b in self._units()
            ],
            "failure": self.session.failure or None,
            "id_clash": radio_of(self.machine).radio.id_clash,
            "joined": len(self.session.guests) if self.session.role == "host" else None,
            "can_start": self.session.can_start_now(),
        }


class PairScene(MenuScene):
    """Numeric comparison: both screens show the same 6 digits; both players confirm."""

    name = "pairing"
    top_y = 96
    back_key = "no"

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        tr = machine.tr
        self.items = [
            MenuItem(
                "yes",
                lambda: tr("Same code: pair", "おなじ: ペアにする"),
                self.yes,
                face=pal.ACCENT_LO,
            ),
            MenuItem("no", lambda: tr("Different: cancel", "ちがう: やめる"), self.no),
        ]

    @property
    def pairing(self) -> Pairing | None:
        return radio_of(self.machine).radio.pairing

    def yes(self) -> None:
        if self.pairing is not None:
            self.pairing.confirm(True)

    def no(self) -> None:
        if self.pairing is not None:
            self.pairing.confirm(False)
        self.machine.pop()

    def update(self, inp: InputState) -> None:
        p = self.pairing
        if p is None or p.step in (Step.PAIRED, Step.FAILED):
            self.machine.pop()
            return
        super().update(inp)

    def draw_top(self, top: pygame.Surface) -> None:
        tr = self.machine.tr
        p = self.pairing
        code = p.code if p is not None and p.code else "------"
        widgets.background(top)
        widgets.panel(top, pygame.Rect(10, 10, 236, 172))
        text.draw(
            top,
            tr("PAIRING", "ペアリング"),
            (128, 22),
            pal.ACCENT,
            scale=2,
            align="center",
            shadow=pal.OUTLINE,
        )
        peer = p.peer_name if p is not None else ""
        text.draw(top, tr(f"with {peer}", f"{peer} と"), (128, 48), pal.TEXT, align="center")
        text.draw(
            top,
            f"{code[:3]} {code[3:]}",
            (128, 78),
            pal.WHITE,
            scale=4,
            align="center",
            shadow=pal.OUTLINE,
        )
        msg = tr("Does the other screen show the same code?", "あいての がめんも おなじ ばんごう?")
        if p is not None and p.local_yes:
            msg = tr(
                "Waiting for the other player to confirm...", "あいての かくにんを まっています"
            )
        for i, row in enumerate(text.wrap(msg, MESSAGE_W)):
            text.draw(top, row, (128, 128 + i * 13), pal.TEXT_DIM, align="center")

    def dump(self) -> dict[str, object]:
        p = self.pairing
        return {"code": p.code if p is not None else None, **super().dump()}
