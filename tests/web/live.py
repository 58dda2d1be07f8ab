"""A real server and a real browser: uvicorn on a loopback port in a thread, and Debian's
headless Chromium driven through its ChromeDriver. Used by the browser tests and by
`bench/screenshots.py`."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import uvicorn
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

from forethought import Forethought
from forethought.server import ServerSettings, create_app

__all__ = [
    "CHROMEDRIVER",
    "CHROMIUM",
    "LiveServer",
    "chromium",
    "live_server",
    "log_in",
    "missing_browser",
    "send_message",
    "wait",
]

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WAIT_S = 15.0


def missing_browser() -> str | None:
    """Why the browser cannot run here, or None when it can."""
    absent = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.is_file()]
    if absent:
        missing = ", ".join(absent)
        return f"browser tests need Debian's chromium and chromium-driver ({missing} missing): run 'make browser'"
    return None


@dataclass(frozen=True)
class LiveServer:
    url: str
    memory: Forethought


@contextmanager
def live_server(memory: Forethought) -> Iterator[LiveServer]:
    """The whole application (API and workspace) served on a free loopback port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))  # the port is ours from here on: no race with other workers
    port = sock.getsockname()[1]
    app = create_app(memory, ServerSettings(rate_per_second=0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_S
    while not server.started:  # uvicorn offers no event to wait on; it flips this flag
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", memory)
    finally:
        server.should_exit = True
        thread.join(WAIT_S)
        sock.close()


@contextmanager
def chromium(*, width: int = 1280, height: int = 900) -> Iterator[WebDriver]:
    problem = missing_browser()
    if problem:
        raise RuntimeError(problem)
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-extensions",
        "--no-first-run",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(WAIT_S)
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver: WebDriver) -> WebDriverWait[WebDriver]:
    """A wait that looks again when the page it was reading has just been replaced."""
    return WebDriverWait(driver, WAIT_S, ignored_exceptions=(StaleElementReferenceException,))


def log_in(driver: WebDriver, server: LiveServer, key: str, path: str = "/web") -> None:
    """Open `path`, logging in through the form first when the workspace asks for it."""
    driver.get(server.url + path)
    if driver.current_url.split("?")[0].endswith("/web/login"):
        field = wait(driver).until(ready.visibility_of_element_located((By.ID, "key")))
        field.send_keys(key)
        field.submit()
        wait(driver).until(lambda d: "/web/login" not in d.current_url)


def send_message(driver: WebDriver, message: str) -> None:
    """Send `message` from the chat page and wait for the page the turn leads to."""
    box = wait(driver).until(ready.element_to_be_clickable((By.ID, "message")))
    box.send_keys(message)
    before = driver.find_element(By.ID, "conversation")
    driver.find_element(By.ID, "send").click()
    wait(driver).until(ready.staleness_of(before))  # the page after the turn has replaced it
    wait(driver).until(lambda d: message in d.find_element(By.ID, "conversation").text)
