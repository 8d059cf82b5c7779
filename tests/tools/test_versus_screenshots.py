"""The Versus pictures' movies still reach the screens the README shows at the shot ticks
(a layout change that moves a button would otherwise leave stale or wrong pictures)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tools.versus_screenshots import SHOTS, play, seeded_secrets

# picture -> the scene each shown unit is on (the firmware's scene names)
EXPECTED = {
    "versus-menu": {"guest": "versus"},
    "versus-lobby": {"guest": "lobby"},
    "versus-pairing": {"host": "pairing", "guest": "pairing"},
    "versus-reversi": {"host": "reversi", "guest": "reversi"},
}


def test_the_movies_reach_each_pictured_screen(tmp_path: Path) -> None:
    assert set(SHOTS) == set(EXPECTED)
    at = {tick: name for name, (tick, _) in SHOTS.items()}
    seen: dict[str, dict[str, Any]] = {}
    with seeded_secrets():
        for tick, machines in play(tmp_path, max(at)):
            if tick in at:
                seen[at[tick]] = {role: m.dump() for role, m in machines.items()}
    for name, scenes in EXPECTED.items():
        for role, scene in scenes.items():
            assert seen[name][role]["scene"] == scene, (name, role)
    units = seen["versus-lobby"]["guest"]["game"]["units"]
    assert [u["name"] for u in units] == ["Hana"]  # the host, listed nearby
    codes = [seen["versus-pairing"][r]["link"]["code"] for r in ("host", "guest")]
    assert codes[0] == codes[1] and len(str(codes[0]).replace(" ", "")) == 6
    game = seen["versus-reversi"]
    assert game["host"]["game"]["moves"] == ["d3", "c5", "f6", "e3"]
    assert game["guest"]["game"]["moves"] == game["host"]["game"]["moves"]
    assert (game["host"]["link"]["partner"], game["guest"]["link"]["partner"]) == ("Ken", "Hana")
