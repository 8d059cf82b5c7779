"""Killing Sevens' lower screen: the speech bubble, the hand (face down on others' turns),
the hand-over between people, the game-over table with the running totals, the members and
options dialogs and the replay's hands. Drawn from a `BottomView` the scene builds each
frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from firmware.game_api import THINKING_INDICATOR_TICKS
from firmware.gfx import palette as pal
from firmware.gfx import text, trace, widgets
from games.sevens.rules import Game as Table
from games.sevens.rules import Tally, card_label, parse_card
from games.sevens.scene import help as help_pages
from games.sevens.scene import layout, sprites
from games.sevens.scene import texts as tx
from games.sevens.scene.setup import OPTION_KEYS, Setup
from games.sevens.scene.talk import Bubble
from games.sevens.scene.top_view import Tr, turn_of, win_line


@dataclass(frozen=True)
class BottomView:
    """What the lower screen shows this frame (`table` is the rules state, read only). Fields
    a phase does not show stay empty: the tally is read from storage."""

    phase: str  # "members", "options", "play", "over" or "replay"
    table: Table | None
    names: list[str]
    you: int | None  # the one person's seat against the computers (not in a replay)
    humans: list[int]  # the seats people play
    local_seat: int  # whose hand is shown
    human_to_move: bool
    sending: bool  # linked play: this unit's action is on its way to the host
    selected: int | None  # the card tapped once
    think_ticks: int
    handoff: bool  # "hand the unit to ..." between people on one unit
    talk_current: Bubble | None
    talk_last: Bubble | None
    replay_index: int
    replay_total: int
    marks: dict[int, str]  # hint marks on the hand ("kill", "danger")
    tally: Tally | None  # game over: the members' running totals
    english_names: list[str]  # game over: the names the tally is kept under
    draft: Setup  # the members and options dialogs
    linked: bool = False  # a versus match: its end has no buttons (it is not played again)


def draw_bad_record(top: pygame.Surface, bottom: pygame.Surface, tr: Tr) -> None:
    widgets.background(top)
    widgets.background(bottom)
    text.draw(bottom, tr(*tx.BAD_RECORD), (128, 90), pal.TEXT, align="center")


def draw_talk(surf: pygame.Surface, tr: Tr, view: BottomView, names: list[str]) -> None:
    bubble = view.talk_current
    dim = bubble is None
    if bubble is None:
        bubble = view.talk_last
    if bubble is None:
        return
    kind = bubble.personality or "human"
    face = sprites.face(kind, bubble.seat)
    surf.blit(face, layout.FACE_POS)
    rect = layout.BUBBLE_RECT
    fill = (210, 212, 220) if dim else pal.WHITE
    pygame.draw.polygon(surf, pal.OUTLINE, [(rect.x - 7, 24), (rect.x + 1, 18), (rect.x + 1, 30)])
    pygame.draw.rect(surf, pal.OUTLINE, rect, border_radius=6)
    pygame.draw.rect(surf, fill, rect.inflate(-2, -2), border_radius=5)
    pygame.draw.polygon(surf, fill, [(rect.x - 5, 24), (rect.x + 2, 19), (rect.x + 2, 29)])
    pygame.draw.rect(surf, sprites.SEAT_COLORS[bubble.seat], (rect.x + 5, rect.y + 5, 4, 7))
    trace.box(surf, rect)  # the bubble frames its texts (the fit checks look inside)
    name = names[bubble.seat]
    # A Japanese name (12 rows) starts higher and the speech a row lower, clear of each other
    text.draw(surf, name, (rect.x + 12, rect.y + (2 if text.is_tall(name) else 5)),
              (90, 90, 110), valign="top")
    lines = text.wrap(bubble.text(tr("en", "ja") == "ja"), rect.w - 12)
    pitch = text.line_pitch(lines, minimum=10)
    tall = any(map(text.is_tall, lines))
    y = rect.y + (15 if tall else 17)  # the first line's top, under the name
    last = y + (text.JA_H if tall else text.GLYPH_H) - 1  # its lowest row
    room = max(1, (rect.bottom - 3 - last) // pitch + 1)  # lines whose rows stay inside
    if len(lines) > room:  # a long announcement (a big kill's cards): end with an ellipsis
        lines = [*lines[: room - 1], lines[room - 1][:-1] + "…"]
    for line in lines:
        text.draw(surf, line, (rect.x + 6, y), pal.TEXT_DARK, valign="top")
        y += pitch


def draw_play(surf: pygame.Surface, tr: Tr, view: BottomView) -> None:
    widgets.background(surf)
    game = view.table
    assert game is not None
    names = view.names
    draw_talk(surf, tr, view, names)
    widgets.button(surf, help_pages.HELP_RECT, "?")
    if view.handoff and game.current is not None:
        draw_handoff(surf, tr, names[game.current], game.current)
        return
    seat = view.local_seat
    hand = game.hand(seat)
    rects = layout.hand_rects(len(hand))
    if view.human_to_move:
        legal = set(game.legal_cards())
        marks = view.marks
        if view.sending:
            status = tr(*tx.SENDING)  # linked play: the host applies it and echoes it
        elif view.selected is not None:
            status = tr(*tx.TAP_AGAIN) if view.selected in legal else tr(*tx.CANNOT)
        elif not legal:
            status = tr(*tx.NOTHING)
        else:
            status = (
                tr(*tx.YOUR_TURN) if len(view.humans) == 1 else (turn_of(tr, names, seat, view.you))
            )
        text.draw(
            surf, status, (128, layout.STATUS_Y), pal.ACCENT, align="center", shadow=pal.OUTLINE
        )
        for card, rect in zip(hand, rects, strict=True):
            chosen = card == view.selected
            r = rect.move(0, -3) if chosen else rect
            surf.blit(sprites.hand_card(card, card not in legal), r)
            if chosen:
                color = sprites.PLAYABLE if card in legal else sprites.BLOCKED
                sprites.frame(surf, r, color)
            mark = marks.get(card)
            if mark == "kill":
                sprites.badge(surf, (r.right - 5, r.y + 5), sprites.BLOCKED, "×")
            elif mark == "danger":
                sprites.badge(surf, (r.right - 5, r.bottom - 6), (240, 140, 20), "!")
        if marks:
            kills, danger = "× " + tr(*tx.HINT_KILLS), "! " + tr(*tx.HINT_DANGER)
            tall = text.is_tall(kills)  # Japanese lines (12 rows) a row further apart
            text.draw(surf, kills, (4, 166 if tall else 167), pal.TEXT_DIM)
            text.draw(surf, danger, (4, 180 if tall else 179), pal.TEXT_DIM)
        if not legal:
            widgets.button(surf, layout.PASS_RECT, tr(*tx.PASS), face=pal.ACCENT_LO)
        return
    # someone else's turn: the hand stays face down (R-SEV-VIEW-1)
    mover = game.current
    if mover is not None:
        label = turn_of(tr, names, mover, view.you)
        if view.think_ticks >= THINKING_INDICATOR_TICKS:
            label = f"{names[mover]}: {tr(*tx.THINKING)}" + "." * (
                1 + (view.think_ticks // 15) % 3
            )
        text.draw(surf, label, (128, layout.STATUS_Y), pal.TEXT_DIM, align="center")
    for rect in rects:
        pygame.draw.rect(surf, pal.OUTLINE, rect, border_radius=4)
        pygame.draw.rect(surf, (120, 40, 60), rect.inflate(-2, -2), border_radius=3)
        pygame.draw.rect(surf, (170, 70, 90), rect.inflate(-8, -8), 1, border_radius=2)


def draw_handoff(surf: pygame.Surface, tr: Tr, name: str, seat: int) -> None:
    panel = pygame.Rect(24, 58, 208, 96)
    widgets.panel(surf, panel)
    text.draw(surf, tr(*tx.HAND_TO), (128, 66), pal.TEXT, align="center")
    surf.blit(sprites.face("human", seat, 24), (64, 82))
    text.draw(surf, name, (96, 86), sprites.SEAT_COLORS[seat], scale=2, shadow=pal.OUTLINE)
    widgets.button(surf, layout.HANDOFF_OK_RECT, tr(*tx.OK), face=pal.ACCENT_LO)


def draw_over(surf: pygame.Surface, tr: Tr, view: BottomView) -> None:
    widgets.background(surf)
    game = view.table
    assert game is not None
    names = view.names
    draw_talk(surf, tr, view, names)
    ranking = game.ranking()
    text.draw(
        surf,
        win_line(tr, names, ranking[0], view.you),
        (128, 52),
        pal.ACCENT,
        align="center",
        shadow=pal.OUTLINE,
    )
    # one table: this game's three criteria, then the running totals (R-SEV-WIN, -VIEW-5)
    cols = (6, 18, 94, 126, 156, 190, 216, 242)
    pygame.draw.rect(surf, pal.PANEL, (80, 66, 90, 12), border_radius=2)
    pygame.draw.rect(surf, pal.PANEL, (176, 66, 78, 12), border_radius=2)
    text.draw(surf, tr("this game", "この勝負"), (125, 67), pal.TEXT_DIM, align="center")
    text.draw(surf, tr(*tx.TOTALS), (215, 67), pal.TEAL, align="center")
    heads = (
        "#",
        tr(*tx.HEAD_NAME),
        tr(*tx.HEAD_KILLED_SHORT),
        tr(*tx.HEAD_KILLS),
        tr(*tx.HEAD_OUT_SHORT),
        tr(*tx.HEAD_GAMES),
        tr(*tx.HEAD_WINS),
        tr(*tx.HEAD_AVG),
    )
    y = 82
    for i, h in enumerate(heads):
        text.draw(surf, h, (cols[i], y), pal.TEXT_DIM, align="left" if i < 2 else "center")
    tally = view.tally
    assert tally is not None
    english = view.english_names
    for place, s in enumerate(ranking, 1):
        ry = y + 15 * place
        color = pal.ACCENT if place == 1 else pal.TEXT
        values = [
            str(place),
            names[s],
            str(game.killed_count[s]),
            str(game.kills_count[s]),
            str(game.finish_order.index(s) + 1),
        ]
        t = tally.members.get(english[s])
        if t is not None:
            values += [str(t.games), str(t.wins), f"{t.average_place:.1f}"]
        for i, v in enumerate(values):
            text.draw(surf, v, (cols[i], ry), color, align="left" if i < 2 else "center")
    if view.linked:  # nothing to tap: the pause menu leaves the match
        text.draw(surf, tr(*tx.LINKED_OVER), (128, layout.PLAY_AGAIN_RECT.y + 7), pal.TEXT_DIM,
                  align="center")
        return
    widgets.button(surf, layout.PLAY_AGAIN_RECT, tr(*tx.PLAY_AGAIN), face=pal.ACCENT_LO)
    widgets.button(surf, layout.MEMBERS_RECT, tr(*tx.CHANGE_MEMBERS))
    widgets.button(surf, layout.RESET_RECT, tr(*tx.RESET), face=pal.BUTTON_LO)


def draw_dialog(surf: pygame.Surface, tr: Tr, view: BottomView) -> None:
    widgets.background(surf)
    draft = view.draft
    if view.phase == "members":
        widgets.title_bar(surf, tr(*tx.MEMBERS))
        rows: list[tuple[str, str | None]] = [(tr(*tx.YOU_SEAT), None)]
        for i, kind in enumerate(draft.seats):
            rows.append((tr(f"Seat {i + 2}", f"席{i + 2}"), tr(*tx.SEAT_KIND[kind])))
        for i, (label, value) in enumerate(rows):
            rect = layout.choice_rect(i)
            face_kind = "human" if i == 0 else draft.seats[i - 1]
            surf.blit(sprites.face(face_kind, i, 20), (8, rect.y + 1))
            text.draw(surf, label, (34, rect.y + 7), pal.TEXT)
            if value is None:
                continue
            widgets.bevel_rect(surf, rect, pal.PANEL_HI)
            text.draw(
                surf,
                value,
                (rect.centerx, rect.y + 7),
                pal.ACCENT,
                align="center",
                shadow=pal.OUTLINE,
            )
        widgets.button(surf, help_pages.HELP_DIALOG_RECT, tr("? Help", "? 説明"))
        widgets.button(surf, layout.OK_RECT, tr(*tx.NEXT), face=pal.ACCENT_LO)
        return
    widgets.title_bar(surf, tr(*tx.OPTIONS))
    for i, key in enumerate(OPTION_KEYS):
        rect = layout.choice_rect(i)
        text.draw(surf, tr(*tx.OPTION_LABEL[key]), (8, rect.y + 7), pal.TEXT)
        widgets.bevel_rect(surf, rect, pal.PANEL_HI)
        value = tx.option_value(tr, key, getattr(draft, key))
        text.draw(
            surf, value, (rect.centerx, rect.y + 7), pal.ACCENT, align="center", shadow=pal.OUTLINE
        )
    widgets.button(surf, layout.OK_RECT, tr(*tx.START), face=pal.ACCENT_LO)


REPLAY_CARDS_X, REPLAY_CARD_STEP = 80, 13  # a replay's hands: the first card, card to card


def draw_replay(surf: pygame.Surface, tr: Tr, view: BottomView) -> None:
    widgets.background(surf)
    game = view.table
    assert game is not None
    names = view.names
    total = view.replay_total
    widgets.title_bar(surf, tr(*tx.REPLAY), f"{view.replay_index}/{total}")
    for s in range(4):
        y = 20 + s * 27
        pygame.draw.rect(surf, sprites.SEAT_COLORS[s], (2, y + 2, 3, 18))
        # the name whole ("Player 3", a radio name), the 13 cards overlapping a little
        name = text.fit(names[s], REPLAY_CARDS_X - 10)
        text.draw(surf, name, (7, y + 7), pal.TEXT)
        held = set(game.hand(s))
        for i, card in enumerate(game.initial_hands[s]):
            x = REPLAY_CARDS_X + i * REPLAY_CARD_STEP
            surf.blit(sprites.mini_card(card, "held" if card in held else "gone"), (x, y))
    events = _last_action_events(game.events) if view.replay_index else []
    line = _describe(tr, events, names)
    text.draw(surf, line, (128, 136), pal.ACCENT, align="center", shadow=pal.OUTLINE)
    labels = {"first": "|◀", "back": "◀", "forward": "▶", "last": "▶|"}
    for key, rect in layout.REPLAY_BUTTONS.items():
        widgets.button(surf, rect, labels[key])


def _last_action_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for i in range(len(events) - 1, -1, -1):
        if events[i]["type"] in ("play", "pass"):
            return events[i:]
    return []


def _describe(tr: Tr, events: list[dict[str, Any]], names: list[str]) -> str:
    if not events:
        return ""
    first = events[0]
    who = names[first["seat"]]
    you = who == tr("You", "あなた")  # "You play", not "You plays"
    if first["type"] == "pass":
        return tr(f"{who} pass" + "es" * (not you), f"{who}: パス")
    label = card_label(parse_card(first["card"]))
    killed = sum(len(e["cards"]) for e in events if e["type"] == "kill")
    line = tr(f"{who} play{'s' * (not you)} {label}", f"{who}: {label}")
    if killed:
        line += tr(f", kills {killed}", f" {killed}枚殺し")
    return line
