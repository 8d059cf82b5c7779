"""Touch processing (P-HW-2): raw panel readings -> calibrated, filtered bottom-screen pixels.

Every backend hands the firmware one `RawTouch` (or None) per tick. A resistive panel reads
ADC counts that are noisy, bounce at pen-down and sometimes glitch; the emulator's mouse and
movies give exact pixels. `TouchPipeline` turns either into at most one `TouchPoint` per tick:

1. validity: NaN / infinite / outside the configured raw range / pressure outside 0..1 -> the
   sample is dropped (it never reaches the firmware);
2. pressure below the threshold -> pen up;
3. the first `settle_samples` samples after pen-down are discarded (the panel is still
   settling);
4. calibration: an affine map from raw units to pixels (`Calibration`, fitted like tslib);
5. a per-axis median over the last `median_window` samples removes single spikes;
6. dejitter: the output holds still until the stylus moves more than `dejitter_px` from an
   anchor (the running mean of the resting samples), so a resting stylus does not wander;
7. rounding to the nearest pixel; positions up to `edge_margin_px` outside the screen are
   clamped to the edge, further out they are dropped.

Pure Python (no pygame, no numpy): the numbers are tiny and the device backend must not need
more than the standard library here.
"""

from __future__ import annotations

import math
import statistics
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from hal.interfaces import SCREEN_H, SCREEN_W, RawTouch, TouchPoint

CALIBRATION_FORMAT = "twinfold-touch-calibration-1"


class CalibrationError(ValueError):
    """A calibration could not be fitted or read; the message says why."""


def _solve3(m: list[list[float]], v: list[float]) -> list[float]:
    """Solve the 3x3 system m @ s = v by Gaussian elimination with partial pivoting."""
    a = [[*row, rhs] for row, rhs in zip(m, v, strict=True)]
    for col in range(3):
        pivot = max(range(col, 3), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise CalibrationError("the touched points do not span the panel (singular fit)")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, 3):
            f = a[r][col] / a[col][col]
            for c in range(col, 4):
                a[r][c] -= f * a[col][c]
    s = [0.0, 0.0, 0.0]
    for r in (2, 1, 0):
        s[r] = (a[r][3] - sum(a[r][c] * s[c] for c in range(r + 1, 3))) / a[r][r]
    return s


def _spread_ratio(points: Sequence[tuple[float, float]]) -> float:
    """How two-dimensional a point set is: smallest / largest principal spread (0 = a line)."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points) / n
    syy = sum((p[1] - my) ** 2 for p in points) / n
    sxy = sum((p[0] - mx) * (p[1] - my) for p in points) / n
    trace = sxx + syy
    if trace <= 0.0:
        return 0.0
    det = sxx * syy - sxy * sxy
    disc = math.sqrt(max(trace * trace / 4.0 - det, 0.0))
    largest = trace / 2.0 + disc
    smallest = max(trace / 2.0 - disc, 0.0)
    return math.sqrt(smallest / largest)


# Targets (or raw taps) whose point set is flatter than this are treated as collinear.
MIN_SPREAD_RATIO = 0.02


@dataclass(frozen=True, slots=True)
class Calibration:
    """Affine raw -> pixel map: x = a*rx + b*ry + c, y = d*rx + e*ry + f (tslib's 6 terms).

    tslib stores the same map as seven integers (the six scaled by a common divisor); here the
    coefficients are plain floats.
    """

    a: float
    b: float
    c: float
    d: float
    e: float
    f: float

    @classmethod
    def identity(cls) -> Calibration:
        """Raw units are already pixels (emulator mouse, movies)."""
        return cls(1.0, 0.0, 0.0, 0.0, 1.0, 0.0)

    @classmethod
    def from_ranges(
        cls, raw_x_range: tuple[float, float], raw_y_range: tuple[float, float]
    ) -> Calibration:
        """The uncalibrated default: each raw range stretched linearly over the screen
        (low -> pixel 0, high -> the last pixel). A reversed range (high < low) mirrors."""
        (x0, x1), (y0, y1) = raw_x_range, raw_y_range
        if x0 == x1 or y0 == y1:
            raise CalibrationError("a raw range must not be empty")
        sx = (SCREEN_W - 1) / (x1 - x0)
        sy = (SCREEN_H - 1) / (y1 - y0)
        return cls(sx, 0.0, -sx * x0, 0.0, sy, -sy * y0)

    @property
    def coefficients(self) -> tuple[float, float, float, float, float, float]:
        return (self.a, self.b, self.c, self.d, self.e, self.f)

    @property
    def determinant(self) -> float:
        return self.a * self.e - self.b * self.d

    def apply(self, x: float, y: float) -> tuple[float, float]:
        """Map a raw reading to (unrounded) bottom-screen pixel coordinates."""
        return (self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f)

    @classmethod
    def fit(cls, pairs: Iterable[Sequence[float]]) -> Calibration:
        """Least-squares fit from (raw_x, raw_y, screen_x, screen_y) pairs, as tslib does.

        Needs at least 3 pairs (the firmware's calibration scene uses 5) whose screen targets
        and raw readings both span an area; raises CalibrationError otherwise.
        """
        pts: list[tuple[float, float, float, float]] = []
        for i, pair in enumerate(pairs):
            try:
                rx, ry, sx, sy = (float(v) for v in pair)
            except (TypeError, ValueError) as exc:
                raise CalibrationError(
                    f"pair {i + 1} must be four numbers (raw_x, raw_y, screen_x, screen_y)"
                ) from exc
            if not all(math.isfinite(v) for v in (rx, ry, sx, sy)):
                raise CalibrationError(f"pair {i + 1} contains a non-finite number")
            pts.append((rx, ry, sx, sy))
        if len(pts) < 3:
            raise CalibrationError(f"at least 3 touched targets are needed, got {len(pts)}")
        if _spread_ratio([(p[2], p[3]) for p in pts]) < MIN_SPREAD_RATIO:
            raise CalibrationError("the screen targets are collinear or coincide")
        if _spread_ratio([(p[0], p[1]) for p in pts]) < MIN_SPREAD_RATIO:
            raise CalibrationError(
                "the touches were (almost) on one line or one spot; touch each target in turn"
            )
        # Centre the raw readings so the normal equations stay well conditioned.
        n = len(pts)
        cx = sum(p[0] for p in pts) / n
        cy = sum(p[1] for p in pts) / n
        rows = [(p[0] - cx, p[1] - cy, 1.0) for p in pts]
        m = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
        vx = [sum(r[i] * p[2] for r, p in zip(rows, pts, strict=True)) for i in range(3)]
        vy = [sum(r[i] * p[3] for r, p in zip(rows, pts, strict=True)) for i in range(3)]
        a, b, c0 = _solve3(m, vx)
        d, e, f0 = _solve3(m, vy)
        cal = cls(a, b, c0 - a * cx - b * cy, d, e, f0 - d * cx - e * cy)
        if not all(math.isfinite(v) for v in cal.coefficients) or abs(cal.determinant) < 1e-12:
            raise CalibrationError("the fitted map is degenerate")
        return cal

    def residuals(self, pairs: Iterable[Sequence[float]]) -> list[float]:
        """Distance in pixels between each target and where its raw reading maps to."""
        out = []
        for rx, ry, sx, sy in pairs:
            px, py = self.apply(rx, ry)
            out.append(math.hypot(px - sx, py - sy))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"format": CALIBRATION_FORMAT, "matrix": list(self.coefficients)}

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        """Read `to_json` output back; raises CalibrationError on anything malformed."""
        if not isinstance(data, Mapping):
            raise CalibrationError("calibration data must be an object")
        if data.get("format") != CALIBRATION_FORMAT:
            raise CalibrationError(f"calibration format must be {CALIBRATION_FORMAT!r}")
        matrix = data.get("matrix")
        if not isinstance(matrix, list) or len(matrix) != 6:
            raise CalibrationError("calibration matrix must be a list of 6 numbers")
        for v in matrix:
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise CalibrationError("calibration matrix must hold 6 finite numbers")
        cal = cls(*(float(v) for v in matrix))
        if abs(cal.determinant) < 1e-12:
            raise CalibrationError("calibration matrix is degenerate (it folds the panel flat)")
        return cal


@dataclass(frozen=True, slots=True)
class TouchFilterConfig:
    """Filter settings. Pressure is in 0..1 (backends normalise their own range to it)."""

    # Samples with a pressure below this are "pen up" (no pressure reading: always down).
    pressure_threshold: float = 0.0
    # Valid samples discarded after each pen-down while the panel settles.
    settle_samples: int = 0
    # Per-axis median over this many recent samples (1 = off).
    median_window: int = 1
    # The output holds until the filtered position moves more than this (0 = off).
    dejitter_px: float = 0.0
    # Ticks of pen-up / invalid samples during a stroke that hold the last point instead of
    # ending the stroke (bridges a glitch; 0 = every pen-up is a release at once).
    release_grace: int = 0
    # Calibrated positions this far outside the screen are clamped to the edge; further out
    # the sample is dropped.
    edge_margin_px: float = 0.0
    # Accepted raw ranges (inclusive); None = no raw range check.
    raw_x_range: tuple[float, float] | None = None
    raw_y_range: tuple[float, float] | None = None

    NONE: ClassVar[TouchFilterConfig]
    RESISTIVE: ClassVar[TouchFilterConfig]

    def __post_init__(self) -> None:
        if not 0.0 <= self.pressure_threshold <= 1.0:
            raise ValueError("pressure_threshold must be within 0..1")
        if self.settle_samples < 0 or self.release_grace < 0:
            raise ValueError("settle_samples and release_grace must be >= 0")
        if self.median_window < 1:
            raise ValueError("median_window must be >= 1")
        if self.dejitter_px < 0 or self.edge_margin_px < 0:
            raise ValueError("dejitter_px and edge_margin_px must be >= 0")
        for rng in (self.raw_x_range, self.raw_y_range):
            if rng is not None and not rng[0] < rng[1]:
                raise ValueError("a raw range must be (low, high) with low < high")

    def raw_pressed(self, raw: RawTouch | None) -> tuple[float, float, float | None] | None:
        """(x, y, pressure) of a valid pressed raw sample, or None: stylus up, pressure below
        the threshold, NaN / infinite, or outside the raw range. No calibration involved."""
        if raw is None:
            return None
        try:
            x, y = float(raw.x), float(raw.y)
            p = None if raw.pressure is None else float(raw.pressure)
        except (TypeError, ValueError):
            return None
        if not (math.isfinite(x) and math.isfinite(y)):
            return None
        if p is not None and not (math.isfinite(p) and 0.0 <= p <= 1.0):
            return None
        if self.raw_x_range and not self.raw_x_range[0] <= x <= self.raw_x_range[1]:
            return None
        if self.raw_y_range and not self.raw_y_range[0] <= y <= self.raw_y_range[1]:
            return None
        if p is not None and p < self.pressure_threshold:
            return None
        return x, y, p


# Exact: pixels pass straight through (emulator mouse, movies), still range-checked.
TouchFilterConfig.NONE = TouchFilterConfig()
# A 12-bit resistive controller (ADS7846 / XPT2046 through the kernel's ads7846 driver).
TouchFilterConfig.RESISTIVE = TouchFilterConfig(
    pressure_threshold=0.05,
    settle_samples=2,
    median_window=5,
    dejitter_px=2.0,
    release_grace=1,
    edge_margin_px=8.0,
    raw_x_range=(0.0, 4095.0),
    raw_y_range=(0.0, 4095.0),
)


# A resting stylus's anchor averages at most this many recent filtered samples.
ANCHOR_AVERAGE_CAP = 32


def _round_half_up(v: float) -> int:
    return math.floor(v + 0.5)


class TouchPipeline:
    """Calibration plus filtering; `process` is called exactly once per tick."""

    def __init__(
        self,
        calibration: Calibration | None = None,
        config: TouchFilterConfig = TouchFilterConfig.NONE,
    ) -> None:
        self.calibration = calibration or Calibration.identity()
        self.config = config
        self.reset()

    def reset(self) -> None:
        """Forget any stroke in progress (e.g. after the lid opens or calibration changes)."""
        self._settle_left = -1  # -1: pen up; >0: discarding; 0: stroke running
        self._window: deque[tuple[float, float]] = deque(maxlen=self.config.median_window)
        self._held: tuple[float, float] | None = None  # dejitter anchor (unrounded px)
        self._held_n = 0
        self._last: TouchPoint | None = None
        self._gap = 0

    def set_calibration(self, calibration: Calibration) -> None:
        self.calibration = calibration
        self.reset()

    def _pressed_sample(self, raw: RawTouch | None) -> tuple[float, float, float | None] | None:
        """The calibrated pressed position of a sample, or None (pen up or invalid)."""
        valid = self.config.raw_pressed(raw)
        if valid is None:
            return None
        x, y, p = valid
        cfg = self.config
        px, py = self.calibration.apply(x, y)
        if not (math.isfinite(px) and math.isfinite(py)):
            return None
        m = cfg.edge_margin_px
        if not (-m - 0.5 <= px < SCREEN_W - 0.5 + m and -m - 0.5 <= py < SCREEN_H - 0.5 + m):
            return None
        return px, py, p

    def process(self, raw: RawTouch | None) -> TouchPoint | None:
        sample = self._pressed_sample(raw)
        cfg = self.config
        if sample is None:
            if self._settle_left == 0 and self._gap < cfg.release_grace:
                self._gap += 1
                return self._last
            self.reset()
            return None
        self._gap = 0
        px, py, pressure = sample
        if self._settle_left < 0:
            self._settle_left = cfg.settle_samples
        if self._settle_left > 0:
            self._settle_left -= 1
            return None
        self._window.append((px, py))
        if len(self._window) == 1:
            fx, fy = px, py
        else:
            fx = statistics.median(s[0] for s in self._window)
            fy = statistics.median(s[1] for s in self._window)
        held = self._held
        if held is None or math.hypot(fx - held[0], fy - held[1]) > cfg.dejitter_px:
            # A real move (or the first point): jump there at once.
            held, self._held_n = (fx, fy), 1
        elif cfg.dejitter_px > 0:
            # Resting: refine the anchor with a running mean (capped, so it stays responsive)
            # instead of keeping whatever noisy sample happened to start the rest.
            self._held_n = min(self._held_n + 1, ANCHOR_AVERAGE_CAP)
            k = 1.0 / self._held_n
            held = (held[0] + (fx - held[0]) * k, held[1] + (fy - held[1]) * k)
        self._held = held
        hx, hy = held
        x = min(max(_round_half_up(hx), 0), SCREEN_W - 1)
        y = min(max(_round_half_up(hy), 0), SCREEN_H - 1)
        self._last = TouchPoint(x, y, pressure)
        return self._last


class TargetSampler:
    """Collects one calibration tap in raw units (the calibration scene's helper).

    Feed it the raw sample of every tick; when the stylus lifts after a stroke it returns the
    per-axis median raw position of that stroke (settling samples dropped, as in the
    pipeline), else None. It works before any calibration exists: only the raw checks of
    the profile apply.
    """

    def __init__(self, config: TouchFilterConfig = TouchFilterConfig.NONE) -> None:
        self.config = config
        self.reset()

    def reset(self) -> None:
        self._seen = 0
        self._xs: list[float] = []
        self._ys: list[float] = []

    def feed(self, raw: RawTouch | None) -> tuple[float, float] | None:
        sample = self.config.raw_pressed(raw)
        if sample is not None:
            self._seen += 1
            if self._seen > self.config.settle_samples:
                self._xs.append(sample[0])
                self._ys.append(sample[1])
            return None
        if not self._xs:
            self.reset()
            return None
        point = (statistics.median(self._xs), statistics.median(self._ys))
        self.reset()
        return point
