"""The playground in Chromium, a feature at a time: a RumBugz lay put together Bug by Bug, two
computers' moves shown one after the other, the table on a phone. Screenshots of every step are left in
artefacts/playground/ for people to look at. Every game played to its end: test_to_the_end.py."""

from __future__ import annotations

import re

import pytest

from bot.render import PHONE
from tests.playground.player import Player, skip_without_a_browser

skip_without_a_browser()
from playwright.sync_api import expect  # noqa: E402

from tests.playground.turns import NUMBER_BUTTON  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")
SERIE_BUM_TABLE = "Serie Bum! ·"


# RumBugz: a window as high as a laptop's, and enough turns that the pictures of earlier panels
# (each turn's hand) pile up above the menus, as they closed Rummikub's menu by themselves.
RUMBUGZ_TABLE = "RumBugz · round"
YOUR_DRAW = re.compile(r"Anna: draw from the bag")
RUMBUGZ_TURNS = 6


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


def test_rumbugz_against_a_computer_through_a_lay_bug_by_bug_in_chromium(open_page):
    open_page.set_viewport_size({"width": 1280, "height": 800})
    you = Player(open_page, "rumbugz")
    you.begin("RumBugz", computers=1)

    laid = False
    for turn in range(1, 25):
        if turn > RUMBUGZ_TURNS and laid:
            return
        # The computer's moves come by themselves.
        assert you.your_turn_or_the_end(RUMBUGZ_TABLE, "rumbugz", YOUR_DRAW)
        you.click(lambda: you.table(RUMBUGZ_TABLE, "rumbugz"), "Draw from the bag")
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
        you.click(hand, NUMBER_BUTTON)  # a button per number in the hand
        expect(hand).to_contain_text("Anna discards")
    pytest.fail("no lay was possible in 24 turns")


# A move of a RumBugz turn (its bids, made by everyone at once, are not).
COMPUTER_TURN = re.compile(r"🤖 Hard (\d) (draws|takes|lays|changes|discards)")


def test_rumbugz_against_two_computers_shows_each_computers_move_as_it_is_made_in_chromium(open_page):
    """After your discard the computers play one after the other, ROBOT_PAUSE apart: the page shows
    the first one's moves before the second one's, as they are made (it once froze, then showed all
    of them at once)."""
    open_page.set_viewport_size({"width": 1280, "height": 800})
    you = Player(open_page, "rumbugz", shots="rumbugz-two-computers")
    you.begin("RumBugz", computers=2)
    assert you.your_turn_or_the_end(RUMBUGZ_TABLE, "rumbugz", YOUR_DRAW)
    you.click(lambda: you.table(RUMBUGZ_TABLE, "rumbugz"), "Draw from the bag")
    hand = you.pinned(you.panel())
    you.click(hand, "Discard")
    you.click(hand, NUMBER_BUTTON)
    expect(hand).to_contain_text("Anna discards")

    def computers_moves() -> list[str]:
        after = you.channel_text().partition("Anna discards")[2]
        return [number for number, _ in COMPUTER_TURN.findall(after)]

    # The first computer's first move, as soon as the page shows it.
    expect(you.page.locator("#channel-message-list")).to_contain_text(
        re.compile(r"Anna discards.*🤖 Hard \d (draws|takes|lays|changes|discards)", re.DOTALL)
    )
    shown = computers_moves()
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
    # What a person waits for: the picture decoded, its natural size known (before, the page lays
    # out the box of its alt text, 133 x 20, issue 37), and drawn at the phone's width.
    you.picture_decoded(picture)
    picture.scroll_into_view_if_needed()
    you.drawn()
    you.look("table", to_newest=False)
    shown = picture.bounding_box()
    assert shown is not None and shown["width"] >= PHONE.width, shown
