"""Look-ahead shared by the computer personalities, computed from a seat's view only.

Every kill is an enclosed rectangle that the rules allow to die (a single card, or a whole
rectangle under the options) whose border has just been closed.  So one survey of the table
per decision -- the killable rectangles of free positions whose open border is short -- tells,
for each candidate play, what it kills at once, which opponent replies would then kill own
cards (risk), which own cards could kill later (chances), and how close every card is to
being enclosed (danger).  The personalities weigh these figures differently.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.sevens.rules import board
from games.sevens.rules.view import SeatView

# how likely a card whose group still needs d more plays to be enclosed dies soon
DANGER_BY_DISTANCE = (0.0, 1.0, 0.4, 0.15)
_FAR = len(DANGER_BY_DISTANCE) - 1

_RECT_CACHE: dict[tuple[int, bool], list[tuple[int, int]]] = {}

Survey = list[tuple[int, int, int]]


@dataclass(frozen=True)
class Assessment:
    """Figures for one candidate play, all from the seat's point of view."""

    card: int
    gain: int  # opponents' cards killed by the play
    loss: int  # own cards killed by the play
    risk_max: int  # most own cards one opponent reply could kill
    risk_sum: int  # own cards killable over all opponent replies
    chances: int  # opponents' cards the seat could kill with its next plays
    own_danger: float  # own cards weighted by how soon they could be enclosed
    opp_danger: float  # the same for the opponents' cards


def killable_rectangles(max_kill: int, three_walls: bool) -> list[tuple[int, int]]:
    """(rectangle, its border) for every group that dies once its border is all played."""
    key = (max_kill, three_walls)
    rects = _RECT_CACHE.get(key)
    if rects is None:
        rects = [
            (r, board.orthogonal(r))
            for r in board.RECTANGLE_WALLS
            if board.group_is_killed(r, max_kill, three_walls)
        ]
        _RECT_CACHE[key] = rects
    return rects


def survey(view: SeatView) -> Survey:
    """Killable rectangles of free positions whose open border is short:
    (rectangle, open border, its size), the only places where kills can come soon."""
    free = board.GRID & ~view.played & ~view.killed
    out = []
    limit = _FAR + 1
    for r, border in killable_rectangles(view.options.max_kill, view.options.effective_three_walls):
        if r & ~free:
            continue
        open_ = border & free
        d = open_.bit_count()
        if d <= limit:
            out.append((r, open_, d))
    return out


def assess_all(view: SeatView, cards: list[int]) -> list[Assessment]:
    """Assessments of several candidate plays sharing one survey of the table."""
    near = survey(view)
    return [assess(view, c, near) for c in cards]


def assess(view: SeatView, card: int, near: Survey | None = None) -> Assessment:
    """Evaluate playing `card` (which must be in the seat's hand)."""
    if near is None:
        near = survey(view)
    b = board.BIT[card]
    hand = view.hand
    unknown = view.unknown

    killed_now = 0
    for r, open_, _d in near:
        if open_ == b:
            killed_now |= r
    gain = (killed_now & unknown).bit_count()
    loss = (killed_now & hand).bit_count()
    mine = hand & ~b & ~killed_now
    theirs = unknown & ~killed_now
    reach = board.playable_positions(view.played | b, True)
    blocked = b | killed_now

    replies: dict[int, int] = {}
    chances = 0
    mine_at = [0] * (_FAR + 1)
    theirs_at = [0] * (_FAR + 1)
    for r, open_, d in near:
        if r & blocked:
            continue
        if open_ & b:
            open_ ^= b
            d -= 1
        if d > _FAR:
            continue
        if d == 1 and open_ & reach:
            if open_ & mine:
                chances += (r & theirs).bit_count()
            else:
                replies[open_] = replies.get(open_, 0) | r
        if r & theirs:
            theirs_at[d] |= r & theirs
        if r & mine and not open_ & mine:
            mine_at[d] |= r & mine

    risk_max = risk_sum = 0
    for km in replies.values():
        lost = (km & mine).bit_count()
        risk_sum += lost
        if lost > risk_max:
            risk_max = lost

    own = opp = 0.0
    seen_m = seen_t = 0
    for d in range(1, _FAR + 1):
        m = mine_at[d] & ~seen_m
        t = theirs_at[d] & ~seen_t
        own += DANGER_BY_DISTANCE[d] * m.bit_count()
        opp += DANGER_BY_DISTANCE[d] * t.bit_count()
        seen_m |= m
        seen_t |= t

    return Assessment(
        card=card,
        gain=gain,
        loss=loss,
        risk_max=risk_max,
        risk_sum=risk_sum,
        chances=chances,
        own_danger=own,
        opp_danger=opp,
    )
