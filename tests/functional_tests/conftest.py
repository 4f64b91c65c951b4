"""Fixtures the functional tests share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for a browser test module (mark its tests ``tests.support.serve.needs_browser``)."""
    from playwright.sync_api import sync_playwright

    from tests.support.serve import launch_browser

    with sync_playwright() as playwright:
        chromium = launch_browser(playwright)
        yield chromium
        chromium.close()


# Modules slow as a whole that do not (yet) say so with their own ``pytestmark``: the snapshot tests draw
# over a hundred screens, each in an app of its own.  The quick check leaves them out; .ci/run runs them.
SLOW_MODULES = ("test_tui_snapshots.py",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
