"""The playground in a real browser, as a newcomer plays it: ``python -m bot`` with no token as its
own process, Debian's Chromium driven by Playwright (never a downloaded browser), the printed
address opened. Screenshots are left in artefacts/playground/ for people to look at."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.playground.player import ARTEFACTS, CHROMIUM, CHROMIUM_ARGS, PATIENCE_MS, STATUS_LOG
from tests.playground_process import start_playground

ADDRESS = re.compile(r"http://127\.0\.0\.1:\d+/#\S+")


@pytest.fixture
def pace() -> dict[str, str]:
    """The playground's pace: the computers' pause, shorter than a person's 2 s, to keep the tests
    short (a module may override it)."""
    return {"ROBOT_PAUSE": "0.5"}


@pytest.fixture
def address(tmp_path: Path, pace: dict[str, str]) -> Iterator[str]:
    """``python -m bot`` with no token, as its own process: the address it prints."""
    bot = start_playground(tmp_path, **pace)
    assert bot.stdout is not None
    first_lines = [bot.stdout.readline() for _ in range(2)]
    try:
        assert first_lines[0].startswith("No Discord token is set, so this is the playground"), first_lines
        found = ADDRESS.search(first_lines[1])
        assert found, first_lines
        yield found.group(0)
    finally:
        bot.send_signal(signal.SIGINT)
        output, _ = bot.communicate(timeout=60)
        assert bot.returncode == 0 and "Traceback" not in output, output


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Each phase's report kept on the test, for ``open_page`` to see whether the test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def open_page(address: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    from playwright import sync_api as playwright

    playwright.expect.set_options(timeout=PATIENCE_MS)
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(PATIENCE_MS)
            page.add_init_script(STATUS_LOG)
            page.goto(address)
            playwright.expect(page.locator("#channel-message-list")).to_contain_text(
                "Welcome to the playground"
            )
            yield page
            failed = getattr(request.node, "report_call", None)
            if failed is not None and failed.failed:
                ARTEFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTEFACTS / f"failed-{request.node.name}.png"))
                text = page.locator("#channel-message-list").inner_text()
                (ARTEFACTS / f"failed-{request.node.name}.txt").write_text(text)
        finally:
            browser.close()
