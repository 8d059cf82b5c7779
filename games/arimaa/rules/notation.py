"""Standard Arimaa notation (R-ARI-NOTE): setups, steps, game records and board diagrams.

* setup token `Ra1` (piece letter, square); step token `Ed2n` (piece, square, direction
  n/s/e/w); capture token `rc3x` after the step that captured;
* a record is one turn a line, `1g Ra1 ...`, `1s ...`, `2g Ed2n ...` (`w`/`b` accepted);
* the diagram is the usual 8-line board with a frame, an optional `12g` header line above it,
  and `x` on empty traps; the AEI short form is `[` + 64 squares from a8 to h1 + `]`.

Every parse error is a NotationError naming the token (or line) and the reason.
"""

from __future__ import annotations

from .board import (
    DIRECTION_LETTERS,
    FILES,
    GOLD,
    LETTER_DIRECTIONS,
    SIDE_NAMES,
    SILVER,
    TRAP_SQUARES,
    parse_piece_letter,
    parse_square,
    piece_letter,
    square_name,
)
from .game import Game, IllegalStep, Step
from .position import Position, check_boards


class NotationError(ValueError):
    """Malformed or illegal notation; `token` is the offending token or line."""

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(f"{token!r}: {reason}")
        self.token = token
        self.reason = reason


# ---- tokens --------------------------------------------------------------------------------
def parse_setup_token(token: str) -> tuple[int, int, int]:
    """`Ra1` -> (side, kind, square)."""
    if len(token) != 3:
        raise NotationError(token, "a setup token is a piece letter and a square, like Ra1")
    try:
        side, kind = parse_piece_letter(token[0])
        return side, kind, parse_square(token[1:])
    except ValueError as exc:
        raise NotationError(token, str(exc)) from None


def parse_step_token(token: str) -> tuple[int, int, int, str]:
    """`Ed2n` -> (side, kind, square, direction letter); `rc3x` -> (..., 'x')."""
    if len(token) != 4:
        raise NotationError(token, "a step is piece, square and n/s/e/w (like Ed2n) or x")
    try:
        side, kind = parse_piece_letter(token[0])
        sq = parse_square(token[1:3])
    except ValueError as exc:
        raise NotationError(token, str(exc)) from None
    direction = token[3]
    if direction not in "nsewx":
        raise NotationError(token, f"direction {direction!r} is not one of n s e w x")
    if direction != "x":
        to = sq + LETTER_DIRECTIONS[direction]
        if not 0 <= to < 64 or (direction in "ew" and to // 8 != sq // 8):
            raise NotationError(token, "that step leaves the board")
    elif sq not in TRAP_SQUARES:
        raise NotationError(token, f"captures happen only on traps, not {square_name(sq)}")
    return side, kind, sq, direction


def step_tokens(step: Step) -> list[str]:
    """`Ed2n`, plus the capture token if the step captured."""
    out = [
        piece_letter(step.side, step.kind)
        + square_name(step.frm)
        + DIRECTION_LETTERS[step.to - step.frm]
    ]
    if step.captured is not None:
        sq, side, kind = step.captured
        out.append(piece_letter(side, kind) + square_name(sq) + "x")
    return out


def write_turn(steps: list[Step]) -> str:
    return " ".join(token for step in steps for token in step_tokens(step))


def write_setup(side: int, placement: dict[int, int]) -> str:
    return " ".join(
        piece_letter(side, kind) + square_name(sq) for sq, kind in sorted(placement.items())
    )


def parse_setup(text: str, side: int | None = None) -> tuple[int, dict[int, int]]:
    """Setup tokens -> (side, square -> kind); the tokens must all be of one side."""
    tokens = text.split()
    if not tokens:
        raise NotationError(text, "empty setup")
    placement: dict[int, int] = {}
    for token in tokens:
        tside, kind, sq = parse_setup_token(token)
        if side is None:
            side = tside
        if tside != side:
            raise NotationError(token, f"a {SIDE_NAMES[tside]} piece in {SIDE_NAMES[side]}'s setup")
        if sq in placement:
            raise NotationError(token, f"{square_name(sq)} is already taken")
        placement[sq] = kind
    assert side is not None
    return side, placement


# ---- applying to a game ----------------------------------------------------------------------
def apply_move(game: Game, text: str) -> None:
    """Apply one turn written in notation (a setup during setup, else steps) to `game`.

    On error the game is unchanged and NotationError names the offending token."""
    if game.in_setup:
        side, placement = parse_setup(text, game.side_to_move)
        try:
            game.setup(placement)
        except IllegalStep as exc:
            raise NotationError(text, str(exc)) from None
        return
    tokens = text.split()
    if not tokens:
        raise NotationError(text, "a turn needs at least one step")
    if game.turn_steps:
        raise NotationError(text, "a turn is already in progress")
    played = 0
    try:
        last: Step | None = None
        for token in tokens:
            side, kind, sq, direction = parse_step_token(token)
            if direction == "x":
                if last is None or last.captured != (sq, side, kind):
                    raise NotationError(token, "no such capture happened on the step before")
                last = None
                continue
            piece = game.current.piece_at(sq)
            if piece != (side, kind):
                have = "empty" if piece is None else piece_letter(*piece)
                raise NotationError(
                    token, f"{square_name(sq)} holds {have}, not {piece_letter(side, kind)}"
                )
            try:
                last = game.step(sq, sq + LETTER_DIRECTIONS[direction])
                played += 1
            except IllegalStep as exc:
                raise NotationError(token, str(exc)) from None
        try:
            game.end_turn()
        except IllegalStep as exc:
            raise NotationError(text, str(exc)) from None
    except NotationError:
        for _ in range(played):
            game.undo_step()
        raise


def parse_label(label: str) -> tuple[int, int]:
    """`12g` / `12w` -> (12, GOLD); `3s` / `3b` -> (3, SILVER)."""
    if len(label) < 2 or not label[:-1].isdigit() or label[-1] not in "gswb":
        raise NotationError(label, "a turn label is a number and g/s (or w/b), like 2g")
    return int(label[:-1]), GOLD if label[-1] in "gw" else SILVER


def parse_record(text: str, game: Game | None = None) -> Game:
    """A game record, one turn a line, replayed into a new (or the given) Game."""
    game = game if game is not None else Game()
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        label, _, rest = line.partition(" ")
        number, side = parse_label(label)
        expected = game.turn_label
        if (number, side) != parse_label(expected):
            raise NotationError(label, f"expected turn {expected} here")
        if not rest.strip():
            continue  # a label with no move: the position to move, as archives end
        if game.result is not None:
            raise NotationError(line, "the game is already over")
        apply_move(game, rest)
    return game


def write_record(game: Game) -> str:
    """The record of `game`: setups then turns, one a line."""
    lines = []
    for index, placement in enumerate(game.setups):
        lines.append(f"1{'gs'[index]} {write_setup(index, placement)}")
    for index, turn in enumerate(game.turns):
        lines.append(_label(game.first_turn_index + index) + " " + write_turn(turn))
    return "\n".join(lines)


def _label(index: int) -> str:
    return f"{index // 2 + 1}{'gs'[index % 2]}"


# ---- diagrams --------------------------------------------------------------------------------
_FRAME = " +-----------------+"


def write_diagram(pos: Position, label: str | None = None) -> str:
    """The 8-line board, framed, with an optional turn label line above."""
    lines = [label] if label else []
    lines.append(_FRAME)
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            sq = rank * 8 + file
            piece = pos.piece_at(sq)
            if piece is not None:
                cells.append(piece_letter(*piece))
            else:
                cells.append("x" if sq in TRAP_SQUARES else ".")
        lines.append(f"{rank + 1}| {' '.join(cells)} |")
    lines.append(_FRAME)
    lines.append("   " + " ".join(FILES))
    return "\n".join(lines)


def parse_diagram(text: str) -> tuple[Position, str | None]:
    """Read a diagram back: (position, label). The side to move comes from the label (gold
    when there is none)."""
    lines = [line.rstrip() for line in text.strip("\n").splitlines() if line.strip()]
    label = None
    side = GOLD
    if lines and not lines[0].strip().startswith("+"):
        label = lines.pop(0).strip()
        _, side = parse_label(label)
    if len(lines) < 9 or lines[0].strip() != _FRAME.strip():
        raise NotationError(lines[0] if lines else text, "expected the board frame +---...+")
    boards = [0] * 12
    for index, line in enumerate(lines[1:9]):
        rank = 8 - index
        body = line.strip()
        if not body.startswith(f"{rank}|") or not body.endswith("|"):
            raise NotationError(line, f"expected rank {rank} as '{rank}| . . . |'")
        cells = body[2:-1].split()
        if len(cells) != 8:
            raise NotationError(line, f"rank {rank} needs 8 squares, has {len(cells)}")
        for file, cell in enumerate(cells):
            if cell in (".", "x", "X"):
                continue
            try:
                pside, kind = parse_piece_letter(cell)
            except ValueError as exc:
                raise NotationError(cell, str(exc)) from None
            boards[6 * pside + kind] |= 1 << ((rank - 1) * 8 + file)
    if lines[9].strip() != _FRAME.strip():
        raise NotationError(lines[9], "expected the closing board frame")
    try:
        check_boards(tuple(boards))
    except ValueError as exc:
        raise NotationError(text.strip().splitlines()[0], str(exc)) from None
    return Position(tuple(boards), side), label


def write_short(pos: Position) -> str:
    """AEI short form: `[` + squares a8..h8, a7..h7, ... a1..h1 + `]` (space = empty)."""
    cells = []
    for rank in range(7, -1, -1):
        for file in range(8):
            piece = pos.piece_at(rank * 8 + file)
            cells.append(" " if piece is None else piece_letter(*piece))
    return "[" + "".join(cells) + "]"


def parse_short(side_text: str, board_text: str) -> Position:
    """AEI `setposition` arguments: side (g/s/w/b) and the bracketed 64-square board."""
    if side_text not in ("g", "s", "w", "b"):
        raise NotationError(side_text, "side must be g or s (w or b)")
    side = GOLD if side_text in "gw" else SILVER
    if len(board_text) != 66 or board_text[0] != "[" or board_text[-1] != "]":
        raise NotationError(board_text, "the board is [ then 64 squares then ]")
    boards = [0] * 12
    for index, cell in enumerate(board_text[1:-1]):
        if cell in " .xX":
            continue
        try:
            pside, kind = parse_piece_letter(cell)
        except ValueError as exc:
            raise NotationError(cell, str(exc)) from None
        rank, file = 7 - index // 8, index % 8
        boards[6 * pside + kind] |= 1 << (rank * 8 + file)
    try:
        check_boards(tuple(boards))
    except ValueError as exc:
        raise NotationError(board_text, str(exc)) from None
    return Position(tuple(boards), side)
