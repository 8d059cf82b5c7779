"""P-LOOP-1: fixed ticks under a slow host, bounded catch-up."""

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.loop import DT, FixedStepLoop
from hal.clock import SimClock


class CostlyMachine:
    """Each step/render costs simulated time, as a slow host would."""

    def __init__(self, clock: SimClock, step_cost: float, render_cost: float) -> None:
        self.clock, self.step_cost, self.render_cost = clock, step_cost, render_cost
        self.steps = self.renders = self.presents = 0

    def step(self) -> None:
        self.steps += 1
        self.clock.advance(self.step_cost)

    def render(self) -> None:
        self.renders += 1
        self.clock.advance(self.render_cost)

    def present(self) -> None:
        self.presents += 1


def run_for(seconds: float, step_cost: float, render_cost: float, max_catchup: int = 4):
    clock = SimClock()
    machine = CostlyMachine(clock, step_cost, render_cost)
    loop = FixedStepLoop(machine, clock, max_catchup=max_catchup)
    loop.run(lambda: clock.now() < seconds)
    return machine, loop


def test_fast_host_runs_exactly_sixty_ticks_a_second():
    machine, loop = run_for(10.0, 0.001, 0.002)
    assert abs(machine.steps - 600) <= 1
    assert machine.renders == machine.steps  # one draw per tick when keeping up
    assert loop.stats.dropped_ticks == 0


def test_slow_renderer_catches_up_with_several_ticks_per_draw():
    # Drawing takes 30 ms: two ticks are owed per frame; tick count must stay right.
    machine, loop = run_for(10.0, 0.001, 0.030)
    assert abs(machine.steps - 600) <= 4
    assert machine.renders < machine.steps * 0.7
    assert loop.stats.max_burst <= 4
    assert loop.stats.dropped_ticks == 0


def test_hopelessly_slow_host_bounds_catch_up_and_drops_backlog():
    # Each tick costs 40 ms: the host can never keep up; bursts are capped, time is dropped.
    machine, loop = run_for(5.0, 0.040, 0.010, max_catchup=3)
    assert loop.stats.max_burst <= 3
    assert loop.stats.dropped_ticks > 0
    assert machine.steps + loop.stats.dropped_ticks >= 299


@settings(max_examples=40, deadline=None)
@given(st.floats(0.0001, 0.02), st.floats(0.0001, 0.05), st.integers(1, 6))
def test_ticks_plus_dropped_account_for_wall_time(step_cost, render_cost, cap):
    seconds = 2.0
    machine, loop = run_for(seconds, step_cost, render_cost, cap)
    assert loop.stats.max_burst <= cap
    owed = seconds / DT
    # The last pass may end past the deadline with its time not yet accounted for.
    last_pass = (cap * step_cost + render_cost) / DT
    assert machine.steps + loop.stats.dropped_ticks >= owed - cap - last_pass - 1
    assert machine.steps <= owed + cap + 1


def test_pause_stops_ticks_and_speed_multiplies_them():
    clock = SimClock()
    machine = CostlyMachine(clock, 0.0001, 0.0001)
    loop = FixedStepLoop(machine, clock)
    loop.paused = True
    for _ in range(30):
        loop.pass_once()
    assert machine.steps == 0
    loop.paused = False
    loop.speed = 4
    loop.resync()
    for _ in range(60):
        loop.pass_once()
    assert machine.steps == 240
