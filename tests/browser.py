"""Headless Debian Chromium for browser tests, kept on the loopback address (this machine has no
network, and Chromium calls Google's services unless told not to)."""

import shutil

import pytest

from tests.tools import missing_tool

CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--proxy-server=http://127.0.0.1:9",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
    "--window-size=1280,900",
]


@pytest.fixture
def chromium(tmp_path_factory):
    """A factory: chromium(javascript=True) starts a browser; all are quit after the test."""
    binary, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not (binary and driver_path):
        missing_tool("Debian's chromium and chromium-driver are not installed (make test installs them)")
    from selenium import webdriver

    drivers = []

    def start(javascript=True):
        options = webdriver.ChromeOptions()
        options.binary_location = binary
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
        if not javascript:
            options.add_experimental_option(
                "prefs", {"profile.managed_default_content_settings.javascript": 2}
            )
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(driver_path))
        drivers.append(driver)
        return driver

    yield start
    for driver in drivers:
        driver.quit()


def console_errors(driver):
    """Severe console messages since the last call (fails a page that logs errors)."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
