"""Real-window tests (those on the `xdisplay` X server fixture) skip where the host has no
Xvfb, xdotool or window manager. `.ci/window-checks` installs those tools and sets
`TWINFOLD_REQUIRE_WINDOWS=1`: there a skip of such a test means a tool that should be there
is not, so it is reported as a failure with the skip's reason."""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

REQUIRE_WINDOWS = "TWINFOLD_REQUIRE_WINDOWS"


def windows_required() -> bool:
    return os.environ.get(REQUIRE_WINDOWS) == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if not (
        windows_required() and report.skipped and "xdisplay" in getattr(item, "fixturenames", ())
    ):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"{REQUIRE_WINDOWS}=1 but this real-window test skipped: {reason}"
