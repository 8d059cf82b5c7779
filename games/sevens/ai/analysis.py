"""Look-ahead shared by the computer personalities, computed from a seat's view only.

For each card the seat could play, `assess` measures what the play does at once (opponents'
cards and own cards killed), what the opponents could then do to the seat in their next
plays (risk), what kills the seat keeps in hand for later (chances), and how exposed the
cards on both sides are (few free sides left).  The personalities weigh these differently.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.sevens.rules import board
from games.sevens.rules.view import SeatView


@dataclass(frozen=True)
class Assessment:
    """Figures for one candidate play, all from the seat's point of view."""

    card: int
    gain: int  # opponents' cards killed by the play
    loss: int  # own cards killed by the play
    risk_max: int  # most own cards one opponent reply could kill
    risk_sum: int  # own cards killable over all opponent replies
    hit_back: int  # opponents' cards that opponent replies would kill (they hurt each other)
    chances: int  # opponents' cards the seat could kill with its next plays
    own_exposure: float  # own unplayed cards weighted by how few free sides they keep
    opp_exposure: float  # the same for the opponents' cards
    own_stuck: int  # own cards still unplayable after the play
    frees_own: int  # own cards that become playable through this play
    own_danger: float  # own cards weighted by how soon opponents could enclose them
    opp_danger: float  # the same for the opponents' cards


# how likely a card at each kill distance (plays still needed to enclose it) dies soon
_DANGER_BY_DISTANCE = (0.0, 1.0, 0.4, 0.15, 0.05)
_FAR = len(_DANGER_BY_DISTANCE) - 1
_RECT_CACHE: dict[tuple[int, bool], list[tuple[int, int]]] = {}


def killable_rectangles(max_kill: int, three_walls: bool) -> list[tuple[int, int]]:
    """(rectangle, its border) for every group that dies once its border is all played."""
    key = (max_kill, three_walls)
    rects = _RECT_CACHE.get(key)
    if rects is None:
        rects = [
            (r, board.orthogonal(r))
            for r, walls in board.RECTANGLE_WALLS.items()
            if board.group_is_killed(r, max_kill, three_walls)
        ]
        _RECT_CACHE[key] = rects
    return rects


def near_rectangles(view: SeatView) -> list[tuple[int, int]]:
    """Killable rectangles of still-free positions whose border is nearly closed:
    (rectangle, its open border), the candidates for kills in the next few plays."""
    free = board.GRID & ~view.played & ~view.killed
    out = []
    for r, border in killable_rectangles(view.options.max_kill, view.options.effective_three_walls):
        if r & ~free:
            continue
        open_ = border & free
        if open_.bit_count() <= _FAR + 1:
            out.append((r, open_))
    return out


def _dangers(
    near: list[tuple[int, int]], placed: int, gone: int, mine: int, theirs: int
) -> tuple[float, float]:
    """Danger to own and to opponents' cards after a play, from the kill distances."""
    mine_at = [0] * (_FAR + 1)
    theirs_at = [0] * (_FAR + 1)
    for r, open0 in near:
        if r & (placed | gone):
            continue
        open_ = open0 & ~placed
        d = open_.bit_count()
        if d == 0 or d > _FAR:
            continue
        if r & mine and not open_ & mine:
            mine_at[d] |= r & mine
        if r & theirs:
            theirs_at[d] |= r & theirs
    own = opp = 0.0
    seen_m = seen_t = 0
    for d in range(1, _FAR + 1):
        m = mine_at[d] & ~seen_m
        t = theirs_at[d] & ~seen_t
        own += _DANGER_BY_DISTANCE[d] * m.bit_count()
        opp += _DANGER_BY_DISTANCE[d] * t.bit_count()
        seen_m |= m
        seen_t |= t
    return own, opp


# weight of a card by how many free (unplayed) orthogonal neighbours it still has
_EXPOSURE_BY_FREE = (4.0, 1.0, 0.35, 0.1, 0.0)


def _exposure(cards: int, free: int, own: int) -> float:
    total = 0.0
    orth = board.ORTH
    for b in board.iter_bits(cards):
        nb = orth[b] & free
        n = nb.bit_count()
        if n and not (nb & ~own):
            # every free side is held by the same side: nobody else can close it alone
            total += 0.1 * _EXPOSURE_BY_FREE[n]
        else:
            total += _EXPOSURE_BY_FREE[n]
    return total


def assess_all(view: SeatView, cards: list[int]) -> list[Assessment]:
    """Assessments of several candidate plays sharing one survey of the table."""
    near = near_rectangles(view)
    return [assess(view, c, near) for c in cards]


def assess(view: SeatView, card: int, near: list[tuple[int, int]] | None = None) -> Assessment:
    """Evaluate playing `card` from the view (the card must be in the seat's hand)."""
    if near is None:
        near = near_rectangles(view)
    opts = view.options
    max_kill = opts.max_kill
    three = opts.effective_three_walls
    hand = view.hand
    unknown = view.unknown
    b = board.BIT[card]
    played = view.played | b
    free = board.GRID & ~played & ~view.killed
    killed_now = board.kill_mask_after_play(b, free, max_kill, three)
    gain = (killed_now & unknown).bit_count()
    loss = (killed_now & hand).bit_count()
    free &= ~killed_now
    mine = hand & ~b & ~killed_now
    theirs = unknown & ~killed_now
    reach = board.playable_positions(played, True)

    risk_max = 0
    risk_sum = 0
    hit_back = 0
    for x in board.iter_bits(reach & theirs):
        # only positions next to own cards (or inside small groups) can kill them
        km = board.kill_mask_after_play(x, free & ~x, max_kill, three)
        if km:
            lost = (km & mine).bit_count()
            if lost > risk_max:
                risk_max = lost
            risk_sum += lost
            hit_back += (km & theirs).bit_count()

    chances = 0
    for y in board.iter_bits(reach & mine):
        km = board.kill_mask_after_play(y, free & ~y, max_kill, three)
        if km:
            chances += (km & theirs).bit_count()

    own_danger, opp_danger = _dangers(near, b, killed_now, mine, theirs)
    return Assessment(
        card=card,
        gain=gain,
        loss=loss,
        risk_max=risk_max,
        risk_sum=risk_sum,
        hit_back=hit_back,
        chances=chances,
        own_exposure=_exposure(mine, free, mine),
        opp_exposure=_exposure(theirs, free, theirs),
        own_stuck=(mine & ~reach).bit_count(),
        frees_own=((mine & reach) & ~board.playable_positions(view.played, True)).bit_count(),
        own_danger=own_danger,
        opp_danger=opp_danger,
    )
