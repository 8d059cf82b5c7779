"""Panel Link behind the match protocol (issue 10): the engine's turn machine as `MatchRules`.

Seats: player indices 0..n-1 (0 blue, 1 red, ...), the engine's own numbering.

Actions: every action the turn machine accepts (`Select`, `Place`, `Rotate`, `Back`,
`Determine`, `UseItem`, `Pass`), plus `Fix`: one whole determined placement (stock card,
square, clockwise turns) applied as Select, Place, Rotate x turns, Determine in one step.
Against the computer and with two players on one unit, every step of a turn is a match
action (records and replays show the provisional placement and its rotations). Between
linked units the provisional steps stay on the mover's unit and only the determined
placement travels, as a `Fix` (R-PAN-TURN-6); items and passes travel as themselves. A
`Fix` is legal only while no card is provisionally placed, so the two styles never mix
within one step.

Wire encoding: ASCII text, a letter, the player digit, then comma-separated decimal fields
(no leading zeros, `-` only on a renumber delta, empty for an absent item target):

    S<p>,<stock>        P<p>,<row>,<col>     R<p>   B<p>   D<p>   X<p> (pass)
    U<p>,<slot>,<row>,<col>,<delta>,<stock>  (absent fields empty: "U0,1,,,,3")
    F<p>,<stock>,<row>,<col>,<turns>

Rows, columns and every other field are below 100, so the longest form, a renumber
`U3,2,99,99,-1,4`, is 15 bytes (limit: MAX_ACTION_BYTES = 48).

Digest: `canonical_digest` of `GameState.to_json()`: the config (seed, target, rules), the
field, every player's stock, items and score, the stream indices, selection, provisional
placement, last yaku and the result: the whole rules state.

Events: the engine's event dicts with their `"event"` name copied to `"type"` (selected,
provisional, rotated, taken_back, deselected, item_used, passed, fixed with its yaku and
points, item_earned, removed, game_over); a `Fix` gives selected, provisional, rotated...
then fixed, exactly as the steps would.
"""

from __future__ import annotations

import random
import re
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any, Self

from firmware.match import ActionError, Event, MatchResult, canonical_digest
from games.panels.ai.player import LEVELS, plan_turn
from games.panels.rules import (
    Action,
    Back,
    Determine,
    GameConfig,
    GameState,
    IllegalAction,
    Pass,
    Place,
    Rotate,
    Select,
    UseItem,
)

GAME_ID = "panels"


@dataclass(frozen=True, slots=True)
class Fix:
    """A whole determined placement: stock card `stock` on `square`, turned `turns` times."""

    player: int
    stock: int
    square: tuple[int, int]
    turns: int

    def steps(self) -> list[Action]:
        return [
            Select(self.player, self.stock),
            Place(self.player, self.square),
            *[Rotate(self.player)] * self.turns,
            Determine(self.player),
        ]


MatchAction = Action | Fix

_NUM = r"(0|[1-9][0-9]?)"
_OPT = r"(0|[1-9][0-9]?)?"
_PATTERNS: dict[str, re.Pattern[str]] = {
    "S": re.compile(rf"S([0-9]),{_NUM}"),
    "P": re.compile(rf"P([0-9]),{_NUM},{_NUM}"),
    "R": re.compile(r"R([0-9])"),
    "B": re.compile(r"B([0-9])"),
    "D": re.compile(r"D([0-9])"),
    "X": re.compile(r"X([0-9])"),
    "U": re.compile(rf"U([0-9]),{_NUM},{_OPT},{_OPT},(-1|1)?,{_OPT}"),
    "F": re.compile(rf"F([0-9]),{_NUM},{_NUM},{_NUM},([0-3])"),
}
_SIMPLE: dict[type[Rotate | Back | Determine | Pass], str] = {
    Rotate: "R",
    Back: "B",
    Determine: "D",
    Pass: "X",
}
_SIMPLE_BY_LETTER = {v: k for k, v in _SIMPLE.items()}


def _field(value: int | None) -> str:
    return "" if value is None else str(value)


def encode_action(action: MatchAction) -> bytes:
    """The wire form of an action (see the module docstring)."""
    p = action.player
    if isinstance(action, Fix):
        r, c = action.square
        text = f"F{p},{action.stock},{r},{c},{action.turns}"
    elif isinstance(action, Select):
        text = f"S{p},{action.stock}"
    elif isinstance(action, Place):
        text = f"P{p},{action.square[0]},{action.square[1]}"
    elif isinstance(action, UseItem):
        row: int | None = None
        col: int | None = None
        if action.square is not None:
            row, col = action.square
        text = (
            f"U{p},{action.slot},{_field(row)},{_field(col)},{_field(action.delta)},"
            f"{_field(action.stock)}"
        )
    else:
        text = f"{_SIMPLE[type(action)]}{p}"
    return text.encode("ascii")


def decode_action(data: bytes) -> MatchAction:
    """Parse a wire form; ActionError with the reason for anything malformed."""
    try:
        text = bytes(data).decode("ascii")
    except UnicodeDecodeError:
        raise ActionError("a Panel Link action is ASCII text") from None
    pattern = _PATTERNS.get(text[:1])
    match = pattern.fullmatch(text) if pattern is not None else None
    if match is None:
        raise ActionError(f"not a Panel Link action: {text[:20]!r}")
    g = [None if v is None or v == "" else int(v) for v in match.groups()]

    def num(i: int) -> int:
        value = g[i]
        assert value is not None  # the pattern requires this field
        return value

    letter, p = text[0], num(0)
    if letter == "S":
        return Select(p, num(1))
    if letter == "P":
        return Place(p, (num(1), num(2)))
    if letter == "F":
        return Fix(p, num(1), (num(2), num(3)), num(4))
    if letter == "U":
        if (g[2] is None) != (g[3] is None):
            raise ActionError("an item's square needs both a row and a column")
        square = None if g[2] is None else (num(2), num(3))
        return UseItem(p, num(1), square, g[4], g[5])
    return _SIMPLE_BY_LETTER[letter](p)


def events_of(engine_events: list[dict[str, Any]]) -> list[Event]:
    return [{"type": e["event"], **e} for e in engine_events]


class PanelsRules:
    """A Panel Link game as `MatchRules[MatchAction]`; `state` is the engine for the scene."""

    game_id: str = GAME_ID

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.seats = state.config.players  # fixed for the game

    @classmethod
    def new(cls, config: GameConfig) -> PanelsRules:
        return cls(GameState.new(config))

    def to_move(self) -> int | None:
        return None if self.state.over else self.state.current

    def legal_actions(self) -> Sequence[MatchAction]:
        """The turn machine's legal steps plus one `Fix` per distinct complete placement."""
        st = self.state
        if st.over:
            return []
        out: list[MatchAction] = list(st.legal_actions())
        if st.provisional is None:
            p = st.current
            out += [Fix(p, s, st.field.square(i), t) for s, i, t in st.placements(p)]
        return out

    def check(self, seat: int, action: MatchAction) -> str | None:
        st = self.state
        if st.over:
            return "the game is over"
        if seat != st.current:
            return f"it is player {st.current + 1}'s turn, not player {seat + 1}'s"
        player = getattr(action, "player", None)
        if player != seat:
            return "the action names another player"
        if isinstance(action, Fix):
            return self._check_fix(action)
        try:
            return st.check(action)
        except (TypeError, ValueError, IndexError) as exc:  # a malformed value
            return f"malformed action: {exc}"

    def _check_fix(self, fix: Fix) -> str | None:
        st = self.state
        if st.provisional is not None:
            return "a card is provisionally placed (determine it or take it back)"
        if not 0 <= fix.turns < 4:
            return "a placement turns a card 0-3 times"
        if not 0 <= fix.stock < len(st.players[st.current].stock):
            return f"no stock card {fix.stock + 1}"
        trial = st.copy()
        trial.selected = fix.stock
        return trial.check(Place(fix.player, fix.square))

    def apply(self, seat: int, action: MatchAction) -> list[Event]:
        reason = self.check(seat, action)
        if reason is not None:
            raise ActionError(reason)
        steps = action.steps() if isinstance(action, Fix) else [action]
        trial = self.state.copy() if len(steps) > 1 else self.state
        if isinstance(action, Fix):
            trial.selected = None  # a Fix brings its own selection
        out: list[dict[str, Any]] = []
        try:
            for step in steps:
                out += trial.apply(step)
        except IllegalAction as exc:  # check() vouched for it; nothing adopted on a surprise
            raise ActionError(str(exc)) from None
        self.state = trial
        return events_of(out)

    def result(self) -> MatchResult | None:
        st = self.state
        if not st.over:
            return None
        scores = tuple(p.score for p in st.players)
        ranking = tuple(sorted(range(len(scores)), key=lambda s: (-scores[s], s)))
        return MatchResult(
            st.winner,
            st.end_reason or "",
            ranking=ranking,
            scores=scores,
            draw=st.winner is None,
        )

    def digest(self) -> str:
        return canonical_digest(self.state.to_json())

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Self:
        return cls(GameState.from_json(data))

    def encode(self, action: MatchAction) -> bytes:
        return encode_action(action)

    def decode(self, data: bytes) -> MatchAction:
        return decode_action(data)


# ------------------------------------------------------------------------ the computer
UNITS_PER_TICK = 3_000  # about 3 ms of planning per in-loop tick (units: ~1 us, see ai)
STEP_UNITS = 1  # a later step of a planned turn costs nothing more


def turn_key(state: GameState) -> tuple[int, int]:
    """Which turn of the game this is: the mover and the number of turns begun in all."""
    return state.current, sum(p.turns for p in state.players)


def next_step(state: GameState, plan: list[Action]) -> Action | None:
    """The plan's next action given how far the turn has got, or None if the state has left
    the plan (then it is planned again)."""
    p = state.current
    stock = -1
    for action in plan:
        if isinstance(action, UseItem):
            if not state.item_used:
                return action
            continue
        if isinstance(action, Pass):
            return action
        if isinstance(action, Select):
            stock = action.stock
            continue
        if isinstance(action, Place):
            square = action.square
            turns = sum(isinstance(a, Rotate) for a in plan)
            if state.selected != stock:
                return Select(p, stock)
            if state.provisional is None or state.provisional[0] != square:
                return Place(p, square)
            if state.provisional[1] != turns:
                return Rotate(p)
            return Determine(p)
    return None


def turn_begun(state: GameState) -> bool:
    """True once the mover has done something this turn (used an item, selected a card)."""
    return state.item_used or state.selected is not None or state.provisional is not None


class PanelsThinker:
    """One decision: plan the turn in slices (or reuse this turn's plan), then one step.

    `units` is the work the decision is charged: the whole plan's for the turn's first
    step, `STEP_UNITS` for the later ones, whether or not the plan had to be computed again
    (a worker process, or a resume, has no cached plan): so the tick a step is played at
    is the same in every mode."""

    def __init__(self, owner: PanelsComputer, state: GameState) -> None:
        self.owner = owner
        self.state = state
        self.key = turn_key(state)
        self.charged = not turn_begun(state)
        plan = owner.plans.get(self.key)
        self.work: Generator[int, None, list[Action]] | None = None
        self.plan: list[Action] | None = plan
        self.spent = 0
        if plan is None:
            start = state.copy()
            start.selected, start.provisional = None, None
            self.work = plan_turn(start, owner.level, owner.rng_for(state))

    @property
    def units(self) -> int:
        return self.spent if self.charged else STEP_UNITS

    def think(self, budget: int) -> MatchAction | None:
        if self.plan is None:
            assert self.work is not None
            done_now = 0
            while done_now < budget or not self.charged:
                try:
                    step = next(self.work)
                except StopIteration as done:
                    self.plan = list(done.value)
                    self.owner.remember(self.key, self.plan)
                    break
                done_now += step
                self.spent += step
            if self.plan is None:
                return None
        action = next_step(self.state, self.plan)
        if action is None or self.state.check(action) is not None:
            self.owner.plans.pop(self.key, None)  # off plan: start again from here
            self.plan, self.work = None, plan_turn(self.state.copy(), self.owner.level,
                                                   self.owner.rng_for(self.state))
            return None
        return action


class PanelsComputer:
    """The computer player at one level (1-4) for the match layer's computer seat.

    Each step of its turn (item, select, place, each rotation, determine) is one action, so
    the player can follow it. The whole turn is planned once, sliced over ticks
    (`UNITS_PER_TICK` units each); later steps reuse the plan. The plan depends only on the
    state at the start of the turn (selection and provisional card cleared), the level, the
    seed and the turn number, so a later step computed afresh (in a worker process, or after
    a resume: `warm` recomputes it outside the ticks) finds the same plan. Picklable.
    """

    units_per_tick = UNITS_PER_TICK

    def __init__(self, level: int, seed: int) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level} (levels are {LEVELS[0]}-{LEVELS[-1]})")
        self.level, self.seed = level, seed
        self.plans: dict[tuple[int, int], list[Action]] = {}

    def rng_for(self, state: GameState) -> random.Random:
        mover, turns = turn_key(state)
        return random.Random(f"panels-cpu/{self.seed}/{self.level}/{mover}/{turns}")

    def remember(self, key: tuple[int, int], plan: list[Action]) -> None:
        self.plans = {key: plan}  # only the current turn's plan is ever needed

    def start(self, rules: Any, seat: int) -> PanelsThinker:
        assert isinstance(rules, PanelsRules)
        return PanelsThinker(self, rules.state)

    def warm(self, rules: PanelsRules) -> None:
        """After a resume in the middle of this player's turn, plan it again at once."""
        st = rules.state
        if st.over or turn_key(st) in self.plans:
            return
        if not turn_begun(st):
            return  # the turn has not begun: it is planned in slices as usual
        thinker = PanelsThinker(self, st)
        while thinker.plan is None:
            thinker.think(10_000)
