"""deploy/image/'s scripts imported as modules by the deploy tests.

They are run as scripts (`python3 deploy/image/qemu_check.py ...`) and import each other by
their folder on sys.path, so a test imports them the same way, with that folder on the path
only while the import runs.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

IMAGE = Path(__file__).resolve().parents[2] / "deploy/image"


def load(name: str) -> ModuleType:
    """deploy/image/NAME.py, imported as the scripts import one another."""
    sys.path.insert(0, str(IMAGE))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(IMAGE))
