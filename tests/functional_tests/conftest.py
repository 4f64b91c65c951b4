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

