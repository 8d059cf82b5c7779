"""Train the learned pattern evaluation from the engine's own self-play.

    python -m games.reversi.ai.train --games 12000 --seed 1 --out weights.json [--ship]

1. Positions: seeded self-play of this engine (no other program's games, weights or
   evaluations). Each game opens with a few uniformly random plies, then both sides choose by
   a 2-ply search on the hand-written evaluation with random noise added to every move's
   score (varied, plausible games); from `--solve-empties` empty squares on, both sides play
   perfectly by the exact solver. Every position of the game is kept, labelled with the
   game's final disc difference from the side to move's view: exact for the solved part,
   the outcome of the noisy play before it.
2. Fit: per game phase (bands of empty squares, each trained on its band widened by
   `--overlap` empties on both sides), least squares of the label on the pattern features
   (one weight per configuration class of each pattern type, tied under the pattern's own
   symmetries), mobility and a bias, with ridge damping (scipy's LSQR on a sparse design
   matrix). A tenth of the games is held out and the damping with the smallest held-out
   error is kept.
3. Output: the weights file (int16 centidiscs). `--ship` writes it to the package and
   records its sha256 in games/reversi/ai/learned.py.

The whole run is a function of the arguments (seeded randomness, node-limited searches).
numpy and scipy come from the `train` extra (`pip install -e .[train]`); the game itself never
needs them.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import random
import re
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.reversi.ai.evaluation import evaluate as handwritten
from games.reversi.ai.learned import WEIGHTS_PATH, encode_weights
from games.reversi.ai.patterns import (
    PATTERN_TYPES,
    PHASE_WIDTH,
    PHASES,
    canonical_map,
    instance_indices,
    phase_of,
)
from games.reversi.ai.search import Search, Thinker
from games.reversi.rules import bitboard as bb

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

SELF_PLAY_DEPTH = 2
SELF_PLAY_NOISE = 150  # centidiscs: sd of the noise on each move's search score
DAMPINGS = (3.0, 10.0, 30.0)
BOOTSTRAP = 0.75  # weight of the next phase's value in a position's target
LOOKAHEAD = 10  # plies to that later position


class Sample:
    """One training position: discs of the side to move and the other side, and its label."""

    __slots__ = ("label", "o", "p")

    def __init__(self, p: int, o: int, label: int) -> None:
        self.p, self.o, self.label = p, o, label


def _search_scores(p: int, o: int, solve_empties: int) -> tuple[dict[int, int], bool]:
    """Every move's 2-ply score, or (at `solve_empties` or fewer) the perfect move alone."""
    exact = 64 - (p | o).bit_count() <= solve_empties
    search = Search(
        p,
        o,
        max_depth=SELF_PLAY_DEPTH,
        node_limit=50_000,
        exact_empties=solve_empties,
        exact_node_limit=5_000_000,
        evaluator=handwritten,
        all_moves=not exact,
    )
    result = Thinker(search).finish()
    assert result.move is not None
    if result.exact:
        return {result.move: result.score}, True
    return result.scores or {result.move: result.score}, False


def self_play_game(rng: random.Random, solve_empties: int) -> list[Sample]:
    """One seeded game; every position in it, labelled with the final result."""
    p, o = bb.START_BLACK, bb.START_WHITE
    black_to_move = True
    seen: list[tuple[int, int, bool]] = []
    random_plies = rng.randint(2, 10)
    ply = 0
    while True:
        moves = bb.legal_moves(p, o)
        if not moves:
            if not bb.legal_moves(o, p):
                break
            p, o, black_to_move = o, p, not black_to_move
            continue
        seen.append((p, o, black_to_move))
        squares = bb.squares(moves)
        if ply < random_plies:
            sq = rng.choice(squares)
        elif len(squares) == 1:
            sq = squares[0]
        else:
            scores, exact = _search_scores(p, o, solve_empties)
            if exact:  # perfect play from here: the best move, lowest square on ties
                sq = max(sorted(scores), key=lambda s: scores[s])
            else:
                noisy = {s: v + rng.gauss(0, SELF_PLAY_NOISE) for s, v in sorted(scores.items())}
                sq = max(noisy, key=lambda s: noisy[s])
        f = bb.flips(p, o, sq)
        p, o = o ^ f, p | f | (1 << sq)
        black_to_move = not black_to_move
        ply += 1
    # p is the side to move at the end; black's final margin:
    margin = p.bit_count() - o.bit_count()
    black_margin = margin if black_to_move else -margin
    return [Sample(sp, so, black_margin if blk else -black_margin) for sp, so, blk in seen]


def game_rng(seed: int, game: int) -> random.Random:
    """Each game's own random source: a run can stop and go on, or be cut short."""
    return random.Random(f"train:{seed}:{game}")


def generate(games: int, seed: int, solve_empties: int) -> Iterator[list[Sample]]:
    """Seeded self-play games, one list of samples per game."""
    for g in range(games):
        yield self_play_game(game_rng(seed, g), solve_empties)


# --- fitting ------------------------------------------------------------------------------
def _columns() -> tuple[list[int], int]:
    """Offset of each pattern type's (uncompressed) index range in one feature space."""
    offsets, total = [], 0
    for pt in PATTERN_TYPES:
        offsets.append(total)
        total += pt.cells
    return offsets, total


def features(samples: Sequence[Sample]) -> tuple[npt.NDArray[Any], ...]:
    """(pattern columns per sample [N x instances], mobility, empties, labels) as arrays."""
    import numpy as np

    offsets, _ = _columns()
    maps = [canonical_map(n) for n in range(len(PATTERN_TYPES))]
    width = sum(len(pt.instances) for pt in PATTERN_TYPES)
    cols = np.zeros((len(samples), width), dtype=np.int64)
    mob = np.zeros(len(samples), dtype=np.float64)
    empties = np.zeros(len(samples), dtype=np.int64)
    labels = np.zeros(len(samples), dtype=np.float64)
    for i, s in enumerate(samples):
        row: list[int] = []
        for n, idxs in enumerate(instance_indices(s.p, s.o)):
            cmap, off = maps[n], offsets[n]
            row.extend(off + cmap[idx] for idx in idxs)
        cols[i] = row
        mob[i] = bb.legal_moves(s.p, s.o).bit_count() - bb.legal_moves(s.o, s.p).bit_count()
        empties[i] = 64 - (s.p | s.o).bit_count()
        labels[i] = s.label
    return cols, mob, empties, labels


def _design(cols: np.ndarray, mob: np.ndarray, used: np.ndarray) -> Any:
    """Sparse design matrix over the used pattern columns, then mobility and bias."""
    import numpy as np

    sparse = importlib.import_module("scipy.sparse")  # untyped library: used as Any
    n, width = cols.shape
    local = np.searchsorted(used, cols)
    k = len(used)
    rows = np.repeat(np.arange(n), width + 2)
    data_cols = np.concatenate([local, np.full((n, 1), k), np.full((n, 1), k + 1)], axis=1).ravel()
    values = np.concatenate([np.ones((n, width)), mob[:, None], np.ones((n, 1))], axis=1)
    return sparse.csr_matrix((values.ravel(), (rows, data_cols)), shape=(n, k + 2))


def predict(cols: np.ndarray, mob: np.ndarray, used: np.ndarray, x: np.ndarray) -> np.ndarray:
    """A fitted phase's value (discs) of some rows; columns it never saw weigh zero."""
    import numpy as np

    known = np.isin(cols, used)
    pos = np.searchsorted(used, cols).clip(0, len(used) - 1)
    pattern = np.where(known, x[pos], 0.0).sum(axis=1)
    result: np.ndarray = pattern + x[-2] * mob + x[-1]
    return result


def fit_phase(
    cols: np.ndarray,
    mob: np.ndarray,
    targets: np.ndarray,
    labels: np.ndarray,
    train: np.ndarray,
    held: np.ndarray,
    dampings: Sequence[float],
) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Least squares of `targets` for one phase: (used columns, their weights [discs],
    damping, held-out RMS error in discs against the game results `labels`)."""
    import numpy as np

    lsqr = importlib.import_module("scipy.sparse.linalg").lsqr

    used = np.unique(cols[train])
    a_train = _design(cols[train], mob[train], used)
    best: tuple[np.ndarray, float, float] | None = None
    for damp in dampings:
        x = lsqr(a_train, targets[train], damp=damp, atol=1e-6, btol=1e-6, iter_lim=2000)[0]
        if held.any():
            pred = predict(cols[held], mob[held], used, x)
            err = float(np.sqrt(np.mean((pred - labels[held]) ** 2)))
        else:
            err = float(np.sqrt(np.mean((a_train @ x - targets[train]) ** 2)))
        if best is None or err < best[2]:
            best = (x, damp, err)
    assert best is not None
    return used, best[0], best[1], best[2]


def fit(
    samples: Sequence[Sample],
    game_of: Sequence[int],
    seed: int,
    overlap: int,
    dampings: Sequence[float] = DAMPINGS,
    log: Any = print,
) -> tuple[list[tuple[list[list[int]], int, int]], list[dict[str, float]]]:
    """Weights per phase (int16 centidiscs, full tables) and a report per phase."""
    import numpy as np

    cols, mob, empties, labels = features(samples)
    games = np.asarray(game_of)
    held_games = np.random.default_rng(seed).random(int(games.max()) + 1) < 0.1
    held_all = held_games[games]
    offsets, _ = _columns()
    maps = [canonical_map(n) for n in range(len(PATTERN_TYPES))]
    # Bootstrapping: a position's target mixes its game's result with the next phase's fitted
    # value of the position LOOKAHEAD plies later in the same game (less noise from the
    # random play in between); phases are fitted from the last (exact labels) backwards.
    later = np.arange(len(labels)) + LOOKAHEAD
    later[later >= len(labels)] = 0
    same = (games[later] == games) & (np.arange(len(labels)) + LOOKAHEAD < len(labels))
    same &= (labels != 0) & (labels[later] != 0)
    relative = np.sign(labels) * np.sign(labels[later])  # same side to move then, or not
    phases: list[tuple[list[list[int]], int, int]] = []
    report: list[dict[str, float]] = []
    following: tuple[np.ndarray, np.ndarray] | None = None
    for phase in reversed(range(PHASES)):
        targets = labels.copy()
        if following is not None:
            ahead = predict(cols[later[same]], mob[later[same]], *following)
            targets[same] = (1 - BOOTSTRAP) * labels[same] + BOOTSTRAP * relative[same] * ahead
        band = [e for e in range(61) if phase_of(e) == phase]
        lo, hi = min(band) - overlap, max(band) + overlap
        in_band = (empties >= lo) & (empties <= hi)
        in_phase = np.isin(empties, band)
        train = in_band & ~held_all
        held = in_phase & held_all
        if not train.any():
            raise SystemExit(f"train: no positions for phase {phase} ({lo}-{hi} empties)")
        used, x, damp, err = fit_phase(cols, mob, targets, labels, train, held, dampings)
        following = (used, x)
        value = dict(zip(used.tolist(), (x[:-2] * 100).round().astype(int).tolist(), strict=True))
        tables = []
        for n, pt in enumerate(PATTERN_TYPES):
            off, cmap = offsets[n], maps[n]
            tables.append([_clip16(value.get(off + cmap[i], 0)) for i in range(pt.cells)])
        phases.append((tables, _clip16(round(x[-2] * 100)), _clip16(round(x[-1] * 100))))
        base = float(np.sqrt(np.mean(labels[held] ** 2))) if held.any() else float("nan")
        report.append(
            {
                "phase": phase,
                "empties": f"{min(band)}-{max(band)}",  # type: ignore[dict-item]
                "train_positions": int(train.sum()),
                "held_out_positions": int(held.sum()),
                "damping": damp,
                "held_out_rms_discs": round(err, 2),
                "held_out_rms_of_zero": round(base, 2),
            }
        )
        log(f"phase {phase}: {report[-1]}")
    return phases[::-1], report[::-1]


def save_positions(path: Path, samples: Sequence[Sample], game_of: Sequence[int]) -> None:
    import numpy as np

    np.savez_compressed(
        path,
        p=np.array([s.p for s in samples], dtype=np.uint64),
        o=np.array([s.o for s in samples], dtype=np.uint64),
        label=np.array([s.label for s in samples], dtype=np.int8),
        game=np.array(game_of, dtype=np.int32),
    )


def load_positions(path: Path) -> tuple[list[Sample], list[int]]:
    import numpy as np

    with np.load(path) as data:
        samples = [
            Sample(int(p), int(o), int(v))
            for p, o, v in zip(data["p"], data["o"], data["label"], strict=True)
        ]
        return samples, [int(g) for g in data["game"]]


def _clip16(v: int) -> int:
    return max(-32768, min(32767, int(v)))


def ship(data: bytes) -> str:
    """Write the weights into the package and record their checksum in learned.py."""
    WEIGHTS_PATH.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    source_path = Path(__file__).with_name("learned.py")
    source = source_path.read_text()
    source = re.sub(r'WEIGHTS_SHA256 = "[0-9a-f]{64}"', f'WEIGHTS_SHA256 = "{digest}"', source)
    source_path.write_text(source)
    return digest


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12000, help="self-play games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--solve-empties", type=int, default=10, help="exact play from here")
    ap.add_argument("--overlap", type=int, default=3, help="empties a phase borrows each side")
    ap.add_argument("--out", type=Path, help="weights file to write")
    ap.add_argument("--ship", action="store_true", help="install into the package")
    ap.add_argument(
        "--positions",
        type=Path,
        help="positions file (.npz), saved every 250 games; a run goes on from it",
    )
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 1 or not 0 <= args.solve_empties <= 20 or not 0 <= args.overlap <= 30:
        print("train: --games >= 1, --solve-empties 0..20, --overlap 0..30", file=sys.stderr)
        return 2
    if importlib.util.find_spec("numpy") is None or importlib.util.find_spec("scipy") is None:
        print("train: needs numpy and scipy (pip install -e .[train])", file=sys.stderr)
        return 2

    def log(*parts: object) -> None:
        if not args.quiet:
            print(*parts, flush=True)

    t0 = time.process_time()
    samples: list[Sample] = []
    game_of: list[int] = []
    if args.positions is not None and args.positions.exists():
        samples, game_of = load_positions(args.positions)
        log(f"read {len(samples)} positions from {args.positions}")
    done = game_of[-1] + 1 if game_of else 0
    if done > args.games:  # keep the first --games games only
        keep = sum(1 for g in game_of if g < args.games)
        samples, game_of = samples[:keep], game_of[:keep]
    for g in range(done, args.games):
        game = self_play_game(game_rng(args.seed, g), args.solve_empties)
        samples.extend(game)
        game_of.extend([g] * len(game))
        if (g + 1) % 250 == 0 or g + 1 == args.games:
            cpu = time.process_time() - t0
            log(f"{g + 1} games, {len(samples)} positions, {cpu:.0f} s CPU")
            if args.positions is not None:  # resumable: a stopped run goes on from here
                save_positions(args.positions, samples, game_of)
    gen_s = time.process_time() - t0
    log(f"self-play: {args.games} games, {len(samples)} positions, {gen_s:.1f} s CPU")
    phases, report = fit(samples, game_of, args.seed, args.overlap, log=log)
    fit_s = time.process_time() - t0 - gen_s
    meta = {
        "seed": args.seed,
        "games": args.games,
        "positions": len(samples),
        "solve_empties": args.solve_empties,
        "overlap": args.overlap,
        "bootstrap": BOOTSTRAP,
        "lookahead": LOOKAHEAD,
        "phase_width": PHASE_WIDTH,
        "patterns": [pt.name for pt in PATTERN_TYPES],
        "report": report,
    }
    data = encode_weights(phases, meta)
    if args.out is not None:
        args.out.write_bytes(data)
        log(f"wrote {args.out} ({len(data)} bytes)")
    if args.ship:
        log(f"shipped {WEIGHTS_PATH} sha256 {ship(data)}")
    log(f"fit: {fit_s:.1f} s CPU; total {gen_s + fit_s:.1f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
