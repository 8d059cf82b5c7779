"""The radio's identity and pairings in the store (P-LINK-2, P-FW-2).

The unit id (4 random bytes) and the epoch counter live in the settings table under
"radio"; the epoch is raised and saved before the radio sends anything, so no frame counter
(half of a sealed frame's nonce, packet.py) is ever used twice under one key: when the
epoch would wrap, after 65535 starts, every pairing is forgotten (its key would meet old
nonces again) and the units pair again. Pairings live in their own table.
"""

from __future__ import annotations

import os

from firmware.link.packet import ID_BYTES
from firmware.link.radio import PairRecord
from firmware.storage import Store

EPOCH_LIMIT = 1 << 16


class StoreKeyring:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[bytes, PairRecord] | None = None

    def start(self) -> tuple[bytes, int]:
        data = self.store.get_setting("radio", None)
        data = data if isinstance(data, dict) else {}
        try:
            unit = bytes.fromhex(str(data.get("id", "")))
        except ValueError:
            unit = b""
        if len(unit) != ID_BYTES:
            unit = os.urandom(ID_BYTES)
        epoch = data.get("epoch", 0)
        epoch = (epoch if isinstance(epoch, int) else 0) + 1
        if epoch >= EPOCH_LIMIT:  # 65535 starts: counters would repeat, so pair again
            epoch = 1
            for row in self.store.list_pairings():
                self.store.forget_pairing(str(row["peer"]))
            self._cache = None
        self.store.set_setting("radio", {"id": unit.hex(), "epoch": epoch})
        return unit, epoch

    def pairings(self) -> dict[bytes, PairRecord]:
        if self._cache is None:
            out = {}
            for row in self.store.list_pairings():
                try:
                    peer, key = bytes.fromhex(row["peer"]), bytes.fromhex(row["key"])
                except ValueError:
                    continue
                out[peer] = PairRecord(peer, row["name"], key, int(row["epoch"]))
            self._cache = out
        return dict(self._cache)

    def add(self, record: PairRecord) -> None:
        self.store.save_pairing(record.peer.hex(), record.name, record.key.hex(), record.epoch)
        self._cache = None

    def forget(self, peer: bytes) -> None:
        self.store.forget_pairing(peer.hex())
        self._cache = None

    def seen_epoch(self, peer: bytes, epoch: int) -> None:
        self.store.set_pairing_epoch(peer.hex(), epoch)
        if self._cache is not None and peer in self._cache:
            self._cache[peer].epoch = epoch
