"""GameContext.load_data / save_data: a game's own small values kept in the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.testing import machine_from_movie


def test_a_games_data_survives_a_new_machine_and_stays_its_own(tmp_path: Path) -> None:
    m = machine_from_movie(tmp_path, game="pop", seed=1)
    ctx = m.game_scene().ctx
    assert ctx.load_data("totals") is None and ctx.load_data("totals", {"n": 0}) == {"n": 0}
    ctx.save_data("totals", {"n": 3, "names": ["あ", "b"]})
    m.store.close()
    again = machine_from_movie(tmp_path, game="pop", seed=2)
    assert again.game_scene().ctx.load_data("totals") == {"n": 3, "names": ["あ", "b"]}
    # kept under the game's own key: another game does not see it
    other = machine_from_movie(tmp_path / "x", game="reversi")
    assert other.game_scene().ctx.load_data("totals") is None
    assert again.store.get_setting("game:pop:totals") == {"n": 3, "names": ["あ", "b"]}


def test_bad_keys_and_values_are_refused_and_change_nothing(tmp_path: Path) -> None:
    m = machine_from_movie(tmp_path, game="pop", seed=1)
    ctx = m.game_scene().ctx
    ctx.save_data("k", [1])
    with pytest.raises(ValueError):
        ctx.save_data("", [2])
    with pytest.raises(ValueError):
        ctx.save_data("k", {1: object()})
    assert ctx.load_data("k") == [1]
