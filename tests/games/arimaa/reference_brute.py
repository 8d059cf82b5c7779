"""Answers by brute force from the `aei` package's reference board (pyrimaa.board), which
shares no code with Twinfold's engine: every sequence of the turn's steps is enumerated
(pushes and pulls included, as the reference generates them)."""

from __future__ import annotations

from pyrimaa import board as pb

from games.arimaa.rules.board import GOAL_RANK, parse_piece_letter, parse_square
from games.arimaa.rules.steps import Boards, occupancy


def boards_of(text: str) -> Boards:
    """`"Ed4 Rh1 cd3"` -> bitboards (gold upper case, silver lower case)."""
    boards = [0] * 12
    for token in text.split():
        side, kind = parse_piece_letter(token[0])
        boards[6 * side + kind] |= 1 << parse_square(token[1:])
    return tuple(boards)


def to_reference(
    boards: Boards,
    side: int,
    steps_left: int = 4,
    push_sq: int = -1,
    push_kind: int = 0,
    pull_sq: int = -1,
    pull_kind: int = 0,
) -> pb.Position:
    """Our in-turn state as a pyrimaa Position."""
    bitboards: list[int | None] = [0] * 15
    bitboards[7] = bitboards[8] = None
    for index, board in enumerate(boards):
        s, kind = divmod(index, 6)
        bitboards[kind + 1 + 8 * s] = board
    gold, silver = occupancy(boards)
    bitboards[0] = ~(gold | silver) & ((1 << 64) - 1)
    if push_sq >= 0:
        return pb.Position(
            side, steps_left, bitboards, True, (push_kind + 1) | (8 * (1 - side)), push_sq
        )
    if pull_sq >= 0:
        return pb.Position(
            side, steps_left, bitboards, False, (pull_kind + 1) | (8 * side), pull_sq
        )
    return pb.Position(side, steps_left, bitboards)


def _states(start: pb.Position, side: int, steps: int):  # type: ignore[no-untyped-def]
    """(steps taken, position) for every distinct state of `side`'s turn, push or not."""
    level = {start}
    seen = {start}
    for taken in range(1, steps + 1):
        nxt = set()
        for pos in level:
            for _step, new in pos.get_steps():
                if new in seen:
                    continue
                seen.add(new)
                yield taken, new
                if new.color == side:
                    nxt.add(new)
        level = nxt


def captures(boards: Boards, side: int, steps: int = 4) -> dict[int, int]:
    """{enemy bitboard index: fewest of `side`'s steps (no push left half-done) after which
    a piece of that bitboard has been captured}."""
    start = to_reference(boards, side)
    enemy = 1 - side
    before = [start.bitBoards[k + 1 + 8 * enemy].bit_count() for k in range(6)]
    best: dict[int, int] = {}
    for taken, pos in _states(start, side, steps):
        if pos.inpush:
            continue
        for k in range(6):
            if pos.bitBoards[k + 1 + 8 * enemy].bit_count() < before[k]:
                best.setdefault(6 * enemy + k, taken)
    return best


def goal_in(boards: Boards, side: int, steps: int = 4) -> int | None:
    """Fewest steps after which a rabbit of `side` stands on its goal (no push pending)."""
    rank = GOAL_RANK[side]
    for taken, pos in _states(to_reference(boards, side), side, steps):
        if not pos.inpush and pos.bitBoards[1 + 8 * side] & rank:
            return taken
    return None


def goal_next_turn(boards: Boards, side: int) -> bool:
    """Some whole turn of `side` leaves it a goal in its next turn if the other side stood
    still (the reference's whole-turn generator, then its steps again)."""
    for pos in to_reference(boards, side).get_moves():
        again = tuple(pos.bitBoards[i] for i in range(1, 7)) + tuple(
            pos.bitBoards[i] for i in range(9, 15)
        )
        if goal_in(again, side) is not None:
            return True
    return False
