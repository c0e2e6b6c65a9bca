"""The playground in Chromium, a feature at a time: two computers' moves shown one after the other,
the table on a phone. Screenshots of every step are left in artefacts/playground/ for people to
look at. Every game played to its end, a RumBugz lay put together Bug by Bug on the way:
test_to_the_end.py."""

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


RUMBUGZ_TABLE = "RumBugz · round"
YOUR_DRAW = re.compile(r"Anna: draw from the bag")


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
