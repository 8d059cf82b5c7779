"""Games installed as packages of their own (issue 37, item 5): the example game of
docs/game-packages.md (docs/examples/tictactoe) installed the way pip leaves it (the package
and its .dist-info with entry_points.txt, on the path) appears in the launcher and is swept
on one unit and linked in both languages with no table edited; a game that raises at import,
gives no cartridge or raises at its start is reported and left out, never taking the unit
down."""

from __future__ import annotations

import importlib
import logging
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from link_sweep import (
    games_without_movies,
    link_matches,
    sweep_link_match,
    sweep_unit_game,
)
from screen_sweep import LANGUAGES, ROOT, machine_in, recording
from test_text_fit import _problems
from test_translations import other_language

from firmware.cartridges import discover, discover_all
from firmware.testing import description_problems, run

EXAMPLE = ROOT / "docs" / "examples" / "tictactoe"
FIVE = ["reversi", "arimaa", "sevens", "regions", "panels"]


def install(site: Path, project: Path) -> None:
    """What `pip install` leaves for the project at `project` (a pyproject.toml and its
    packages): the packages and a .dist-info with the entry points it declares."""
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for package in (p for p in project.iterdir() if (p / "__init__.py").exists()):
        shutil.copytree(package, site / package.name)
    info = site / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n"
    )
    groups = meta.get("entry-points", {})
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()) + "\n"
        for group, entries in groups.items()
    ))


def _forget(prefixes: tuple[str, ...]) -> None:
    for name in [n for n in sys.modules if n.startswith(prefixes)]:
        del sys.modules[name]


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path where the test installs packages (gone afterwards)."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    yield site
    _forget(("twinfold_tictactoe", "broken_"))


def test_an_installed_game_is_in_the_launcher_after_the_five(site, tmp_path):
    install(site, EXAMPLE)
    games, left_out = discover_all()
    assert left_out == []
    assert list(games) == [*FIVE, "pop", "tictactoe"]  # the five as ever, then by id
    cart = games["tictactoe"]
    assert description_problems(cart) == []
    m = machine_in(tmp_path / "m", "en")
    try:
        m.to_launcher(selected="tictactoe")
        with recording() as rec:
            m.render()
    finally:
        m.store.close()
    assert "Tic-tac-toe" in [d.text for d in rec.drawn]


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_installed_game_is_swept_on_one_unit_and_linked(site, tmp_path, language):
    """The sweeps find it from its cartridge (no movie, no table entry): played to the end
    by the default player on one unit and over the link, its records and replay; every
    screen fits and speaks one language."""
    install(site, EXAMPLE)
    games = discover()
    assert "tictactoe" in games_without_movies(games)
    match = link_matches(games)["tictactoe"]
    assert (match.game, match.units) == ("tictactoe", 2)
    problems: set[str] = set()
    seen = []
    for where, rec in [
        *sweep_unit_game("tictactoe", language, tmp_path / "unit"),
        *sweep_link_match("tictactoe", language, tmp_path / "link", match),
    ]:
        seen.append(where)
        problems |= {f"{where}: {p}" for p in _problems(rec)}
        problems |= other_language(where, rec.drawn, language)
    assert not problems, "\n".join(sorted(problems))
    for step in ("tictactoe one unit, over:", "tictactoe one unit replay, at the end:",
                 "tictactoe over:", "tictactoe replay, at the end:"):
        assert any(step in where for where in seen), (step, "\n".join(seen))


BROKEN = {
    "broken_import": "raise RuntimeError('a game that cannot be imported')\n",
    "broken_type": "CARTRIDGE = 'not a cartridge'\n",
    "broken_start": (
        "from firmware.game_api import Cartridge\n"
        "def create(ctx):\n"
        "    raise RuntimeError('the board fell off')\n"
        "def icon(surface):\n"
        "    raise ValueError('no icon')\n"
        "CARTRIDGE = Cartridge(id='brokenstart', title='Broken', description='one unit',\n"
        "    draw_icon=icon, create=create)\n"
    ),
    "broken_versus": (  # its host's start raises; its guests' starts do not
        "from dataclasses import replace\n"
        "from twinfold_tictactoe.cartridge import CARTRIDGE as TICTACTOE\n"
        "from twinfold_tictactoe.scene import TicTacToeScene\n"
        "def create(ctx):\n"
        "    if ctx.versus is not None and ctx.versus.role == 'host':\n"
        "        raise RuntimeError('the host board fell off')\n"
        "    return TicTacToeScene(ctx)\n"
        "CARTRIDGE = replace(TICTACTOE, id='brokenversus', create=create)\n"
    ),
}


def install_broken(site: Path) -> None:
    """The broken games, and the example whose scene broken_versus borrows."""
    install(site, EXAMPLE)
    for name, source in BROKEN.items():
        project = site.parent / "projects" / name
        (project / name).mkdir(parents=True)
        (project / name / "__init__.py").write_text("")
        (project / name / "cartridge.py").write_text(source)
        (project / "pyproject.toml").write_text(
            f'[project]\nname = "{name}"\nversion = "1.0"\n'
            f'[project.entry-points."twinfold.games"]\n{name} = "{name}.cartridge:CARTRIDGE"\n'
        )
        install(site, project)


def test_a_game_that_raises_at_import_or_is_no_cartridge_is_left_out_and_told(
    site, tmp_path, caplog
):
    install_broken(site)
    with caplog.at_level(logging.INFO, logger="twinfold"):
        games, left_out = discover_all()
    assert list(games) == [*FIVE, "brokenstart", "brokenversus", "pop", "tictactoe"]
    assert {(x.source, x.reason) for x in left_out} == {
        ("broken_import (broken_import)", "RuntimeError: a game that cannot be imported"),
        ("broken_type (broken_type)", "str is not a Cartridge"),
    }
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len([w for w in warnings if "left out" in w]) == 2, warnings
    m = machine_in(tmp_path / "m", "en")
    try:
        assert m.left_out == 2
        from firmware.scenes.boot import BootScene

        boot = BootScene(m)
        m.push(boot)
        boot.open_launcher()  # the boot screen's way to the launcher: the notice on top
        assert m.scene.name == "notice" and "2 games could not be loaded" in m.scene.message
        assert m.left_out == 0  # said once
    finally:
        m.store.close()


def test_the_command_says_each_game_left_out_in_one_line_and_runs(site, tmp_path):
    install_broken(site)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    proc = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "headless", "--game", "pop", "--dump", "-"],
        capture_output=True, text=True, cwd=ROOT, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "left out" in line]
    assert len(lines) == 2 and all(line.startswith("twinfold: WARNING: game ") for line in lines)
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("where", ["launcher", "boot"])
def test_a_game_that_raises_at_its_start_shows_the_error_screen_and_the_unit_goes_on(
    site, tmp_path, where
):
    install_broken(site)
    m = machine_in(tmp_path / "m", "en", **({"game": "brokenstart"} if where == "boot" else {}))
    try:
        if where == "launcher":
            m.to_launcher(selected="brokenstart")
            m.render()  # its icon raises: a plain tile, the launcher goes on
            assert m.scene.name == "launcher"
            m.start_game("brokenstart", {})
        assert m.scene.name == "error" and m.game_scene() is None
        assert m.last_error is not None and "the board fell off" in m.last_error
        m.pop()
        m.start_game("pop", {})  # the unit goes on
        run(m, 10)
        assert m.game_scene() is not None and m.game_scene().cartridge.id == "pop"
    finally:
        m.store.close()


def test_a_versus_game_that_raises_at_the_hosts_start_abandons_the_match(site, tmp_path):
    """The host shows the error screen and leaves the session, so its guest is told at once
    and is not left waiting for a move that never comes."""
    from link_sweep import Units

    from firmware.link.session import State
    from firmware.scenes.versus import LobbyScene, start_versus
    from tools.versus_screenshots import seeded_secrets

    install_broken(site)
    with seeded_secrets():
        units = Units(tmp_path, "en", 2)
        host, guest = units.machines
        try:
            start_versus(host, "host", "brokenversus", {})
            start_versus(guest, "join", "brokenversus", {})
            assert isinstance(guest.scene, LobbyScene)
            guest.scene.auto_join = True
            while host.scene.name != "error":
                units.step()
                assert units.tick < 60 * 60, "the host never started"
            assert host.link is not None and host.link.session is None
            assert host.last_error is not None and "host board fell off" in host.last_error
            told = lambda: (  # noqa: E731
                guest.link is None or guest.link.session is None
                or guest.link.session.state is State.ABANDONED or guest.link.session.departed
            )
            while not told():
                units.step()
                assert units.tick < 60 * 120, "the guest was never told"
            for _ in range(60):
                units.step()  # both units go on
        finally:
            units.close()
