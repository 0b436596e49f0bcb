"""A real headless Chromium showing a page, driven from its own thread: the tests beside the
cashier's UI run in asyncio (Textual's Pilot), where Playwright's sync API cannot run."""

from __future__ import annotations

import queue
import shutil
import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.emulator.test_gateway_browser import CHROMIUM, CHROMIUM_ARGS

Call = tuple[Callable[[Any], Any], "queue.Queue[tuple[bool, Any]]"] | None


class ChromiumPage:
    def __init__(self, url: str) -> None:
        if not shutil.which(CHROMIUM):
            pytest.skip(f"no chromium at {CHROMIUM}")
        #: what the page's Content-Security-Policy refused, and script errors
        self.refused: list[str] = []
        self._calls: queue.Queue[Call] = queue.Queue()
        self._ready: queue.Queue[BaseException | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, args=(url,), daemon=True)
        self._thread.start()
        problem = self._ready.get(timeout=60)
        if problem is not None:
            pytest.skip(f"chromium does not start under Playwright: {problem}")

    def _run(self, url: str) -> None:
        sync_api = pytest.importorskip("playwright.sync_api")
        try:
            with sync_api.sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                                     args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.on("console", lambda m: self.refused.append(m.text)
                        if "Content Security Policy" in m.text else None)
                page.on("pageerror", lambda e: self.refused.append(f"script error: {e}"))
                page.goto(url)
                self._ready.put(None)
                while (call := self._calls.get()) is not None:
                    work, answer = call
                    try:
                        answer.put((True, work(page)))
                    except Exception as exc:
                        answer.put((False, exc))
                browser.close()
        except Exception as exc:
            self._ready.put(exc)

    def call(self, work: Callable[[Any], Any]) -> Any:
        answer: queue.Queue[tuple[bool, Any]] = queue.Queue()
        self._calls.put((work, answer))
        ok, value = answer.get(timeout=30)
        if not ok:
            raise value
        return value

    def state(self) -> str:
        return str(self.call(lambda page: page.evaluate(
            "document.getElementById('screen').dataset.state")))

    def text(self, selector: str) -> str:
        return str(self.call(lambda page: page.inner_text(selector)))

    def close(self) -> None:
        self._calls.put(None)
        self._thread.join(30)
