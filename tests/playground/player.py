"""One person at the playground's page, in Chromium: what they type, click and see.

Everything waits for what a person waits for, never for a fixed time: the page's status line
settled after an action, a picture decoded with its natural size known, a button enabled, a text
shown. The page is never reloaded: a page that loses a click's answer ("Action outcome uncertain",
every button grey until a reload) fails the test, and so does a click refused on a button that
still shows what it showed when it was clicked.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "playground"
CHROMIUM = Path("/usr/bin/chromium")
# Headless, and nothing that reaches the network (updates, sync, QUIC probes).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The longest the page may take to show what the bot did (a busy machine draws pictures slowly).
# Only a bound on waiting: nothing passes or fails on time.
PATIENCE_MS = 90_000
# A message with fewer messages than this to come before it leaves the page's window (its last 50)
# is about to leave it.
LEAVING = 15
# What the page's status line reads while an action is under way.
SETTLING = re.compile(r"Completing|Loading|Updating|Sending|Opening|Switching|Saving")
LOCKED = "uncertain"
REFUSED = "not completed"
# Every text the status line takes, in order, kept by the page itself: a quick action's "Completing
# action…" is seen even if it is gone by the time the test looks.
STATUS_LOG = """
const log = window.__statuses = [];
const watch = () => {
  const status = document.getElementById("action-status");
  if (!status) { requestAnimationFrame(watch); return; }
  const record = () => log.push(status.textContent);
  new MutationObserver(record).observe(status, {childList: true, characterData: true, subtree: true});
};
watch();
"""
# The newest pictures of the channel, all decoded with their natural size known.
PICTURES_SHOWN = """
() => {
  const pictures = [...document.querySelectorAll("#channel-message-list [data-message-id] img")].slice(-4);
  return pictures.every(image => image.complete && image.naturalWidth > 0);
}
"""
# Once the page has drawn what it was given (two frames: a scroll's events, then its drawing).
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
# The channel's window at the end of its messages.
AT_THE_BOTTOM = """
() => {
  const timeline = document.getElementById("channel-timeline");
  return timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight <= 1;
}
"""
# The status texts after ``start``: whether the action begun there is over, and how it ended.
OUTCOME = """
start => {
  const after = window.__statuses.slice(start);
  const begun = after.findIndex(text => /^(Completing|Sending|Opening|Saving)/.test(text));
  if (begun < 0) return null;
  const busy = /Completing|Loading|Updating|Sending|Opening|Saving/;
  const ended = after.slice(begun + 1).find(text => !busy.test(text));
  return ended === undefined ? null : ended;
}
"""
ENABLED = "button.component-button:not([aria-disabled=true])"
# A click in the page's own thread, so that the button cannot turn grey between the look and the click.
CLICK_IF_ENABLED = """
([button]) => {
  if (!button || button.disabled || button.getAttribute("aria-disabled") === "true") return false;
  button.click();
  return true;
}
"""
# Whether the control with this key no longer shows ``label`` enabled.
CHANGED = """
([key, label]) => {
  const button = document.querySelector(`button[data-control-key="${CSS.escape(key)}"]`);
  return !button || button.getAttribute("aria-disabled") === "true" || button.innerText !== label;
}
"""
LABEL_AND_KEY = "([button]) => button ? [button.innerText, button.dataset.controlKey] : null"


def skip_without_a_browser() -> None:
    """For a browser test's module: skipped where Debian's Chromium or Playwright is missing."""
    if not CHROMIUM.exists():
        pytest.skip(
            "no browser: the playground's browser tests need Debian's Chromium at /usr/bin/chromium "
            "(apt-get install chromium; .ci/run installs it)",
            allow_module_level=True,
        )
    pytest.importorskip("playwright.sync_api", reason="Playwright is in the test extra")


# A menu used from the keyboard and the pointer in one go (``Player.in_menu``): opened, then the
# options ``values`` ticked and applied, or (null) the first option chosen.
USE_MENU = """
(menu, values) => {
  const key = menu.dataset.controlKey;
  const wrap = () => document.querySelector(`.preview-select[data-control-key="${CSS.escape(key)}"]`);
  const press = (name) => wrap().querySelector(".select-trigger").dispatchEvent(
    new KeyboardEvent("keydown", {key: name, bubbles: true, cancelable: true}));
  wrap().querySelector(".select-trigger").focus({preventScroll: true});
  press("ArrowDown");
  if (!wrap().classList.contains("is-open")) throw new Error("the menu did not open");
  if (values === null) { press("Enter"); return true; }
  let ticked = 0;
  for (const value of values) {
    const option = wrap().querySelector(`.select-option[data-value="${CSS.escape(value)}"]`);
    if (option === null) throw new Error(`no option ${value} in the menu`);
    if (option.getAttribute("aria-selected") !== "true") { option.click(); ticked += 1; }
  }
  // A menu of one choice takes it as it is clicked; one of several, once applied. One that
  // already shows the choice sends nothing: closed again, as a person would.
  const apply = wrap().querySelector(".select-apply");
  if (apply === null && ticked === 0) { press("Escape"); return false; }
  apply?.click();
  return true;
}
"""


# What changes on the page when you may have a decision to make, or the game has ended: the live
# table asks you, a new call to you is posted (a copy of the table, once the table is out of the
# page's window, is only a picture of the moment it was asked for), or a Rematch button shows.
SOMETHING_NEW = """
({title, yours, after}) => {
  const messages = [...document.querySelectorAll("#channel-message-list [data-message-id]")];
  const enabled = [...document.querySelectorAll("#channel-message-list " + ENABLED)];
  if (enabled.some(button => button.innerText.includes("Rematch"))) return true;
  const copy = m => m.querySelector(".message-ephemeral-note");
  const live = messages.filter(m => m.innerText.includes(title) && !copy(m));
  if (live.some(m => new RegExp(yours).test(m.innerText))) return true;
  const newer = messages.filter(m => BigInt(m.dataset.messageId) > BigInt(after));
  return newer.some(m => m.innerText.includes("@Anna: your move"));
}
""".replace("ENABLED", repr(ENABLED))


class Player:
    """One person at the page; ``clicks`` and ``refused`` count their clicks on the bot's buttons
    and menus, and those the page refused (each on a control that had changed meanwhile)."""

    def __init__(self, page: Any, name: str, shots: str | None = None) -> None:
        """``name``: the game's command; ``shots``: what its screenshots are named after."""
        self.page = page
        self.name = name
        self.shots_name = shots or name
        self.shots = 0
        self.clicks = 0
        self.refused = 0
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        for old in ARTEFACTS.glob(f"{self.shots_name}-*.png"):
            old.unlink()

    # ------------------------------------------------------------------ what the page says

    def status(self) -> str:
        return self.page.locator("#action-status").inner_text()

    def never_locked(self) -> None:
        """No status the page ever showed says it lost an action's answer."""
        statuses = self.page.evaluate("window.__statuses")
        locked = [text for text in statuses if LOCKED in text]
        assert not locked, f"the page locked up after {self.clicks} clicks: {locked[0]!r}"

    def settled(self) -> None:
        """The page has finished what it was doing (its status line says so), and is not locked."""
        from playwright.sync_api import expect

        expect(self.page.locator("#action-status")).not_to_have_text(SETTLING, timeout=PATIENCE_MS)
        self.never_locked()
        self.drawn()

    def drawn(self) -> None:
        """The page has drawn what it was given, pictures included (it marks itself busy until
        then): only then does it bring the message last clicked into view, which can move
        everything else."""
        from playwright.sync_api import expect

        expect(self.page.locator("#preview-app")).to_have_attribute("aria-busy", "false", timeout=PATIENCE_MS)

    def messages(self) -> Any:
        return self.page.locator("#channel-message-list [data-message-id]")

    def channel_text(self) -> str:
        return self.page.locator("#channel-message-list").inner_text()

    def pictures_shown(self) -> None:
        """Every picture of the newest messages has arrived, decoded (the page fetches each one
        after it draws the message): a table without its picture is not what a player looks at."""
        self.page.wait_for_function(PICTURES_SHOWN, timeout=PATIENCE_MS)

    def picture_decoded(self, picture: Any) -> None:
        """This picture has arrived: its natural size is known (before, the page lays out the box
        of its alt text)."""
        from playwright.sync_api import expect

        # Found again at each look: a computer's move redraws the message, and its new picture
        # replaces the one first found, which is never decoded once detached.
        expect(picture).to_have_js_property("complete", True, timeout=PATIENCE_MS)
        expect(picture).not_to_have_js_property("naturalWidth", 0, timeout=PATIENCE_MS)

    def to_newest(self) -> None:
        """As a player does before they look or open a menu: the page scrolled to its newest message."""
        latest = self.page.locator("#new-messages")
        if latest.is_visible():
            latest.click()
            self.settled()

    def to_the_bottom(self) -> None:
        """The channel scrolled to its very end, as a person scrolls, with the wheel: the page then
        keeps its newest message in view as it redraws (anywhere else it keeps the place it last
        saw scrolled to, and a redraw can move a menu's trigger out of the window, closing it)."""
        box = self.page.locator("#channel-timeline").bounding_box()
        self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        for _ in range(20):
            if self.page.evaluate(AT_THE_BOTTOM):
                return
            self.page.mouse.wheel(0, 100_000)
            self.page.evaluate(NEXT_FRAMES)
        pytest.fail("the channel never scrolled to its end")

    def look(self, what: str, *, to_newest: bool = True) -> Path:
        """A screenshot, once the pictures have arrived; first, as a player would, a click to the
        newest message and a scroll to the end (not with a menu open: a click outside a
        multi-select menu applies it)."""
        self.settled()
        if to_newest:
            self.to_newest()
            self.to_the_bottom()
        self.pictures_shown()
        self.shots += 1
        path = ARTEFACTS / f"{self.shots_name}-{self.shots:02d}-{what}.png"
        self.page.screenshot(path=str(path))
        return path

    # ------------------------------------------------------------------ finding things

    def table(self, title: str, game: str | None = None) -> Any:
        """The table message with this title, pinned (found by its id whatever comes after it). Once
        it is near the top of the page's window (its last 50 messages), soon out of it, the copy
        ``/<game> table`` posts at the bottom, as the welcome says."""
        found = self.messages().filter(has_text=title)
        in_channel = found.filter(has_not=self.page.locator(".message-ephemeral-note"))
        if game is None:
            return self.pinned(in_channel.last)
        if in_channel.count():
            # How many messages may yet come before it leaves the window.
            room = self.messages().evaluate_all(
                "(ms, id) => ms.findIndex(m => m.dataset.messageId === id) + 50 - ms.length",
                in_channel.last.get_attribute("data-message-id"),
            )
            if room >= LEAVING:
                return self.pinned(in_channel.last)
        self.command(f"{game} table")
        return self.pinned(found.last)

    def panel(self) -> Any:
        """The newest message only this player sees (a panel the bot opened for them)."""
        return self.messages().filter(has=self.page.locator(".message-ephemeral-note")).last

    def pinned(self, message: Any) -> Any:
        """This very message, whatever comes after it (``panel()`` follows the newest one)."""
        message.wait_for(state="attached", timeout=PATIENCE_MS)
        return self.page.locator(
            f'#channel-message-list [data-message-id="{message.get_attribute("data-message-id")}"]'
        )

    def button(self, where: Any, label: str | re.Pattern[str]) -> Any:
        return where.locator(ENABLED, has_text=label).first

    # ------------------------------------------------------------------ acting

    def your_turn_or_the_end(
        self, title: str, game: str, yours: re.Pattern[str], hand: str | None = None, clicks: int = 0
    ) -> bool:
        """Waits until the table (``title``) asks you to decide (True, what it says matching
        ``yours``) or the game has ended (False: its Rematch button is shown), clicking the table's
        ``hand`` button meanwhile at most ``clicks`` times, as a person does while computers move."""
        ended = self.messages().locator(ENABLED, has_text="Rematch")
        while True:
            newest = self.messages().last.get_attribute("data-message-id")
            for clicked in range(clicks + 1):
                if ended.count():
                    return False
                table = self.table(title, game)
                if table.filter(has_text=yours).count():
                    return True
                button = self.button(table, hand) if hand else None
                if clicked == clicks or button is None or not button.count():
                    break
                self.press(button)
            arguments = {"title": title, "yours": yours.pattern, "after": newest}
            self.page.wait_for_function(SOMETHING_NEW, arg=arguments, timeout=PATIENCE_MS)

    def act(self, do: Any) -> str | None:
        """Runs ``do`` (a click, a press of Enter) once the page is idle, and returns how the action
        it began ended, as the status line said it; None if ``do`` says it sent nothing (False)."""
        self.settled()
        start = self.page.evaluate("window.__statuses.length")
        if do() is False:
            return None
        outcome = self.page.wait_for_function(OUTCOME, arg=start, timeout=PATIENCE_MS).json_value()
        self.never_locked()
        return str(outcome)

    def press(self, button: Any) -> bool:
        """Clicks a button of the bot's, as long as it is there and enabled as the click comes (a
        person's click on a button turned grey, or gone, does nothing); whether the page took it.
        A click it refused must be on a control that changed since the page showed it (a
        computer's move came in between): one refused on a button still showing the same is a
        lost click."""
        seen = button.evaluate_all(LABEL_AND_KEY)
        if seen is None:
            return False
        label, key = seen
        outcome = self.act(lambda: button.evaluate_all(CLICK_IF_ENABLED))
        if outcome is None:
            return False
        self.clicks += 1
        if REFUSED not in outcome:
            return True
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        self.refused += 1
        # The bot may have changed the control a moment before the page shows it: the page must
        # show it changed (gone, grey or relabelled) soon, else the click was lost.
        try:
            self.page.wait_for_function(CHANGED, arg=[key, label], timeout=PATIENCE_MS)
        except PlaywrightTimeout:
            pytest.fail(f"the page refused a click on {label!r}, which still shows the same")
        return False

    def click(self, where: Any, label: str | re.Pattern[str]) -> None:
        """Clicks the enabled button ``label`` of ``where`` (a message, or what finds it again, as
        ``table``), again if the page refused it as a person would (the button changed under the
        pointer, and is there again)."""
        for _ in range(3):
            if self.press(self.button(where() if callable(where) else where, label)):
                return
        pytest.fail(f"no click on {label} was taken in three tries")

    def menu(self, panel: Any, which: int = 0) -> Any:
        """The panel's menu ``which``, pinned: found again by its key whatever is drawn after it."""
        key = panel.locator(".preview-select").nth(which).get_attribute("data-control-key")
        return self.page.locator(f'.preview-select[data-control-key="{key}"]')

    def pick(self, menu: Any, values: list[str]) -> None:
        """Ticks these options in a menu and applies them (a menu of one choice: takes it); see
        ``in_menu``."""
        self.in_menu(menu, values)

    def choose_first(self, menu: Any) -> None:
        """Chooses the first option of a menu of one choice (the choice is the action)."""
        self.in_menu(menu, None)

    def in_menu(self, menu: Any, values: list[str] | None) -> None:
        """A menu opened with the keyboard (its trigger focused, Arrow Down), then ``values``
        ticked and applied, or (None) its first option chosen with Enter: one step after the other
        in the page's own thread, as fast as a person's fingers. SimCord's page (3.2.1) draws the
        channel again as a menu opens, and its pictures drawn again can move the trigger out of the
        window for a moment, which closes the menu: opened by a click, and used a moment later,
        the menu under a tall message (a table's copy) is found closed, time and again."""
        self.drawn()
        self.to_the_bottom()
        self.clicks += 1
        outcome = self.act(lambda: menu.evaluate(USE_MENU, values))
        assert outcome is None or REFUSED not in outcome, outcome  # None: it showed them already

    def command(self, name: str, **options: object) -> None:
        """``/name`` typed in the box and picked from its list, then its options, then sent."""
        self.settled()
        self.page.locator("#channel-composer-input").click()
        self.page.keyboard.type(f"/{name}")
        self.page.keyboard.press("Enter")
        for option, value in options.items():
            suggestion = self.page.locator(f".command-suggestion[data-value={option}]")
            if not suggestion.is_visible():  # after a first option: the "+N more" chip lists the rest
                self.page.locator(".command-ghost").click()
            suggestion.click()
            self.page.keyboard.type(str(value))
            choice = self.page.locator(".command-suggestion", has_text=re.compile(rf"^{value}$"))
            if choice.count():  # an option with choices (True, False): pick it from the list
                choice.first.click()
        outcome = self.act(self.page.locator("#send-message").click)
        assert REFUSED not in outcome, f"/{name}: {outcome}"

    def begin(self, title: str, computers: int, **options: object) -> None:
        """``/<game> start`` against computers, a look at the lobby, then **Begin**."""
        from playwright.sync_api import expect

        self.command(f"{self.name} start", computers=computers, **options)
        lobby = self.table(f"{title}: new game")
        expect(lobby).to_contain_text(f"🤖 Hard {computers}")
        self.look("lobby")
        self.click(lobby, "Begin")
