"""Updates that roll back (handheld/slots.py): a wheel installed beside the factory version,
kept once it reaches READY, dropped after repeated failed starts, and a power cut between
any two file operations leaving a version that starts with all its files."""

from __future__ import annotations

import contextlib
import io
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from handheld import slots as slots_mod
from handheld.slots import MAX_STARTS, Disk, PowerCut, Slots, State, UpdateError

FILES = {f"firmware/mod{i}.py": f"VALUE = {i}\n" for i in range(4)}


class QuickDisk(Disk):
    """The card without the whole-machine sync (the tests' files need none)."""

    def sync(self) -> None:
        self.step()

    def fsync_dir(self, path: Path) -> None:
        pass

    def compile(self, site: Path) -> None:
        self.step()


def wheel(folder: Path, version: str, name: str = "twinfold", cli: bool = True) -> Path:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(f"{name}-{version}.dist-info/METADATA",
                   f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")  # fmt: skip
        if cli:
            z.writestr("firmware/cli.py", f"VERSION = {version!r}\n")
        for path, text in FILES.items():
            z.writestr(path, text)
    path = folder / f"{name}-{version}-py3-none-any.whl"
    path.write_bytes(buf.getvalue())
    return path


def make(root: Path, cut_after: int | None = None) -> Slots:
    return Slots(root, QuickDisk(cut_after), factory_version=lambda: "0.1.0")


def whole(choice: slots_mod.Choice, version: str) -> None:
    """The chosen slot has every file of its wheel."""
    assert choice.site is not None
    assert (choice.site / "firmware/cli.py").read_text() == f"VERSION = {version!r}\n"
    for path, text in FILES.items():
        assert (choice.site / path).read_text() == text


def test_a_fresh_unit_starts_the_factory_version(tmp_path: Path) -> None:
    choice = make(tmp_path).prepare()
    assert (choice.site, choice.version, choice.rolled_back) == (None, "0.1.0", None)
    assert "TWINFOLD_SLOT_SITE=\n" in choice.env()


def test_a_good_update_is_kept_once_ready(tmp_path: Path) -> None:
    s = make(tmp_path)
    assert s.install(wheel(tmp_path, "0.2.0")) == ("0.2.0", True)
    for _ in range(5):  # any number of starts, each reaching READY
        choice = s.prepare()
        whole(choice, "0.2.0")
        s.ready()
    assert s.status()["failed_starts"] == 0


def test_a_version_failing_to_start_rolls_back_to_the_previous(tmp_path: Path) -> None:
    s = make(tmp_path)
    s.install(wheel(tmp_path, "0.2.0"))
    s.prepare()
    s.ready()
    s.install(wheel(tmp_path, "0.3.0"))
    for _ in range(MAX_STARTS):
        assert s.prepare().version == "0.3.0"  # started, never READY
    choice = s.prepare()
    whole(choice, "0.2.0")
    assert choice.rolled_back == {"from": "0.3.0", "to": "0.2.0"}
    assert "TWINFOLD_ROLLED_BACK=0.3.0\nTWINFOLD_ROLLED_BACK_TO=0.2.0\n" in choice.env()
    assert sorted(p.name for p in s.dir.iterdir() if p.is_dir()) == [
        n for n in s.load().slots
    ]  # the failed slot's files are gone


def test_all_updates_failing_leaves_the_factory_version(tmp_path: Path) -> None:
    s = make(tmp_path)
    s.install(wheel(tmp_path, "0.2.0"))
    for _ in range(MAX_STARTS):
        s.prepare()
    choice = s.prepare()
    assert (choice.site, choice.version) == (None, "0.1.0")
    assert choice.rolled_back == {"from": "0.2.0", "to": "0.1.0"}
    # the same wheel (left on the boot partition) is not tried again
    assert s.install(wheel(tmp_path, "0.2.0")) == ("0.2.0", False)
    assert s.prepare().site is None


def test_a_ready_start_resets_the_count(tmp_path: Path) -> None:
    s = make(tmp_path)
    s.install(wheel(tmp_path, "0.2.0"))
    for _ in range(10):  # crashes now and then, but never MAX_STARTS in a row
        assert s.prepare().version == "0.2.0"
        s.ready()
        assert s.prepare().version == "0.2.0"


@pytest.mark.parametrize(
    ("kind", "message"),
    [("other", "is not Twinfold"), ("nocli", "no firmware/cli.py"), ("junk", "is not a wheel")],
)
def test_bad_wheels_are_refused_in_one_line_and_change_nothing(
    tmp_path: Path, kind: str, message: str
) -> None:
    s = make(tmp_path)
    s.install(wheel(tmp_path, "0.2.0"))
    before = (s.dir / "state.json").read_text()
    if kind == "junk":
        bad = tmp_path / "twinfold-9.whl"
        bad.write_bytes(b"not a zip")
    else:
        (tmp_path / "bad").mkdir()
        name = "other" if kind == "other" else "twinfold"
        bad = wheel(tmp_path / "bad", "9.0", name=name, cli=kind != "nocli")
    with pytest.raises(UpdateError, match=message) as err:
        s.install(bad)
    assert "\n" not in str(err.value)
    assert (s.dir / "state.json").read_text() == before


def test_a_wheel_with_a_path_outside_itself_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "twinfold-6.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("twinfold-6.dist-info/METADATA", "Name: twinfold\nVersion: 6\n")
        z.writestr("firmware/cli.py", "")
        z.writestr("../escape.py", "")
    with pytest.raises(UpdateError, match="outside"):
        make(tmp_path / "root").install(path)
    assert not (tmp_path / "root" / "var/lib/escape.py").exists()


def test_a_damaged_state_file_starts_the_factory_version(tmp_path: Path) -> None:
    s = make(tmp_path)
    s.install(wheel(tmp_path, "0.2.0"))
    (s.dir / "state.json").write_text("{not json")
    assert s.prepare().site is None


def install_ops(tmp_path: Path) -> int:
    """How many file operations a whole install takes (the cut points)."""
    s = make(tmp_path / "count")
    s.install(wheel(tmp_path, "0.1.5"))
    s.prepare()
    s.ready()
    s.disk.ops = 0
    s.install(wheel(tmp_path, "0.2.0"))
    return s.disk.ops


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_power_cut_at_any_point_of_an_update_leaves_a_whole_version(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    tmp = tmp_path_factory.mktemp("cut")
    cut = data.draw(st.integers(0, install_ops(tmp) - 1), label="cut after op")
    s = make(tmp / "unit")
    s.install(wheel(tmp, "0.1.5"))
    s.prepare()
    s.ready()
    cutting = make(tmp / "unit", cut_after=cut)
    with pytest.raises(PowerCut):
        cutting.install(wheel(tmp, "0.2.0"))
    after = make(tmp / "unit").prepare()  # the next boot
    assert after.version in ("0.1.5", "0.2.0")
    whole(after, after.version)
    leftovers = [p.name for p in s.dir.iterdir() if p.name.startswith(slots_mod.PARTIAL)]
    assert leftovers == []
    # the same wheel again (from the boot partition at the next boot) completes the update
    make(tmp / "unit").install(wheel(tmp, "0.2.0"))
    whole(make(tmp / "unit").prepare(), "0.2.0")


class Unit(RuleBasedStateMachine):
    """Installs, good and failing starts and power cuts in any order: the version that
    starts always has all its files; a version that failed MAX_STARTS starts in a row never
    starts again; one that reached READY is never dropped before it fails so."""

    def __init__(self) -> None:
        super().__init__()
        import tempfile

        self.tmp = Path(tempfile.mkdtemp(prefix="tf-slots-"))
        self.next_version = 2
        self.given_up: set[str] = set()
        self.fails: dict[str, int] = {}
        self.running: str | None = None
        self.proven: set[str] = set()

    def slots(self, cut_after: int | None = None) -> Slots:
        return make(self.tmp / "unit", cut_after)

    @rule(cut=st.none() | st.integers(0, 40))
    def install(self, cut: int | None) -> None:
        version = f"0.{self.next_version}.0"
        self.next_version += 1
        try:
            self.slots(cut).install(wheel(self.tmp, version))
        except PowerCut:
            return
        self.fails[version] = 0
        # the versions replaced before they reached READY are never rolled back to
        self.given_up |= {v for v in self.fails if v != version and v not in self.proven}

    @rule(ok=st.booleans(), cut_prepare=st.booleans())
    def start(self, ok: bool, cut_prepare: bool) -> None:
        if cut_prepare:
            with contextlib.suppress(PowerCut):
                self.slots(cut_after=0).prepare()
        choice = self.slots().prepare()
        if choice.site is not None:
            whole(choice, choice.version)
        assert choice.version not in self.given_up
        self.running = choice.version
        if choice.site is None:
            return
        if ok:
            self.slots().ready()
            self.fails[choice.version] = 0
            self.proven.add(choice.version)
        else:
            self.fails[choice.version] = self.fails.get(choice.version, 0) + 1
            if self.fails[choice.version] >= MAX_STARTS:
                self.given_up.add(choice.version)

    @precondition(lambda self: self.running is not None)
    @invariant()
    def state_is_readable(self) -> None:
        path = self.tmp / "unit" / slots_mod.SLOTS_DIR / "state.json"
        state = State.from_json(path.read_text()) if path.exists() else State()
        assert len(state.slots) <= slots_mod.KEPT
        json.dumps(self.slots().status())


Unit.TestCase.settings = settings(max_examples=20, stateful_step_count=20, deadline=None)
test_unit_state_machine = Unit.TestCase


def test_the_command_writes_the_run_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "root"
    assert slots_mod.main(["--root", str(root), "install-from", str(tmp_path)]) == 0
    w = wheel(tmp_path, "0.4.0")
    assert slots_mod.main(["--root", str(root), "install", str(w)]) == 0
    assert slots_mod.main(["--root", str(root), "prepare"]) == 0
    env = (root / slots_mod.RUN_FILE).read_text()
    assert "TWINFOLD_SLOT_VERSION=0.4.0\n" in env
    assert slots_mod.main(["--root", str(root), "ready"]) == 0
    assert slots_mod.main(["--root", str(root), "install-from", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "version 0.4.0 installed; it starts next" in out
    assert "was installed before: skipped" in out


def test_the_launcher_is_told_once_of_a_rollback_and_always_of_the_version(
    tmp_path: Path,
) -> None:
    s = make(tmp_path)
    s.install(wheel(tmp_path, "0.2.0"))
    assert slots_mod.launcher_note({}) == (None, None)  # the factory version, no update
    env = dict(line.split("=", 1) for line in s.prepare().env().splitlines())
    assert slots_mod.launcher_note(env) == (("v0.2.0", "v0.2.0"), None)
    for _ in range(MAX_STARTS):
        s.prepare()
    env = dict(line.split("=", 1) for line in s.prepare().env().splitlines())
    note, notice = slots_mod.launcher_note(env)
    assert note is not None and "0.1.0" in note[0] and "0.2.0" in note[0]
    assert notice is not None and "0.2.0" in notice[0] and "0.2.0" in notice[1]
    s.ready()  # that start showed it
    env = dict(line.split("=", 1) for line in s.prepare().env().splitlines())
    assert slots_mod.launcher_note(env) == (note, None)
