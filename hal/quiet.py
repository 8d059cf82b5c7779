"""Keep the host libraries' chatter off the user's terminal.

SDL and ALSA write straight to file descriptor 2 while the window and the mixer open
(eight `ALSA lib ... cannot find card` lines without a sound card, an `XDG_RUNTIME_DIR`
line without a session). Those lines are not Twinfold's: `captured_stderr()` catches them
in a temporary file and moves them into the log, so the terminal shows only our own lines.
The emulator (window, mixer) and the device backend (mixer) both use it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Iterator

log = logging.getLogger("twinfold")


@contextlib.contextmanager
def captured_stderr(what: str) -> Iterator[None]:
    """Run the body with fd 2 going to a temporary file; log what it wrote (at INFO)."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to redirect: nothing can be printed anyway
        yield
        return
    with tempfile.TemporaryFile() as sink:
        sys.stderr.flush()
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            text = sink.read().decode("utf-8", "replace").strip()
            if text:
                log.info("%s printed: %s", what, " | ".join(text.splitlines()))
