"""`twinfold headless` link arguments: one-line errors for bad ones; a dump with the link."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from firmware.cli import main as cli_main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--versus", "host", "--game", "reversi"], "--versus needs --link"),
        (["--link", "air://x?loss=2"], "cannot open the link"),
        (["--link", "/dev/no-such-radio"], "cannot open the link"),
        (["--link-grace", "soon"], "not a whole number of ticks: 'soon'"),
        (["--link-grace", "0"], "ticks must be 1..36000, got 0"),
    ],
)
def test_bad_link_arguments_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code = cli_main(["headless", "--frames", "1", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_headless_unit_with_a_link_dumps_its_link_state(tmp_path: Path) -> None:
    dump = tmp_path / "d.json"
    url = f"air://cli-dump-{os.getpid()}"
    assert (
        cli_main(
            [
                "headless",
                "--frames",
                "30",
                "--link",
                url,
                "--name",
                "Aki",
                "--game",
                "reversi",
                "--versus",
                "host",
                "--link-grace",
                "120",
                "--dump",
                str(dump),
            ]
        )
        == 0
    )
    data = json.loads(dump.read_text())
    link = data["link"]
    assert (link["state"], link["role"], link["name"], link["partner"]) == (
        "hosting",
        "host",
        "Aki",
        None,
    )
    assert set(link["rejected"]) == {"crc", "auth", "replay", "unpaired", "illegal", "spoof"}
    assert link["frames"]["sent"] >= 1  # its beacon
    # issue 33: no seat taken, nothing waited for, announced or offered
    assert (link["computer"], link["time_left"], link["announced"], link["offered"]) == (
        [], None, None, False
    )
    assert link["grace_ticks"] == 120  # --link-grace
    assert data["scene"] == "lobby"
