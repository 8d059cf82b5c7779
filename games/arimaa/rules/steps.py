"""Step generation: single steps, pushes, pulls, freezing and trap captures (R-ARI-TURN).

The state inside a turn is the 12 bitboards plus what the previous step left pending:

* `push_sq`/`push_kind`: an enemy piece of `push_kind` was just pushed off `push_sq`; the next
  step must be a stronger unfrozen friendly piece moving into `push_sq` (-1 when none).
* `pull_sq`/`pull_kind`: a friendly piece of `pull_kind` just stepped off `pull_sq` on its own;
  a weaker adjacent enemy piece may now be pulled into `pull_sq` (-1 when none).

An enemy piece moved into `pull_sq` while a pull is possible is always the pull (never the
start of a push); both readings reach the same set of whole-turn results. A piece that steps
into a trap and is captured can still pull, as in the standard rules and the reference board.
Everything here works on plain tuples so that whole-turn generation stays fast.
"""

from __future__ import annotations

from .board import FULL, NEIGHBOURS, RABBIT_NEIGHBOURS, TRAP_NEAR

Boards = tuple[int, ...]
#: (from, to, boards after, push_sq, push_kind, pull_sq, pull_kind, captured square or -1,
#:  index of the moved piece's bitboard, index of the captured piece's bitboard or -1)
Child = tuple[int, int, Boards, int, int, int, int, int, int, int]
#: boards with the pending push and pull: (boards, push_sq, push_kind, pull_sq, pull_kind)
TurnState = tuple[Boards, int, int, int, int]


def occupancy(boards: Boards) -> tuple[int, int]:
    """(gold, silver) occupancy bitboards."""
    return (
        boards[0] | boards[1] | boards[2] | boards[3] | boards[4] | boards[5],
        boards[6] | boards[7] | boards[8] | boards[9] | boards[10] | boards[11],
    )


def _apply(boards: Boards, index: int, frm: int, to: int, own: int) -> tuple[Boards, int, int]:
    """Move the piece on board `index` from `frm` to `to`, then capture on the trap next to
    `frm` if its colour (whose occupancy before the step is `own`) no longer protects it."""
    new = list(boards)
    move = (1 << frm) | (1 << to)
    new[index] ^= move
    trap = TRAP_NEAR[frm]
    if trap >= 0:
        own ^= move
        tbit = 1 << trap
        if own & tbit and not NEIGHBOURS[trap] & own:
            base = 0 if index < 6 else 6
            for j in range(base, base + 6):
                if new[j] & tbit:
                    new[j] ^= tbit
                    return tuple(new), trap, j
    return tuple(new), -1, -1


def expand(
    boards: Boards,
    side: int,
    steps_left: int,
    push_sq: int = -1,
    push_kind: int = 0,
    pull_sq: int = -1,
    pull_kind: int = 0,
) -> list[Child]:
    """Every legal next step for `side` from this in-turn state (distinct (from, to) pairs)."""
    out: list[Child] = []
    if steps_left <= 0:
        return out
    base = 6 * side
    ebase = 6 - base
    gold, silver = occupancy(boards)
    mine, theirs = (gold, silver) if side == 0 else (silver, gold)
    empty = ~(gold | silver) & FULL
    # stronger[k]: enemy pieces stronger than kind k
    stronger = [0] * 6
    acc = 0
    for k in range(5, -1, -1):
        stronger[k] = acc
        acc |= boards[ebase + k]
    append = out.append
    if push_sq >= 0:
        nb = NEIGHBOURS[push_sq]
        for k in range(push_kind + 1, 6):
            cand = boards[base + k] & nb
            while cand:
                low = cand & -cand
                cand ^= low
                sq = low.bit_length() - 1
                n = NEIGHBOURS[sq]
                if not n & mine and n & stronger[k]:
                    continue
                new, cap, ci = _apply(boards, base + k, sq, push_sq, mine)
                append((sq, push_sq, new, -1, 0, -1, 0, cap, base + k, ci))
        return out
    can_push = steps_left >= 2
    pushed: set[tuple[int, int]] = set()
    pull_nb = NEIGHBOURS[pull_sq] if pull_sq >= 0 else 0
    for k in range(6):
        pieces = boards[base + k]
        if not pieces:
            continue
        strong = stronger[k]
        weaker = (theirs ^ strong ^ boards[ebase + k]) if k else 0
        rabbit_nb = RABBIT_NEIGHBOURS[side] if k == 0 else None
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            sq = low.bit_length() - 1
            n = NEIGHBOURS[sq]
            if not n & mine and n & strong:
                continue  # frozen
            targets = (rabbit_nb[sq] if rabbit_nb is not None else n) & empty
            new_pull = sq if k else -1
            while targets:
                tlow = targets & -targets
                targets ^= tlow
                to = tlow.bit_length() - 1
                new, cap, ci = _apply(boards, base + k, sq, to, mine)
                append((sq, to, new, -1, 0, new_pull, k, cap, base + k, ci))
            if can_push and n & weaker:
                victims = n & weaker
                while victims:
                    vlow = victims & -victims
                    victims ^= vlow
                    v = vlow.bit_length() - 1
                    dests = NEIGHBOURS[v] & empty
                    if not dests:
                        continue
                    for vk in range(k):
                        if boards[ebase + vk] & vlow:
                            break
                    is_pull_victim = pull_nb & vlow and vk < pull_kind
                    while dests:
                        dlow = dests & -dests
                        dests ^= dlow
                        to = dlow.bit_length() - 1
                        if is_pull_victim and to == pull_sq:
                            continue  # that step is the pull, generated below
                        if (v, to) in pushed:
                            continue  # same push start from another pusher
                        pushed.add((v, to))
                        new, cap, ci = _apply(boards, ebase + vk, v, to, theirs)
                        append((v, to, new, v, vk, -1, 0, cap, ebase + vk, ci))
    if pull_sq >= 0 and pull_nb & theirs:
        for vk in range(pull_kind):
            cand = boards[ebase + vk] & pull_nb
            while cand:
                low = cand & -cand
                cand ^= low
                v = low.bit_length() - 1
                new, cap, ci = _apply(boards, ebase + vk, v, pull_sq, theirs)
                append((v, pull_sq, new, -1, 0, -1, 0, cap, ebase + vk, ci))
    return out


def is_frozen(boards: Boards, sq: int) -> bool:
    """A piece on `sq` is frozen: next to a stronger enemy and to no friendly piece."""
    bit = 1 << sq
    for index in range(12):
        if boards[index] & bit:
            side, kind = divmod(index, 6)
            break
    else:
        return False
    gold, silver = occupancy(boards)
    n = NEIGHBOURS[sq]
    if n & (gold if side == 0 else silver):
        return False
    ebase = 6 - 6 * side
    return any(boards[ebase + k] & n for k in range(kind + 1, 6))


def frozen_mask(boards: Boards) -> int:
    """Bitboard of every frozen piece of either side."""
    gold, silver = occupancy(boards)
    out = 0
    for side, mine in ((0, gold), (1, silver)):
        ebase = 6 - 6 * side
        acc = 0
        for k in range(5, -1, -1):
            pieces = boards[6 * side + k]
            while pieces:
                low = pieces & -pieces
                pieces ^= low
                n = NEIGHBOURS[low.bit_length() - 1]
                if not n & mine and n & acc:
                    out |= low
            acc |= boards[ebase + k]
    return out


def turn_results(boards: Boards, side: int) -> dict[Boards, tuple[tuple[int, int], ...]]:
    """Every distinct position reachable in one whole turn (1-4 steps, push completed, the
    board changed), each with one step sequence reaching it. Repetition is the caller's
    business (it needs the game history)."""
    finished: dict[Boards, tuple[tuple[int, int], ...]] = {}
    level: dict[TurnState, tuple[tuple[int, int], ...]] = {(boards, -1, 0, -1, 0): ()}
    for steps_left in (4, 3, 2, 1):
        nxt: dict[TurnState, tuple[tuple[int, int], ...]] = {}
        last = steps_left == 1
        for state, path in level.items():
            for frm, to, new, ps, pk, ls, lk, *_ in expand(state[0], side, steps_left, *state[1:]):
                if ps < 0 and new not in finished:
                    finished[new] = (*path, (frm, to))
                if not last:
                    key = (new, ps, pk, ls, lk)
                    if key not in nxt:
                        nxt[key] = (*path, (frm, to))
        level = nxt
    finished.pop(boards, None)
    return finished
