"""Debian's headless Chromium for the browser tests: starting it, and the panel's gestures."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as shown
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
# As this machine's probe starts it: no sandbox as root, and no calls to Google's hosts.
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)
SCREEN = {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False}
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
WAIT = 5  # seconds

needs_chromium = pytest.mark.skipif(
    not (CHROMIUM.exists() and DRIVER.exists()),
    reason="needs Debian's chromium and chromium-driver: apt-get install chromium chromium-driver",
)


@contextmanager
def chromium(profile: Path, *flags: str) -> Iterator[Any]:
    """A headless Chromium with a new profile in `profile`, and `flags` besides FLAGS."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, *flags, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(str(DRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


def opened(browser: Any, url: str, screen: dict[str, Any]) -> str:
    """Open `url` in a new window the size of `screen`; its handle."""
    browser.switch_to.new_window("window")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", screen)
    browser.get(url)
    return str(browser.current_window_handle)


def text_of(browser: Any, selector: str, expected: str, poll: float = 0.1) -> None:
    """Wait until the element shows `expected` (a string or a pattern)."""
    def showing(driver: Any) -> bool:
        text = driver.find_element(By.CSS_SELECTOR, selector).text
        return re.fullmatch(expected, text) is not None

    WebDriverWait(browser, WAIT, poll).until(showing, f"{selector} never showed {expected!r}")


def press(browser: Any, kind: str) -> None:
    """Tap a panel button once it is enabled again (the panel disables them mid-request),
    scrolled to the middle of the screen, clear of the panel's sticky score."""
    button = (By.CSS_SELECTOR, f'button[data-kind="{kind}"]')
    element = WebDriverWait(browser, WAIT).until(shown.element_to_be_clickable(button))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
