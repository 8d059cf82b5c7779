import json
import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hal.interfaces import SCREEN_H, SCREEN_W, RawTouch, TouchPoint
from hal.touch import (
    Calibration,
    CalibrationError,
    TargetSampler,
    TouchFilterConfig,
    TouchPipeline,
)

# A plausible ADS7846 panel: 12-bit readings, axes slightly rotated, y inverted, offsets.
TRUE = Calibration(0.0672, 0.0015, -14.0, -0.0012, -0.0502, 198.0)

FIVE_TARGETS = [(32, 24), (224, 24), (224, 168), (32, 168), (128, 96)]


def raw_for(cal: Calibration, sx: float, sy: float) -> tuple[float, float]:
    """Invert the affine map: the raw reading that lands exactly on (sx, sy)."""
    det = cal.determinant
    x, y = sx - cal.c, sy - cal.f
    return ((cal.e * x - cal.b * y) / det, (-cal.d * x + cal.a * y) / det)


def test_fit_recovers_known_matrix_from_noisy_taps():
    rng = random.Random(7)
    for _ in range(50):
        pairs = []
        for sx, sy in FIVE_TARGETS:
            rx, ry = raw_for(TRUE, sx, sy)
            # about 0.25 px of noise per axis (a raw count is ~1/17 px)
            pairs.append((rx + rng.gauss(0, 4), ry + rng.gauss(0, 4), sx, sy))
        fitted = Calibration.fit(pairs)
        # Anywhere on the screen the fitted map is within 1 px of the true one.
        for sx in range(0, SCREEN_W, 15):
            for sy in range(0, SCREEN_H, 15):
                rx, ry = raw_for(TRUE, sx, sy)
                fx, fy = fitted.apply(rx, ry)
                assert math.hypot(fx - sx, fy - sy) < 1.0


def test_fit_is_exact_without_noise_and_with_three_points():
    pairs = [(*raw_for(TRUE, sx, sy), sx, sy) for sx, sy in FIVE_TARGETS[:3]]
    fitted = Calibration.fit(pairs)
    for got, want in zip(fitted.coefficients, TRUE.coefficients, strict=True):
        assert got == pytest.approx(want, rel=1e-6, abs=1e-6)
    assert max(fitted.residuals(pairs)) < 1e-6


def test_fit_rejects_too_few_points():
    with pytest.raises(CalibrationError, match="at least 3"):
        Calibration.fit([(1, 2, 3, 4), (5, 6, 7, 8)])


def test_fit_rejects_collinear_targets():
    pairs = [(*raw_for(TRUE, s, s), s, s) for s in (10, 50, 90, 130, 170)]
    with pytest.raises(CalibrationError, match="collinear"):
        Calibration.fit(pairs)


def test_fit_rejects_taps_on_one_spot():
    pairs = [(2000.0, 2000.0, sx, sy) for sx, sy in FIVE_TARGETS]
    with pytest.raises(CalibrationError, match="one spot"):
        Calibration.fit(pairs)


def test_fit_rejects_garbage_pairs():
    with pytest.raises(CalibrationError, match="four numbers"):
        Calibration.fit([(1, 2, 3), (1, 2, 3, 4), (5, 6, 7, 8)])
    with pytest.raises(CalibrationError, match="non-finite"):
        Calibration.fit([(1, float("nan"), 3, 4), (1, 2, 3, 4), (5, 6, 7, 8)])


def test_from_ranges_maps_the_raw_corners_to_the_screen_corners():
    cal = Calibration.from_ranges((100, 3900), (3950, 150))  # y mirrored on this panel
    assert cal.apply(100, 3950) == pytest.approx((0, 0))
    assert cal.apply(3900, 150) == pytest.approx((SCREEN_W - 1, SCREEN_H - 1))
    with pytest.raises(CalibrationError):
        Calibration.from_ranges((5, 5), (0, 10))


def test_json_round_trip_and_rejection():
    data = json.loads(json.dumps(TRUE.to_json()))
    assert Calibration.from_json(data) == TRUE
    bad = [
        None,
        [],
        {"matrix": [1, 0, 0, 0, 1, 0]},
        {"format": "twinfold-touch-calibration-1", "matrix": [1, 0, 0, 0, 1]},
        {"format": "twinfold-touch-calibration-1", "matrix": [1, 0, 0, 0, "1", 0]},
        {"format": "twinfold-touch-calibration-1", "matrix": [1, 0, 0, 0, True, 0]},
        {"format": "twinfold-touch-calibration-1", "matrix": [1, 0, 0, 0, float("inf"), 0]},
        {"format": "twinfold-touch-calibration-1", "matrix": [1, 2, 0, 2, 4, 0]},  # singular
    ]
    for item in bad:
        with pytest.raises(CalibrationError):
            Calibration.from_json(item)


def feed(pipe: TouchPipeline, samples):
    return [pipe.process(s) for s in samples]


def test_exact_profile_passes_pixels_straight_through():
    pipe = TouchPipeline(Calibration.identity(), TouchFilterConfig.NONE)
    assert pipe.process(RawTouch(0, 0)) == TouchPoint(0, 0)
    assert pipe.process(RawTouch(255, 191, 0.5)) == TouchPoint(255, 191, 0.5)
    assert pipe.process(RawTouch(17, 3)) == TouchPoint(17, 3)
    assert pipe.process(None) is None
    assert pipe.process(RawTouch(128, 96)) == TouchPoint(128, 96)


def test_exact_profile_drops_out_of_range_and_nan():
    pipe = TouchPipeline(Calibration.identity(), TouchFilterConfig.NONE)
    for raw in [
        RawTouch(256, 10),
        RawTouch(-1, 10),
        RawTouch(10, 192),
        RawTouch(10, -3),
        RawTouch(float("nan"), 10),
        RawTouch(10, float("inf")),
        RawTouch(10, 10, float("nan")),
        RawTouch(10, 10, 1.5),
        RawTouch(10, 10, -0.1),
    ]:
        assert pipe.process(raw) is None, raw


def resistive_pipe() -> TouchPipeline:
    return TouchPipeline(TRUE, TouchFilterConfig.RESISTIVE)


def noisy(rng: random.Random, sx: float, sy: float, sigma: float = 8.0, p: float = 0.6):
    rx, ry = raw_for(TRUE, sx, sy)
    return RawTouch(rx + rng.gauss(0, sigma), ry + rng.gauss(0, sigma), p)


def test_resistive_rests_within_one_pixel():
    rng = random.Random(3)
    for trial in range(20):
        sx, sy = rng.uniform(5, 250), rng.uniform(5, 186)
        pipe = resistive_pipe()
        samples = []
        for i in range(600):
            s = noisy(rng, sx, sy)
            if i % 37 == 11:  # an occasional wild spike
                s = RawTouch(rng.uniform(0, 4095), rng.uniform(0, 4095), 0.6)
            samples.append(s)
        out = feed(pipe, samples)
        cfg = TouchFilterConfig.RESISTIVE
        assert all(p is None for p in out[: cfg.settle_samples])
        pts = out[cfg.settle_samples :]
        assert all(p is not None for p in pts), trial
        # every output is near the stylus, including the first ones from a part-filled median
        assert all(abs(p.x - sx) <= 3 and abs(p.y - sy) <= 3 for p in pts), trial
        # after the first few ticks of a stroke (while the median fills and the resting anchor
        # averages enough samples) the point holds within 1 px for the whole rest
        rest = pts[10:]
        xs, ys = [p.x for p in rest], [p.y for p in rest]
        assert max(xs) - min(xs) <= 1 and max(ys) - min(ys) <= 1, trial
        assert all(abs(p.x - sx) <= 1.5 and abs(p.y - sy) <= 1.5 for p in rest), trial


def test_resistive_discards_settling_samples():
    rng = random.Random(4)
    pipe = resistive_pipe()
    settle = TouchFilterConfig.RESISTIVE.settle_samples
    # The settling samples are wildly off; none of them reach the output or the median.
    bounce = [RawTouch(rng.uniform(0, 4095), rng.uniform(0, 4095), 0.3) for _ in range(settle)]
    out = feed(pipe, bounce + [noisy(rng, 100, 100, sigma=0) for _ in range(5)])
    assert out[:settle] == [None] * settle
    assert all(p is not None and (p.x, p.y) == (100, 100) for p in out[settle:])


def test_resistive_pressure_threshold_and_release():
    rng = random.Random(5)
    pipe = resistive_pipe()
    grace = TouchFilterConfig.RESISTIVE.release_grace
    down = [noisy(rng, 60, 60, sigma=0) for _ in range(6)]
    light = [noisy(rng, 60, 60, sigma=0, p=0.01) for _ in range(grace + 1)]
    out = feed(pipe, down + light)
    assert out[5] is not None
    # a light touch is pen up: after the grace ticks (holding the point) the stroke ends
    assert out[6 : 6 + grace] == [out[5]] * grace
    assert out[-1] is None
    # pen down again: settling starts afresh
    assert pipe.process(noisy(rng, 60, 60, sigma=0)) is None


def test_resistive_drops_nan_and_out_of_range_without_passing_them_on():
    rng = random.Random(6)
    pipe = resistive_pipe()
    feed(pipe, [noisy(rng, 80, 40, sigma=0) for _ in range(6)])
    held = pipe.process(noisy(rng, 80, 40, sigma=0))
    assert held is not None
    for bad in [
        RawTouch(float("nan"), 100, 0.5),
        RawTouch(5000, 100, 0.5),
        RawTouch(-1, 100, 0.5),
        RawTouch(100, float("-inf"), 0.5),
    ]:
        # a single glitch within the stroke holds the last good point ...
        assert pipe.process(bad) == held
        # ... and the stroke continues where it was
        assert pipe.process(noisy(rng, 80, 40, sigma=0)) == held
    # calibrated far off screen: dropped, not clamped
    far = RawTouch(*raw_for(TRUE, -40, 50), 0.5)
    pipe.reset()
    assert feed(pipe, [far] * 10) == [None] * 10
    # slightly off screen (within the edge margin): clamped to the edge
    near = RawTouch(*raw_for(TRUE, -3, 50), 0.5)
    assert feed(pipe, [near] * 5)[-1] == TouchPoint(0, 50, 0.5)


def test_resistive_follows_a_moving_stylus():
    pipe = resistive_pipe()
    out = feed(pipe, [RawTouch(*raw_for(TRUE, 20 + i, 100), 0.5) for i in range(200)])
    last = out[-1]
    assert last is not None
    # lag is bounded by the median window and the dejitter threshold
    assert 219 - last.x <= 2 + TouchFilterConfig.RESISTIVE.dejitter_px + 1
    xs = [p.x for p in out if p is not None]
    assert xs == sorted(xs)


raw_values = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-100, max_value=4200),
    st.integers(min_value=-10, max_value=300),
)
raw_touch = st.one_of(
    st.none(),
    st.builds(
        RawTouch,
        raw_values,
        raw_values,
        st.one_of(st.none(), st.floats(allow_nan=True), st.floats(0, 1)),
    ),
)
calibrations = st.sampled_from([Calibration.identity(), TRUE])
configs = st.sampled_from([TouchFilterConfig.NONE, TouchFilterConfig.RESISTIVE])


@settings(max_examples=300)
@given(calibrations, configs, st.lists(raw_touch, max_size=60))
def test_output_is_always_on_screen_and_finite(cal, cfg, samples):
    pipe = TouchPipeline(cal, cfg)
    for s in samples:
        p = pipe.process(s)
        if p is None:
            continue
        assert isinstance(p.x, int) and isinstance(p.y, int)
        assert 0 <= p.x < SCREEN_W and 0 <= p.y < SCREEN_H
        assert p.pressure is None or (math.isfinite(p.pressure) and 0 <= p.pressure <= 1)


@given(
    st.lists(
        st.one_of(
            st.none(),
            st.builds(
                RawTouch,
                st.integers(0, SCREEN_W - 1),
                st.integers(0, SCREEN_H - 1),
                st.one_of(st.none(), st.floats(0, 1)),
            ),
        ),
        max_size=40,
    )
)
def test_exact_profile_is_exact_for_on_screen_pixels(samples):
    pipe = TouchPipeline(Calibration.identity(), TouchFilterConfig.NONE)
    for s in samples:
        want = None if s is None else TouchPoint(s.x, s.y, s.pressure)
        assert pipe.process(s) == want


coef = st.floats(min_value=-0.2, max_value=0.2)
offsets = st.floats(min_value=-300, max_value=300)


@given(coef, coef, offsets, coef, coef, offsets)
def test_fit_recovers_any_non_degenerate_map_exactly(a, b, c, d, e, f):
    cal = Calibration(a, b, c, d, e, f)
    # keep maps that do not squash the panel (a real panel spans the screen): singular values
    # not too small and condition number below 10
    det = abs(cal.determinant)
    frob = a * a + b * b + d * d + e * e
    assume(det > 1e-3)
    s1 = math.sqrt((frob + math.sqrt(max(frob * frob - 4 * det * det, 0.0))) / 2)
    assume(s1 / (det / s1) < 10)
    pairs = [(*raw_for(cal, sx, sy), sx, sy) for sx, sy in FIVE_TARGETS]
    fitted = Calibration.fit(pairs)
    assert max(fitted.residuals(pairs)) < 1e-6
    assert Calibration.from_json(json.loads(json.dumps(fitted.to_json()))) == fitted


def test_target_sampler_gives_the_median_raw_point_of_each_tap():
    rng = random.Random(11)
    sampler = TargetSampler(TouchFilterConfig.RESISTIVE)
    pairs = []
    for sx, sy in FIVE_TARGETS:
        rx, ry = raw_for(TRUE, sx, sy)
        stroke = [RawTouch(rng.uniform(0, 4095), rng.uniform(0, 4095), 0.5)] * 2  # landing
        stroke += [RawTouch(rx + rng.gauss(0, 8), ry + rng.gauss(0, 8), 0.5) for _ in range(9)]
        stroke[6] = RawTouch(4000, 10, 0.5)  # one spike
        stroke += [RawTouch(rx, ry, 0.01), None, None]  # light touch = lifted
        got = [sampler.feed(s) for s in stroke]
        points = [g for g in got if g is not None]
        assert len(points) == 1 and got.index(points[0]) == 11
        assert abs(points[0][0] - rx) < 12 and abs(points[0][1] - ry) < 12
        pairs.append((*points[0], sx, sy))
    fitted = Calibration.fit(pairs)
    assert max(fitted.residuals(pairs)) < 1.0
    # invalid samples never count, and a stroke of nothing but settling gives no point
    assert sampler.feed(RawTouch(float("nan"), 1, 0.5)) is None
    assert [sampler.feed(s) for s in [RawTouch(5, 5, 0.5), None]] == [None, None]
