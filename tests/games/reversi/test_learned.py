"""Learned pattern evaluation: the shipped weights, symmetry, the fast evaluator against the
square-by-square one, refusal of damaged files, and the training pipeline end to end."""

from __future__ import annotations

import hashlib
import random

import pytest

from games.reversi.ai import learned
from games.reversi.ai.learned import (
    WEIGHTS_PATH,
    WEIGHTS_SHA256,
    WeightsError,
    decode_weights,
    encode_weights,
    make_evaluator,
    reference_evaluate,
    shipped_weights,
    transpose,
)
from games.reversi.ai.patterns import (
    PATTERN_TYPES,
    PHASES,
    canonical_map,
    instance_indices,
    permute_index,
    transform_board,
)
from games.reversi.rules import Game


def positions(seed: int, games: int) -> list[tuple[int, int]]:
    """Every position (side to move, other side) of a few random games, finished ones too."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        g = Game()
        while not g.over:
            g.play(rng.choice(sorted(g.legal())))
            out.append((g.position.player, g.position.opponent))
    return out


def test_shipped_weights_match_their_recorded_checksum():
    data = WEIGHTS_PATH.read_bytes()
    assert hashlib.sha256(data).hexdigest() == WEIGHTS_SHA256
    weights = shipped_weights()
    assert weights.meta["format"] == learned.WEIGHTS_FORMAT
    assert len(weights.phases) == PHASES
    # Trained, not blank: every phase has non-zero pattern weights.
    for tables, _mobility, _bias in weights.phases:
        assert any(any(t) for t in tables)


def test_shipped_evaluation_is_the_same_on_all_eight_symmetric_boards():
    evaluate = make_evaluator(shipped_weights())
    for p, o in positions(1, 12)[::3]:
        value = evaluate(p, o)
        for s in range(1, 8):
            assert evaluate(transform_board(p, s), transform_board(o, s)) == value


def test_fast_evaluator_equals_the_square_by_square_sum():
    weights = shipped_weights()
    evaluate = make_evaluator(weights)
    for p, o in positions(2, 6):
        assert evaluate(p, o) == reference_evaluate(weights, p, o)


def test_finished_games_score_exactly():
    evaluate = make_evaluator(shipped_weights())
    for p, o in positions(3, 10):
        g_over = not (learned.legal_moves(p, o) or learned.legal_moves(o, p))
        if g_over:
            d = p.bit_count() - o.bit_count()
            assert evaluate(p, o) == d * 100 + (10000 if d > 0 else -10000 if d < 0 else 0)


def test_pattern_geometry():
    # Instances are disjoint images of the base; the index reads each square once.
    for pt in PATTERN_TYPES:
        assert len({frozenset(i) for i in pt.instances}) == len(pt.instances)
        assert all(len(set(i)) == pt.size for i in pt.instances)
    # The transposition trick is the diagonal mirror.
    rng = random.Random(5)
    for _ in range(50):
        b = rng.getrandbits(64)
        assert transpose(b) == transform_board(b, 4)
    # Tied indexes are equal under the type's self-symmetries.
    edge = canonical_map(0)
    for idx in random.Random(6).sample(range(PATTERN_TYPES[0].cells), 200):
        for perm in PATTERN_TYPES[0].self_maps:
            assert edge[permute_index(idx, perm)] == edge[idx]
    # Index digits: a1 row of the edge for the side to move.
    p, o = 0b0000_0011, 0b1000_0000  # a1 b1 mine, h1 theirs
    assert instance_indices(p, o)[0][0] == 1 + 3 + 2 * 3**7


def test_damaged_or_foreign_weights_are_refused_with_a_reason():
    data = WEIGHTS_PATH.read_bytes()
    with pytest.raises(WeightsError, match="checksum"):
        decode_weights(data[:-2] + b" \n")
    with pytest.raises(WeightsError, match=r"damaged|format"):
        decode_weights(b"{not json", expected_sha256=None)
    with pytest.raises(WeightsError, match=r"format|phase"):
        decode_weights(b'{"format": "other"}', expected_sha256=None)
    # A well-formed file of the wrong size.
    short = data.replace(b'"phases": 6', b'"phases": 6 ')
    with pytest.raises(WeightsError):
        decode_weights(short)


def test_encode_decode_round_trip():
    rng = random.Random(9)
    phases = []
    for _ in range(PHASES):
        tables = [[rng.randint(-900, 900) for _ in range(pt.cells)] for pt in PATTERN_TYPES]
        phases.append((tables, rng.randint(-99, 99), rng.randint(-99, 99)))
    back = decode_weights(encode_weights(phases, {"seed": 9}), expected_sha256=None)
    assert back.phases == [(t, m, b) for t, m, b in phases]
    assert back.meta["seed"] == 9


def test_training_pipeline_end_to_end_on_a_tiny_set(tmp_path):
    pytest.importorskip("numpy", reason="the training tool needs the train extra (numpy)")
    pytest.importorskip("scipy", reason="the training tool needs the train extra (scipy)")
    from games.reversi.ai import train

    out1, out2 = tmp_path / "a.json", tmp_path / "b.json"
    args = ["--games", "6", "--seed", "4", "--solve-empties", "8", "--quiet"]
    assert train.main([*args, "--out", str(out1)]) == 0
    assert train.main([*args, "--out", str(out2), "--positions", str(tmp_path / "p.npz")]) == 0
    assert out1.read_bytes() == out2.read_bytes()  # reproducible from the seed
    # The positions file is reused as is.
    assert train.main([*args, "--out", str(out2), "--positions", str(tmp_path / "p.npz")]) == 0
    assert out1.read_bytes() == out2.read_bytes()
    weights = decode_weights(out1.read_bytes(), expected_sha256=None)
    assert weights.meta["games"] == 6 and weights.meta["positions"] > 6 * 40
    evaluate = make_evaluator(weights)
    # Fitted to outcomes: a position where the side to move owns everything but one corner
    # region scores far better than the mirrored one.
    for p, o in positions(8, 2)[::7]:
        assert evaluate(p, o) == reference_evaluate(weights, p, o)
    assert train.main(["--games", "0", "--quiet"]) == 2
