"""hal.latch: presses, releases and touches shorter than a frame are never lost (issue 17)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.input import InputTracker
from hal.interfaces import Button, RawInput, RawTouch, TouchPoint
from hal.latch import InputLatch

A, B = Button.A, Button.B
NONE: frozenset[Button] = frozenset()


def test_press_and_release_between_polls_is_one_held_poll() -> None:
    latch = InputLatch()
    latch.observe(frozenset({A}), None)
    latch.observe(NONE, None)
    assert latch.report(NONE, None) == (frozenset({A}), None, False)
    assert latch.report(NONE, None) == (NONE, None, False)


def test_release_and_press_again_between_polls_is_a_release_then_a_press() -> None:
    latch = InputLatch()
    assert latch.report(frozenset({A}), None)[0] == {A}
    latch.observe(NONE, None)
    latch.observe(frozenset({A}), None)
    assert latch.report(frozenset({A}), None)[0] == NONE
    assert latch.report(frozenset({A}), None)[0] == {A}


def test_touch_shorter_than_a_frame_lasts_one_poll_at_its_first_point() -> None:
    latch = InputLatch()
    latch.observe(NONE, RawTouch(5, 6))
    latch.observe(NONE, RawTouch(7, 8))
    latch.observe(NONE, None)
    assert latch.report(NONE, None)[1] == RawTouch(5, 6)
    assert latch.report(NONE, None)[1] is None


def test_short_touch_can_be_held_for_a_settling_filter() -> None:
    latch = InputLatch(touch_frames=3)
    latch.observe(NONE, RawTouch(5, 6))
    latch.observe(NONE, None)
    assert [latch.report(NONE, None)[1] for _ in range(4)] == [RawTouch(5, 6)] * 3 + [None]
    # a real touch arriving meanwhile takes over at once
    latch.observe(NONE, RawTouch(1, 1))
    latch.observe(NONE, None)
    assert latch.report(NONE, None)[1] == RawTouch(1, 1)
    # a new stroke during the hold: the short touch ends first, then the stroke follows
    assert latch.report(NONE, RawTouch(2, 2))[1] is None
    assert latch.report(NONE, RawTouch(2, 2))[1] == RawTouch(2, 2)


def test_lift_and_touch_again_between_polls_is_a_lift_first() -> None:
    latch = InputLatch()
    assert latch.report(NONE, RawTouch(1, 1))[1] == RawTouch(1, 1)
    latch.observe(NONE, None)
    latch.observe(NONE, RawTouch(2, 2))
    assert latch.report(NONE, RawTouch(2, 2))[1] is None
    assert latch.report(NONE, RawTouch(2, 2))[1] == RawTouch(2, 2)


def test_power_tap_is_seen() -> None:
    latch = InputLatch()
    latch.observe(NONE, None, power=True)
    latch.observe(NONE, None, power=False)
    assert latch.report(NONE, None, False)[2] is True
    assert latch.report(NONE, None, False)[2] is False


def test_steady_state_passes_through_unchanged() -> None:
    latch = InputLatch()
    for _ in range(3):
        assert latch.report(frozenset({A, B}), RawTouch(3, 4), True) == (
            frozenset({A, B}),
            RawTouch(3, 4),
            True,
        )


# A device session: between polls, any number of button / stylus changes.
changes = st.lists(
    st.one_of(
        st.tuples(st.just("button"), st.sampled_from([A, B])),
        st.tuples(st.just("stylus"), st.none()),
    ),
    max_size=6,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(changes, min_size=1, max_size=12))
def test_every_press_reaches_the_game_within_two_ticks(frames: list) -> None:
    """Each down edge of the device gives the tracker a `pressed` at that tick or the next."""
    latch, tracker = InputLatch(), InputTracker()
    held: set[Button] = set()
    touching = False
    presses_due: list[tuple[int, Button | None]] = []
    seen: list[tuple[int, Button | None]] = []
    for tick, frame_changes in enumerate([*frames, [], []]):
        for kind, button in frame_changes:
            if kind == "button":
                held ^= {button}
                if button in held:
                    presses_due.append((tick, button))
            else:
                touching = not touching
                if touching:
                    presses_due.append((tick, None))
            latch.observe(frozenset(held), RawTouch(1, 1) if touching else None)
        buttons, touch, _ = latch.report(frozenset(held), RawTouch(1, 1) if touching else None)
        inp = tracker.next(
            tick, RawInput(held=buttons), None if touch is None else TouchPoint(1, 1)
        )
        seen += [(tick, b) for b in inp.pressed]
        if inp.touch_down:
            seen.append((tick, None))
    # every press edge shows at its tick or the next; no press shows without an edge
    # (two presses of one thing inside a single frame may merge: no release reached the game)
    for tick, what in presses_due:
        assert (tick, what) in seen or (tick + 1, what) in seen
    for tick, what in seen:
        assert (tick, what) in presses_due or (tick - 1, what) in presses_due


def test_quick_tap_gets_through_the_resistive_filter_with_a_held_latch() -> None:
    """The device's path: evdev events -> latch -> RESISTIVE touch filter -> tracker."""
    from hal.touch import Calibration, TouchFilterConfig, TouchPipeline

    config = TouchFilterConfig.RESISTIVE
    for frames, reaches in ((1, False), (config.settle_samples + 1, True)):
        latch, tracker = InputLatch(touch_frames=frames), InputTracker()
        pipeline = TouchPipeline(Calibration.identity(), config)
        latch.observe(NONE, RawTouch(100.0, 80.0, 0.6))  # pen down and up between two polls
        latch.observe(NONE, None)
        downs = []
        for tick in range(8):
            buttons, raw, _ = latch.report(NONE, None)
            inp = tracker.next(tick, RawInput(held=buttons, touch=raw), pipeline.process(raw))
            downs.append(inp.touch_down)
        assert any(downs) == reaches
