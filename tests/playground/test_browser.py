"""The playground in a real browser, as a newcomer plays it: ``python -m bot`` with no token as its
own process, Debian's Chromium driven by Playwright (never a downloaded browser), the printed
address opened, commands typed in the composer, buttons and menus clicked. Screenshots of every
step are left in artefacts/playground/ for people to look at."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.render import PHONE
from tests.playground_process import start_playground

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
# One browser test at a time (the others' workers go on): two Chromiums and two playgrounds at
# once on a 2-core machine starve the page of the time it needs to show what the bot did.
pytestmark = pytest.mark.xdist_group("browser")
ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "playground"
ADDRESS = re.compile(r"http://127\.0\.0\.1:\d+/#\S+")
# The longest the page may take to show what the bot did (a computer's pause is 2 s; a busy
# machine draws pictures slowly). Only a bound on waiting: nothing passes or fails on time.
PATIENCE_MS = 90_000
ARRIVED = "image => image.complete && image.naturalWidth > 0"
if not CHROMIUM.exists():
    pytest.skip(
        "no browser: the playground's browser test needs Debian's Chromium at /usr/bin/chromium "
        "(apt-get install chromium; .ci/run installs it)",
        allow_module_level=True,
    )
playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is in the test extra")
expect = playwright.expect
expect.set_options(timeout=PATIENCE_MS)


@pytest.fixture
def address(tmp_path: Path) -> Iterator[str]:
    """``python -m bot`` with no token, as its own process: the address it prints."""
    # The computers' pause, shorter than a person's 2 s, to keep the test short.
    bot = start_playground(tmp_path, ROBOT_PAUSE="0.5")
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


class Player:
    """One person at the page: what they type, click and see."""

    def __init__(self, page: object, name: str, shots: str | None = None) -> None:
        """``name``: the game's command; ``shots``: what its screenshots are named after (the game)."""
        self.page = page
        self.name = name
        self.shots_name = shots or name
        self.shots = 0
        for old in ARTEFACTS.glob(f"{self.shots_name}-*.png"):
            old.unlink()

    def begin(self, title: str, computers: int, **options: object) -> None:
        """``/<game> start`` against computers, a look at the lobby, then **Begin**."""
        self.command(f"{self.name} start", computers=computers, **options)
        lobby = self.table(f"{title}: new game")
        expect(lobby).to_contain_text(f"🤖 Hard {computers}")
        self.look("lobby")
        self.click(lobby, "Begin")

    def look(self, what: str, *, to_newest: bool = True) -> None:
        """A screenshot; first, as a player would, a click to the newest message (not with a
        menu open: a click outside a multi-select menu applies it)."""
        latest = self.page.locator("#new-messages")
        if to_newest and latest.is_visible():
            latest.click()
        self.pictures_shown()
        self.shots += 1
        self.page.screenshot(path=str(ARTEFACTS / f"{self.shots_name}-{self.shots:02d}-{what}.png"))

    def pictures_shown(self) -> None:
        """Every picture of the newest messages has arrived (the page fetches each one after it
        draws the message): a table without its picture is not what a player looks at."""
        pictures = self.messages().locator("img")
        for _ in range(PATIENCE_MS // 100):
            count = pictures.count()
            newest = [pictures.nth(index) for index in range(max(0, count - 4), count)]
            if all(picture.evaluate(ARRIVED) for picture in newest):
                return
            self.page.wait_for_timeout(100)
        pytest.fail("a picture on the page never arrived")

    def pick(self, panel: object, values: list[str]) -> None:
        """Opens the panel's menu, clicks these options and applies them."""
        panel.locator(".select-trigger").first.click()
        menu = self.page.locator(".preview-select.is-open")
        for value in values:
            menu.locator(f'.select-option[data-value="{value}"]').click()
        menu.locator(".select-apply").click()
        self.done()

    def done(self) -> None:
        """The page has finished the last action (its status line says so)."""
        expect(self.page.locator("#action-status")).not_to_have_text(
            re.compile("Completing|Loading"), timeout=PATIENCE_MS
        )

    def command(self, name: str, **options: object) -> None:
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
        self.page.locator("#send-message").click()
        self.done()

    def messages(self) -> object:
        return self.page.locator("#channel-message-list [data-message-id]")

    def table(self, title: str, game: str | None = None) -> object:
        """The table message with this title; once it is out of the page's window (its last 50
        messages), the copy ``/<game> table`` shows at the bottom, as the welcome says."""
        found = self.messages().filter(has_text=title)
        in_channel = found.filter(has_not=self.page.locator(".message-ephemeral-note"))
        if game is None or in_channel.count():
            return in_channel.last
        self.command(f"{game} table")
        return found.last

    def panel(self) -> object:
        """The newest message only this player sees (a panel the bot opened for them)."""
        return self.messages().filter(has=self.page.locator(".message-ephemeral-note")).last

    def pinned(self, message: object) -> object:
        """This very message, whatever comes after it (``panel()`` follows the newest one)."""
        for _ in range(PATIENCE_MS // 250):
            self.recover()
            if message.count():
                break
            self.page.wait_for_timeout(250)
        return self.page.locator(
            f'#channel-message-list [data-message-id="{message.get_attribute("data-message-id")}"]'
        )

    def click(self, where: object, label: str | re.Pattern[str]) -> None:
        self.press(where.locator("button.component-button:not([aria-disabled=true])", has_text=label).first)

    def press(self, button: object) -> None:
        """A button clicked, again if the page refused the click as a person would: SimCord's
        preview refuses an action on a page older than its last redraw, which a computer's move,
        shown as it is made, can bring just before the click ("Action was not completed")."""
        for _ in range(3):
            self.recover()
            button.click()
            self.done()
            if self.recover():
                return
            if "not completed" not in self.page.locator("#action-status").inner_text():
                return
        pytest.fail("the page refused the same click three times")

    def recover(self) -> bool:
        """The page reloaded if it lost the answer to a click on a busy machine ("Action outcome
        uncertain", which can come a while after the click): it then keeps every button disabled
        until it is reloaded, as a person would. The click was sent, and the reloaded page shows
        what it did, panels included. Whether it was reloaded."""
        if "uncertain" not in self.page.locator("#action-status").inner_text():
            return False
        self.page.reload()
        expect(self.messages().last).to_be_visible()
        return True

    def channel_text(self) -> str:
        return self.page.locator("#channel-message-list").inner_text()


@pytest.fixture
def open_page(address: str) -> Iterator[object]:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(PATIENCE_MS)
            page.goto(address)
            expect(page.locator("#channel-message-list")).to_contain_text("Welcome to the playground")
            yield page
        finally:
            browser.close()


CELL = re.compile(r"^[A-G][1-5]$")


def serie_bum_turn(you: Player) -> None:
    """Whatever the table asks of you, the simplest answer: a flip, the first choice, or End turn."""
    table = you.table("Serie Bum! ·")
    end_turn = table.locator("button.component-button:not([aria-disabled=true])", has_text="End turn")
    if end_turn.count():
        you.click(table, "End turn")
        return
    you.press(table.locator("button.component-button:not([aria-disabled=true])").first)
    panel = you.panel()
    cells = panel.locator("button.component-button:not([aria-disabled=true])", has_text=CELL)
    if cells.count():
        you.press(cells.first)
        return
    menus = panel.locator(".select-trigger")
    menus.first.click()
    you.page.locator(".select-option").first.click()
    you.done()


def covered_again(database: Path) -> list[str]:
    """The cells of the Serie Bum! game's tiles covered again and still in view, as saved."""
    with sqlite3.connect(database) as db:
        (state,) = db.execute("SELECT state FROM games WHERE kind = 'seriebum'").fetchone()
    return json.loads(state)["seen"]


def test_serie_bum_against_a_computer_in_chromium(open_page, tmp_path):
    you = Player(open_page, "seriebum")
    you.look("welcome")
    you.command("help")
    expect(you.panel()).to_contain_text("Tabletop games in this server")
    you.look("help")

    you.begin("Serie Bum!", computers=1)
    table = you.table("Serie Bum! ·")
    expect(table).to_contain_text("Round 1")
    expect(table.locator("img").first).to_be_visible()
    you.look("table")

    robot_flips = re.compile(r"🤖 Hard 1 flips")
    your_steps = 0
    your_pair_seen = False
    for _ in range(60):
        text = you.channel_text()
        if len(robot_flips.findall(text)) >= 2 and your_steps >= 2 and your_pair_seen:
            break
        description = table.inner_text()
        if "⏳ Anna" in description:
            # The picture's address once the page has one (it has none while the image loads).
            expect(table.locator("img").first).to_have_attribute("src", re.compile("."))
            picture = table.locator("img").first.get_attribute("src")
            serie_bum_turn(you)
            your_steps += 1
            you.look(f"step{your_steps}")
            after = you.channel_text().rpartition("Anna flips")[2]
            if "Anna takes nothing" in after:
                # Your two tiles are covered again: the computer flips only once they have been in
                # view a while (VIEW_PAUSE), and the table's new picture shows them meanwhile.
                assert not robot_flips.search(after), after
                expect(table.locator("img").first).not_to_have_attribute("src", picture)
                you.look("your-pair")
                # One tile or both: a special flipped second counts alone and covers only the first.
                seen = covered_again(tmp_path / "data" / "playground.sqlite3")
                assert seen and all(f"Anna flips {cell}" in you.channel_text() for cell in seen), seen
                assert not robot_flips.search(you.channel_text().rpartition("Anna takes nothing")[2])
                your_pair_seen = True
        else:  # the computer's turn: its moves come by themselves, no Refresh pressed
            before = len(robot_flips.findall(text))
            expect(you.page.locator("#channel-message-list")).to_contain_text(
                re.compile(rf"(.*?🤖 Hard 1 flips){{{before + 1}}}", re.DOTALL)
            )
    else:
        pytest.fail("the computer never moved twice after you had flipped a pair it could not take")
    you.look("computer-moved")


COLOUR_CODES = {"black": "k", "red": "r", "blue": "b", "orange": "o"}


def tile_code(name: str) -> str:
    """The menu value's code of a tile as the hint names it in English ("red 7" -> "r7")."""
    if name == "joker":
        return "j"
    colour, number = name.split()
    return COLOUR_CODES[colour] + number


def test_rummikub_against_two_computers_through_a_draw_and_a_play_in_chromium(open_page):
    you = Player(open_page, "rummikub")
    you.begin("Rummikub", computers=2, hints=True)
    table = you.table("Rummikub · round")
    expect(table).to_contain_text("Anna is playing")  # the computers' openings come by themselves
    you.look("table")

    you.click(table, "Draw")
    expect(you.page.locator("#channel-message-list")).to_contain_text("Anna drew a tile")
    you.look("drawn")
    for attempt in range(12):
        table = you.table("Rummikub · round", "rummikub")
        expect(table).to_contain_text("Anna is playing")
        you.click(table, "Play tiles")
        panel = you.panel()
        expect(panel).to_contain_text("Hint")
        you.look(f"panel{attempt}")
        hint = re.search(r"you could lay (.+)", panel.inner_text())
        if hint is None:  # nothing can go down: draw, and try again on the next turn
            you.click(table, "Draw")
            continue
        picked: Counter[str] = Counter()
        values = []
        for code in map(tile_code, hint.group(1).split(" · ")):
            values.append(f"{code}:{picked[code]}")  # two copies of a tile: "r7:0" and "r7:1"
            picked[code] += 1
        you.pick(panel, values)
        expect(panel).to_contain_text("Play them")
        you.look("picked")
        you.click(panel, "Play them")
        laid = re.compile(r"(✅ Anna laid|✨ Anna opens)")
        expect(you.page.locator("#channel-message-list")).to_contain_text(laid)
        you.look("played")
        return
    pytest.fail("no play was possible in twelve turns")


# RumBugz: a window as high as a laptop's, and enough turns that the pictures of earlier panels
# (each turn's hand) pile up above the menus, as they closed Rummikub's menu by themselves.
RUMBUGZ_TABLE = "RumBugz · round"
YOUR_DRAW = re.compile(r"Anna: draw from the bag")
RUMBUGZ_TURNS = 6


def open_menu(you: Player, menu: object) -> None:
    """Opens a menu as a player does, and checks it is still open once the page has drawn its
    pictures again (SimCord's preview closes a menu that a re-render moved out of the window)."""
    menu.locator(".select-trigger").click()
    you.pictures_shown()
    expect(menu).to_have_class(re.compile(r"\bis-open\b"))


def lay_bug_by_bug(you: Player, panel: object) -> None:
    """The first suggested lay, put together by hand: its kind's button, its Bugz ticked one by one
    in the hand's menu, each PLYT's number in its own menu, then Lay it."""
    suggested = panel.locator(".preview-select", has_text="Suggested")
    open_menu(you, suggested)
    kind, bugz = suggested.locator(".select-option").first.inner_text().split(": ", 1)
    suggested.locator(".select-trigger").click()  # read, not taken: closed again
    you.click(panel, re.compile(rf"^{kind}$"))
    wanted = bugz.split(" · ")

    # Pinned: once a Bug is ticked, the menu shows it instead of its placeholder.
    hand = panel.locator(".preview-select", has_text="Bugz from your hand")
    hand = panel.locator(f'.preview-select[data-control-key="{hand.get_attribute("data-control-key")}"]')
    open_menu(you, hand)
    you.look("hand-menu", to_newest=False)
    options = hand.locator(".select-option")
    offered = [
        (options.nth(i).get_attribute("data-value"), options.nth(i).inner_text().strip())
        for i in range(options.count())
    ]
    for bug in wanted:
        label = bug.split("=")[0]  # "PLYT=8": a PLYT, whose number comes next
        value = next(value for value, text in offered if text == label)
        offered.remove((value, label))
        hand.locator(f'.select-option[data-value="{value}"]').click()
        expect(hand).to_have_class(re.compile(r"\bis-open\b"))
    you.look("hand-ticked", to_newest=False)
    hand.locator(".select-apply").click()
    you.done()
    expect(panel).to_contain_text(f"Kind: {kind}")

    plyt_numbers = [bug.split("=")[1] for bug in wanted if bug.startswith("PLYT=")]
    for number, stands_for in enumerate(plyt_numbers, start=1):
        plyt = panel.locator(".preview-select", has_text=f"PLYT {number} stands for")
        open_menu(you, plyt)
        plyt.locator(f'.select-option[data-value="{stands_for}"]').click()
        you.done()
    expect(panel).to_contain_text("✅ Ready.")
    you.look("ready")
    you.click(panel, "Lay it")
    expect(you.page.locator("#channel-message-list")).to_contain_text(
        re.compile(r"Anna lays a (\w+ sequence|match)")
    )
    you.look("laid")


def test_rumbugz_against_a_computer_through_a_lay_bug_by_bug_in_chromium(open_page):
    open_page.set_viewport_size({"width": 1280, "height": 800})
    you = Player(open_page, "rumbugz")
    you.begin("RumBugz", computers=1)

    laid = False
    for turn in range(1, 25):
        if turn > RUMBUGZ_TURNS and laid:
            return
        table = you.table(RUMBUGZ_TABLE, "rumbugz")
        expect(table).to_contain_text(YOUR_DRAW)  # the computer's moves come by themselves
        you.click(table, "Draw from the bag")
        hand = you.pinned(you.panel())
        expect(hand).to_contain_text("Your Bugz")
        you.look(f"turn{turn}")
        if not laid:
            you.click(hand, "Lay a sequence")
            panel = you.pinned(you.panel())
            if "Lay a sequence:" in panel.inner_text():  # else a note: no sequence can be made now
                lay_bug_by_bug(you, panel)
                laid = True
                hand = panel
        if not hand.locator("button", has_text="Discard").count():  # the lay emptied the hand
            continue
        you.click(hand, "Discard")
        expect(hand).to_contain_text("pick the Bug to put on the discard pile")
        if turn == 1:
            you.look("discard")
        you.click(hand, re.compile(r"^(\d+|PLYT)( \(×\d+\))?$"))  # a button per number in the hand
        expect(hand).to_contain_text("Anna discards")
    pytest.fail("no lay was possible in 24 turns")


CARD_BUTTON = re.compile(r"^Card \d: ")


def test_bue_against_two_computers_through_an_exchange_and_a_reveal_in_chromium(open_page):
    """The hidden cards are buttons under the hand's picture (a menu there closed as it opened)."""
    open_page.set_viewport_size({"width": 1280, "height": 800})
    you = Player(open_page, "bue")
    you.begin("Bué", computers=2)
    done: set[str] = set()
    for _ in range(40):
        table = you.table("Bué · game", "bue")
        expect(table).to_contain_text(re.compile(r"Anna is exchanging|Waiting for: .*Anna"))
        step = "exchange" if "Anna is exchanging" in table.inner_text() else "reveal"
        you.click(table, "Exchange" if step == "exchange" else "Reveal a card")
        panel = you.pinned(you.panel())
        expect(panel.locator("img").first).to_be_visible()  # the hand's picture, above the buttons
        you.look(step)
        you.click(panel, CARD_BUTTON)
        if step == "exchange":
            you.click(panel, "The deck")
            expect(panel).to_contain_text("You drew")
        else:
            expect(panel).to_contain_text(
                re.compile(r"will be revealed when everyone has chosen|is face up now")
            )
        you.look(f"{step}-done")
        done.add(step)
        if done == {"exchange", "reveal"}:
            return
    pytest.fail("no exchange and reveal in forty decisions")


# A move of a RumBugz turn (its bids, made by everyone at once, are not).
COMPUTER_TURN = re.compile(r"🤖 Hard (\d) (draws|takes|lays|changes|discards)")


def test_rumbugz_against_two_computers_shows_each_computers_move_as_it_is_made_in_chromium(open_page):
    """After your discard the computers play one after the other, ROBOT_PAUSE apart: the page shows
    the first one's moves before the second one's, as they are made (it once froze, then showed all
    of them at once)."""
    open_page.set_viewport_size({"width": 1280, "height": 800})
    you = Player(open_page, "rumbugz", shots="rumbugz-two-computers")
    you.begin("RumBugz", computers=2)
    table = you.table(RUMBUGZ_TABLE, "rumbugz")
    expect(table).to_contain_text(YOUR_DRAW)
    you.click(table, "Draw from the bag")
    hand = you.pinned(you.panel())
    you.click(hand, "Discard")
    you.click(hand, re.compile(r"^(\d+|PLYT)( \(×\d+\))?$"))
    expect(hand).to_contain_text("Anna discards")

    def computers_moves() -> list[str]:
        after = you.channel_text().rpartition("Anna discards")[2]
        return [number for number, _ in COMPUTER_TURN.findall(after)]

    for _ in range(PATIENCE_MS // 50):
        shown = computers_moves()
        if shown:
            break
        you.page.wait_for_timeout(50)
    else:
        pytest.fail("no computer's move was shown after your discard")
    first = shown[0]
    assert set(shown) == {first}, f"both computers' moves came at once: {shown}"
    you.look("first-computer")
    expect(you.page.locator("#channel-message-list")).to_contain_text(
        re.compile(
            rf"Anna discards.*🤖 Hard {first} .*🤖 Hard {3 - int(first)} (draws|takes|lays|discards)",
            re.DOTALL,
        )
    )
    you.look("second-computer")


def test_the_table_on_a_phone_fills_the_embed_s_width(open_page):
    """On a 360 px wide page (a phone), the table's picture is shown at least as wide as the box
    the pictures are checked against (``bot.render.PHONE``: SimCord's preview gives it 240 px
    there, Discord's app about 250). A screenshot is left to look at."""
    you = Player(open_page, "rummikub", shots="phone")
    you.begin("Rummikub", computers=1)
    open_page.set_viewport_size({"width": 360, "height": 740})
    table = you.table("Rummikub · round")
    picture = table.locator("img").first
    expect(picture).to_be_visible()
    picture.scroll_into_view_if_needed()
    you.look("table", to_newest=False)
    shown = picture.bounding_box()
    assert shown is not None and shown["width"] >= PHONE.width, shown
