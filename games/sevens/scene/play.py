"""Killing Sevens on the handheld: one scene for the members and options dialogs, play (one
person against three computers, or two to four people passing the unit), the game-over
dialog and the replay of a stored record.

Every action goes through a `Match` (firmware/match): people's taps are offered to their
`LocalSeat`, the personalities answer through `ComputerSeat`s, a replay is fed by
`ReplaySeat`s. Computers wait while a card animates or a line is being read, then think for
at least `MIN_THINK_TICKS` (their move stays visible); a person may play at any time on
their turn. See docs/games/sevens.md ("On the handheld").

The input of each phase is in `controls.py`, a versus match's members and seats in
`link.py`, what the screens show in `views.py`, dump, suspend and resume in `saved.py`
(docs/architecture.md, "Inside a game").
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame

from firmware.game_api import THINKING_INDICATOR_TICKS, Game, GameContext, GameResult, Versus
from firmware.input import InputState
from firmware.match import ComputerSeat, LocalSeat, Match, RelaySeat, ReplayCursor
from firmware.scene import hit
from games.sevens.ai.voices import Narrator, Speech
from games.sevens.match import SevensComputer, SevensRules
from games.sevens.records import replay_actions
from games.sevens.rules import Game as Table
from games.sevens.rules import Tally, card_name, parse_card, record_of, seat_view
from games.sevens.scene import controls, layout, saved, views
from games.sevens.scene import help as help_pages
from games.sevens.scene import link as link_glue
from games.sevens.scene.animation import Anim
from games.sevens.scene.bottom_view import (
    BottomView,
    draw_bad_record,
    draw_dialog,
    draw_over,
    draw_play,
    draw_replay,
)
from games.sevens.scene.hints import hand_marks
from games.sevens.scene.setup import (
    OPTION_KEYS,
    SETUP_KEY,
    TALLY_KEY,
    Setup,
    from_options,
    member_names,
    resolve_members,
    shown_name,
)
from games.sevens.scene.talk import Talk
from games.sevens.scene.top_view import TopView, draw_intro_top, draw_table_top

# The engine's announcements for a person, turned to "You" (verb agreement)
YOU_VERBS = {
    "starts": "start",
    "plays": "play",
    "passes": "pass",
    "is": "are",
    "wins": "win",
    "loses": "lose",
}


class Cache:
    """The last picture of each screen with the key it was drawn for."""

    def __init__(self) -> None:
        self.frames: dict[str, tuple[object, pygame.Surface]] = {}

    def draw(
        self, surf: pygame.Surface, slot: str, key: object, fn: Callable[[pygame.Surface], None]
    ) -> None:
        cached = self.frames.get(slot)
        if key is not None and cached is not None and cached[0] == key:
            surf.blit(cached[1], (0, 0))
            return
        fn(surf)
        if key is not None:
            self.frames[slot] = (key, surf.copy())


class SevensScene(Game):
    """Play, or (with `record`) the replay of a stored game."""

    uses_dpad = False  # the firmware's cursor walks the cards and buttons; A taps
    draws_thinking = True  # "<name>: thinking..." on the lower screen, after half a second

    def __init__(self, ctx: GameContext, record: dict[str, Any] | None = None) -> None:
        super().__init__(ctx)
        self.talk = Talk()
        self.anim: Anim | None = None
        self.selected: int | None = None
        self.holder: int | None = None  # the person holding the unit (passing it round)
        self.handoff = False
        self.reported = False
        self.help_page: int | None = None  # how to play, over the members dialog or play
        self.focus = OPTION_KEYS[0]  # the option explained on the upper screen
        self.base = str(ctx.seed)  # every game's deal, computers and voices derive from it
        self.games = 0  # games started in this scene: each deals from its own seed
        self.members: list[str] = []
        self.match: Match[str] | None = None
        self.record_data: dict[str, Any] | None = None
        self.record_error: str | None = None
        self.cursor: ReplayCursor[str] | None = None
        self.replay_names: list[str] = []
        self.replay_actions: list[tuple[int, bytes]] = []
        self.cache = Cache()
        # A link session (firmware/link/session.py) when this is a versus match: one person
        # per unit, computers in the seats no unit took; None otherwise.
        self.versus: Versus | None = ctx.versus
        mode = ctx.options.get("mode", "cpu")
        stored = ctx.load_data(SETUP_KEY)
        if self.versus is not None:
            # every unit builds the same game from the host's options alone; only the
            # local settings (hint marks, bubble speed) come from this unit's store
            self.setup, ask = from_options(ctx.options, None, mode)
            mine, _ = from_options({}, stored, mode)
            self.setup = replace(self.setup, hints=mine.hints, bubbles=mine.bubbles)
        else:
            self.setup, ask = from_options(ctx.options, stored, mode)
        self.draft = self.setup
        if record is not None:
            self.phase = "replay"
            self._open_record(record)
        elif ask and self.versus is None:
            self.phase = "members"
        else:
            self._new_game()

    # ================================================================== the game's state
    @property
    def rules(self) -> SevensRules:
        assert self.match is not None
        rules = self.match.rules
        assert isinstance(rules, SevensRules)
        return rules

    @property
    def table(self) -> Table | None:
        return self.rules.game if self.match is not None else None

    @property
    def humans(self) -> list[int]:
        return [s for s, kind in enumerate(self.members) if kind == "human"]

    @property
    def mode(self) -> str:
        if self.versus is not None:
            return "link"
        return "two" if len(self.humans) > 1 else "cpu"

    @property
    def local_seat(self) -> int:
        """The person whose hand this unit shows (the one holding it)."""
        return self.holder if self.holder is not None else (self.humans or [0])[0]

    def names(self) -> list[str]:
        if self.phase == "replay":
            return [shown_name(n, self._ja()) for n in self.replay_names]
        return member_names(self.members, self._ja(), self.unit_names())

    def unit_names(self) -> list[str] | None:
        """Linked play: every unit's radio name by seat (the session's), else None."""
        names = getattr(self.versus, "names", None) if self.versus is not None else None
        return [str(n) for n in names] if names else None

    def _ja(self) -> bool:
        return self.ctx.tr("en", "ja") == "ja"

    def human_to_move(self) -> bool:
        """A person may act now: their turn, in play, the unit in their hands (cards wait
        for an animation to end; see _update_play)."""
        if self.phase != "play" or self.match is None or self.handoff:
            return False
        seat = self.match.to_move
        return seat is not None and self.members[seat] == "human"

    @property
    def sending(self) -> bool:
        """Linked play: this unit's card is on its way to the host (sealed deal)."""
        if self.match is None or self.match.to_move is None:
            return False
        seat = self.match.seats[self.match.to_move]
        return isinstance(seat, RelaySeat) and seat.waiting

    @property
    def thinking(self) -> bool:
        if self.phase != "play" or self.match is None:
            return False
        seat = self.match.to_move
        if seat is None:
            return False
        source = self.match.seats[seat]
        return isinstance(source, ComputerSeat) and source.thinking

    @property
    def think_ticks(self) -> int:
        """Ticks the computer to move has thought (the dots' animation: saved, unlike the
        machine's tick counter)."""
        if not self.thinking or self.match is None or self.match.to_move is None:
            return 0
        seat = self.match.seats[self.match.to_move]
        return seat.calls if isinstance(seat, ComputerSeat) else 0

    def thinking_ticks(self) -> int:
        return self.think_ticks

    def playable(self) -> list[int]:
        if not self.human_to_move():
            return []
        return self.table.legal_cards() if self.table else []

    def marks(self) -> dict[int, str]:
        if not self.setup.hints or not self.human_to_move() or self.table is None:
            return {}
        return hand_marks(seat_view(self.table, self.local_seat))

    # ================================================================== starting games
    def _new_game(self) -> None:
        self.phase = "play"
        self.games += 1
        if self.versus is not None:
            self.members = link_glue.versus_members(self)
        else:
            self.ctx.save_data(SETUP_KEY, self.setup.to_json())  # remembered for next time
            self.members = resolve_members(self.setup, random.Random(f"{self._seed}:members"))
        self._build_match()
        self.talk.clear()
        self.talk.last = None
        self.anim = None
        self.selected, self.holder, self.handoff, self.reported = None, None, False, False
        opening = list(self.rules.game.events)
        laid = next((e for e in opening if e["type"] == "layout"), None)
        if laid is not None:
            self.anim = Anim(None, [], 0)
        self._speak(opening, "open")
        self._check_handoff()  # people passing the unit: the first one is asked for by name

    @property
    def _seed(self) -> str:
        return f"{self.base}:{self.games}"

    def _build_match(self) -> None:
        self.match = self._match_for(self._seed, self.setup, self.members)

    def _match_for(self, seed: str, setup: Setup, members: list[str]) -> Match[str]:
        """A fresh match: the deal of `seed`, a local seat per person, and the computers
        paced by this unit's device profile (`ctx.computer_seat`)."""
        if len(members) != 4 or "human" not in members:
            raise ValueError("a game has four members, one of them a person here")
        if self.versus is not None:
            return link_glue.versus_match(self, setup, members)
        rules = SevensRules.new(seed, setup.rules)
        if members[0] != "human":
            raise ValueError("seat 0 is a person")
        seats: list[Any] = []
        for s, kind in enumerate(members):
            if kind == "human":
                seats.append(LocalSeat[str]())
            else:
                player = SevensComputer(kind, f"{seed}:ai:{s}")
                seats.append(self.ctx.computer_seat(player))
        return Match(rules, seats)

    def _speak(self, events: list[dict[str, Any]], salt: str) -> None:
        kinds = ["human" if k == "remote" else k for k in self.members]
        narrator = Narrator(kinds, random.Random(f"{self._seed}:voice:{salt}"))
        speeches = [self._personal(s) for s in narrator.react(events)]
        self.talk.say(speeches, self.setup.bubbles, self._ja())

    def _personal(self, speech: Speech) -> Speech:
        """Alone against the computers, the person's announcements say "You" ("You play
        8♦.", 「あなたが…」), as the information area does."""
        n = speech.seat + 1
        units = self.unit_names()
        if speech.personality is None and units and self.members[speech.seat] == "remote":
            name = units[speech.seat] if speech.seat < len(units) else ""
            if name:  # another unit's person, by the unit's name
                en = speech.en.replace(f"Player {n}", name, 1)
                ja = speech.ja.replace(f"プレイヤー{n}", name, 1)
                return replace(speech, en=en, ja=ja)
        if speech.personality is not None or self.humans != [speech.seat]:
            return speech  # a computer's line, or another person's
        found = re.match(rf"Player {n} (\w+)(.*)", speech.en)
        if found is None:
            return speech
        verb, tail = found.groups()
        en = f"You {YOU_VERBS.get(verb, verb)}{tail}"
        ja = speech.ja.replace(f"プレイヤー{n}", "あなた", 1)
        return replace(speech, en=en, ja=ja)

    # ================================================================== input
    def hotspots(self) -> dict[str, pygame.Rect]:
        spots: dict[str, pygame.Rect] = {}
        if self.help_page is not None:
            return help_pages.hotspots(self.help_page)
        if self.phase == "members":
            for i in range(3):
                spots[f"choice:seat{i + 1}"] = layout.choice_rect(i + 1)
            spots["button:help"] = help_pages.HELP_DIALOG_RECT
            spots["button:ok"] = layout.OK_RECT
        elif self.phase == "options":
            for i, key in enumerate(OPTION_KEYS):
                spots[f"choice:{key}"] = layout.choice_rect(i)
            spots["button:ok"] = layout.OK_RECT
        elif self.phase == "over" and self.versus is not None:
            pass  # a versus match is not restarted alone (quit from the pause menu)
        elif self.phase == "over":
            spots["button:play-again"] = layout.PLAY_AGAIN_RECT
            spots["button:members"] = layout.MEMBERS_RECT
            spots["button:reset"] = layout.RESET_RECT
        elif self.phase == "replay":
            if self.cursor is not None:
                spots.update({f"button:{k}": r for k, r in layout.REPLAY_BUTTONS.items()})
        elif self.phase == "play":
            spots["button:help"] = help_pages.HELP_RECT
            if self.talk.current is not None:
                spots["button:skip"] = layout.TALK_RECT
            if self.handoff:
                spots["button:ok"] = layout.HANDOFF_OK_RECT
            elif self.human_to_move() and self.table is not None:
                hand = self.table.hand(self.local_seat)
                for card, rect in zip(hand, layout.hand_rects(len(hand)), strict=True):
                    spots[f"card:{card_name(card)}"] = rect
                if not self.table.legal_cards():
                    spots["button:pass"] = layout.PASS_RECT
        return spots

    def update(self, inp: InputState) -> None:
        name = hit(self.hotspots(), inp)
        if self.help_page is not None:
            controls.update_help(self, name)
            return  # the game waits while the pages are open
        if name == "button:help":
            self.help_page = 0
            self.ctx.play("select")
            return
        if self.phase == "members":
            controls.update_members(self, name)
        elif self.phase == "options":
            controls.update_options(self, name)
        elif self.phase == "over":
            controls.update_over(self, name)
        elif self.phase == "replay":
            controls.update_replay(self, name, inp)
        else:
            controls.update_play(self, name, inp)

    def _offer(self, action: str) -> None:
        assert self.match is not None
        seat = self.match.to_move
        if seat is None:
            return
        source = self.match.seats[seat]
        if isinstance(source, LocalSeat | RelaySeat):
            source.offer(action)

    # ================================================================== the flow
    def _advance(self) -> None:
        if self.anim is not None:
            self.anim.age += 1
            if self.anim.done:
                self.anim = None
        self.talk.step()
        match = self.match
        assert match is not None
        if match.over:
            # a versus result counts only once every unit reports the same final state
            if self.anim is None and (self.versus is None or self.versus.agreed):
                self._finish()
            return
        seat = match.to_move
        assert seat is not None
        if self.members[seat] == "human":
            self._check_handoff()
            if self.handoff:
                return
            if self.holder is None:
                self.holder = seat
        elif self.members[seat] == "remote":
            pass  # another unit's person: their card comes when it comes
        elif self.anim is not None or self.talk.busy:
            return  # computers wait while a card moves or a line is read
        events = match.step()
        if events:
            self._on_events(events)
            self._check_handoff()  # at once: the next frame must not show this hand

    def _check_handoff(self) -> None:
        """Another person's turn while the unit is in someone else's hands: hide the hand
        behind "hand to <name>" until they tap OK."""
        match = self.match
        seat = match.to_move if match is not None else None
        if seat is None or self.members[seat] != "human" or len(self.humans) < 2:
            return
        if self.holder != seat and not self.handoff:
            self.handoff = True
            self.selected = None

    def _on_events(self, events: list[dict[str, Any]]) -> None:
        self.selected = None
        play = next((e for e in events if e["type"] == "play"), None)
        played = parse_card(play["card"]) if play is not None else None
        killed = [parse_card(c) for e in events if e["type"] == "kill" for c in e["cards"]]
        if play is not None:
            self.anim = Anim(played, killed, 0, play["seat"])
        if killed:
            self.ctx.play("kill")
        elif played is not None:
            self.ctx.play("place")
        else:
            self.ctx.play("pass")
        assert self.match is not None
        self._speak(events, str(len(self.match.history)))

    def _finish(self) -> None:
        """The end: totals, the record, the result dialog (once)."""
        self.phase = "over"
        self.selected, self.handoff = None, False
        game = self.rules.game
        winner = game.ranking()[0]
        lines = [b for b in self.talk.queue if b.situation == "win"]
        self.talk.clear()
        if lines:  # the winner's line stays up over the result
            self.talk.queue.append(lines[0])
            self.talk.last = replace(lines[0])
        if self.reported:
            return
        self.reported = True
        names = member_names(self.members, units=self.unit_names())
        tally = self.tally()
        tally.add(game, names)
        self.ctx.save_data(TALLY_KEY, tally.to_json())
        record = record_of(game, names)
        record["members"] = list(self.members)
        outcome = None
        if self.mode in ("cpu", "link"):
            outcome = "win" if winner == self.humans[0] else "loss"
        names_ja = member_names(self.members, True, self.unit_names())
        if self.mode in ("cpu", "link"):
            you = self.humans[0]
            place = game.ranking().index(you) + 1
            ordinal = ("1st", "2nd", "3rd", "4th")[place - 1]
            dead = game.killed_count[you]
            summary = "You win" if winner == you else f"{names[winner]} wins"
            summary += f"; you {ordinal} ({dead} dead)"
            summary_ja = f"{names_ja[winner]}の勝ち、あなた {place}位({dead}枚 殺され)"
        else:
            summary = f"{names[winner]} wins ({len(self.humans)} people)"
            summary_ja = f"{names_ja[winner]}の勝ち({len(self.humans)}人)"
        self.ctx.finish(GameResult(outcome, None, summary, record, summary_ja))
        self.ctx.play("lose" if outcome == "loss" else "win")

    def tally(self) -> Tally:
        try:
            return Tally.from_json(self.ctx.load_data(TALLY_KEY, {"members": {}}))
        except ValueError:
            return Tally()  # damaged totals start again rather than stop the game

    # ================================================================== replays
    def _open_record(self, data: dict[str, Any]) -> None:
        self.record_data = data
        try:
            full = Table.from_json({k: data[k] for k in ("options", "hands", "events")})
            members = data.get("members", ["human"] * 4)
            names = data.get("seats", member_names(members))
            if len(members) != 4 or len(names) != 4:
                raise ValueError("a record has four members")
        except (KeyError, TypeError, ValueError) as exc:
            self.record_error = str(exc)
            return
        self.members = [str(m) for m in members]
        self.replay_names = [str(n) for n in names]
        hands = [list(h) for h in full.initial_hands]
        options = full.options
        actions = replay_actions(full)
        self.replay_actions = actions
        self.cursor = ReplayCursor(
            lambda: SevensRules(Table([list(h) for h in hands], options)), actions
        )
        self.match = self.cursor.match

    def _replay_to(self, index: int) -> None:
        assert self.cursor is not None
        self.cursor.seek(index)
        self.match = self.cursor.match

    @property
    def replay_index(self) -> int:
        return self.cursor.index if self.cursor is not None else 0

    # ================================================================== views (views.py)
    def top_view(self) -> TopView:
        return views.top_view(self)

    def bottom_view(self) -> BottomView:
        return views.bottom_view(self)

    # ================================================================== dump and state (saved.py)
    def dump(self) -> dict[str, Any]:
        return saved.dump(self)

    def save_state(self) -> dict[str, Any]:
        return saved.save_state(self)

    def load_state(self, state: dict[str, Any]) -> None:
        saved.load_state(self, state)

    # ================================================================== drawing
    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        """Each screen is drawn from its view (`top_view`, `bottom_view`), or copied from the
        cache when nothing it shows has changed."""
        cache = self.cache
        tr = self.ctx.tr
        phase = self.phase
        lang = self.ctx.language
        page = self.help_page
        if page is not None:
            help_key = ("help", lang, page)
            cache.draw(top, "top", help_key, lambda s: help_pages.draw_top(s, tr, page))
            cache.draw(bottom, "bottom", help_key, lambda s: help_pages.draw_bottom(s, tr, page))
            return
        if phase in ("members", "options"):
            key = (phase, lang, self.draft, self.focus)
            focus = self.focus
            cache.draw(top, "top", key, lambda s: draw_intro_top(s, tr, phase, focus))
            cache.draw(bottom, "bottom", key, lambda s: draw_dialog(s, tr, self.bottom_view()))
            return
        if self.record_error is not None:
            draw_bad_record(top, bottom, tr)
            return
        still = self.anim is None
        history = len(self.match.history) if self.match else 0
        top_key = None
        if still:
            top_key = (
                phase,
                lang,
                history,
                self.selected,
                self.human_to_move(),
                self.match.to_move if self.match else None,
            )
        cache.draw(top, "top", top_key, lambda s: draw_table_top(s, tr, self.top_view()))
        bottom_key = None
        if still:
            bubble = self.talk.current
            think = self.think_ticks
            bottom_key = (
                phase,
                lang,
                history,
                self.selected,
                self.human_to_move(),
                self.handoff,
                len(self.talk.queue),
                bubble.en if bubble else None,
                (think // 15) % 3 if think >= THINKING_INDICATOR_TICKS else -1,
                self.match.to_move if self.match else None,
            )
        lower = {"replay": draw_replay, "over": draw_over}.get(phase, draw_play)
        cache.draw(bottom, "bottom", bottom_key, lambda s: lower(s, tr, self.bottom_view()))

    @property
    def you(self) -> int | None:
        """The one person's seat against the computers ("Your turn"); None in a replay or
        with two or more people."""
        humans = self.humans
        return humans[0] if len(humans) == 1 and self.phase != "replay" else None
