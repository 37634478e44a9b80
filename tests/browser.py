"""A headless Chromium for the tests that open pages in a real browser."""

import shutil
import time

#: Chromium flags: headless, no network of its own, no first-run chores.
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")


def headless_chromium(*extra):
    """A selenium driver of headless Chromium with its console log kept, or
    a string saying why there is none (no chromium, chromedriver or
    selenium here): the caller skips with it."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (chromium and driver):
        return "no headless chromium + chromedriver on this machine"
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return "selenium is not installed"
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for flag in (*FLAGS, *extra):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=opts)


def wait_for(browser, script, timeout=20.0, poll=0.02):
    """Poll ``script`` (JavaScript returning a value) until it is truthy."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        value = browser.execute_script(script)
        if value:
            return value
        time.sleep(poll)
    raise AssertionError(f"timed out waiting for: {script}")
