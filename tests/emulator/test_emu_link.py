"""`twinfold emu --link air://... --name NAME`: the emulator opens the simulated radio."""

from __future__ import annotations

import os
from pathlib import Path

from firmware.cli import main as cli_main
from firmware.storage import Store


def test_the_emulator_runs_with_a_simulated_radio(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    url = f"air://emu-test-{os.getpid()}?loss=0.1"
    assert (
        cli_main(
            [
                "emu",
                "--frames",
                "20",
                "--store",
                str(store),
                "--scale",
                "1",
                "--link",
                url,
                "--name",
                "Aki",
            ]
        )
        == 0
    )
    radio = Store.open(store).get_setting("radio")
    assert isinstance(radio, dict) and radio["epoch"] == 1 and len(radio["id"]) == 8
