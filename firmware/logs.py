"""Where the firmware's log goes: a small rotating file in the data directory (P-FW-3)."""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

LOG_NAME = "twinfold.log"
HANDLER_NAME = "twinfold"  # marks the handlers setup_logging added


def setup_logging(data_dir: Path, *, stderr_level: int = logging.WARNING) -> Path:
    """Log to `data_dir/twinfold.log` (rotated at 256 kB, 3 kept) and warnings to stderr."""
    log = logging.getLogger("twinfold")
    log.setLevel(logging.INFO)
    for handler in list(log.handlers):
        if handler.get_name() == HANDLER_NAME:
            log.removeHandler(handler)
            handler.close()
    path = Path(data_dir) / LOG_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    file_handler = logging.handlers.RotatingFileHandler(
        path, maxBytes=256 * 1024, backupCount=3, encoding="utf-8"
    )
    file_handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    console = logging.StreamHandler()
    console.setLevel(stderr_level)
    console.setFormatter(logging.Formatter("twinfold: %(levelname)s: %(message)s"))
    for handler in (file_handler, console):
        handler.set_name(HANDLER_NAME)  # so that a second setup replaces, not duplicates
        log.addHandler(handler)
    return path
