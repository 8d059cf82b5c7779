"""Computer player: picks a whole turn (optional item, card, square, rotation) with levels.

It sees only what a player sees: the field, scores, its own stock and items, and the
opponents' stock sizes. It never reads the card stream ahead. Every level is deterministic
for the `random.Random` passed in (used only to break ties), and its work is bounded by the
number of candidate placements (stock cards x permitted squares x distinct rotations), so it
is replayable.

Levels:
1. random legal placement;
2. greedy: the placement scoring the most points now (ties at random);
3. points plus position: every candidate scored as points + shape value (open connectors
   that can still be joined, dead connectors that make a perfect impossible, the size of the
   group it grows), + blocking (taking squares that opponent connectors face, weighted by
   the size of the opponent group behind them) - what it leaves (a rainbow card placed
   next to opponent cards opens squares and groups for them);
4. level 3 plus a plan and items: the best 8 candidates are re-ranked by adding half the
   points the rest of its stock could score next turn on the field they leave (the unknown
   next draw is ignored); before placing, it tries each held item on a bounded set of
   targets (cards next to empty squares) and uses the one that most improves its best
   placement (reshuffle when no placement scores).
"""

from __future__ import annotations

import random
from collections.abc import Generator

from games.panels.rules import items as it
from games.panels.rules.actions import Action, Determine, Pass, Place, Rotate, Select, UseItem
from games.panels.rules.cards import OPPOSITE, RAINBOW, Card, rotate_bits
from games.panels.rules.combination import evaluate
from games.panels.rules.game import GameState

LEVELS: tuple[int, ...] = (1, 2, 3, 4)
MAX_ITEM_OPTIONS = 16
LOOKAHEAD_WIDTH = 8  # level 4: candidates re-ranked by the next turn's best points
LOOKAHEAD_WEIGHT = 0.5  # the opponent may block it, so a planned yaku counts half

Candidate = tuple[int, int, int]  # stock index, square index, clockwise turns
# Work is yielded in units of about a microsecond of the development machine (issue 18):
EVAL_UNITS = 7  # one candidate placement evaluated (yaku found, position weighed)
LIST_UNITS = 270  # the candidate list of a whole stock (worst case: an empty 8x8 field)
Work = Generator[int, None, float]


def choose_turn(state: GameState, level: int, rng: random.Random) -> list[Action]:
    """The actions of the current player's whole turn, ending in Determine (or a Pass)."""
    steps = plan_turn(state, level, rng)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return list(done.value)


def plan_turn(
    state: GameState, level: int, rng: random.Random
) -> Generator[int, None, list[Action]]:
    """`choose_turn` as work: it yields the units of every step (a candidate evaluated, a
    candidate list made), so a caller can spread the thinking over ticks (the match layer's
    computer seat); the result does not depend on how it is sliced. `state` is unchanged."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}: {level}")
    if state.over:
        return []
    player = state.current
    actions: list[Action] = []
    work = state
    if level >= 4 and state.players[player].items and not state.item_used:
        item = yield from _choose_item(state, player)
        if item is not None:
            actions.append(item)
            work = state.copy()
            work.apply(item)
    move = yield from _choose_placement(work, player, level, rng)
    if move is None:
        return [*actions, Pass(player)]
    stock, square, turns = move
    actions += [Select(player, stock), Place(player, work.field.square(square))]
    actions += [Rotate(player)] * turns
    actions.append(Determine(player))
    return actions


def _candidates(state: GameState, player: int) -> list[Candidate]:
    seen: set[tuple[Card, int, int]] = set()
    out = []
    for stock, square, turns in state.placements(player):
        card = state.players[player].stock[stock]
        key = (card, square, rotate_bits(card.connectors, turns))
        if key not in seen:  # identical cards in the stock are tried once
            seen.add(key)
            out.append((stock, square, turns))
    return out


def _choose_placement(
    state: GameState, player: int, level: int, rng: random.Random
) -> Generator[int, None, Candidate | None]:
    cands = _candidates(state, player)
    yield LIST_UNITS
    if not cands:
        return None
    if level == 1:
        return rng.choice(cands)
    scored = []
    for cand in cands:
        scored.append((_value(state, player, cand, positional=level >= 3), cand))
        yield EVAL_UNITS
    if level >= 4:
        scored = yield from _look_ahead(state, player, scored)
    best_value = max(value for value, _ in scored)
    return rng.choice([cand for value, cand in scored if value >= best_value - 1e-9])


def _look_ahead(
    state: GameState, player: int, scored: list[tuple[float, Candidate]]
) -> Generator[int, None, list[tuple[float, Candidate]]]:
    """Re-rank the best LOOKAHEAD_WIDTH candidates by what the rest of the stock can score
    next turn on the field they leave (the one unknown draw is ignored)."""
    ranked = sorted(scored, key=lambda vc: -vc[0])[:LOOKAHEAD_WIDTH]
    out = []
    for value, cand in ranked:
        if value >= 10_000.0:  # a winning placement needs no plan
            out.append((value, cand))
            continue
        stock, square, turns = cand
        trial = state.copy()
        trial.field.cells[square] = trial.players[player].stock[stock].rotated(turns)
        del trial.players[player].stock[stock]
        trial.players[player].turns += 1  # next turn: adjacency rules apply
        follow = []
        later = _candidates(trial, player)
        yield LIST_UNITS
        for c in later:
            follow.append(_points(trial, player, c)[0])
            yield EVAL_UNITS
        out.append((value + LOOKAHEAD_WEIGHT * max(follow, default=0), cand))
    return out


def _points(state: GameState, player: int, cand: Candidate) -> tuple[int, Card]:
    stock, square, turns = cand
    card = state.players[player].stock[stock].rotated(turns)
    cells = state.field.cells
    cells[square] = card
    try:
        gained = sum(y.points for y in evaluate(state.field, square, player))
    finally:
        cells[square] = None
    return gained, card


def _value(state: GameState, player: int, cand: Candidate, positional: bool) -> float:
    gained, card = _points(state, player, cand)
    if not positional:
        return gained
    if state.players[player].score + gained >= state.config.target:
        return 10_000.0 + gained  # a winning placement beats everything
    return gained + _position(state, player, cand[1], card)


def _position(state: GameState, player: int, square: int, card: Card) -> float:
    fld = state.field
    cells = fld.cells
    value = 0.0
    mine = (player, RAINBOW)
    # shape: open connectors are future joins, dead ones spoil a perfect
    facing = {d: j for d, j in fld.neighbours[square]}
    for d in (1, 2, 4, 8):
        if not card.connectors & d:
            continue
        j = facing.get(d)
        if j is None:
            value -= 4.0
            continue
        other = cells[j]
        if other is None:
            value += 3.0
        elif other.owner in mine and card.owner in mine and other.connectors & OPPOSITE[d]:
            value += 1.0  # joined (already paid for in points)
        else:
            value -= 4.0
    # blocking: opponent connectors facing this square, weighted by their group size
    for d, j in fld.neighbours[square]:
        other = cells[j]
        if other is None or other.owner in mine:
            continue
        if other.connectors & OPPOSITE[d]:
            value += 4.0 + 2.0 * min(_group_size(state, j, other.owner), 5)
    # leaving: a rainbow card next to opponents opens squares and joins for them
    if card.owner == RAINBOW:
        for d, j in fld.neighbours[square]:
            other = cells[j]
            if other is not None and other.owner not in mine:
                value -= 6.0
                if card.connectors & d and other.connectors & OPPOSITE[d]:
                    value -= 10.0
        value -= 5.0  # rainbow cards are worth keeping for a better spot
    return value


def _group_size(state: GameState, index: int, owner: int) -> int:
    fld = state.field
    cells = fld.cells
    seen = {index}
    todo = [index]
    while todo and len(seen) < 6:
        i = todo.pop()
        card = cells[i]
        assert card is not None
        for d, j in fld.neighbours[i]:
            other = cells[j]
            if (
                j not in seen
                and other is not None
                and card.connectors & d
                and other.connectors & OPPOSITE[d]
                and other.owner in (owner, RAINBOW)
            ):
                seen.add(j)
                todo.append(j)
    return len(seen)


def _best_value(state: GameState, player: int) -> Work:
    values = []
    cands = _candidates(state, player)
    yield LIST_UNITS
    for c in cands:
        values.append(_value(state, player, c, positional=True))
        yield EVAL_UNITS
    return max(values, default=-100.0)


def _choose_item(state: GameState, player: int) -> Generator[int, None, UseItem | None]:
    """The item use that most improves the best placement value, if any is worth it."""
    base = yield from _best_value(state, player)
    options: list[UseItem] = []
    me = state.players[player]
    fld = state.field
    near_empty = [  # (index, card) of the cards next to an empty square
        (i, c)
        for i, c in enumerate(fld.cells)
        if c is not None and any(fld.cells[j] is None for _, j in fld.neighbours[i])
    ]
    for slot, kind in enumerate(me.items):
        if kind == it.RESHUFFLE:
            if base <= 0:
                return UseItem(player, slot)
        elif kind == it.PRISM:
            options += [
                UseItem(player, slot, stock=s) for s, c in enumerate(me.stock) if not c.rainbow
            ]
        elif kind == it.RENUMBER:
            options += [
                UseItem(player, slot, square=fld.square(i), delta=d)
                for i, card in near_empty
                if card.owner in (player, RAINBOW)
                for d in (1, -1)
            ]
        else:
            options += [
                UseItem(player, slot, square=fld.square(i))
                for i, card in near_empty
                if card.owner == player
            ]
    best, best_gain = None, 15.0  # an item must be worth more than a small positional edge
    for option in options[:MAX_ITEM_OPTIONS]:
        if state.check(option) is not None:
            continue
        trial = state.copy()
        trial.apply(option)
        gain = (yield from _best_value(trial, player)) - base
        if gain > best_gain:
            best, best_gain = option, gain
    return best
