"""Canonical state digests: the same bytes for the same state on every machine and Python.

JSON with sorted keys, no whitespace, ASCII only, and no floats (a float's text differs
between platforms in corner cases, so state that feeds a digest holds ints and strings).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_bytes(obj: Any) -> bytes:
    """The canonical serialisation of a JSON-able object; floats are refused."""
    _refuse_floats(obj)
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def canonical_digest(obj: Any) -> str:
    """Hex SHA-256 of `canonical_bytes(obj)`."""
    return hashlib.sha256(canonical_bytes(obj)).hexdigest()


def _refuse_floats(obj: Any) -> None:
    if isinstance(obj, float):
        raise TypeError("state digests take no floats (platform-dependent text)")
    if isinstance(obj, dict):
        for key, value in obj.items():
            if not isinstance(key, str):
                raise TypeError(f"state keys must be strings, not {type(key).__name__}")
            _refuse_floats(value)
    elif isinstance(obj, list | tuple):
        for value in obj:
            _refuse_floats(value)
