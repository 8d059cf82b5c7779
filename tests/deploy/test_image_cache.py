"""The deploy tests never take a base root still being written for a whole one."""

from __future__ import annotations

import os
from pathlib import Path

from tests.deploy.image_cache import finished_bases


def test_a_base_root_being_written_is_not_taken(tmp_path: Path) -> None:
    old = tmp_path / "base-aaaa.tar"
    old.write_bytes(b"whole")
    partial = tmp_path / "base-bbbb.partial.tar"
    partial.write_bytes(b"")
    os.utime(old, (1, 1))  # the partial one is newer, as while a build fills the cache
    assert finished_bases(tmp_path) == [old]
    newer = tmp_path / "base-cccc.tar"
    newer.write_bytes(b"whole")
    assert finished_bases(tmp_path) == [newer, old]
