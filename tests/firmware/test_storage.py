import math
import os
import random
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware import storage
from firmware.storage import NotAStore, Store, StoreError, StoreValueError


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path / "store.db")
    yield s
    s.close()


def test_fresh_store_has_no_notice_and_defaults(tmp_path):
    with Store.open(tmp_path / "sub" / "dir" / "store.db") as s:
        assert s.notice is None
        assert s.get_setting("volume", 7) == 7
        assert s.get_calibration() is None
        assert s.load_suspend() is None
        assert s.list_records() == []
        stats = s.get_stats("reversi")
        assert stats["played"] == 0 and stats["best_score"] is None


def test_values_survive_reopening(tmp_path):
    path = tmp_path / "store.db"
    with Store.open(path) as s:
        s.set_setting("language", "ja")
        s.set_setting("swap", True)
        s.set_calibration({"format": "x", "matrix": [1.5, 0, 0, 0, 1, 0]})
        s.record_result("reversi", "win", 40)
        rid = s.add_record("reversi", {"moves": ["f5", "d6"], "result": "1-0"})
        s.save_suspend("reversi", {"board": [[0, 1], [2, 0]]}, {"title": "Reversi"})
    with Store.open(path) as s:
        assert s.notice is None
        assert s.get_setting("language") == "ja"
        assert s.get_setting("swap") is True
        assert s.settings() == {"language": "ja", "swap": True}
        assert s.get_calibration() == {"format": "x", "matrix": [1.5, 0, 0, 0, 1, 0]}
        assert s.get_stats("reversi")["wins"] == 1
        rec = s.get_record(rid)
        assert rec is not None and rec.game_id == "reversi"
        assert rec.record == {"moves": ["f5", "d6"], "result": "1-0"}
        sus = s.load_suspend()
        assert sus is not None
        assert (sus.game_id, sus.state, sus.meta) == (
            "reversi",
            {"board": [[0, 1], [2, 0]]},
            {"title": "Reversi"},
        )


def test_each_game_keeps_its_own_saved_game(tmp_path):
    clock = iter(range(100, 200))
    with Store.open(tmp_path / "s.db", now=lambda: float(next(clock))) as store:
        store.save_suspend("a", {"n": 1}, {})
        store.save_suspend("b", {"n": 2}, {"m": 1})
        sus = store.load_suspend()  # the most recently saved of any game
        assert sus is not None and (sus.game_id, sus.state, sus.meta) == ("b", {"n": 2}, {"m": 1})
        a = store.load_suspend("a")
        assert a is not None and a.state == {"n": 1}  # saving b did not touch a
        store.save_suspend("a", {"n": 3}, {})  # replaces a's only
        assert [g.game_id for g in store.suspended_games()] == ["a", "b"]
        assert store.suspended_ids() == {"a", "b"}
        store.clear_suspend("a")
        assert store.load_suspend("a") is None
        b_saved = store.load_suspend("b")
        assert b_saved is not None and b_saved.state == {"n": 2}


def _schema_two_store(path, suspended):
    """A store as the firmware before issue 24 left it: schema 2, one suspend slot."""
    conn = sqlite3.connect(path, isolation_level=None)
    for step in storage.MIGRATIONS[:2]:
        for statement in step:
            conn.execute(statement)
    conn.execute("UPDATE schema_version SET version = 2")
    conn.execute("INSERT INTO settings (key, value) VALUES ('volume', '4')")
    if suspended is not None:
        conn.execute(
            "INSERT INTO suspend (id, game_id, state, meta, saved_at) VALUES (1, ?, ?, ?, ?)",
            suspended,
        )
    conn.close()


@pytest.mark.parametrize("with_game", [True, False])
def test_the_old_single_suspend_slot_migrates_into_its_games_slot(tmp_path, with_game):
    path = tmp_path / "old.db"
    row = ("arimaa", '{"turn":7,"board":"x"}', '{"seed":5,"options":{"mode":"cpu"}}', 123.5)
    _schema_two_store(path, row if with_game else None)
    with Store.open(path) as s:
        assert s.notice is None and s.get_setting("volume") == 4
        version = s._conn.execute("SELECT version FROM schema_version").fetchone()[0]
        assert version == storage.SCHEMA_VERSION == 3
        if with_game:
            sus = s.load_suspend("arimaa")
            assert sus is not None
            assert (sus.state, sus.meta, sus.saved_at) == (
                {"turn": 7, "board": "x"},
                {"seed": 5, "options": {"mode": "cpu"}},
                123.5,
            )
            assert s.suspended_ids() == {"arimaa"}
        else:
            assert s.suspended_games() == []
    with Store.open(path) as s:  # a second open migrates nothing twice
        assert len(s.suspended_games()) == (1 if with_game else 0)


# ---- one process at a time ---------------------------------------------------------------


def _hold_store(path: str, ready, release) -> None:  # type: ignore[no-untyped-def]
    store = Store.open(path)
    ready.set()
    release.wait(30)
    store.close()


def test_a_store_is_held_by_one_process_and_the_refusal_names_the_holder(tmp_path):
    import multiprocessing

    path = tmp_path / "store.db"
    ctx = multiprocessing.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_store, args=(str(path), ready, release))
    holder.start()
    try:
        assert ready.wait(60)
        with pytest.raises(storage.StoreBusy) as info:
            Store.open(path)
        assert info.value.holder == holder.pid
        assert f"in use by process {holder.pid}" in str(info.value)
        assert not storage.holds(path)
    finally:
        release.set()
        holder.join(30)
    with Store.open(path) as s:  # free again once the holder closed it
        assert s.notice is None


def test_a_killed_holder_leaves_no_stale_lock(tmp_path):
    import multiprocessing

    path = tmp_path / "store.db"
    ctx = multiprocessing.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_store, args=(str(path), ready, release))
    holder.start()
    assert ready.wait(60)
    holder.kill()
    holder.join(30)
    assert storage.lock_holder(path) == holder.pid  # the file still names it ...
    with Store.open(path) as s:  # ... but the kernel dropped its lock with the process
        assert s.get_setting("x") is None


def test_one_process_may_open_its_store_again(tmp_path):
    path = tmp_path / "store.db"
    first = Store.open(path)
    second = Store.open(path)  # e.g. an emulator reset, a test reading what a machine wrote
    second.set_setting("k", 1)
    second.close()
    assert storage.holds(path)  # still held by the first handle
    assert first.get_setting("k") == 1
    first.close()
    assert not storage.holds(path)


def test_records_listing_newest_first_and_by_game(tmp_path):
    clock = iter(range(100, 200))
    with Store.open(tmp_path / "s.db", now=lambda: float(next(clock))) as s:
        ids = [s.add_record(g, {"i": i}) for i, g in enumerate(["a", "b", "a", "c", "a"])]
        assert len(set(ids)) == 5
        assert [r.id for r in s.list_records()] == sorted(ids, reverse=True)
        a = s.list_records("a")
        assert [r.record["i"] for r in a] == [4, 2, 0]
        assert all(r.game_id == "a" for r in a)
        assert [r.created_at for r in a] == sorted((r.created_at for r in a), reverse=True)
        assert len(s.list_records(limit=2)) == 2
        assert s.get_record(max(ids) + 1) is None
        s.delete_record(ids[0])
        assert s.get_record(ids[0]) is None


def test_record_result_counts_and_keeps_best(store):
    store.record_result("g", "win", 10)
    store.record_result("g", "win", 30)
    store.record_result("g", "loss", 20)
    store.record_result("g", "draw")
    store.record_result("g", None, 5)
    s = store.get_stats("g")
    assert (s["played"], s["wins"], s["losses"], s["draws"]) == (5, 2, 1, 1)
    assert s["best_score"] == 30 and s["last_score"] == 5
    assert s["best_streak"] == 2 and s["streak"] == 0
    store.record_result("t", "win", 900, higher_is_better=False)
    store.record_result("t", "win", 700, higher_is_better=False)
    store.record_result("t", "win", 800, higher_is_better=False)
    assert store.get_stats("t")["best_score"] == 700
    assert store.get_stats("t")["streak"] == 3
    with pytest.raises(StoreValueError):
        store.record_result("g", "victory")
    with pytest.raises(StoreValueError):
        store.record_result("g", "win", float("nan"))
    assert store.get_stats("g")["played"] == 5


def test_update_stats_is_general_and_atomic(store):
    store.update_stats("g", lambda s: {**s, "fastest_ticks": 1234, "openings": {"f5": 2}})
    assert store.get_stats("g")["openings"] == {"f5": 2}

    def boom(s):
        s["played"] = 99
        raise RuntimeError("game bug")

    with pytest.raises(RuntimeError):
        store.update_stats("g", boom)
    with pytest.raises(StoreValueError):
        store.update_stats("g", lambda s: {**s, "bad": {1, 2}})
    with pytest.raises(StoreValueError):
        store.update_stats("g", lambda s: [1])
    stats = store.get_stats("g")
    assert stats["played"] == 0 and stats["fastest_ticks"] == 1234 and "bad" not in stats


def test_reset_stats(store):
    store.record_result("a", "win")
    store.record_result("b", "loss")
    store.add_record("a", {})
    store.add_record("b", {})
    store.set_setting("keep", 1)
    store.reset_stats("a")
    assert store.get_stats("a")["played"] == 0 and store.get_stats("b")["played"] == 1
    assert [r.game_id for r in store.list_records()] == ["b"]
    store.reset_stats()
    assert store.all_stats() == {} and store.list_records() == []
    assert store.get_setting("keep") == 1


@pytest.mark.parametrize(
    "bad",
    [
        float("nan"),
        float("inf"),
        {1: "int key"},
        {"nested": [1, {"deep": float("-inf")}]},
        {"s": {1, 2}},
        b"bytes",
        object(),
    ],
)
def test_unstorable_values_raise_and_change_nothing(store, bad):
    store.set_setting("k", "before")
    store.save_suspend("g", {"ok": 1}, {})
    with pytest.raises(StoreValueError):
        store.set_setting("k", bad)
    with pytest.raises(StoreValueError):
        store.save_suspend("g", {"x": bad}, {})
    with pytest.raises(StoreValueError):
        store.save_suspend("g", {"ok": 2}, {"meta": bad})
    with pytest.raises(StoreValueError):
        store.add_record("g", {"r": bad})
    assert store.get_setting("k") == "before"
    sus = store.load_suspend()
    assert sus is not None and sus.state == {"ok": 1}
    assert store.list_records() == []


def test_circular_and_bad_keys_are_rejected(store):
    loop: list = []
    loop.append(loop)
    with pytest.raises(StoreValueError, match="circular"):
        store.set_setting("k", loop)
    for key in ["", 3, None, "\ud800"]:
        with pytest.raises(StoreValueError):
            store.set_setting(key, 1)
    with pytest.raises(StoreValueError):
        store.add_record("", {})
    with pytest.raises(StoreValueError):
        store.set_calibration([1, 2, 3])
    assert store.settings() == {}


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=25,
)


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.text(min_size=1, max_size=20), value=json_values)
def test_settings_round_trip(store, key, value):
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:
        with pytest.raises(StoreValueError):
            store.set_setting(key, value)
        return
    store.set_setting(key, value)
    got = store.get_setting(key)
    assert got == value
    # floats come back bit-exact (including the sign of zero)
    if isinstance(value, float):
        assert math.copysign(1, got) == math.copysign(1, value)


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=json_values, meta=json_values)
def test_suspend_round_trip(store, state, meta):
    store.save_suspend("game", state, meta)
    sus = store.load_suspend()
    assert sus is not None and sus.state == state and sus.meta == meta


def _fill(path, n=40):
    with Store.open(path) as s:
        for i in range(n):
            s.add_record("g", {"i": i, "pad": "x" * 1500})
        s.set_setting("volume", 3)


def _assert_set_aside(tmp_path, path, original: bytes, ours: bool = True):
    """(`ours`: the data directory's own store, whose header may be gone.)"""
    with Store.open(path, ours=ours) as s:
        assert s.notice is not None and "damaged" in s.notice.en
        aside = path.with_name(path.name + ".damaged-1")
        assert aside.name in s.notice.en and aside.name in s.notice.ja
        assert aside.read_bytes() == original
        # the repaired store works
        s.set_setting("volume", 5)
    with Store.open(path) as s:
        assert s.notice is None
        assert s.get_setting("volume") == 5


def test_garbage_store_is_set_aside(tmp_path):
    path = tmp_path / "store.db"
    _fill(path)
    size = path.stat().st_size
    garbage = random.Random(1).randbytes(size)
    path.write_bytes(garbage)
    _assert_set_aside(tmp_path, path, garbage)
    with Store.open(path) as s:  # nothing could be read and the backup was of an empty store
        assert s.list_records() == []


def test_garbage_header_only_is_set_aside(tmp_path):
    path = tmp_path / "store.db"
    path.write_bytes(b"this is not a database at all\n" * 3)
    _assert_set_aside(tmp_path, path, path.read_bytes())


@pytest.mark.parametrize("keep", [0.5, 0.9, 60 / 4096])
def test_truncated_store_is_set_aside(tmp_path, keep):
    path = tmp_path / "store.db"
    _fill(path)
    data = path.read_bytes()
    cut = data[: max(1, int(len(data) * keep))]
    path.write_bytes(cut)
    _assert_set_aside(tmp_path, path, cut)


def test_damaged_pages_are_set_aside(tmp_path):
    path = tmp_path / "store.db"
    _fill(path)
    data = bytearray(path.read_bytes())
    page = 4096
    # scribble over the middle of the second page (a b-tree page), header left intact
    for i in range(page + 8, page + 600):
        data[i] = 0xA5
    path.write_bytes(bytes(data))
    # the header (with Twinfold's mark) is whole: set aside at any path
    _assert_set_aside(tmp_path, path, bytes(data), ours=False)


def test_set_aside_names_count_up_and_take_journals(tmp_path):
    path = tmp_path / "store.db"
    for n in (1, 2):
        path.write_bytes(b"garbage %d" % n * 50)
        wal = path.with_name("store.db-wal")
        wal.write_bytes(b"stale wal")
        with Store.open(path, ours=True) as s:
            assert f"store.db.damaged-{n}" in str(s.notice)
        assert (tmp_path / f"store.db.damaged-{n}").read_bytes() == b"garbage %d" % n * 50
        # the old journal went with it (or SQLite discarded it): never left for the fresh store
        assert wal.exists() is False or wal.read_bytes() != b"stale wal"
        moved = tmp_path / f"store.db.damaged-{n}-wal"
        assert not moved.exists() or moved.read_bytes() == b"stale wal"
        path.unlink()
        for side in tmp_path.glob("store.db-*"):
            side.unlink()


def test_foreign_databases_in_the_data_directory_and_newer_stores_are_set_aside(tmp_path):
    path = tmp_path / "store.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.commit()
    conn.close()
    with Store.open(path, ours=True) as s:
        assert s.notice is not None and "store.db.damaged-1" in s.notice.en
    path2 = tmp_path / "newer.db"
    with Store.open(path2) as s:
        s.set_setting("a", 1)
    conn = sqlite3.connect(path2)
    conn.execute("UPDATE schema_version SET version = 999")
    conn.commit()
    conn.close()
    with Store.open(path2) as s:  # marked as Twinfold's: set aside at any path
        assert s.notice is not None and "newer firmware" in s.notice.detail


def test_a_locked_store_is_an_error_not_damage(tmp_path):
    path = tmp_path / "store.db"
    with Store.open(path) as s:
        s.set_setting("a", 1)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO settings VALUES ('b', '2')")
    try:
        with pytest.raises(StoreError, match="locked"):
            Store.open(path, timeout=0.05)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not list(tmp_path.glob("*.damaged-*"))
    with Store.open(path) as s:
        assert s.notice is None and s.get_setting("a") == 1


def test_unwritable_location_is_an_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError):
        Store.open(blocker / "store.db")


def test_migrations_run_in_order_and_keep_data(tmp_path, monkeypatch):
    path = tmp_path / "store.db"
    with Store.open(path) as s:
        s.set_setting("kept", [1, 2])
    shipped = len(storage.MIGRATIONS)
    extra = (
        "CREATE TABLE example_extra (peer TEXT PRIMARY KEY, key TEXT NOT NULL)",
        "INSERT INTO settings (key, value) VALUES ('migrated', 'true')",
    )
    monkeypatch.setattr(storage, "MIGRATIONS", [*storage.MIGRATIONS, extra])
    monkeypatch.setattr(storage, "SCHEMA_VERSION", len(storage.MIGRATIONS))
    with Store.open(path) as s:
        assert s.notice is None
        assert s.get_setting("kept") == [1, 2] and s.get_setting("migrated") is True
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version FROM schema_version").fetchall() == [(shipped + 1,)]
    conn.close()


def test_pairings_persist_and_can_be_forgotten(tmp_path):
    path = tmp_path / "store.db"
    with Store.open(path) as s:
        s.save_pairing("0a0b0c0d", "Ken", "ab" * 32)
        s.save_pairing("01020304", "Mio", "cd" * 32)
        s.set_pairing_epoch("0a0b0c0d", 7)
    with Store.open(path) as s:
        rows = {r["peer"]: r for r in s.list_pairings()}
        assert rows["0a0b0c0d"]["name"] == "Ken" and rows["0a0b0c0d"]["epoch"] == 7
        assert rows["01020304"]["key"] == "cd" * 32 and rows["01020304"]["epoch"] == -1
        s.forget_pairing("0a0b0c0d")
        assert [r["peer"] for r in s.list_pairings()] == ["01020304"]


def test_in_memory_store_works():
    s = Store.open_in_memory()
    s.set_setting("a", {"b": [1]})
    assert s.get_setting("a") == {"b": [1]}
    s.close()


def test_store_uses_durable_journal(store):
    conn = store._conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


# ---- crash safety: SIGKILL at random points --------------------------------------------------


def _crash_child(path: str, wfd: int) -> None:
    """Repeated saves; report each committed counter value over the pipe."""
    try:
        s = Store.open(path)
        n = s.get_setting("counter", 0)
        while True:
            n += 1
            blob = f"{n:08d}" * 500
            s.save_suspend("crash", {"n": n, "blob": blob}, {"n": n})
            s.update_stats("crash", lambda st, n=n: {**st, "played": n})
            # (a killed round may have added this record already: the counter is set last)
            newest = s.list_records("crash", limit=1)
            if n % 5 == 0 and not (newest and newest[0].record["n"] == n):
                s.add_record("crash", {"n": n})
            s.set_setting("counter", n)
            os.write(wfd, b"%d\n" % n)
    finally:
        os._exit(0)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigkill_during_saves_never_loses_a_commit(tmp_path):
    import select
    import signal
    import time

    path = str(tmp_path / "crash.db")
    rng = random.Random(2024)
    committed = 0  # last value a child reported as committed
    iteration = 0.03  # running estimate of one save round (seconds), to aim the kills
    mid_round = 0
    for _kill in range(200):
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            os.close(rfd)
            _crash_child(path, wfd)
        os.close(wfd)
        # let the child commit a few rounds, then kill it at a random point of the next one
        # (sometimes while it is still opening the store)
        want = rng.choice([0, 0, 1, 2, 3])
        reported = b""
        last = start = time.monotonic()
        while reported.count(b"\n") < want:
            ready, _, _ = select.select([rfd], [], [], 30)
            assert ready, "child stopped reporting"
            chunk = os.read(rfd, 65536)
            if not chunk:
                break
            reported += chunk
            last = time.monotonic()
        if want:
            iteration = 0.7 * iteration + 0.3 * (last - start) / want
        time.sleep(rng.uniform(0, 1.2 * iteration))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
        while chunk := os.read(rfd, 65536):
            reported += chunk
        os.close(rfd)
        lines = reported.split(b"\n")[:-1]
        if lines:
            assert int(lines[-1]) >= committed
            committed = int(lines[-1])
        with Store.open(path) as s:
            assert s.notice is None, s.notice
            counter = s.get_setting("counter", 0)
            # the last reported commit is there; at most one more committed unreported
            assert counter in (committed, committed + 1), (counter, committed)
            committed = counter
            sus = s.load_suspend()
            if sus is None:
                assert counter == 0
                continue
            n = sus.state["n"]
            assert n in (counter, counter + 1)
            mid_round += n != counter
            assert sus.state["blob"] == f"{n:08d}" * 500 and sus.meta == {"n": n}
            played = s.get_stats("crash")["played"]
            assert counter <= played <= n
            recs = [r.record["n"] for r in s.list_records("crash")]
            expected = list(range(5 * (counter // 5), 0, -5))
            if n == counter + 1 and n % 5 == 0:
                assert recs in (expected, [n, *expected])
            else:
                assert recs == expected
    # the kills really landed both between and inside save rounds
    assert committed >= 200 and 0 < mid_round < 200


bad_leaves = st.sampled_from(
    [float("nan"), float("inf"), {1, 2}, b"raw", object(), {3: "int key"}, {None: 1}]
)
maybe_bad_values = st.recursive(
    st.none() | st.integers() | st.text(max_size=5) | bad_leaves,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=maybe_bad_values)
def test_a_value_is_stored_exactly_or_refused_without_change(store, value):
    store.set_setting("k", "before")
    try:
        store.set_setting("k", value)
    except StoreValueError:
        assert store.get_setting("k") == "before"
    else:
        assert store.get_setting("k") == value


# ---- issue 34, items 12 and 13: a person's file is refused; damage is told in plain words --


def _sqlite_file(path, *statements):
    conn = sqlite3.connect(path)
    for sql in statements:
        conn.execute(sql)
    conn.commit()
    conn.close()


def _unmarked_damaged_sqlite(path):
    _sqlite_file(
        path,
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)",
        *(f"INSERT INTO notes (body) VALUES ('{'n' * 900}')" for _ in range(30)),
    )
    data = bytearray(path.read_bytes())
    data[0:16] = b"SQLite format 3\x00"
    for i in range(100, 4096):  # the schema page after the header: unreadable
        data[i] = 0x5A
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "kind",
    ["text", "binary", "foreign sqlite", "foreign app id", "damaged unmarked sqlite"],
)
def test_a_file_that_is_not_a_store_is_refused_and_left_as_it_was(tmp_path, kind):
    path = tmp_path / "mine.dat"
    if kind == "text":
        path.write_text("My shopping list\nmilk\n" * 40)
    elif kind == "binary":
        path.write_bytes(random.Random(5).randbytes(9000))
    elif kind == "foreign sqlite":
        _sqlite_file(path, "CREATE TABLE photos (id INTEGER)", "INSERT INTO photos VALUES (1)")
    elif kind == "foreign app id":  # another program's mark, even with a table of our name
        _sqlite_file(path, "PRAGMA application_id = 42", "CREATE TABLE schema_version (v)")
    else:
        _unmarked_damaged_sqlite(path)
    before = path.read_bytes()
    with pytest.raises(NotAStore, match=r"mine\.dat is not a Twinfold store") as caught:
        Store.open(path)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == before
    # nothing beside it either: no set-aside copy, no journal, no lock file left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.dat"]
    assert not storage.holds(path)


def test_an_empty_file_becomes_a_store_and_an_empty_database_only_in_the_data_dir(tmp_path):
    path = tmp_path / "empty"
    path.write_bytes(b"")  # holds nothing (what SQLite leaves of a store never written)
    with Store.open(path) as s:
        assert s.notice is None
        s.set_setting("a", 1)
    with Store.open(path) as s:
        assert s.get_setting("a") == 1
    path = tmp_path / "empty.db"  # SQLite without Twinfold's tables: someone else's file
    _sqlite_file(path, "PRAGMA user_version = 7", "CREATE TABLE t (x)", "DROP TABLE t")
    before = path.read_bytes()
    with pytest.raises(NotAStore, match="without Twinfold's tables"):
        Store.open(path)
    assert path.read_bytes() == before
    # in the data directory it is a store cut off before its first commit: made a store
    with Store.open(path, ours=True) as s:
        s.set_setting("a", 2)
    with Store.open(path) as s:
        assert s.get_setting("a") == 2


def test_a_store_carries_twinfold_mark_and_older_unmarked_stores_are_ours(tmp_path):
    path = tmp_path / "old.db"
    with Store.open(path) as s:
        s.set_setting("kept", 1)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == 0x54774664
    conn.execute("PRAGMA application_id = 0")  # as written before the mark
    conn.commit()
    conn.close()
    with Store.open(path) as s:  # recognised by its schema, and marked again
        assert s.notice is None and s.get_setting("kept") == 1
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == 0x54774664
    conn.close()


def test_a_damaged_page_is_told_in_plain_words_both_languages(tmp_path, caplog):
    path = tmp_path / "store.db"
    _fill(path)
    data = bytearray(path.read_bytes())
    for i in range(4096 + 8, 4096 + 600):
        data[i] = 0xA5
    path.write_bytes(bytes(data))
    with caplog.at_level("INFO", logger="twinfold"), Store.open(path) as s:
        notice = s.notice
    assert notice is not None
    for words in (notice.en, notice.ja):
        assert "\n" not in words and "***" not in words and "btree" not in words.lower()
        assert "store.db.damaged-1" in words
    # the salvage read every row around the damaged page
    assert "Brought back: 40 game records and the settings." in notice.en
    assert "ゲームの きろく 40こ、せってい" in notice.ja
    assert "\n" not in notice.detail and "page" in notice.detail.lower()  # SQLite, one line
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "\n" not in warnings[0] and "***" not in warnings[0]
    infos = [r.getMessage() for r in caplog.records if r.levelname == "INFO"]
    assert any("page" in m.lower() for m in infos)


def test_a_store_cut_off_before_its_first_checkpoint_is_still_ours(tmp_path):
    """The schema and the mark of a new store are in its write-ahead log until a checkpoint:
    after a power cut the main file alone looks like an empty database."""
    live = tmp_path / "live" / "store.db"
    with Store.open(live) as s:
        s.set_setting("kept", 1)
        cut = tmp_path / "store.db"
        for name in ("store.db", "store.db-wal"):  # the power goes: the files as they are
            (tmp_path / name).write_bytes((live.parent / name).read_bytes())
    assert (tmp_path / "store.db-wal").stat().st_size > 0
    with Store.open(cut) as s:  # a named path, not the data directory's
        assert s.notice is None and s.get_setting("kept") == 1
