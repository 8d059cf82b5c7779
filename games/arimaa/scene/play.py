"""Arimaa on the handheld (R-ARI-HH, issue 13): setup, turns entered step by step, clocks,
score, against the computer or two on one unit, records and their replay.

Every move goes through a `Match` with seats: the person at the unit is a `LocalSeat` (the
scene turns taps into a whole turn or a setup and offers it), the computer an
`ClockedSeat` around the firmware's computer seat, a stored record `ReplaySeat`s (through a
`ReplayCursor`). The steps of a turn in progress stay in
the scene (`draft`, a copy of the rules' game) until Done.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pygame

from firmware.game_api import THINKING_INDICATOR_TICKS, Game, GameContext, GameResult
from firmware.input import InputState
from firmware.match import LocalSeat, Match
from firmware.match.replay import ReplayCursor, replay_command
from firmware.match.seats import Seat
from firmware.scene import hit
from games.arimaa.ai.levels import DEFAULT_LEVEL, LEVELS
from games.arimaa.match import (
    ArimaaAction,
    ArimaaComputer,
    ArimaaRules,
    ClockedSeat,
    setup_action,
    turn_action,
)
from games.arimaa.records import RecordError, StoredGame, make_record, placement_of, read_record
from games.arimaa.records import rows_of as setup_rows
from games.arimaa.rules import Game as Engine
from games.arimaa.rules import IllegalStep
from games.arimaa.rules.board import HOME_RANKS, SETUP_COUNTS, parse_square, square_name
from games.arimaa.rules.clock import PRESETS, TICKS_PER_SECOND
from games.arimaa.rules.notation import step_tokens, write_record, write_short, write_turn
from games.arimaa.rules.position import NAMED_SETUPS, Position, named_setup, random_setup
from games.arimaa.rules.score import score
from games.arimaa.scene import help as helppages
from games.arimaa.scene import layout
from games.arimaa.scene import texts as tx
from games.arimaa.scene.animation import Fade, TurnAnimation
from games.arimaa.scene.bottom_view import (
    BottomView,
    draw_board,
    draw_message,
    draw_play_panel,
    draw_replay_panel,
    draw_result,
    draw_setup_panel,
)
from games.arimaa.scene.top_view import PlayerView, TopView, draw_top
from hal.interfaces import Button

STATE_VERSION = 1
MODES = ("cpu", "two")
SIDE_LETTER = "gs"
SETUP_NAMES = {name.replace(" ", "-"): name for name in NAMED_SETUPS}


def control_of(choice: str) -> str | None:
    """The time-control notation for an option value (a preset name or the notation)."""
    return PRESETS.get(choice, choice)


class ArimaaScene(Game):
    """Play or (with `record`) replay one game of Arimaa."""

    uses_dpad = False  # the firmware cursor walks the squares and buttons; A taps
    draws_thinking = True  # "thinking..." in the computer's box, after half a second

    def __init__(self, ctx: GameContext, record: dict[str, Any] | None = None) -> None:
        super().__init__(ctx)
        opts = ctx.options
        self.mode = opts.get("mode", "cpu") if opts.get("mode") in MODES else "cpu"
        # A versus match over the peer link (the firmware's link session), else None.
        self.versus: Any = getattr(ctx, "versus", None)
        level = opts.get("level", str(DEFAULT_LEVEL))
        self.level = int(level) if level.isdigit() and int(level) in LEVELS else DEFAULT_LEVEL
        self.human_side = 1 if opts.get("color") == "silver" else 0
        if self.versus is not None:
            self.mode, self.human_side = "link", int(self.versus.seat or 0)
        self.rotate = opts.get("rotate", "on") == "on"
        self.control = control_of(opts.get("clock", "casual"))
        setup_opt = opts.get("setup", "choose")
        self.setup_option = setup_opt if setup_opt in SETUP_NAMES else "choose"
        self._frames: dict[str, tuple[object, pygame.Surface]] = {}
        self._legal_memo: tuple[object, Any] | None = None
        self.last_rows: dict[int, tuple[str, str]] = self._remembered_rows()
        self.stored: StoredGame | None = None
        self.record_error: str | None = None
        self.replay: ReplayCursor[ArimaaAction] | None = None
        self.games_played = 0
        _warm_sprites()
        if record is not None:
            self._open_record(record)
        else:
            self._new_game()

    # ------------------------------------------------------------------ set-up
    def _seat_for(self, side: int) -> Seat[ArimaaAction]:
        if self.mode == "cpu" and side != self.human_side:
            return ClockedSeat(self.ctx.computer_seat(ArimaaComputer(self.level, self.ai_seed)))
        return LocalSeat[ArimaaAction]()

    def _new_game(self) -> None:
        if hasattr(self, "match"):
            for seat in self.match.seats:
                seat.close()
        self.ai_seed = self.ctx.rng.randrange(2**31)
        self.rules = ArimaaRules.new(self.control)
        if self.versus is not None:
            # This unit's player is a local seat, the partner's a remote seat fed by the link.
            self.match: Match[ArimaaAction] = Match(self.rules, self.versus.make_seats())
            self.versus.attach(self.match)
        else:
            self.match = Match(self.rules, [self._seat_for(0), self._seat_for(1)])
        self._reset_view()

    def _reset_view(self) -> None:
        self.draft: Engine | None = None
        self.draft_steps: list[tuple[int, int]] = []
        self.selected: int | None = None
        self.drag_from: int | None = None
        self.arrangement: dict[int, dict[int, int]] = {}
        self.setup_sel: int | None = None
        self.random_count = 0
        self.notice: str | None = None  # an engine reason (Done refused) shown until the next act
        self.anim: TurnAnimation | None = None
        self.fades: list[Fade] = []
        self.help_page: int | None = None
        self.resign_armed = False
        self.reported = False
        self._legal_memo = None

    def _open_record(self, data: dict[str, Any]) -> None:
        self.ai_seed = 0
        self._record_data = data
        try:
            self.stored = read_record(data)
        except RecordError as exc:
            self.stored, self.record_error = None, str(exc)
        control = self.stored.control if self.stored else None
        actions = list(self.stored.actions) if self.stored else []
        self.replay = ReplayCursor(lambda: ArimaaRules.new(control), actions)
        self._adopt_replay()
        self._reset_view()

    def _adopt_replay(self) -> None:
        assert self.replay is not None
        self.match = self.replay.match
        rules = self.match.rules
        assert isinstance(rules, ArimaaRules)
        self.rules = rules

    @property
    def replay_index(self) -> int:
        return self.replay.index if self.replay is not None else 0

    @property
    def is_replay(self) -> bool:
        return self.replay is not None

    def _remembered_rows(self) -> dict[int, tuple[str, str]]:
        """Each colour's last setup made by a person, from the newest stored records."""
        out: dict[int, tuple[str, str]] = {}
        for record in self.ctx.records():
            humans, setups = record.get("humans"), record.get("setups")
            if not isinstance(humans, list) or not isinstance(setups, list):
                continue
            for side, rows in enumerate(setups[:2]):
                if side < len(humans) and humans[side] and side not in out:
                    try:
                        placement_of(side, rows)
                    except (ValueError, TypeError):
                        continue
                    out[side] = (str(rows[0]), str(rows[1]))
        return out

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> Engine:
        return self.rules.game

    @property
    def phase(self) -> str:
        if self.game.result is not None:
            return "over"
        return "setup" if self.game.in_setup else "play"

    def seat_kind(self, side: int) -> str:
        return self.match.seat_kind(side)

    def local_to_move(self) -> bool:
        seat = self.match.to_move
        return (
            seat is not None and not self.is_replay and self.seat_kind(seat) == "local"
            and self.anim is None
        )

    @property
    def thinking(self) -> bool:
        seat = self.match.to_move
        return seat is not None and not self.is_replay and self.seat_kind(seat) == "computer"

    def thinking_ticks(self) -> int:
        seat = self.match.to_move
        if seat is None or not self.thinking or self.anim is not None:
            return 0
        return int(getattr(self.match.seats[seat], "calls", 0))

    def bottom_side(self) -> int:
        if self.mode in ("cpu", "link"):
            return self.human_side
        if not self.rotate:
            return 0
        if self.anim is not None:
            return 1 - self.game.side_to_move
        return self.game.side_to_move if self.game.result is None else 0

    def _draft(self) -> Engine:
        if self.draft is None:
            self.draft = self.game.copy()
            for frm, to in self.draft_steps:
                self.draft.step(frm, to)
        return self.draft

    def _legal(self) -> dict[int, dict[int, Any]]:
        """from -> {to: step} for the draft's legal steps (memoised per draft state)."""
        key = (len(self.game.turns), tuple(self.draft_steps))
        if self._legal_memo is None or self._legal_memo[0] != key:
            table: dict[int, dict[int, Any]] = {}
            for step in self._draft().legal_steps():
                table.setdefault(step.frm, {})[step.to] = step
            self._legal_memo = (key, table)
        return self._legal_memo[1]

    # ------------------------------------------------------------------ input
    def hotspots(self) -> dict[str, pygame.Rect]:
        if self.is_replay:
            if self.stored is None:
                return {}
            return {f"button:{n}": r for n, r in layout.REPLAY_RECTS.items()}
        if self.help_page is not None:
            return helppages.hotspots()
        if self.phase == "over" and self.anim is None:
            if self.versus is not None:
                return {"button:back": layout.BACK_RECT}
            return {"button:play-again": layout.PLAY_AGAIN_RECT, "button:back": layout.BACK_RECT}
        side = self.bottom_side()
        spots = {f"square:{square_name(sq)}": layout.square_rect(sq, side) for sq in range(64)}
        if self.phase == "setup":
            spots.update({f"choice:{n}": r for n, r in layout.SETUP_RECTS.items()})
            spots["button:ok"] = layout.OK_RECT
        else:
            spots["button:undo"] = layout.UNDO_RECT
            spots["button:done"] = layout.DONE_RECT
            spots["button:resign"] = layout.RESIGN_RECT
            spots["button:help"] = layout.HELP_RECT
        return spots

    def update(self, inp: InputState) -> None:
        if self.is_replay:
            self._update_replay(inp)
            return
        spots = self.hotspots()
        name = hit(spots, inp)
        if name is not None:
            self._on_hotspot(name)
        elif inp.touch_up and inp.last_touch is not None and self.drag_from is not None:
            self._on_release(inp.last_touch.x, inp.last_touch.y)
        if inp.touch_up:
            self.drag_from = None
        if self.anim is not None and (name is not None or Button.A in inp.pressed):
            self.anim.tick = self.anim.total  # a tap or A skips the animation
        self._advance()

    def _on_hotspot(self, name: str) -> None:
        kind, _, arg = name.partition(":")
        if self.help_page is not None:
            self._on_help(arg)
            return
        if arg == "play-again":
            if self.versus is not None:
                return  # a versus match is not restarted alone (Back, or quit from the menu)
            self.games_played += 1
            self._new_game()
            return
        if arg == "back":
            for seat in self.match.seats:
                seat.close()
            self.ctx.quit()
            return
        if arg == "help" and self.phase != "setup":
            self.help_page = 0
            return
        if self.anim is not None or not self.local_to_move():
            return
        if self.phase == "setup":
            self._on_setup(kind, arg)
        elif kind == "square":
            self._on_square(parse_square(arg), tap=True)
        elif arg == "undo":
            self._undo()
        elif arg == "done":
            self._done()
        elif arg == "resign":
            self._resign()

    def _on_help(self, arg: str) -> None:
        assert self.help_page is not None
        if arg == "close":
            self.help_page = None
        elif arg == "next" and self.help_page < len(tx.HELP_PAGES) - 1:
            self.help_page += 1
        elif arg == "prev" and self.help_page > 0:
            self.help_page -= 1

    def _on_release(self, x: int, y: int) -> None:
        """The end of a drag: a release on another square acts as a tap there."""
        for name, rect in self.hotspots().items():
            if name.startswith("square:") and rect.collidepoint(x, y):
                sq = parse_square(name.removeprefix("square:"))
                if sq != self.drag_from and self.local_to_move():
                    if self.phase == "setup":
                        self._on_setup("square", name.removeprefix("square:"), drag=True)
                    else:
                        self._on_square(sq, tap=False)
                return

    # ------------------------------------------------------------------ setup phase
    def _arrangement(self, side: int) -> dict[int, int]:
        if side not in self.arrangement:
            rows = self.last_rows.get(side)
            self.arrangement[side] = (
                placement_of(side, rows) if rows else named_setup(side, "default")
            )
        return self.arrangement[side]

    def _on_setup(self, kind: str, arg: str, drag: bool = False) -> None:
        side = self.game.side_to_move
        placement = self._arrangement(side)
        if kind == "choice":
            if arg in SETUP_NAMES:
                self.arrangement[side] = named_setup(side, SETUP_NAMES[arg])
            elif arg == "random":
                rng = random.Random(f"{self.ctx.seed}:{self.ai_seed}:random:{self.random_count}")
                self.random_count += 1
                self.arrangement[side] = random_setup(side, rng)
            elif arg == "last" and side in self.last_rows:
                self.arrangement[side] = placement_of(side, self.last_rows[side])
            else:
                return
            self.setup_sel = None
            self.ctx.play("select")
        elif kind == "button" and arg == "ok":
            self._offer(setup_action(side, placement, self.rules.turn_used()))
        elif kind == "square":
            sq = parse_square(arg)
            if not HOME_RANKS[side] >> sq & 1:
                return
            if self.setup_sel is None:
                self.setup_sel = sq
                self.drag_from = sq
            elif self.setup_sel == sq:
                if not drag:
                    self.setup_sel = None
            else:
                a = self.setup_sel
                placement[a], placement[sq] = placement[sq], placement[a]
                self.setup_sel = None
                self.ctx.play("place")

    # ------------------------------------------------------------------ turn input
    def _on_square(self, sq: int, tap: bool) -> None:
        legal = self._legal()
        if self.selected is not None and sq in legal.get(self.selected, {}):
            self._step(self.selected, sq)
            return
        if not tap:
            return
        if sq == self.selected:
            self.selected = None
            return
        if sq in legal:
            self.selected = sq
            self.drag_from = sq
            self.notice = None
            self.resign_armed = False
            self.ctx.play("select")

    def _step(self, frm: int, to: int) -> None:
        step = self._draft().step(frm, to)
        self.draft_steps.append((frm, to))
        self.selected = None
        self.notice = None
        self.resign_armed = False
        if step.captured is not None:
            sq, side, kind = step.captured
            self.fades.append(Fade(sq, side, kind))
            self.ctx.play("pop")
        else:
            self.ctx.play("place")

    def _undo(self) -> None:
        if not self.draft_steps:
            return
        self._draft().undo_step()
        self.draft_steps.pop()
        self.selected = None
        self.notice = None
        self.resign_armed = False
        self.fades = []

    def _done(self) -> None:
        self.resign_armed = False
        ok, why = self._draft().can_end_turn()
        if not ok:
            self.notice = why
            self.ctx.play("error")
            return
        self._offer(turn_action(self.draft_steps, self.rules.turn_used()))

    def _resign(self) -> None:
        if not self.resign_armed:
            self.resign_armed = True
            return
        self._offer(ArimaaAction("resign", self.rules.turn_used()))

    def _offer(self, action: ArimaaAction) -> None:
        seat = self.match.to_move
        if seat is None:
            return
        source = self.match.seats[seat]
        assert isinstance(source, LocalSeat)
        source.offer(action)

    # ------------------------------------------------------------------ the tick
    def _advance(self) -> None:
        if self.anim is not None:
            self.anim.step()
            if self.anim.done:
                self.anim = None
        for fade in self.fades:
            fade.tick += 1
        self.fades = [f for f in self.fades if not f.done]
        if self.match.over:
            if not self.reported:
                self._report()
            return
        if self.anim is not None:
            return
        seat = self.match.to_move
        assert seat is not None
        if (
            self.phase == "setup" and self.setup_option != "choose"
            and self.seat_kind(seat) == "local"
        ):
            placement = named_setup(seat, SETUP_NAMES[self.setup_option])
            self._offer(setup_action(seat, placement, self.rules.turn_used()))
        self.rules.tick_clock(1)
        # Each unit's clock is authoritative for its own player: only the unit whose player
        # is to move declares the time out (in link mode the partner's unit does it for its).
        if self.rules.clock_ran_out() and self.seat_kind(seat) != "remote":
            self.match.seats[seat].cancel()
            events = self.match.submit(seat, ArimaaAction("flag", self.rules.turn_used()),
                                       self.seat_kind(seat))
        else:
            before = self.game.position.boards
            events = self.match.step()
            if events:
                self._after_action(seat, before, events)
        if self.match.over and not self.reported:
            self._report()
        elif self.match.last_refusal and not events:
            self.notice = self.match.last_refusal
            self.match.last_refusal = None

    def _after_action(self, seat: int, before: Any, events: list[dict[str, Any]]) -> None:
        kind = self.seat_kind(seat)
        steps = [(e["from"], e["to"], -1 if e["captured"] is None else e["captured"][0])
                 for e in events if e["type"] == "step"]
        setup = next((e for e in events if e["type"] == "setup"), None)
        if setup is not None and kind == "local":
            side = setup["seat"]
            self.last_rows[side] = setup_rows(side, self.game.setups[side])
        if steps and kind != "local":
            self.anim = TurnAnimation(before, steps)
            self.ctx.play("place")
        self.draft, self.draft_steps, self.selected = None, [], None
        self.setup_sel, self.notice, self.resign_armed = None, None, False
        self._legal_memo = None

    def _report(self) -> None:
        self.reported = True
        result = self.game.result
        assert result is not None
        names = self.names(lambda en, ja: en)
        outcome = None
        if self.mode in ("cpu", "link"):
            if result.winner is None:
                outcome = "draw"
            else:
                outcome = "win" if result.winner == self.human_side else "loss"
        actions = [(p.seat, p.data) for p in self.match.history]
        humans = (self.seat_kind(0) == "local", self.seat_kind(1) == "local")
        record = make_record(self.rules, actions, names, self.mode, humans)
        verdict = "draw" if result.winner is None else f"{names[result.winner]} wins"
        summary = f"{names[0]} v {names[1]}: {verdict} ({result.reason})"
        boards = self.game.position.boards
        mine = score(boards, self.human_side) if self.mode in ("cpu", "link") else None
        self.ctx.finish(GameResult(outcome, mine, summary, record))
        self.ctx.play("lose" if outcome == "loss" else "win")

    # ------------------------------------------------------------------ replay
    def _update_replay(self, inp: InputState) -> None:
        if self.anim is not None:
            self.anim.step()
            if self.anim.done:
                self.anim = None
        if self.stored is None or self.replay is None:
            return
        command = replay_command(hit(self.hotspots(), inp), inp)
        if command is not None:
            before = self.game.position.boards
            events = self.replay.go(command)
            steps = [(e["from"], e["to"], -1 if e["captured"] is None else e["captured"][0])
                     for e in events if e["type"] == "step"]
            self.anim = TurnAnimation(before, steps) if steps else None
        self._adopt_replay()

    # ------------------------------------------------------------------ texts
    def names(self, tr: tx.Tr) -> tuple[str, str]:
        if self.stored is not None:
            return self.stored.names
        out = []
        for side in (0, 1):
            if self.mode in ("cpu", "link") and side == self.human_side:
                out.append(tr(*tx.YOU))
            elif self.mode == "cpu":
                out.append(f"{tr(*tx.COMPUTER)} {tr(*tx.LEVEL)}{self.level}")
            elif self.mode == "link":
                partner = str(self.versus.partner_name() or "") if self.versus else ""
                out.append(partner or tx.side_name(tr, side))
            else:
                out.append(tx.side_name(tr, side))
        return out[0], out[1]

    def message(self) -> tuple[str, bool]:
        """(text, warning) for the strip under the board."""
        tr = self.ctx.tr
        if self.record_error is not None:
            return tr(*tx.BAD_RECORD), True
        if self.notice is not None:
            return tr(*tx.REFUSALS.get(self.notice, (self.notice, self.notice))), True
        if self.is_replay or not self.local_to_move():
            return "", False
        if self.phase == "setup":
            return tr(*tx.SETUP_TIP), False
        draft = self._draft()
        if draft.pending_push >= 0:
            return tr(*tx.PUSH_TIP) + square_name(draft.pending_push), True
        if self.selected is not None:
            targets = self._legal().get(self.selected, {})
            if any(s.captured is not None for s in targets.values()):
                return tr(*tx.CAPTURE_WARN), True
        if draft.steps_left == 0:
            return tr(*tx.FOUR_DONE), False
        pulls = [s for moves in self._legal().values() for s in moves.values()
                 if s.role == "pull"]
        if pulls:
            return tr(*tx.PULL_TIP) + square_name(pulls[0].to), False
        return tr(*tx.SELECT_TIP), False

    def result_texts(self, tr: tx.Tr) -> tuple[str, str]:
        result = self.game.result
        assert result is not None
        if result.winner is None:
            return tr(*tx.DRAW), tr(*tx.REASONS[result.reason])
        head = self.names(tr)[result.winner] if self.mode == "cpu" else tx.side_name(
            tr, result.winner)
        return head + tr(*tx.WINS), tr(*tx.REASONS.get(result.reason, (result.reason,) * 2))

    # ------------------------------------------------------------------ drawing
    def shown_boards(self) -> Any:
        if self.anim is not None:
            return self.anim.frame()[0]
        if self.phase == "setup" and self.local_to_move():
            side = self.game.side_to_move
            placement = self._arrangement(side)
            boards = list(self.game.position.boards)
            for sq, kind in placement.items():
                boards[6 * side + kind] |= 1 << sq
            return tuple(boards)
        if self.draft is not None and self.draft_steps:
            return self.draft.boards
        return self.game.position.boards

    def bottom_view(self) -> BottomView:
        boards = self.shown_boards()
        side = self.bottom_side()
        fades = tuple(self.fades)
        if self.anim is not None:
            still, slide = self.anim.frame()
            fades = tuple(self.anim.fades)
            if slide is None:
                return BottomView(still, side, fades=fades)
            frm, to, t = slide
            piece = Position(still).piece_at(frm)
            assert piece is not None
            return BottomView(still, side, hidden=frozenset({frm}), fades=fades,
                             slide=(piece[0], piece[1], frm, to, t))
        if self.phase == "setup":
            sel = self.setup_sel if self.local_to_move() else None
            return BottomView(boards, side, selected=sel)
        last: frozenset[int] = frozenset()
        if self.game.turns:
            last = frozenset(sq for s in self.game.turns[-1] for sq in (s.frm, s.to))
        if self.phase != "play" or not self.local_to_move():
            frozen = self.game.frozen_squares() if self.phase == "play" else []
            return BottomView(boards, side, last=last, frozen=frozenset(frozen))
        draft = self._draft()
        legal = self._legal()
        targets = legal.get(self.selected, {}) if self.selected is not None else {}
        return BottomView(
            boards,
            side,
            selected=self.selected,
            targets=frozenset(targets),
            capture_targets=frozenset(t for t, s in targets.items() if s.captured is not None),
            movable=frozenset(legal),
            frozen=frozenset(draft.frozen_squares()),
            push_into=draft.pending_push,
            last=last if not self.draft_steps else frozenset(),
            fades=fades,
        )

    def clock_text(self, tr: tx.Tr, side: int) -> tuple[str, bool]:
        clock = self.game.clock
        if clock is None:
            return tr(*tx.CASUAL), False
        moving = self.game.result is None and self.game.side_to_move == side
        reserve = _mmss(clock.reserves[side])
        if moving:
            left = clock.remaining(side)
            turn = min(max(0, clock.control.move - clock.turn_used), left)
            return f"{tr(*tx.RESERVE)} {reserve} {tr(*tx.TURN)} {_mmss(turn)}", left < 10 * 60
        return f"{tr(*tx.RESERVE)} {reserve}", False

    def top_view(self, tr: tx.Tr) -> TopView:
        game = self.game
        names = self.names(tr)
        boards = game.position.boards
        captured = _captured(boards, game.setups)
        players = []
        for side in (0, 1):
            clock, low = self.clock_text(tr, side)
            to_move = game.result is None and game.side_to_move == side
            think = ""
            ticks = self.thinking_ticks() if to_move else 0
            if ticks >= THINKING_INDICATOR_TICKS:
                think = tr(*tx.THINKING) + "." * (1 + (ticks // 15) % 3)
            players.append(PlayerView(names[side], clock, low, score(boards, side),
                                      captured[side], to_move, think))
        if game.result is not None:
            right = ""
        elif game.in_setup:
            right = tx.side_name(tr, game.side_to_move) + tr(*tx.SETTING_UP)
        else:
            right = tx.side_name(tr, game.side_to_move) + tr(*tx.TO_MOVE)
        title = "Arimaa"
        if self.is_replay:
            total = len(self.stored.actions) if self.stored else 0
            title = f"{tr(*tx.REPLAY)} {self.replay_index}/{total}"
        elif game.result is None:
            title = f"Arimaa  {game.turn_label}"
        steps = ""
        if self.draft is not None and self.draft_steps:
            steps = write_turn(self.draft.turn_steps)
        left = self._draft().steps_left if self.phase == "play" and self.local_to_move() else 4
        label = f"{tr(*tx.STEPS)} {4 - left}/4"
        if self.phase == "setup":
            label, steps = tr(*tx.SETUP), tr(*tx.SETUP_ORDER)
        moves = tuple(write_record(game).splitlines()) if game.setups else ()
        message = ""
        if game.result is not None:
            head, reason = self.result_texts(tr)
            message = f"{head}: {reason}"
        return TopView(title, right, (players[0], players[1]), label, steps, moves, message,
                       tr(*tx.SCORE))

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.ctx.tr
        view = self.top_view(tr)
        self._cached(top, "top", (self.ctx.language, view), lambda s: draw_top(s, view))
        if self.help_page is not None:
            page = self.help_page
            self._cached(bottom, "bottom", ("help", page, self.ctx.language),
                         lambda s: helppages.draw_help(s, tr, page))
            return
        board = self.bottom_view()
        message, warn = self.message()
        still = self.anim is None and not board.fades
        key = (self.ctx.language, board, message, self.phase, self.local_to_move(),
               self.resign_armed, self.replay_index, self.last_rows.get(self.game.side_to_move)
               is not None) if still else None
        self._cached(bottom, "bottom", key, lambda s: self._draw_bottom(s, board, message, warn))


    def _draw_bottom(self, surf: pygame.Surface, board: BottomView, message: str, warn: bool
                     ) -> None:
        tr = self.ctx.tr
        draw_board(surf, board)
        draw_message(surf, message, warn)
        if self.is_replay:
            total = len(self.stored.actions) if self.stored else 0
            draw_replay_panel(surf, self.replay_index == 0, self.replay_index >= total)
            return
        if self.phase == "setup":
            draw_setup_panel(surf, tr, self.game.side_to_move in self.last_rows)
            return
        mover = self.game.side_to_move if self.local_to_move() else None
        draft = self._draft() if mover is not None else None
        draw_play_panel(
            surf, tr,
            draft.steps_left if draft is not None else 4,
            bool(self.draft_steps),
            draft is not None and draft.can_end_turn()[0],
            mover if self.phase == "play" else None,
            self.resign_armed,
        )
        if self.phase == "over" and self.anim is None:
            head, reason = self.result_texts(tr)
            draw_result(surf, tr, head, reason, again=self.versus is None)

    def _cached(self, surf: pygame.Surface, slot: str, key: object,
                draw: Callable[[pygame.Surface], None]) -> None:
        """Draw, or copy the last picture when nothing it shows has changed."""
        cached = self._frames.get(slot)
        if key is not None and cached is not None and cached[0] == key:
            surf.blit(cached[1], (0, 0))
            return
        draw(surf)
        if key is not None:
            self._frames[slot] = (key, surf.copy())

    # ------------------------------------------------------------------ dump & state
    def dump(self) -> dict[str, Any]:
        game = self.game
        result = game.result
        clocks = None
        if game.clock is not None:
            clocks = {
                SIDE_LETTER[s]: {"reserve": game.clock.reserves[s],
                                 "turn_used": game.clock.turn_used if game.side_to_move == s
                                 and result is None else 0}
                for s in (0, 1)
            }
        boards = game.position.boards
        legal = self._legal() if self.phase == "play" and self.local_to_move() else {}
        message, _warn = self.message()
        out: dict[str, Any] = {
            "phase": self.phase,
            "side": SIDE_LETTER[game.side_to_move] if result is None else None,
            "position": write_short(Position(self.shown_boards() if self.anim is None
                                             and self.phase == "play" else boards)),
            "steps": [tok for s in (self.draft.turn_steps if self.draft else [])
                      for tok in step_tokens(s)] if self.draft_steps else [],
            "record": write_record(game).splitlines() if game.setups else [],
            "winner": None if result is None or result.winner is None
            else SIDE_LETTER[result.winner],
            "reason": None if result is None else result.reason,
            "clocks": clocks,
            "score": {"g": score(boards, 0), "s": score(boards, 1)},
            "mode": "replay" if self.is_replay else self.mode,
            "level": self.level if self.mode == "cpu" else None,
            "seat": SIDE_LETTER[self.human_side] if self.mode == "link" else None,
            "selected": None if self.selected is None else square_name(self.selected),
            "targets": sorted(square_name(t) for t in legal.get(self.selected, {}))
            if self.selected is not None else [],
            "movable": sorted(square_name(sq) for sq in legal),
            "frozen": sorted(square_name(sq) for sq in self._frozen()),
            "pending_push": None if self.draft is None or self.draft.pending_push < 0
            else square_name(self.draft.pending_push),
            "message": message,
            "animating": self.anim is not None,
            "thinking": self.thinking,
            "help": self.help_page,
        }
        if self.phase == "setup" and self.local_to_move():
            side = game.side_to_move
            out["setup"] = list(setup_rows(side, self._arrangement(side)))
            out["setup_selected"] = None if self.setup_sel is None else square_name(self.setup_sel)
        if self.is_replay:
            out["replay"] = {"index": self.replay_index,
                             "total": len(self.stored.actions) if self.stored else 0}
        return out

    def _frozen(self) -> list[int]:
        if self.phase != "play":
            return []
        return (self._draft() if self.local_to_move() else self.game).frozen_squares()

    def save_state(self) -> dict[str, Any]:
        if self.is_replay:
            return {"version": STATE_VERSION, "kind": "replay",
                    "record": self._record_data, "index": self.replay_index}
        return {
            "version": STATE_VERSION,
            "kind": "play",
            "mode": self.mode,
            "level": self.level,
            "human_side": self.human_side,
            "ai_seed": self.ai_seed,
            "match": self.match.save(),
            "draft_steps": [list(s) for s in self.draft_steps],
            "selected": self.selected,
            "arrangement": {str(side): list(setup_rows(side, p))
                            for side, p in self.arrangement.items()},
            "setup_sel": self.setup_sel,
            "random_count": self.random_count,
            "notice": self.notice,
            "anim": None if self.anim is None else self.anim.to_json(),
            "fades": [f.to_json() for f in self.fades],
            "help": self.help_page,
            "resign_armed": self.resign_armed,
            "reported": self.reported,
            "last_rows": {str(s): list(r) for s, r in self.last_rows.items()},
            "games_played": self.games_played,
        }

    _record_data: dict[str, Any] | None = None

    def load_state(self, state: dict[str, Any]) -> None:
        try:
            if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
                raise ValueError("unknown version")
            if state["kind"] == "replay":
                self._open_record(state["record"])
                if self.replay is not None:
                    self.replay.seek(int(state["index"]))
                    self._adopt_replay()
                return
            self._load_play(state)
        except (KeyError, TypeError, ValueError, IllegalStep) as exc:
            raise ValueError(f"not an Arimaa save: {exc}") from None

    def _load_play(self, state: dict[str, Any]) -> None:
        mode, level, human = state["mode"], int(state["level"]), int(state["human_side"])
        if mode not in MODES or level not in LEVELS or human not in (0, 1):
            raise ValueError("bad mode, level or side")
        self.mode, self.level, self.human_side = mode, level, human
        self.ai_seed = int(state["ai_seed"])
        for seat in self.match.seats:
            seat.close()
        self.rules = ArimaaRules.new(self.control)
        self.match = Match(self.rules, [self._seat_for(0), self._seat_for(1)])
        self.match.load(state["match"])
        rules = self.match.rules
        assert isinstance(rules, ArimaaRules)
        self.rules = rules
        self._reset_view()
        self.draft_steps = [(int(a), int(b)) for a, b in state["draft_steps"]]
        self._draft()  # replays the steps: raises on anything illegal
        sel = state["selected"]
        self.selected = None if sel is None else int(sel)
        self.arrangement = {}
        for side_text, rows in dict(state["arrangement"]).items():
            side = int(side_text)
            placement = placement_of(side, rows)
            counts = [list(placement.values()).count(k) for k in range(6)]
            if counts != list(SETUP_COUNTS):
                raise ValueError("bad arrangement")
            self.arrangement[side] = placement
        self.setup_sel = None if state["setup_sel"] is None else int(state["setup_sel"])
        self.random_count = int(state["random_count"])
        self.notice = state["notice"]
        self.anim = None if state["anim"] is None else TurnAnimation.from_json(state["anim"])
        self.fades = [Fade.from_json(f) for f in state["fades"]]
        self.help_page = None if state["help"] is None else int(state["help"])
        self.resign_armed = bool(state["resign_armed"])
        self.reported = bool(state["reported"])
        self.last_rows = {int(s): (str(r[0]), str(r[1]))
                          for s, r in dict(state["last_rows"]).items()}
        self.games_played = int(state["games_played"])


def _mmss(ticks: int) -> str:
    seconds = max(0, ticks) // TICKS_PER_SECOND
    return f"{seconds // 60}:{seconds % 60:02d}"


def _captured(boards: Any, setups: list[dict[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each side's pieces no longer on the board (after its setup), strongest first."""
    out: list[tuple[int, ...]] = []
    for side in (0, 1):
        if side >= len(setups):
            out.append(())
            continue
        lost = []
        for kind in range(5, -1, -1):
            missing = SETUP_COUNTS[kind] - boards[6 * side + kind].bit_count()
            lost.extend([kind] * missing)
        out.append(tuple(lost))
    return out[0], out[1]


def _warm_sprites() -> None:
    """Draw every piece and square picture once at game start (where a pause is invisible),
    so the first swap or step does not pay for it."""
    from games.arimaa.scene import sprites

    for side in (0, 1):
        for kind in range(6):
            for size in (12, 16, 20):
                sprites.piece(side, kind, size)
    for trap in (False, True):
        sprites.square(trap, layout.SQ)
