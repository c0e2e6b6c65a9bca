"""Each game's simplest answer to whatever the table asks of you, through the page, as a person
clicks: the browser tests' players."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.playground.player import ENABLED, Player

CELL = re.compile(r"^[A-G][1-5]$")
CARD_BUTTON = re.compile(r"^Card \d: ")
NUMBER_BUTTON = re.compile(r"^(\d+|PLYT)( \(×\d+\))?$")
COLOUR_CODES = {"black": "k", "red": "r", "blue": "b", "orange": "o"}


def bue_turn(you: Player, table: Callable[[], Any]) -> None:
    """An exchange with the deck, or a reveal: the first hidden card either way."""
    exchange = "Anna is exchanging" in table().inner_text()
    you.click(table, "Exchange" if exchange else "Reveal a card")
    panel = you.pinned(you.panel())
    you.picture_decoded(panel.locator("img").first)  # the hand's picture, above the buttons
    you.click(panel, CARD_BUTTON)
    if exchange:
        you.click(panel, "The deck")
        expect(panel).to_contain_text("You drew")


def serie_bum_turn(you: Player, table: Callable[[], Any]) -> None:
    """Whatever the table asks of you, the simplest answer: a flip, the first choice, or End turn."""
    if you.button(table(), "End turn").count():
        you.click(table, "End turn")
        return
    you.click(table, re.compile("."))
    panel = you.panel()
    cells = panel.locator(ENABLED, has_text=CELL)
    if cells.count():
        you.press(cells.first)
        return
    if panel.locator(".preview-select").count():
        menu = you.menu(panel)
        you.choose_first(menu)


def tile_code(name: str) -> str:
    """The menu value's code of a tile as the hint names it in English ("red 7" -> "r7")."""
    if name == "joker":
        return "j"
    colour, number = name.split()
    return COLOUR_CODES[colour] + number


def rummikub_turn(you: Player, table: Callable[[], Any]) -> None:
    """The hint's play if there is one, through the panel's menus; else a draw."""
    you.click(table, "Play tiles")
    panel = you.pinned(you.panel())
    expect(panel).to_contain_text("Hint")
    hint = re.search(r"you could lay (.+)", panel.inner_text())
    if hint is None:
        you.click(table, re.compile(r"Draw|Pass"))
        return
    values, seen = [], {}
    for code in map(tile_code, hint.group(1).split(" · ")):
        values.append(f"{code}:{seen.get(code, 0)}")  # two copies of a tile: "r7:0" and "r7:1"
        seen[code] = seen.get(code, 0) + 1
    # A rack of more than 25 tiles comes in two menus; the panel is drawn again after each pick.
    keys = [menu.get_attribute("data-control-key") for menu in panel.locator(".preview-select").all()]
    for key in keys:
        menu = you.page.locator(f'.preview-select[data-control-key="{key}"]')
        if not menu.count():
            continue
        here = [value for value in values if menu.locator(f'.select-option[data-value="{value}"]').count()]
        if here:
            you.pick(menu, here)
    you.click(panel, "Play them")


def rummikub_draw(you: Player, table: Callable[[], Any]) -> None:
    """A draw from the pool, one click: the computer goes out sooner, and the game ends."""
    you.click(table, re.compile(r"Draw|Pass"))


def open_menu(you: Player, menu: object) -> None:
    """Opens a menu as a player does, and checks it is still open once the page has drawn its
    pictures again (SimCord's preview closes a menu that a re-render moved out of the window)."""
    you.drawn()
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
    options = hand.locator(".select-option")
    offered = [
        (options.nth(i).get_attribute("data-value"), options.nth(i).inner_text().strip())
        for i in range(options.count())
    ]
    ticked = []
    for bug in wanted:
        label = bug.split("=")[0]  # "PLYT=8": a PLYT, whose number comes next
        value = next(value for value, text in offered if text == label)
        offered.remove((value, label))
        ticked.append(value)
    you.pick(hand, ticked)
    expect(panel).to_contain_text(f"Kind: {kind}")

    plyt_numbers = [bug.split("=")[1] for bug in wanted if bug.startswith("PLYT=")]
    for number, stands_for in enumerate(plyt_numbers, start=1):
        plyt = panel.locator(".preview-select", has_text=f"PLYT {number} stands for")
        you.pick(plyt, [stands_for])
    expect(panel).to_contain_text("✅ Ready.")
    you.look("ready")
    you.click(panel, "Lay it")
    expect(you.page.locator("#channel-message-list")).to_contain_text(
        re.compile(r"Anna lays a (\w+ sequence|match)")
    )
    you.look("laid")


class RumBugzTurns:
    """A draw from the bag, then the first number of the hand discarded; once in the game, the
    first time the hand can, a lay put together Bug by Bug before the discard."""

    def __init__(self) -> None:
        self.laid = False

    def __call__(self, you: Player, table: Callable[[], Any]) -> None:
        you.click(table, "Draw from the bag")
        hand = you.pinned(you.panel())
        expect(hand).to_contain_text(re.compile(r"Your Bugz|not running any more"))
        if "not running" in hand.inner_text():  # a copy of the table from before the round ended
            return
        if not you.button(hand, "Discard").count():  # the draw ended the round
            return
        if not self.laid:
            you.click(hand, "Lay a sequence")
            panel = you.pinned(you.panel())
            if "Lay a sequence:" in panel.inner_text():  # else a note: no sequence can be made now
                lay_bug_by_bug(you, panel)
                self.laid = True
                hand = panel
            if not you.button(hand, "Discard").count():  # the lay emptied the hand
                return
        you.click(hand, "Discard")
        you.click(hand, NUMBER_BUTTON)
        expect(hand).to_contain_text("Anna discards")
