"""Small questions and notices: resume a suspended game, a damaged store, confirmations."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.scenes.menu import MenuItem, MenuScene

if TYPE_CHECKING:
    from firmware.scene import Host


NOTICE_LINES = 8  # the most lines of a message: the tall panel holds 8 Japanese lines
_SHORT = 6  # a message of up to 6 lines sits in the usual panel


def _message_top(
    top: pygame.Surface, title: str, body: str, color: text.Color = pal.ACCENT
) -> None:
    """A title and a message in a panel; a long message (a store repair's account) gets a
    panel of the screen's whole height, so that every line stays inside it."""
    widgets.background(top)
    lines = text.wrap(body, 212)[:NOTICE_LINES]
    panel, title_y, body_y = pygame.Rect(12, 30, 232, 132), 42, 72
    if len(lines) > _SHORT:
        panel, title_y, body_y = pygame.Rect(12, 4, 232, 184), 17, 46
    widgets.panel(top, panel)
    text.draw(top, title, (128, title_y), color, scale=2, align="center", shadow=pal.OUTLINE)
    text.draw_block(top, lines, (128, body_y), pal.TEXT, align="center")


class ResumeScene(MenuScene):
    """A saved game waits: Continue it, or (from the launcher) start a New game, which asks
    before discarding it. At boot the most recently saved game is offered with Continue or
    Later; Later keeps it (the launcher's tile shows it waiting)."""

    name = "resume"
    top_y = 70

    def __init__(
        self,
        machine: Host,
        game_id: str,
        state: dict[str, Any],
        meta: dict[str, Any],
        *,
        at_boot: bool = True,
        new_game: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(machine)
        self.game_id, self.state, self.meta = game_id, state, meta
        self.at_boot = at_boot
        self.new_game = new_game
        tr = machine.tr
        self.items = [
            MenuItem(
                "continue", lambda: tr("Continue", "つづきから"), self.resume, face=pal.ACCENT_LO
            )
        ]
        if at_boot:
            self.items.append(MenuItem("later", lambda: tr("Later", "あとで"), machine.pop))
            self.back_key = "later"
        else:
            self.items.append(
                MenuItem("new", lambda: tr("New game", "あたらしく はじめる"), self.ask_new)
            )
            self.items.append(MenuItem("back", lambda: tr("Back", "もどる"), machine.pop))
            self.back_key = "back"

    def resume(self) -> None:
        options = self.meta.get("options", {}) if isinstance(self.meta, dict) else {}
        seed = self.meta.get("seed") if isinstance(self.meta, dict) else None
        try:
            self.machine.start_game(
                self.game_id, dict(options), self.state, seed=seed, resumed=True
            )
        except (ValueError, KeyError, TypeError) as exc:
            self.machine.to_launcher(selected=self.game_id)
            self.machine.push(
                NoticeScene(
                    self.machine,
                    self.machine.tr(
                        f"The saved game could not be resumed ({exc}). It is kept; New game"
                        " replaces it.",
                        f"セーブした ゲームを つづけられません({exc})。ゲームは のこしてあります。"
                        "「あたらしく はじめる」で おきかわります。",
                    ),
                )
            )

    def ask_new(self) -> None:
        cart = self.machine.cartridges[self.game_id]
        title = self.machine.tr(cart.title, cart.title_ja)

        def discard_and_start() -> None:
            self.machine.discard_suspend(self.game_id)
            self.machine.pop()  # this scene; the launcher starts the new game
            if self.new_game is not None:
                self.new_game()

        question = self.machine.tr(
            f"Start a new game of {title}? The saved game is discarded.",
            f"あたらしく はじめますか? セーブした {title} の ゲームは きえます。",
        )
        self.machine.push(ConfirmScene(self.machine, question, discard_and_start))

    def draw_top(self, top: pygame.Surface) -> None:
        cart = self.machine.cartridges[self.game_id]
        tr = self.machine.tr
        title = tr(cart.title, cart.title_ja)
        _message_top(
            top,
            tr("Welcome back", "おかえりなさい") if self.at_boot else tr("Saved game", "セーブ"),
            tr(
                f"A game of {title} was left unfinished. Continue where you stopped?",
                f"{title} のとちゅうのゲームがあります。つづけますか?",
            ),
        )

    def dump(self) -> dict[str, object]:
        return {"suspended": self.game_id, **super().dump()}


class NoticeScene(MenuScene):
    """A system message the player must see (e.g. P-REL-2: the store was damaged)."""

    name = "notice"
    top_y = 90
    back_key = "ok"

    def __init__(self, machine: Host, message: str, *, ja: str | None = None) -> None:
        """`message` as given, or with `ja` the English of a message shown in the player's
        language (translated when drawn: the language may be chosen after it was made)."""
        super().__init__(machine)
        self.message, self.ja = message, ja
        self.items = [MenuItem("ok", lambda: "OK", self.close, face=pal.ACCENT_LO)]

    def close(self) -> None:
        notice = self.machine.notice
        if notice is not None and notice.en == self.message:
            self.machine.notice = None
        self.machine.pop()

    def draw_top(self, top: pygame.Surface) -> None:
        tr = self.machine.tr
        body = tr(self.message, self.ja) if self.ja is not None else self.message
        _message_top(top, tr("Notice", "おしらせ"), body, pal.TEAL)

    def dump(self) -> dict[str, object]:
        return {"message": self.message, **super().dump()}


class ConfirmScene(MenuScene):
    name = "confirm"
    top_y = 70
    back_key = "no"

    def __init__(self, machine: Host, question: str, on_yes: Callable[[], None]) -> None:
        super().__init__(machine)
        self.question = question
        tr = machine.tr

        def yes() -> None:
            machine.pop()
            on_yes()

        self.items = [
            MenuItem("yes", lambda: tr("Yes", "はい"), yes, face=pal.DANGER),
            MenuItem("no", lambda: tr("No", "いいえ"), machine.pop),
        ]

    def draw_top(self, top: pygame.Surface) -> None:
        _message_top(top, self.machine.tr("Are you sure?", "よろしいですか?"), self.question)
