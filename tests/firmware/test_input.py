from firmware.input import REPEAT_DELAY, REPEAT_EVERY, InputTracker
from hal.interfaces import Button, RawInput, TouchPoint


def feed(tracker, held_seq):
    return [tracker.next(i, RawInput(held=frozenset(h)), None) for i, h in enumerate(held_seq)]


def test_pressed_and_released_are_edges():
    states = feed(InputTracker(), [{Button.A}, {Button.A}, set(), {Button.A, Button.B}])
    assert states[0].pressed == {Button.A} and states[1].pressed == frozenset()
    assert states[2].released == {Button.A}
    assert states[3].pressed == {Button.A, Button.B}


def test_key_repeat_after_delay():
    states = feed(InputTracker(), [{Button.DOWN}] * (REPEAT_DELAY + 3 * REPEAT_EVERY + 1))
    repeats = [i for i, s in enumerate(states) if Button.DOWN in s.repeated]
    assert repeats[0] == 0
    assert repeats[1] == REPEAT_DELAY
    assert repeats[2] - repeats[1] == REPEAT_EVERY


def test_touch_down_and_up():
    t = InputTracker()
    a = t.next(0, RawInput(), TouchPoint(10, 20))
    b = t.next(1, RawInput(), TouchPoint(11, 20))
    c = t.next(2, RawInput(), None)
    assert a.touch_down and a.tapped_at() == TouchPoint(10, 20)
    assert not b.touch_down and b.touch == TouchPoint(11, 20)
    assert c.touch_up and c.last_touch == TouchPoint(11, 20)
