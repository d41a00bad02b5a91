"""What the browser tests share: Debian's headless Chromium driven by Selenium through Debian's
chromedriver (nothing downloaded)."""

from __future__ import annotations

import shutil

import pytest

NEEDS_CHROMIUM = pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("chromedriver")),
                                    reason="Debian's chromium and chromium-driver are not installed (make install "
                                           "installs them)")


@pytest.fixture
def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp_path / 'chrome'}", "--window-size=1400,1000"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(options=opts, service=Service(shutil.which("chromedriver")))
    driver.implicitly_wait(0)
    yield driver
    driver.quit()
