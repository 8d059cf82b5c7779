"""Settings for the radio: the name typed on the on-screen keyboard, the paired devices
listed and forgotten (P-FW-2), and the store keyring behind them."""

from __future__ import annotations

from firmware.link.keyring import StoreKeyring
from firmware.link.radio import PairRecord
from firmware.scenes.radio import PairedScene, RadioNameScene
from firmware.storage import Store
from firmware.testing import run, scripted_machine, tap_script
from hal.interfaces import RawInput
from hal.link.memory import PipeLink


def _centre(machine, name: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    return machine.scene.hotspots()[name].center


def test_the_radio_name_is_typed_with_the_stylus_and_kept(tmp_path) -> None:  # type: ignore[no-untyped-def]
    link, _ = PipeLink.pair()
    m = scripted_machine(tmp_path, lambda t: RawInput(), link=link)
    m.to_launcher()
    m.push(RadioNameScene(m))
    taps = {}
    for i, key in enumerate(("key:K", "key:E", "key:N", "button:ok")):
        taps[10 + i * 10] = _centre(m, key)
    m.hal.input.script = tap_script(taps)
    run(m, 60, draw=True)
    assert m.settings.radio_name == "Ken"
    assert m.link.radio.name == "Ken"
    assert Store.open(tmp_path / "store.db").get_setting("settings")["radio_name"] == "Ken"


def test_paired_devices_are_listed_and_forgotten(tmp_path) -> None:  # type: ignore[no-untyped-def]
    m = scripted_machine(tmp_path, lambda t: RawInput())
    m.store.save_pairing("0a0b0c0d", "Hana", "ab" * 32)
    m.to_launcher()
    m.push(PairedScene(m))
    assert m.dump()["game"]["paired"] == [{"peer": "0a0b0c0d", "name": "Hana"}]
    m.hal.input.script = tap_script({5: _centre(m, "item:peer-0a0b0c0d")})
    run(m, 20, draw=True)
    assert m.scene.name == "confirm"
    m.hal.input.script = tap_script({25: _centre(m, "item:yes")})
    run(m, 20, draw=True)
    assert m.store.list_pairings() == []
    assert m.scene.name == "paired" and m.dump()["game"]["paired"] == []


def test_store_keyring_keeps_the_id_and_raises_the_epoch(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = Store.open(tmp_path / "s.db")
    ring = StoreKeyring(store)
    unit, first = ring.start()
    again, second = StoreKeyring(store).start()
    assert unit == again and second == first + 1
    ring.add(PairRecord(b"\x01\x02\x03\x04", "Mio", bytes(32)))
    ring.seen_epoch(b"\x01\x02\x03\x04", 9)
    fresh = StoreKeyring(Store.open(tmp_path / "s.db")).pairings()
    assert fresh[b"\x01\x02\x03\x04"].epoch == 9 and fresh[b"\x01\x02\x03\x04"].name == "Mio"
    ring.forget(b"\x01\x02\x03\x04")
    assert ring.pairings() == {}
