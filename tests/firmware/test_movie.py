import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.movie import (
    HEADER,
    Movie,
    MovieError,
    MovieEvent,
    MoviePlayer,
    MovieRecorder,
    load_movie,
    parse_movie,
)
from hal.interfaces import Button, RawInput, RawTouch, TouchPoint

SPEC_EXAMPLE = """# twinfold movie 1
0 press A
6 release A
30 touch 120 88
33 untouch
40 tap 200 40        # touch for 3 frames, then release
"""


def frames(movie: Movie, n: int) -> list[RawInput]:
    player = MoviePlayer(movie)
    return [player.input_at(f) for f in range(n)]


def test_spec_example_plays_as_described():
    movie = parse_movie(SPEC_EXAMPLE)
    got = frames(movie, 50)
    for f, inp in enumerate(got):
        assert (Button.A in inp.held) == (0 <= f < 6), f
        if 30 <= f < 33:
            assert inp.touch == RawTouch(120, 88)
        elif 40 <= f < 43:
            assert inp.touch == RawTouch(200, 40)
        else:
            assert inp.touch is None, f
        assert not inp.lid_closed and not inp.power_pressed
    assert movie.last_frame == 43


def test_every_verb():
    text = "\n".join(
        [
            HEADER,
            "0 press UP",
            "0 press START",
            "2 release UP",
            "3 touch 0 0",
            "4 touch 255 191 0.25",
            "5 untouch",
            "7 tap 10 20",
            "12 lid close",
            "15 lid open",
            "16 power press",
            "17 power release",
            "18 release START",
        ]
    )
    got = frames(parse_movie(text), 20)
    assert got[0].held == got[1].held == frozenset({Button.UP, Button.START})
    assert got[2].held == frozenset({Button.START})
    assert got[17].held == frozenset({Button.START}) and got[18].held == frozenset()
    assert got[3].touch == RawTouch(0, 0)
    assert got[4].touch == RawTouch(255, 191, 0.25)
    assert got[5].touch is None and got[6].touch is None
    assert [g.touch for g in got[7:11]] == [RawTouch(10, 20)] * 3 + [None]
    assert [g.lid_closed for g in got[11:16]] == [False, True, True, True, False]
    assert [g.power_pressed for g in got[15:19]] == [False, True, False, False]
    for b in Button:
        movie = parse_movie(f"{HEADER}\n1 press {b.value}\n2 release {b.value}\n")
        assert [b in i.held for i in frames(movie, 3)] == [False, True, False]


def test_state_holds_and_events_share_frames_in_order():
    movie = parse_movie(f"{HEADER}\n5 press B\n5 press X\n7 release X\n")
    got = frames(movie, 12)
    assert [g.held for g in got[4:9]] == [
        frozenset(),
        frozenset({Button.B, Button.X}),
        frozenset({Button.B, Button.X}),
        frozenset({Button.B}),
        frozenset({Button.B}),
    ]


def test_press_and_release_in_one_frame_is_a_one_frame_press():
    """A press shorter than a frame still reaches the game (issue 17, as hal.latch does)."""
    movie = parse_movie(f"{HEADER}\n5 press B\n5 release B\n5 press X\n9 touch 1 2\n9 untouch\n")
    got = frames(movie, 12)
    assert [Button.B in g.held for g in got[4:8]] == [False, True, False, False]
    assert all(Button.X in g.held for g in got[5:])
    assert [g.touch for g in got[8:11]] == [None, RawTouch(1, 2), None]


def test_release_and_press_in_one_frame_keeps_holding():
    movie = parse_movie(f"{HEADER}\n2 press A\n6 release A\n6 press A\n")
    assert all(Button.A in g.held for g in frames(movie, 10)[2:])


def test_one_frame_press_reaches_the_game_as_pressed_and_released():
    from firmware.input import InputTracker

    movie = parse_movie(f"{HEADER}\n3 press A\n3 release A\n3 touch 10 20\n3 untouch\n")
    tracker = InputTracker()
    states = [
        tracker.next(f, raw, None if raw.touch is None else TouchPoint(10, 20))
        for f, raw in enumerate(frames(movie, 6))
    ]
    assert [Button.A in s.pressed for s in states] == [False, False, False, True, False, False]
    assert [Button.A in s.released for s in states] == [False, False, False, False, True, False]
    assert [s.touch_down for s in states] == [False, False, False, True, False, False]
    assert [s.touch_up for s in states] == [False, False, False, False, True, False]


def test_later_touch_takes_over_from_a_tap():
    movie = parse_movie(f"{HEADER}\n10 tap 5 5\n11 touch 6 6\n20 tap 1 1\n21 tap 2 2\n")
    got = frames(movie, 30)
    assert [g.touch for g in got[10:14]] == [RawTouch(5, 5)] + [RawTouch(6, 6)] * 3
    assert got[19].touch == RawTouch(6, 6)
    assert got[20].touch == RawTouch(1, 1)
    assert [g.touch for g in got[21:25]] == [RawTouch(2, 2)] * 3 + [None]


def test_random_access_matches_sequential():
    movie = parse_movie(SPEC_EXAMPLE)
    player = MoviePlayer(movie)
    seq = [player.input_at(f) for f in range(60)]
    for f in [59, 3, 41, 0, 33, 32, 100, 43, 42]:
        assert player.input_at(f) == (seq[f] if f < 60 else seq[-1])
    with pytest.raises(ValueError):
        player.input_at(-1)


def test_comments_blank_lines_and_whitespace():
    text = f"{HEADER}  \n\n   # a comment line\n\t3   press   A # trailing\n#\n\n4 release A\n"
    movie = parse_movie(text)
    assert [(e.frame, e.verb, e.line) for e in movie.events] == [
        (3, "press", 4),
        (4, "release", 7),
    ]
    assert parse_movie("\ufeff" + HEADER + "\n").events == ()
    crlf = parse_movie(f"{HEADER}\r\n1 press A\r\n2 tap 3 4 # c\r\n")
    assert [e.to_text() for e in crlf.events] == ["1 press A", "2 tap 3 4"]
    assert parse_movie(HEADER).events == ()


@pytest.mark.parametrize(
    ("body", "lineno", "reason"),
    [
        ("0 jump A", 2, "unknown verb"),
        ("0 press Q", 2, "unknown button"),
        ("0 press a", 2, "unknown button"),
        ("0 press", 2, "missing arguments"),
        ("0 press A B", 2, "too many arguments"),
        ("0 touch 10", 2, "missing arguments"),
        ("0 touch 256 10", 2, "outside the lower screen"),
        ("0 touch 10 192", 2, "outside the lower screen"),
        ("0 touch -1 10", 2, "X -1 is negative"),
        ("0 touch 1.5 10", 2, "X must be a whole number"),
        ("0 touch 10 10 1.5", 2, "outside 0..1"),
        ("0 touch 10 10 nan", 2, "pressure must be a number"),
        ("0 touch 10 10 -0.5", 2, "pressure must be a number"),
        ("0 touch 10 10 0.5 1", 2, "too many arguments"),
        ("0 tap 10 10 0.5", 2, "too many arguments"),
        ("0 untouch now", 2, "too many arguments"),
        ("0 lid shut", 2, "'close' or 'open'"),
        ("0 lid", 2, "missing arguments"),
        ("0 power on", 2, "'press' or 'release'"),
        ("9 computer 3", 2, "missing arguments"),
        ("9 computer 3 2 1", 2, "too many arguments"),
        ("9 computer 10 1", 2, "request frame 10 is after the event's frame 9"),
        ("9 computer 3 0", 2, "poll 0 is not between 1 and"),
        ("9 computer 3 8", 2, "poll 8 is not between 1 and the frames since the request (7)"),
        ("9 computer x 2", 2, "REQUEST must be a whole number"),
        ("x press A", 2, "frame must be a whole number"),
        ("-3 press A", 2, "frame -3 is negative: frames count from 0"),
        ("٣ press A", 2, "frame must be a whole number"),
        ("7", 2, "missing verb"),
        ("99999999999 press A", 2, "too large"),
        ("5 press A\n# ok\n4 release A", 4, "goes backwards"),
        ("1 press A\n\n2 touch 300 0", 4, "outside the lower screen"),
    ],
)
def test_malformed_lines_rejected_with_line_numbers(body, lineno, reason):
    with pytest.raises(MovieError) as err:
        parse_movie(f"{HEADER}\n{body}\n")
    assert err.value.line == lineno
    assert str(err.value).startswith(f"line {lineno}: ")
    assert reason in str(err.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "starts with"),
        ("0 press A\n", "starts with"),
        ("# twinfold movie 2\n0 press A\n", "unsupported movie version"),
        ("\n" + HEADER + "\n", "starts with"),
    ],
)
def test_header_is_required(text, reason):
    with pytest.raises(MovieError) as err:
        parse_movie(text)
    assert err.value.line == 1 and reason in str(err.value)


def test_load_movie_errors_are_movie_errors(tmp_path):
    with pytest.raises(MovieError, match="cannot read"):
        load_movie(str(tmp_path / "missing.txt"))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(MovieError, match="cannot read"):
        load_movie(str(bad))
    good = tmp_path / "good.txt"
    good.write_text(SPEC_EXAMPLE, encoding="utf-8")
    assert load_movie(str(good)) == parse_movie(SPEC_EXAMPLE)


def test_movie_rejects_inconsistent_events():
    with pytest.raises(MovieError):
        Movie((MovieEvent(5, "press", button=Button.A), MovieEvent(4, "untouch")))
    with pytest.raises(MovieError):
        Movie((MovieEvent(0, "touch", x=300, y=0),))
    with pytest.raises(MovieError):
        Movie((MovieEvent(0, "tap", x=3, y=0, pressure=0.5),))
    with pytest.raises(MovieError):
        Movie((MovieEvent(0, "fly"),))


def test_recorder_writes_minimal_movie():
    rec = MovieRecorder()
    a = frozenset({Button.A})
    inputs = [RawInput()] * 3 + [RawInput(held=a)] * 4 + [RawInput()] * 2
    inputs += [RawInput(touch=RawTouch(9, 8))] * 3 + [RawInput()]  # a tap
    inputs += [RawInput(touch=RawTouch(9, 8))] * 4 + [RawInput()]  # a longer touch
    inputs += [RawInput(lid_closed=True)] * 2 + [RawInput()]
    rec.feed_all(inputs)
    assert rec.to_text() == "\n".join(
        [
            HEADER,
            "3 press A",
            "7 release A",
            "9 tap 9 8",
            "13 touch 9 8",
            "17 untouch",
            "18 lid close",
            "20 lid open",
            "",
        ]
    )
    assert frames(parse_movie(rec.to_text()), len(inputs)) == inputs


def test_recorder_normalises_what_a_movie_cannot_hold():
    rec = MovieRecorder()
    rec.feed_all(
        [
            RawInput(touch=RawTouch(10.4, 20.6)),
            RawInput(touch=RawTouch(float("nan"), 3)),
            RawInput(touch=RawTouch(300, 3)),
            RawInput(touch=RawTouch(5, 5, 7.0)),
            RawInput(quit_requested=True),
        ]
    )
    got = frames(rec.movie(), 5)
    assert [g.touch for g in got] == [RawTouch(10, 21), None, None, RawTouch(5, 5), None]
    assert not any(g.quit_requested for g in got)


buttons = st.sampled_from(list(Button))
xs = st.integers(0, 255)
ys = st.integers(0, 191)
pressures = st.one_of(st.none(), st.floats(0, 1))


@st.composite
def movies(draw):
    n = draw(st.integers(0, 25))
    frame = 0
    events = []
    for _ in range(n):
        frame += draw(st.sampled_from([0, 0, 1, 2, 3, 4, 10, 500]))
        verb = draw(
            st.sampled_from(
                ["press", "release", "touch", "untouch", "tap", "lid", "power", "computer"]
            )
        )
        if verb in ("press", "release"):
            events.append(MovieEvent(frame, verb, button=draw(buttons)))
        elif verb == "touch":
            events.append(MovieEvent(frame, verb, x=draw(xs), y=draw(ys), pressure=draw(pressures)))
        elif verb == "tap":
            events.append(MovieEvent(frame, verb, x=draw(xs), y=draw(ys)))
        elif verb == "untouch":
            events.append(MovieEvent(frame, verb))
        elif verb == "computer":
            request = draw(st.integers(0, frame))
            poll = draw(st.integers(1, frame - request + 1))
            events.append(MovieEvent(frame, verb, request=request, poll=poll))
        else:
            events.append(MovieEvent(frame, verb, on=draw(st.booleans())))
    return Movie(tuple(events))


@settings(max_examples=300)
@given(movies())
def test_text_round_trip(movie):
    text = movie.to_text()
    again = parse_movie(text)
    assert again == movie
    assert again.to_text() == text


@settings(max_examples=300)
@given(movies())
def test_recorder_of_player_reproduces_every_frame(movie):
    n = movie.last_frame + 5
    want = frames(movie, n)
    rec = MovieRecorder()
    rec.feed_all(want)
    recorded = parse_movie(rec.to_text())
    assert frames(recorded, n) == want
    # minimal: never more lines than the original, and recording it again changes nothing
    assert len(recorded.events) <= len(movie.events)
    rec2 = MovieRecorder()
    rec2.feed_all(frames(recorded, n))
    assert rec2.movie() == recorded


raw_inputs = st.builds(
    RawInput,
    held=st.frozensets(buttons, max_size=3),
    touch=st.one_of(st.none(), st.builds(RawTouch, xs, ys, pressures)),
    lid_closed=st.booleans(),
    power_pressed=st.booleans(),
)


@settings(max_examples=200)
@given(st.lists(st.one_of(raw_inputs, st.just(RawInput())), max_size=60))
def test_recorded_inputs_replay_exactly(inputs):
    rec = MovieRecorder()
    rec.feed_all(inputs)
    movie = parse_movie(rec.to_text())
    assert frames(movie, len(inputs)) == inputs


line_tokens = st.sampled_from(
    [
        "0",
        "1",
        "7",
        "40",
        "255",
        "191",
        "256",
        "-1",
        "1.5",
        "0.5",
        "nan",
        "1e3",
        "#",
        "x",
        "press",
        "release",
        "touch",
        "untouch",
        "tap",
        "lid",
        "power",
        "close",
        "open",
        "A",
        "START",
        "a",
        "Ｓ",
        "٣",
        "\t",
        "",
    ]
)


@settings(max_examples=300)
@given(st.lists(st.lists(line_tokens, max_size=6).map(" ".join), max_size=12))
def test_parser_only_ever_raises_movie_error(lines):
    text = "\n".join([HEADER, *lines])
    try:
        movie = parse_movie(text)
    except MovieError as err:
        assert err.line is not None and 2 <= err.line <= len(lines) + 1
        return
    # whatever parsed writes back to text that parses to the same movie
    assert parse_movie(movie.to_text()) == movie


@settings(max_examples=100)
@given(st.text(max_size=200))
def test_arbitrary_text_never_crashes_the_parser(text):
    with contextlib.suppress(MovieError):
        parse_movie(HEADER + "\n" + text)


def test_args_line_is_carried_and_round_trips():
    text = f"{HEADER}\n# args: --game reversi --seed 3 --option 'mode=two'\n0 press A\n"
    movie = parse_movie(text)
    assert movie.args == ("--game", "reversi", "--seed", "3", "--option", "mode=two")
    assert parse_movie(movie.to_text()) == movie
    assert movie.to_text().splitlines()[1] == "# args: --game reversi --seed 3 --option mode=two"


def test_unreadable_args_line_names_its_line():
    with pytest.raises(MovieError, match="line 3: the '# args:' line cannot be read"):
        parse_movie(f"{HEADER}\n0 press A\n# args: --game 'reversi\n")


def test_computer_lines_are_late_answers_not_input():
    """Extension (issue 26): `FRAME computer REQUEST POLL` records that a computer's answer
    from its worker process, asked for at frame REQUEST, was applied at its POLL-th poll."""
    movie = parse_movie(f"{HEADER}\n0 press A\n40 computer 12 29\n41 release A\n")
    player = MoviePlayer(movie)
    assert player.landings == {12: 29} and player.landing(12) == 29 and player.landing(3) is None
    assert [player.input_at(f).held for f in (39, 40, 41)] == [
        frozenset({Button.A}),
        frozenset({Button.A}),
        frozenset(),
    ]
    assert player.end == 41 and player.active(41) and not player.active(42)
    late = parse_movie(f"{HEADER}\n0 press A\n90 computer 60 31\n")
    assert MoviePlayer(late).end == 90 and late.last_frame == 0  # input ends at 0
    recorder = MovieRecorder()
    recorder.feed_all([RawInput()] * 5)
    recorder.computer(4, 1, 4)
    assert recorder.to_text().splitlines()[-1] == "4 computer 1 4"
    assert parse_movie(recorder.to_text()) == recorder.movie()
