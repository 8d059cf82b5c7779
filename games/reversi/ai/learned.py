"""The learned evaluation at run time: pure Python reading the shipped weights file.

The weights (`pattern_weights.json`, written by `python -m games.reversi.ai.train`) hold, per
game phase, one table per pattern type (centidiscs for each configuration of its squares),
a weight for mobility (legal moves of the side to move minus the other side's) and a bias.
The file is checked against `WEIGHTS_SHA256` before use, so a damaged or swapped file is
refused with a one-line reason instead of playing nonsense.

Speed is what decides the per-leaf cost of the search, so the evaluator is generated code:
each pattern instance is read from whole bytes of the board (rows; columns from the
transposed board; diagonals gathered into a byte by one multiplication), and 256-entry
tables turn a byte of each side into that instance's base-3 index contribution. A leaf is
then a few dozen list lookups instead of a loop over squares.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from array import array
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from games.reversi.ai.patterns import PATTERN_TYPES, PHASES, phase_of
from games.reversi.rules.bitboard import both_legal_moves, legal_moves

WEIGHTS_PATH = Path(__file__).with_name("pattern_weights.json")
WEIGHTS_FORMAT = "twinfold-reversi-patterns/1"
# sha256 of the shipped weights file (the training tool's --ship writes both).
WEIGHTS_SHA256 = "5f03f0455502a5c896f36419412618d1660dda48ad58071c5242ae250bfb25e7"

WIN = 10000  # the same offset as the hand-written evaluation: wins beat every heuristic

Evaluator = Callable[[int, int], int]


class WeightsError(Exception):
    """The weights file is missing, damaged or not the one this code was shipped with."""


class Weights:
    """Per phase: one list per pattern type (full index range), then mobility and bias."""

    def __init__(
        self,
        phases: list[tuple[list[list[int]], int, int]],
        meta: dict[str, Any],
        packed: array[int] | None = None,
    ):
        self.phases = phases
        self.meta = meta
        #: the file's values as read (int16, phase by phase: the tables, mobility, bias):
        #: the compiled accelerator reads them in place (games/reversi/ai/native.py)
        self.packed = packed

    def table(self, phase: int, type_number: int) -> list[int]:
        return self.phases[phase][0][type_number]


def table_sizes() -> list[int]:
    return [pt.cells for pt in PATTERN_TYPES]


def encode_weights(
    phases: Sequence[tuple[Sequence[Sequence[int]], int, int]], meta: dict[str, Any]
) -> bytes:
    """The weights file's bytes (JSON holding zlib-packed little-endian int16 values)."""
    values = array("h")
    for tables, mobility, bias in phases:
        for table, size in zip(tables, table_sizes(), strict=True):
            if len(table) != size:
                raise ValueError("a weight table has the wrong size")
            values.extend(table)
        values.extend((mobility, bias))
    if array("h", [1]).tobytes() != b"\x01\x00":
        values.byteswap()
    packed = base64.b64encode(zlib.compress(values.tobytes(), 9)).decode("ascii")
    doc = {"format": WEIGHTS_FORMAT, "phases": len(phases), **meta, "weights": packed}
    return (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode("ascii")


def decode_weights(data: bytes, expected_sha256: str | None = WEIGHTS_SHA256) -> Weights:
    """Parse and check a weights file's bytes; WeightsError with the reason when unusable."""
    digest = hashlib.sha256(data).hexdigest()
    if expected_sha256 is not None and digest != expected_sha256:
        raise WeightsError(
            f"pattern weights checksum {digest[:12]}... does not match the recorded "
            f"{expected_sha256[:12]}..."
        )
    try:
        doc = json.loads(data)
        if doc.get("format") != WEIGHTS_FORMAT or doc.get("phases") != PHASES:
            raise WeightsError("pattern weights file has another format or phase count")
        raw = zlib.decompress(base64.b64decode(doc["weights"], validate=True))
    except (ValueError, KeyError, TypeError, zlib.error) as exc:
        raise WeightsError(f"pattern weights file is damaged: {exc}") from None
    values = array("h")
    values.frombytes(raw)
    if array("h", [1]).tobytes() != b"\x01\x00":
        values.byteswap()
    per_phase = sum(table_sizes()) + 2
    if len(values) != per_phase * PHASES:
        raise WeightsError("pattern weights file has the wrong number of values")
    shared: dict[int, int] = {}  # one int object per distinct value keeps the lists small
    phases: list[tuple[list[list[int]], int, int]] = []
    pos = 0
    for _ in range(PHASES):
        tables = []
        for size in table_sizes():
            tables.append([shared.setdefault(v, v) for v in values[pos : pos + size]])
            pos += size
        phases.append((tables, values[pos], values[pos + 1]))
        pos += 2
    meta = {k: v for k, v in doc.items() if k != "weights"}
    return Weights(phases, meta, values)


@cache
def shipped_weights() -> Weights:
    """The shipped weights, loaded once (WeightsError if the file is missing or damaged)."""
    try:
        data = WEIGHTS_PATH.read_bytes()
    except OSError as exc:
        raise WeightsError(f"pattern weights file unreadable: {exc.strerror}") from None
    return decode_weights(data)


# --- the generated evaluator -------------------------------------------------------------

_TRANSPOSE = """\
    t = 0x0F0F0F0F00000000 & (x ^ (x << 28)); x ^= t ^ (t >> 28)
    t = 0x3333000033330000 & (x ^ (x << 14)); x ^= t ^ (t >> 14)
    t = 0x5500550055005500 & (x ^ (x << 7)); x ^= t ^ (t >> 7)
"""


def transpose(x: int) -> int:
    """The board mirrored in the a1-h8 diagonal: square (row r, column c) -> (c, r)."""
    t = 0x0F0F0F0F00000000 & (x ^ (x << 28))
    x ^= t ^ (t >> 28)
    t = 0x3333000033330000 & (x ^ (x << 14))
    x ^= t ^ (t >> 14)
    t = 0x5500550055005500 & (x ^ (x << 7))
    x ^= t ^ (t >> 7)
    return x & 0xFFFFFFFFFFFFFFFF


_GATHER = 0x0101010101010101  # packs squares of distinct columns into the top byte


def _sources(inst: tuple[int, ...]) -> list[tuple[str, int, dict[int, int]]]:
    """How to read one instance: a list of (byte source, byte number, bit -> digit position)
    with the fewest bytes: rows of the board, rows of the transposed board, or one gathered
    byte when every square is in a different column (diagonals)."""
    rows: dict[int, dict[int, int]] = {}
    cols: dict[int, dict[int, int]] = {}
    for k, sq in enumerate(inst):
        r, c = divmod(sq, 8)
        rows.setdefault(r, {})[c] = k
        cols.setdefault(c, {})[r] = k
    options = [
        [("row", r, bits) for r, bits in sorted(rows.items())],
        [("col", c, bits) for c, bits in sorted(cols.items())],
    ]
    if len(cols) == len(inst) and len(rows) == len(inst):
        options.append([("gather", 0, {sq & 7: k for k, sq in enumerate(inst)})])
    return min(options, key=len)


def _byte_table(bits: dict[int, int], digit: int) -> tuple[int, ...]:
    return tuple(sum(digit * 3**k for bit, k in bits.items() if (b >> bit) & 1) for b in range(256))


@cache
def _generated() -> tuple[str, dict[str, object]]:
    """The evaluator's source and the tables it reads (built once per process)."""
    tables: dict[tuple[int, ...], str] = {}
    names: dict[str, object] = {"both_legal_moves": both_legal_moves, "WIN": WIN}

    def table_name(t: tuple[int, ...]) -> str:
        if t not in tables:
            tables[t] = f"T{len(tables)}"
            names[tables[t]] = list(t)
        return tables[t]

    body: list[str] = []
    gathers: list[str] = []
    for n, pt in enumerate(PATTERN_TYPES):
        for i, inst in enumerate(pt.instances):
            terms = []
            for kind, number, bits in _sources(inst):
                if kind == "gather":
                    mask = sum(1 << sq for sq in inst)
                    g = f"g{n}_{i}"
                    gathers.append(f"    {g}p = ((p & {mask:#x}) * {_GATHER:#x} >> 56) & 255")
                    gathers.append(f"    {g}o = ((o & {mask:#x}) * {_GATHER:#x} >> 56) & 255")
                    mine, theirs = f"{g}p", f"{g}o"
                else:
                    prefix = "r" if kind == "row" else "c"
                    mine, theirs = f"{prefix}p{number}", f"{prefix}o{number}"
                terms.append(f"{table_name(_byte_table(bits, 1))}[{mine}]")
                terms.append(f"{table_name(_byte_table(bits, 2))}[{theirs}]")
            body.append(f"    s += w{n}[{' + '.join(terms)}]")
    byte_vars = ", ".join(f"{{0}}{i}" for i in range(8))
    lines = [
        "def evaluate(p, o):",
        "    mine, theirs = both_legal_moves(p, o)",
        "    mine = mine.bit_count()",
        "    theirs = theirs.bit_count()",
        "    if not mine and not theirs:",
        "        d = p.bit_count() - o.bit_count()",
        "        return d * 100 + (WIN if d > 0 else -WIN if d < 0 else 0)",
        "    tabs, mobility, bias = phases[64 - (p | o).bit_count()]",
        f"    {', '.join(f'w{n}' for n in range(len(PATTERN_TYPES)))}, = tabs",
        "    s = bias + mobility * (mine - theirs)",
        f"    {byte_vars.format('rp')}, = p.to_bytes(8, 'little')",
        f"    {byte_vars.format('ro')}, = o.to_bytes(8, 'little')",
        "    x = p",
        _TRANSPOSE.rstrip("\n"),
        f"    {byte_vars.format('cp')}, = (x & 0xFFFFFFFFFFFFFFFF).to_bytes(8, 'little')",
        "    x = o",
        _TRANSPOSE.rstrip("\n"),
        f"    {byte_vars.format('co')}, = (x & 0xFFFFFFFFFFFFFFFF).to_bytes(8, 'little')",
        *gathers,
        *body,
        "    return s",
    ]
    # Tables become default arguments: locals are the fastest lookups CPython has.
    header = ", ".join(f"{v}={v}" for v in sorted(names) if v.startswith("T"))
    lines[0] = f"def evaluate(p, o, phases=PHASES, both_legal_moves=both_legal_moves, {header}):"
    return "\n".join(lines) + "\n", names


def by_empties(weights: Weights) -> list[tuple[list[list[int]], int, int]]:
    """The phase weights indexed directly by the number of empty squares (0..64)."""
    return [weights.phases[phase_of(e)] for e in range(65)]


def make_evaluator(weights: Weights) -> Evaluator:
    """The learned evaluation (centidiscs for the side to move) for one set of weights."""
    source, names = _generated()
    namespace: dict[str, Any] = {**names, "PHASES": by_empties(weights)}
    exec(compile(source, "<reversi pattern evaluator>", "exec"), namespace)
    evaluate: Evaluator = namespace["evaluate"]
    return evaluate


def reference_evaluate(weights: Weights, p: int, o: int) -> int:
    """The same value computed square by square (slow; for tests and training checks)."""
    from games.reversi.ai.patterns import instance_indices

    mine = legal_moves(p, o).bit_count()
    theirs = legal_moves(o, p).bit_count()
    if not mine and not theirs:
        d = p.bit_count() - o.bit_count()
        return d * 100 + (WIN if d > 0 else -WIN if d < 0 else 0)
    tables, mobility, bias = weights.phases[phase_of(64 - (p | o).bit_count())]
    s = bias + mobility * (mine - theirs)
    for n, idxs in enumerate(instance_indices(p, o)):
        s += sum(tables[n][i] for i in idxs)
    return s
