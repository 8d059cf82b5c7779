"""The image build's cache (/var/cache/twinfold-image) as the deploy tests read it.

A base root is written as `base-<key>.partial.tar` and renamed to `base-<key>.tar` only when
whole (deploy/image/base.sh), so a test that runs while a build is filling the cache must
never take the partial file for a base root (it once read an empty one and failed).
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE = Path(os.environ.get("TWINFOLD_IMAGE_CACHE", "/var/cache/twinfold-image"))


def finished_bases(cache: Path = CACHE) -> list[Path]:
    """The cache's whole base roots, the newest first (none still being written)."""
    bases = [p for p in cache.glob("base-*.tar") if not p.name.endswith(".partial.tar")]
    return sorted(bases, key=lambda p: p.stat().st_mtime, reverse=True)
