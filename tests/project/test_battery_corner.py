"""The battery icon's corner (firmware/gfx/battery.py) is free on the top screen of every
swept system screen (the icon is drawn only where no game runs): no text, in English or
Japanese, lies under it (issue 35, item 4)."""

from __future__ import annotations

import pytest
import screen_sweep
from screen_sweep import (
    LANGUAGES,
    MOVIES,
    sweep_help_screens,
    sweep_movie,
    sweep_result_screens,
    sweep_setup_screens,
    sweep_system_screens,
)

from firmware.gfx.battery import ICON

SWEEPS = [sweep_setup_screens, sweep_help_screens, sweep_result_screens, sweep_system_screens]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_lies_under_the_battery_icon(language, tmp_path, monkeypatch):
    machines = []
    made = screen_sweep.machine_in

    def keep(*a, **kw):  # type: ignore[no-untyped-def]
        m = made(*a, **kw)
        machines.append(m)
        return m

    monkeypatch.setattr(screen_sweep, "machine_in", keep)
    problems = set()
    sweeps = [(s.__name__, s(language, tmp_path / s.__name__)) for s in SWEEPS]
    sweeps += [(m.stem, (w for w in sweep_movie(m, language, tmp_path / m.stem))) for m in MOVIES]
    for name, sweep in sweeps:
        for where, rec in sweep:
            shown = [m.top for m in machines if m.game_scene() is None]
            for d in rec.drawn:
                if any(d.surface is top for top in shown) and d.ink.colliderect(ICON):
                    problems.add(f"{name} {where}: {d.text!r} at {tuple(d.ink)}")
    assert machines and any(m.game_scene() is None for m in machines)
    assert not problems, "\n".join(sorted(problems))
