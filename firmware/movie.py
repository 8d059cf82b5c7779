"""Input movies (P-MOV): a text script of per-frame input, played by `headless` and `emu` and
recorded by the emulator.

Format (UTF-8, one event per line, platform.md §5):

    # twinfold movie 1
    0 press A
    6 release A
    30 touch 120 88
    33 untouch
    40 tap 200 40        # touch for 3 frames, then release

The first line must be the header `# twinfold movie 1`. `#` starts a comment anywhere; blank
lines are ignored. A comment line `# args: --game reversi --seed 3 --option mode=two` carries
the command-line arguments the movie was made with (`--game`, `--seed`, `--option`; quoted as
in a shell); `headless` and `emu` use them unless the command line says otherwise, and the
emulator's recorder writes the line.

`FRAME` is a decimal frame number counted from 0 at boot; frames never go
backwards (several events may share a frame and apply in file order). Events apply at the
start of their frame and the state holds until changed. Verbs:

    press BUTTON | release BUTTON       BUTTON: UP DOWN LEFT RIGHT A B X Y L R START SELECT
    touch X Y [PRESSURE]                X 0..255, Y 0..191 bottom-screen pixels; PRESSURE 0..1
    untouch
    tap X Y                             touch at FRAME..FRAME+2, stylus up at FRAME+3 (a later
                                        touch / untouch / tap before then takes over instead)
    lid close | lid open
    power press | power release         extension: the POWER switch (P-HW-4)
    computer REQUEST POLL               extension: a computer's answer from its worker
                                        process, asked for at frame REQUEST, came late and
                                        was applied at its POLL-th poll, in FRAME (the
                                        recorder writes these; firmware/match/pacing.py)

Playback is random access: `MoviePlayer.input_at(frame)` may be asked for any frame in any
order (it looks the state up in the precomputed change list). `computer` lines are not
input: the player hands them to the machine's pacing (`MoviePlayer.landings`), so a late
worker answer is applied at the same tick again.
"""

from __future__ import annotations

import bisect
import math
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from hal.interfaces import SCREEN_H, SCREEN_W, Button, RawInput, RawTouch

HEADER = "# twinfold movie 1"
ARGS_PREFIX = "# args:"
TAP_FRAMES = 3
MAX_FRAME = 10**9  # about 190 days at 60 Hz: anything larger is a typo

VERBS = ("press", "release", "touch", "untouch", "tap", "lid", "power", "computer")
_INT = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_BUTTON_NAMES = " ".join(b.value for b in Button)


class MovieError(ValueError):
    """A malformed movie; `line` is the 1-based line number (None: not from a text line)."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {reason}" if line is not None else reason)
        self.reason = reason
        self.line = line


@dataclass(frozen=True, slots=True)
class MovieEvent:
    """One line of a movie. Only the fields its verb uses are set."""

    frame: int
    verb: str
    button: Button | None = None  # press, release
    x: int | None = None  # touch, tap
    y: int | None = None
    pressure: float | None = None  # touch (optional)
    on: bool | None = None  # lid: closed?  power: pressed?
    request: int | None = None  # computer: the frame the answer was asked for
    poll: int | None = None  # computer: the poll it was applied at
    line: int | None = field(default=None, compare=False)

    def to_text(self) -> str:
        v = self.verb
        if v in ("press", "release"):
            assert self.button is not None
            args = [self.button.value]
        elif v in ("touch", "tap"):
            args = [str(self.x), str(self.y)]
            if self.pressure is not None:
                args.append(repr(float(self.pressure)))
        elif v == "lid":
            args = ["close" if self.on else "open"]
        elif v == "power":
            args = ["press" if self.on else "release"]
        elif v == "computer":
            args = [str(self.request), str(self.poll)]
        else:
            args = []
        return " ".join([str(self.frame), v, *args])


def _check_xy(x: int, y: int, line: int | None) -> None:
    if not (0 <= x < SCREEN_W and 0 <= y < SCREEN_H):
        raise MovieError(
            f"coordinates ({x}, {y}) are outside the lower screen "
            f"(0..{SCREEN_W - 1} x 0..{SCREEN_H - 1})",
            line,
        )


def _check_pressure(p: float, line: int | None) -> None:
    if not (math.isfinite(p) and 0.0 <= p <= 1.0):
        raise MovieError(f"pressure {p!r} is outside 0..1", line)


def _parse_int(token: str, what: str, line: int) -> int:
    if re.fullmatch(r"-[0-9]+", token):
        why = "frames count from 0 at boot" if what == "frame" else "it must be 0 or more"
        raise MovieError(f"{what} {token} is negative: {why}", line)
    if not _INT.fullmatch(token):
        raise MovieError(f"{what} must be a whole number, got {token!r}", line)
    return int(token)


def _parse_event(tokens: list[str], line: int) -> MovieEvent:
    frame = _parse_int(tokens[0], "frame", line)
    if frame > MAX_FRAME:
        raise MovieError(f"frame {frame} is too large (at most {MAX_FRAME})", line)
    if len(tokens) < 2:
        raise MovieError("missing verb after the frame number", line)
    verb, args = tokens[1], tokens[2:]

    def need(lo: int, hi: int, usage: str) -> None:
        if not lo <= len(args) <= hi:
            what = "missing arguments" if len(args) < lo else "too many arguments"
            raise MovieError(f"{what}: usage is '{usage}'", line)

    if verb in ("press", "release"):
        need(1, 1, f"FRAME {verb} BUTTON")
        try:
            button = Button(args[0])
        except ValueError:
            raise MovieError(
                f"unknown button {args[0]!r} (buttons: {_BUTTON_NAMES})", line
            ) from None
        return MovieEvent(frame, verb, button=button, line=line)
    if verb in ("touch", "tap"):
        if verb == "touch":
            need(2, 3, "FRAME touch X Y [PRESSURE]")
        else:
            need(2, 2, "FRAME tap X Y")
        x = _parse_int(args[0], "X", line)
        y = _parse_int(args[1], "Y", line)
        _check_xy(x, y, line)
        pressure = None
        if len(args) == 3:
            if not _DECIMAL.fullmatch(args[2]):
                raise MovieError(f"pressure must be a number in 0..1, got {args[2]!r}", line)
            pressure = float(args[2])
            _check_pressure(pressure, line)
        return MovieEvent(frame, verb, x=x, y=y, pressure=pressure, line=line)
    if verb == "untouch":
        need(0, 0, "FRAME untouch")
        return MovieEvent(frame, verb, line=line)
    if verb in ("lid", "power"):
        on_word, off_word = ("close", "open") if verb == "lid" else ("press", "release")
        need(1, 1, f"FRAME {verb} {on_word}|{off_word}")
        if args[0] not in (on_word, off_word):
            raise MovieError(f"{verb} takes '{on_word}' or '{off_word}', got {args[0]!r}", line)
        return MovieEvent(frame, verb, on=args[0] == on_word, line=line)
    if verb == "computer":
        need(2, 2, "FRAME computer REQUEST POLL")
        request = _parse_int(args[0], "REQUEST", line)
        poll = _parse_int(args[1], "POLL", line)
        _check_computer(frame, request, poll, line)
        return MovieEvent(frame, verb, request=request, poll=poll, line=line)
    raise MovieError(f"unknown verb {verb!r} (verbs: {', '.join(VERBS)})", line)


def _check_computer(frame: int, request: int, poll: int, line: int | None) -> None:
    if request > frame:
        raise MovieError(f"the request frame {request} is after the event's frame {frame}", line)
    if not 1 <= poll <= frame - request + 1:
        since = frame - request + 1
        raise MovieError(
            f"poll {poll} is not between 1 and the frames since the request ({since})", line
        )


@dataclass(frozen=True, slots=True)
class Movie:
    """A parsed movie: its events in order (frames non-decreasing) and its `# args:`."""

    events: tuple[MovieEvent, ...] = ()
    args: tuple[str, ...] = ()  # command-line arguments to replay it with

    def __post_init__(self) -> None:
        previous = 0
        for ev in self.events:
            if ev.verb not in VERBS:
                raise MovieError(f"unknown verb {ev.verb!r}", ev.line)
            if not isinstance(ev.frame, int) or not 0 <= ev.frame <= MAX_FRAME:
                raise MovieError(f"bad frame {ev.frame!r}", ev.line)
            if ev.frame < previous:
                raise MovieError(f"frame {ev.frame} comes after frame {previous}", ev.line)
            if ev.verb in ("press", "release") and not isinstance(ev.button, Button):
                raise MovieError(f"{ev.verb} needs a button", ev.line)
            if ev.verb in ("touch", "tap"):
                if not (isinstance(ev.x, int) and isinstance(ev.y, int)):
                    raise MovieError(f"{ev.verb} needs integer coordinates", ev.line)
                _check_xy(ev.x, ev.y, ev.line)
                if ev.pressure is not None:
                    if ev.verb == "tap":
                        raise MovieError("tap takes no pressure", ev.line)
                    _check_pressure(ev.pressure, ev.line)
            if ev.verb in ("lid", "power") and not isinstance(ev.on, bool):
                raise MovieError(f"{ev.verb} needs close/open or press/release", ev.line)
            if ev.verb == "computer":
                if not (isinstance(ev.request, int) and isinstance(ev.poll, int)):
                    raise MovieError("computer needs a request frame and a poll", ev.line)
                _check_computer(ev.frame, ev.request, ev.poll, ev.line)
            previous = ev.frame

    @property
    def last_frame(self) -> int:
        """The last frame at which an event (or a tap's release) changes the input; 0 if none."""
        return MoviePlayer(self).last_frame

    def to_text(self, comment: str = "") -> str:
        """The movie as text; `comment` (one line) goes after the header and the args."""
        lines = [HEADER]
        if self.args:
            lines.append(f"{ARGS_PREFIX} {shlex.join(self.args)}")
        if comment:
            lines.append(f"# {comment}")
        lines += [ev.to_text() for ev in self.events]
        return "".join(f"{line}\n" for line in lines)


def parse_movie(text: str) -> Movie:
    """Parse movie text; raises MovieError naming the line and the reason."""
    lines = text.split("\n")
    if lines and lines[0].startswith("\ufeff"):  # a byte-order mark some editors add
        lines[0] = lines[0][1:]
    if not lines or lines[0].rstrip() != HEADER:
        first = lines[0].strip() if lines else ""
        if first.startswith("# twinfold movie"):
            raise MovieError(f"unsupported movie version: {first!r} (expected {HEADER!r})", 1)
        raise MovieError(f"a movie starts with the line {HEADER!r}", 1)
    events: list[MovieEvent] = []
    args: list[str] = []
    previous = 0
    for number, raw in enumerate(lines[1:], start=2):
        if raw.strip().startswith(ARGS_PREFIX):
            try:
                args += shlex.split(raw.strip()[len(ARGS_PREFIX) :])
            except ValueError as exc:
                reason = f"the {ARGS_PREFIX!r} line cannot be read: {exc}"
                raise MovieError(reason, number) from None
            continue
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        event = _parse_event(body.split(), number)
        if event.frame < previous:
            raise MovieError(
                f"frame {event.frame} goes backwards (the previous event is at frame {previous})",
                number,
            )
        previous = event.frame
        events.append(event)
    return Movie(tuple(events), tuple(args))


def load_movie(path: str) -> Movie:
    """Read and parse a movie file; unreadable files raise MovieError too."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise MovieError(f"cannot read movie {path}: {exc}") from exc
    return parse_movie(text)


class MoviePlayer:
    """The per-frame input a movie describes. Random access: frames may be asked in any order."""

    def __init__(self, movie: Movie) -> None:
        self.movie = movie
        # late worker answers: the frame each was asked for -> the poll it was applied at
        self.landings: dict[int, int] = {}
        self.last_landing = -1  # the frame of the last `computer` line
        self._frames: list[int] = [0]
        self._states: list[RawInput] = [RawInput()]
        state = RawInput()
        release_at: int | None = None  # pending stylus release (a tap, a one-frame touch)
        # Buttons pressed and released in the same frame: held for that frame, up after it
        # (a press shorter than a frame still counts, as on every backend: hal.latch).
        pending: dict[Button, int] = {}
        frame = 0
        pressed_now: set[Button] = set()
        touched_now = False
        for ev in movie.events:
            if ev.verb == "computer":  # not input: the machine's pacing asks for it
                assert ev.request is not None and ev.poll is not None
                self.landings[ev.request] = ev.poll
                self.last_landing = ev.frame
                continue
            if ev.frame != frame:
                frame, pressed_now, touched_now = ev.frame, set(), False
            state, release_at = self._flush(state, pending, release_at, ev.frame)
            held = set(state.held)
            # Movie.__post_init__ guarantees each verb's fields.
            button = ev.button
            if ev.verb == "press" and button is not None:
                pending.pop(button, None)
                if button not in held:
                    pressed_now.add(button)
                held.add(button)
                state = replace(state, held=frozenset(held))
            elif ev.verb == "release" and button is not None:
                if button in pressed_now:
                    pending[button] = ev.frame + 1
                else:
                    held.discard(button)
                    state = replace(state, held=frozenset(held))
            elif ev.verb in ("touch", "tap"):
                assert ev.x is not None and ev.y is not None
                touched_now = touched_now or state.touch is None
                state = replace(state, touch=RawTouch(ev.x, ev.y, ev.pressure))
                release_at = ev.frame + TAP_FRAMES if ev.verb == "tap" else None
            elif ev.verb == "untouch":
                if touched_now and state.touch is not None:
                    release_at = ev.frame + 1
                else:
                    state = replace(state, touch=None)
                    release_at = None
            elif ev.verb == "lid":
                state = replace(state, lid_closed=bool(ev.on))
            elif ev.verb == "power":
                state = replace(state, power_pressed=bool(ev.on))
            state = self._set(ev.frame, state)
        self._flush(state, pending, release_at, MAX_FRAME + TAP_FRAMES + 1)

    def _flush(
        self, state: RawInput, pending: dict[Button, int], release_at: int | None, upto: int
    ) -> tuple[RawInput, int | None]:
        """Apply the pending releases due at or before frame `upto`, in frame order."""
        due: list[tuple[int, Button | None]] = [(at, b) for b, at in pending.items() if at <= upto]
        if release_at is not None and release_at <= upto:
            due.append((release_at, None))
            release_at = None
        for at, button in sorted(due, key=lambda item: item[0]):
            if button is None:
                state = self._set(at, replace(state, touch=None))
            else:
                del pending[button]
                state = self._set(at, replace(state, held=state.held - {button}))
        return state, release_at

    def _set(self, frame: int, state: RawInput) -> RawInput:
        if self._frames[-1] == frame:
            self._states[-1] = state
        else:
            self._frames.append(frame)
            self._states.append(state)
        return state

    @property
    def last_frame(self) -> int:
        """The last frame at which the input changes (0 for an empty movie)."""
        for i in range(len(self._states) - 1, 0, -1):
            if self._states[i] != self._states[i - 1]:
                return self._frames[i]
        return 0

    @property
    def end(self) -> int:
        """The last frame the movie says anything about: an input change or a late answer."""
        return max(self.last_frame, self.last_landing)

    def active(self, tick: int) -> bool:
        """Whether `tick` is within the movie (its late answers apply: a `PacingScript`)."""
        return tick <= self.end

    def landing(self, request: int) -> int | None:
        """The poll a late answer to the request of frame `request` was applied at (None:
        it came in time)."""
        return self.landings.get(request)

    def input_at(self, frame: int) -> RawInput:
        if frame < 0:
            raise ValueError(f"frame must be >= 0, got {frame}")
        return self._states[bisect.bisect_right(self._frames, frame) - 1]


class MovieRecorder:
    """Builds the shortest movie that reproduces a sequence of per-frame inputs.

    Feed one RawInput per frame, from frame 0. What a movie cannot hold is normalised the way
    the exact touch profile (hal.touch.TouchFilterConfig.NONE) would see it: coordinates are
    rounded to the nearest pixel, a touch that is off the lower screen or not finite counts
    as stylus up, pressure outside 0..1 is dropped; `quit_requested` (a host event, not
    device input) is not recorded. Replaying the result gives `normalise(input)` frame by
    frame, which equals the input for anything a movie produced.
    """

    def __init__(self) -> None:
        self.frame = 0
        self._events: list[MovieEvent] = []
        self._state = RawInput()
        # the open touch that may still become a tap: index of its event, frame it began
        self._touch_start: tuple[int, int] | None = None

    @staticmethod
    def normalise(raw: RawInput) -> RawInput:
        touch = raw.touch
        if touch is not None:
            try:
                x, y = float(touch.x), float(touch.y)
                p = None if touch.pressure is None else float(touch.pressure)
            except (TypeError, ValueError):
                x = y = math.nan
                p = None
            if not (math.isfinite(x) and math.isfinite(y)):
                touch = None
            else:
                ix, iy = math.floor(x + 0.5), math.floor(y + 0.5)
                if not (0 <= ix < SCREEN_W and 0 <= iy < SCREEN_H):
                    touch = None
                else:
                    if p is not None and not (math.isfinite(p) and 0.0 <= p <= 1.0):
                        p = None
                    touch = RawTouch(ix, iy, p)
        return RawInput(
            held=frozenset(raw.held),
            touch=touch,
            lid_closed=bool(raw.lid_closed),
            power_pressed=bool(raw.power_pressed),
        )

    def feed(self, raw: RawInput) -> None:
        """Record the input of the next frame."""
        f = self.frame
        new = self.normalise(raw)
        old = self._state
        add = self._events.append
        for b in sorted(old.held - new.held, key=lambda b: b.value):
            add(MovieEvent(f, "release", button=b))
        for b in sorted(new.held - old.held, key=lambda b: b.value):
            add(MovieEvent(f, "press", button=b))
        if new.touch != old.touch:
            became_tap = self._close_touch(f, new.touch is None)
            if new.touch is None:
                if not became_tap:
                    add(MovieEvent(f, "untouch"))
            else:
                t = new.touch
                add(MovieEvent(f, "touch", x=int(t.x), y=int(t.y), pressure=t.pressure))
                self._touch_start = (len(self._events) - 1, f)
        if new.lid_closed != old.lid_closed:
            add(MovieEvent(f, "lid", on=new.lid_closed))
        if new.power_pressed != old.power_pressed:
            add(MovieEvent(f, "power", on=new.power_pressed))
        self._state = new
        self.frame += 1

    def computer(self, frame: int, request: int, poll: int) -> None:
        """A computer's late answer to the request of frame `request` was applied at its
        poll `poll`, in frame `frame` (an input of that frame has been fed)."""
        self._events.append(MovieEvent(frame, "computer", request=request, poll=poll))

    def feed_all(self, inputs: Iterable[RawInput]) -> None:
        for raw in inputs:
            self.feed(raw)

    def _close_touch(self, frame: int, lifted: bool) -> bool:
        """A touch ends at `frame`. If the stylus lifted exactly 3 frames after a pressure-less
        touch began, turn that `touch` into a `tap` (which releases by itself) and say so."""
        start = self._touch_start
        self._touch_start = None
        if start is None or not lifted or frame - start[1] != TAP_FRAMES:
            return False
        index, _ = start
        ev = self._events[index]
        if ev.pressure is not None:
            return False
        self._events[index] = MovieEvent(ev.frame, "tap", x=ev.x, y=ev.y)
        return True

    def movie(self) -> Movie:
        return Movie(tuple(self._events))

    def to_text(self) -> str:
        return self.movie().to_text()
