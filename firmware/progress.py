"""The one progress display for long commands (`sevens-sim`, `panels-sim`, benches).

A tqdm bar on stderr, shown only where someone watches: on a terminal, and never with
`--json` (whose output is for programs) or when stderr is piped or redirected.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from tqdm import tqdm


def wanted(mode: str = "auto", *, json_output: bool = False, stream: TextIO | None = None) -> bool:
    """Whether to show progress: `always`, `never`, or `auto` (a terminal, not --json)."""
    if mode == "always":
        return True
    if mode == "never" or json_output:
        return False
    stream = stream if stream is not None else sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


@contextmanager
def progress(
    total: int, unit: str, *, show: bool, stream: TextIO | None = None
) -> Iterator[Callable[[int], None]]:
    """Yield `update(done)`, to be called with the number of items finished so far."""
    if not show:
        yield lambda done: None
        return
    bar = tqdm(
        total=total,
        unit=f" {unit}",
        file=stream if stream is not None else sys.stderr,
        dynamic_ncols=True,
        mininterval=0.2,
        leave=True,
    )
    try:

        def update(done: int) -> None:
            bar.update(done - bar.n)

        yield update
    finally:
        bar.close()
