"""The battery in the firmware (P-HW-8, issue 35 item 4): readings judged over ticks, one
low warning, a critical charge that saves the game and shuts down, and readings that vanish,
jump or make no sense ignored. Headless and the emulator have no battery."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.battery import CONFIRM, MISSING, BatteryMonitor
from firmware.gfx import palette as pal
from firmware.storage import Store
from firmware.testing import machine_from_movie, run
from hal.backends.device.battery import SysfsBattery
from hal.interfaces import Battery, BatteryPolicy, BatteryReading, NoBattery

POLICY = BatteryPolicy(low=15, critical=5, poll_ticks=10)
FRAME = (240, 182)  # the top-left pixel of the icon's frame without the bolt


class StandIn(Battery):
    """A battery whose next readings a test sets."""

    policy = POLICY

    def __init__(self, *readings: BatteryReading | None) -> None:
        self.readings = list(readings)
        self.reads = 0

    def read(self) -> BatteryReading | None:
        self.reads += 1
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


def r(percent: int, charging: bool = False) -> BatteryReading:
    return BatteryReading(percent, charging)


def judged(*readings: BatteryReading | None) -> tuple[BatteryMonitor, list[str | None]]:
    monitor = BatteryMonitor(StandIn(r(50)))
    return monitor, [monitor.judge(x) for x in readings]


def test_a_low_battery_warns_once_and_again_only_after_a_charge() -> None:
    monitor, events = judged(r(50), r(50), r(50), r(30), r(20), r(15), r(14), r(12), r(15))
    assert events.count("low") == 1 and events[5] == "low" and monitor.level == 15
    assert monitor.judge(r(19)) is None  # not yet above 15 + 5
    assert monitor.judge(r(14)) is None
    assert monitor.judge(r(21)) is None and monitor.judge(r(15)) == "low"  # re-armed
    assert monitor.judge(r(14, charging=True)) is None and monitor.judge(r(14)) == "low"


def test_a_critical_battery_shuts_down_after_confirmed_readings_not_while_charging() -> None:
    monitor, events = judged(r(8), r(8), r(8), r(6), r(5), r(5, True), r(5), r(4))
    assert "critical" not in events  # the charger broke the run
    assert monitor.judge(r(4)) == "critical"
    assert monitor.judge(r(3)) is None  # once


def test_a_capacity_that_jumps_is_ignored_until_it_says_the_same_thrice() -> None:
    monitor, events = judged(r(80), r(80), r(80), r(3), r(80), r(2), r(79), r(1), r(80))
    assert monitor.level == 80 and events == [None] * 9
    assert [monitor.judge(r(3)) for _ in range(CONFIRM)] == [None, None, "low"]
    assert monitor.level == 3  # three readings in a row agree: believed (a real drop)
    assert [monitor.judge(r(3)) for _ in range(CONFIRM)].count("critical") == 1


def test_nonsense_and_a_vanishing_battery_change_nothing_then_hide_it() -> None:
    monitor, _ = judged(r(40), r(40), r(40))
    assert monitor.level == 40
    for _ in range(MISSING - 1):
        assert monitor.judge(None) is None and monitor.level == 40
    assert monitor.judge(None) is None and monitor.level is None  # gone: no icon
    assert [monitor.judge(r(2)) for _ in range(2 * CONFIRM)].count("critical") == 1
    monitor, _ = judged(r(40), r(40), r(40))
    assert [monitor.judge(None if i % 2 else r(1)) for i in range(8)] == [None] * 8
    assert monitor.level == 40  # a flickering gauge saying 1 % between gaps is not believed


def test_readings_are_tick_counted() -> None:
    stand_in = StandIn(r(50))
    monitor = BatteryMonitor(stand_in)
    for tick in range(95):
        monitor.tick(tick)
    assert stand_in.reads == 10 and monitor.level == 50
    none = BatteryMonitor(NoBattery())
    assert not none.present and none.tick(0) is None


def sysfs(root: Path, capacity: str, status: str = "Discharging") -> None:
    folder = root / "BAT0"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "type").write_text("Battery\n")
    (folder / "capacity").write_text(capacity + "\n")
    (folder / "status").write_text(status + "\n")


def battery_machine(tmp_path: Path, root: Path, **kw: object):  # type: ignore[no-untyped-def]
    m = machine_from_movie(tmp_path, store_path=tmp_path / "store.db", **kw)
    m.hal.battery = SysfsBattery(root, policy=POLICY)
    m.battery = BatteryMonitor(m.hal.battery)
    return m


def test_the_top_screen_shows_the_battery_and_warns_once(tmp_path: Path) -> None:
    root = tmp_path / "sys"
    sysfs(root, "60")
    m = battery_machine(tmp_path, root)
    try:
        run(m, 100)
        assert m.dump()["battery"]["level"] == 60
        assert m.top.get_at(FRAME)[:3] == pal.TEXT  # the icon's frame, on the launcher
        sysfs(root, "14")  # a real drop: believed after three readings
        run(m, 10 * CONFIRM + 1)
        assert m.dump()["battery"]["warning"] == "low"
        run(m, 4 * 60)
        assert m.dump()["battery"]["warning"] is None and not m.quit_requested
        run(m, 600)
        assert m.dump()["battery"]["warning"] is None  # once
    finally:
        m.store.close()


def test_a_critical_battery_saves_the_game_and_asks_for_the_shutdown(tmp_path: Path) -> None:
    root = tmp_path / "sys"
    sysfs(root, "30")
    m = battery_machine(tmp_path, root, game="pop", seed=4)
    try:
        run(m, 60)
        assert m.game_scene() is not None
        assert m.top.get_at(FRAME)[:3] != pal.TEXT  # a game owns its screen: no icon
        sysfs(root, "4")
        run(m, 10 * 2 * CONFIRM + 1)
        assert m.dump()["battery"]["warning"] == "critical"
        assert "pop" in m.saved  # saved at once
        assert not m.quit_requested  # the player sees why first
        run(m, 90)
        assert m.quit_requested and m.shutdown_requested
    finally:
        m.store.close()
    with Store.open(tmp_path / "store.db") as store:
        saved = store.load_suspend("pop")
        assert saved is not None


def test_headless_and_the_emulator_have_no_battery(tmp_path: Path) -> None:
    m = machine_from_movie(tmp_path)
    try:
        assert not m.battery.present and "battery" not in m.dump()
    finally:
        m.store.close()


def test_the_warnings_fit_their_banner_in_both_languages(tmp_path: Path) -> None:
    """The banner holds three lines of 200 pixels (firmware/gfx/battery.py)."""
    from firmware.gfx import text

    root = tmp_path / "sys"
    sysfs(root, "100")
    m = battery_machine(tmp_path, root)
    drawn: list[str] = []
    from firmware.gfx import battery as battery_gfx

    real = battery_gfx.draw_banner
    battery_gfx.draw_banner = lambda surface, words, color: drawn.append(words)
    try:
        for language in ("en", "ja"):
            m.settings.language = language
            for event in ("low", "critical"):
                m._battery_banner = (event, m.tick + 10)
                m.render()
    finally:
        battery_gfx.draw_banner = real
        m.store.close()
    assert len(drawn) == 4
    for words in drawn:
        lines = text.wrap(words, 200)
        assert len(lines) <= 3 and all(text.size(line)[0] <= 212 for line in lines), lines


readings = st.lists(
    st.none() | st.builds(BatteryReading, st.integers(0, 100), st.booleans()), max_size=60
)


@settings(max_examples=300)
@given(seq=readings)
def test_no_sequence_of_readings_shuts_down_wrongly(seq: list[BatteryReading | None]) -> None:
    monitor = BatteryMonitor(StandIn(r(50)))
    criticals = 0
    for reading in seq:
        event = monitor.judge(reading)
        if event == "critical":
            criticals += 1
            assert reading is not None and reading.percent <= POLICY.critical
            assert not reading.charging
        if event is not None:
            assert monitor.level is not None
    assert criticals <= 1
    if not any(x is not None and x.percent <= POLICY.critical and not x.charging for x in seq):
        assert criticals == 0


@settings(max_examples=200)
@given(steady=st.integers(0, 100), outlier=st.integers(0, 100), at=st.integers(3, 10))
def test_one_outlier_never_moves_the_believed_charge_far(
    steady: int, outlier: int, at: int
) -> None:
    monitor = BatteryMonitor(StandIn(r(50)))
    for i in range(12):
        monitor.judge(r(outlier) if i == at else r(steady))
        if i >= CONFIRM - 1:
            assert monitor.level is not None and abs(monitor.level - steady) <= 15
