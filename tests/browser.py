"""Headless Debian Chromium for browser tests, kept on the loopback address (this machine has no
network, and Chromium calls Google's services unless told not to)."""

import itertools
import json
import shutil
import urllib.request

import pytest

from tests.server import free_port
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
WINDOW_SIZE = (1280, 900)


class DevTools:
    """The browser's own DevTools connection (not a page's, which chromedriver's execute_cdp_cmd
    talks to): browser contexts are made and disposed of there."""

    def __init__(self, driver):
        import websocket  # selenium's own dependency

        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as response:
            url = json.load(response)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, suppress_origin=True, timeout=30)
        self.numbers = itertools.count(1)

    def call(self, method, **params):
        number = next(self.numbers)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def close(self):
        self.socket.close()


class Browser:
    """One Chromium, kept for the test process: each test gets a tab in a browser context of its
    own (an incognito profile: no cookies, storage, cache, permissions or open connections of an
    earlier test's), with the window's size and the driver's timeouts as a new browser has them."""

    def __init__(self, driver):
        self.driver, self.devtools = driver, DevTools(driver)
        self.context = None
        self.first = driver.current_window_handle  # the tab Chromium opens with

    def new_context(self):
        driver, old = self.driver, self.context
        self.context = self.devtools.call("Target.createBrowserContext")["browserContextId"]
        tab = self.devtools.call("Target.createTarget", url="about:blank", browserContextId=self.context)
        driver.switch_to.window(tab["targetId"])  # chromedriver's window handles are target ids
        if old is None:
            self.devtools.call("Target.closeTarget", targetId=self.first)
        else:
            # Its tabs close, and its connections: a live server's thread that still held one open
            # would close the test's database connection after the test.
            self.devtools.call("Target.disposeBrowserContext", browserContextId=old)
        driver.set_window_size(*WINDOW_SIZE)
        driver.implicitly_wait(0)
        driver.set_page_load_timeout(300)
        driver.set_script_timeout(30)
        driver.get_log("browser")  # what the last test's pages logged is not the next one's
        return driver

    def quit(self):
        try:
            self.devtools.close()
            self.driver.quit()
        except Exception:
            pass  # it is gone already


class Browsers:
    """The test process's Chromium, one with JavaScript and one without, each started when a test
    first asks for it and kept for the next tests: a start costs seconds; a test's tabs are in a
    browser context of their own, disposed of after it."""

    def __init__(self, tmp_path_factory):
        self.tmp_path_factory = tmp_path_factory
        self.binary, self.driver_path = shutil.which("chromium"), shutil.which("chromedriver")
        self.kept = {}  # javascript: Browser

    def check(self):
        if not (self.binary and self.driver_path):
            missing_tool("Debian's chromium and chromium-driver are not installed (make test installs them)")

    def get(self, javascript):
        """A driver in a new browser context of the browser of that kind."""
        if javascript not in self.kept:
            self.kept[javascript] = Browser(self.start(javascript))
        try:
            return self.kept[javascript].new_context()
        except Exception:
            self.kept.pop(javascript).quit()  # broken by the last test: start another
            self.kept[javascript] = Browser(self.start(javascript))
            return self.kept[javascript].new_context()

    def start(self, javascript):
        from selenium import webdriver

        options = webdriver.ChromeOptions()
        options.binary_location = self.binary
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.tmp_path_factory.mktemp('chromium-profile')}")
        if not javascript:
            blocked = {"profile.managed_default_content_settings.javascript": 2}
            options.add_experimental_option("prefs", blocked)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # chromedriver's port from this process's own ports (tests/server.py), not selenium's
        # bind-and-close, which the other xdist worker could be given at the same moment.
        service = webdriver.ChromeService(self.driver_path, port=free_port())
        return webdriver.Chrome(options=options, service=service)

    def end_test(self, javascript):
        """Close the test's tabs and connections now, while its servers and database are there."""
        browser = self.kept.get(javascript)
        if browser:
            try:
                browser.new_context()
            except Exception:
                self.kept.pop(javascript).quit()

    def quit_all(self):
        for browser in self.kept.values():
            browser.quit()
        self.kept.clear()


@pytest.fixture(scope="session")
def browsers(tmp_path_factory):
    keep = Browsers(tmp_path_factory)
    yield keep
    keep.quit_all()


@pytest.fixture
def chromium(browsers):
    """A factory: chromium(javascript=True) is a driver of this process's browser of that kind,
    in a browser context of the test's own (Browsers); asked again in the same test, the same
    driver, as the test left it."""
    browsers.check()
    used = {}

    def get(javascript=True):
        if javascript not in used:
            used[javascript] = browsers.get(javascript)
        return used[javascript]

    yield get
    for javascript in used:
        browsers.end_test(javascript)


def browser_context(driver):
    """The browser context of the driver's tab, for the DevTools commands that name one (else
    they act on the default context, which holds no test's tab): Browser.grantPermissions."""
    return driver.execute_cdp_cmd("Target.getTargetInfo", {})["targetInfo"]["browserContextId"]


def console_errors(driver):
    """Severe console messages since the last call (fails a page that logs errors)."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
