"""Headless Chromium (Debian's ``chromium``) driven over its DevTools protocol on a pipe.

:func:`print_page` opens one local file, records every request the page makes and
every console message or uncaught exception, and prints it to PDF as the browser's
print would (the page's own @page size, backgrounds on). Nothing is downloaded:
the browser is the machine's, found on PATH, with background networking off and a
throw-away profile. Inside :func:`shared` (a test module's fixture), every page is opened
in one launched browser, each use in a new browser context of its own (as a fresh
incognito window: no cache, cookies or tabs of an earlier use), closed after it.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def find() -> str | None:
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class Printed:
    pdf: bytes
    requests: list[str] = field(default_factory=list)   # every URL the page asked for
    console: list[str] = field(default_factory=list)    # console messages and uncaught exceptions
    links: list[str] = field(default_factory=list)      # the href of every link, as the browser resolved it
    value: object = None                                # what ``evaluate`` gave, on the screen


class _Pipe:
    def __init__(self, proc, write_fd: int, read_fd: int):
        self.proc, self.w, self.r = proc, os.fdopen(write_fd, "wb", buffering=0), os.fdopen(read_fd, "rb")
        self.next_id, self.buffer, self.events = 0, b"", []
        self.deadline: float | None = None  # time.monotonic() after which a read gives up

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.w.write(json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, session: str | None = None) -> dict:
        def wanted(event):
            return event.get("method") == method and session in (None, event.get("sessionId"))

        for i, event in enumerate(self.events):
            if wanted(event):
                return self.events.pop(i)
        while True:
            event = self._read()
            if wanted(event):
                return event
            self.events.append(event)

    def _read(self) -> dict:
        while b"\0" not in self.buffer:
            if self.deadline is not None and not select.select([self.r], [], [], max(0.0, self.deadline - time.monotonic()))[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = self.r.read1(1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)


@contextlib.contextmanager
def _launched() -> Iterator[_Pipe]:
    """A headless Chromium on a throw-away profile, driven over the DevTools pipe; closed afterwards."""
    browser = find()
    if browser is None:
        raise RuntimeError("no chromium on PATH")
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()
    profile = tempfile.mkdtemp(prefix="chargen-chromium-")
    # Chromium reads commands on fd 3 and writes replies on fd 4: the pipe ends are moved out of the
    # way first (high numbers), then onto 3 and 4 in the child, which keeps exactly those
    high_r, high_w = os.dup2(to_browser_r, 200), os.dup2(from_browser_w, 201)

    def fds():
        os.dup2(high_r, 3)
        os.dup2(high_w, 4)

    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--disable-default-apps", "--disable-extensions", f"--user-data-dir={profile}", "about:blank"]
    proc = subprocess.Popen(args, preexec_fn=fds, pass_fds=(3, 4), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    for fd in (to_browser_r, from_browser_w, high_r, high_w):
        os.close(fd)
    pipe = _Pipe(proc, to_browser_w, from_browser_r)
    try:
        yield pipe
        try:
            pipe.send("Browser.close")
        except RuntimeError:
            pass
    finally:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


_SHARED: list[_Pipe] = []  # the browser of :func:`shared`, while it runs


@contextlib.contextmanager
def shared() -> Iterator[None]:
    """Within it, :func:`print_page` and :func:`open_pages` use one launched Chromium (one launch a
    test module instead of one a page; each use still gets a browser context of its own)."""
    with _launched() as pipe:
        _SHARED.append(pipe)
        try:
            yield
        finally:
            _SHARED.remove(pipe)


@contextlib.contextmanager
def _context() -> Iterator[tuple[_Pipe, str]]:
    """The shared browser (or one launched now) and a new browser context in it, disposed of after
    (its tabs closed)."""
    with contextlib.ExitStack() as stack:
        pipe = _SHARED[-1] if _SHARED else stack.enter_context(_launched())
        pipe.events.clear()  # an earlier use's
        context = pipe.send("Target.createBrowserContext")["browserContextId"]
        try:
            yield pipe, context
        finally:
            pipe.deadline = None
            pipe.send("Target.disposeBrowserContext", {"browserContextId": context})
            pipe.events.clear()


def print_page(path: Path, timeout: float = 60, evaluate: str | None = None, width: int = 1200) -> Printed:
    """Open ``path`` in headless Chromium and print it; what it requested and logged; with ``evaluate``,
    that expression's value on a screen ``width`` pixels wide (before printing)."""
    with _context() as (pipe, context):
        target = pipe.send("Target.createTarget", {"url": "about:blank", "browserContextId": context})["targetId"]
        session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Network", "Runtime", "Log", "Page"):
            pipe.send(f"{domain}.enable", session=session)
        if evaluate is not None:
            pipe.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1,
                                                             "mobile": False}, session=session)
        url = Path(path).resolve().as_uri()
        pipe.send("Page.navigate", {"url": url}, session=session)
        pipe.wait_for("Page.loadEventFired", session)
        links = pipe.send("Runtime.evaluate", {"expression": "Array.from(document.links, a => a.href)",
                                               "returnByValue": True}, session=session)["result"]["value"]
        value = None if evaluate is None else pipe.send("Runtime.evaluate", {
            "expression": evaluate, "returnByValue": True}, session=session)["result"].get("value")
        pdf = pipe.send("Page.printToPDF", {"printBackground": True, "preferCSSPageSize": True,
                                            "displayHeaderFooter": False}, session=session)["data"]
        printed = Printed(base64.b64decode(pdf), links=links, value=value)
        for event in (e for e in pipe.events if e.get("sessionId") == session):
            method, params = event.get("method"), event.get("params", {})
            if method == "Network.requestWillBeSent":
                printed.requests.append(params["request"]["url"])
            elif method == "Runtime.consoleAPICalled":
                printed.console.append(f"{params['type']}: {params.get('args')}")
            elif method == "Runtime.exceptionThrown":
                printed.console.append(f"exception: {params['exceptionDetails'].get('text')}")
            elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
                printed.console.append(f"{params['entry']['level']}: {params['entry']['text']}")
        return printed


def open_pages(paths: list[Path], settle: float = 0.5, patience: float = 20.0, until=None) -> None:
    """Open every page of ``paths`` in one headless Chromium, each in its own tab, wait until each has
    loaded (or ``patience`` seconds have passed: a page may navigate away before its load event) and then
    ``settle`` seconds more (handlers, SMIL animations, timers run; less once ``until()`` is true), and close
    them (and the browser, unless :func:`shared`). What the pages
    fetch is for the caller to observe (a listener on 127.0.0.1)."""
    with _context() as (pipe, context):
        pipe.deadline = time.monotonic() + 30 + len(paths)
        sessions = []
        for path in paths:
            target = pipe.send("Target.createTarget", {"url": "about:blank", "browserContextId": context})["targetId"]
            session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            pipe.send("Page.enable", session=session)
            pipe.send("Page.navigate", {"url": Path(path).resolve().as_uri()}, session=session)
            sessions.append(session)
        waiting = set(sessions)
        pipe.deadline = time.monotonic() + patience
        try:
            while waiting:
                waiting.discard(pipe.wait_for("Page.loadEventFired").get("sessionId"))
        except TimeoutError:
            pass
        pipe.deadline = None
        end = time.monotonic() + settle
        while time.monotonic() < end and not (until is not None and until()):  # ``until``: done early
            time.sleep(0.05)
