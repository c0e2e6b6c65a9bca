"""Bué's hand is shown once, as its picture: the private panels, the exchange and reveal panels and
the DM carry no list of the cards beside it, and the picture says all the list said."""

from __future__ import annotations

import pytest

from bot.adapter import Viewer
from bot.games.bue import ADAPTER
from bot.games.bue.table import GOLD_MARK, HAND_PITCH
from bot.i18n import t
from bot.playground.world import DISCORD_LOCALES, ClientLocale
from bot.render import Canvas
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import Opened, components

LANGUAGES = ["en", "it", "fr"]
WORD_SPACE = 16


def assert_the_hand_is_the_picture_alone(driver: BueDriver, message, seat: int, language: str) -> None:
    (embed,) = message.embeds
    assert embed.description is None  # no list of the cards
    assert [field.name for field in embed.fields] == [t(language, "bue.hand.total_name")]
    assert embed.image.url == "attachment://bue-hand.png"
    assert driver.image_faces(message) == [card.code for card in driver.state().cards_of(seat)]
    # Read out in place of the picture: every card, by its number, and who sees it.
    (attachment,) = message.attachments
    hand = driver.state().hands[seat]
    assert attachment.description == " · ".join(
        f"{position + 1}. {ADAPTER.label(card.code, viewer(language))} "
        f"({t(language, 'bue.hand.face_up' if slot.revealed else 'bue.hand.hidden')})"
        for position, (card, slot) in enumerate(zip(driver.state().cards_of(seat), hand, strict=True))
    )


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_hand_the_panels_and_the_dm_show_the_cards_once(simcord_env, database, language):
    ClientLocale(simcord_env, DISCORD_LOCALES[language])  # every player's Discord in this language
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    game = driver.state()
    seat = game.turn

    (dm,) = driver.dm_messages(seat)
    assert_the_hand_is_the_picture_alone(driver, dm, seat, language)

    member = driver.members[seat]
    hand = await member.click(driver.table_message(), label="My hand")
    assert_the_hand_is_the_picture_alone(driver, hand.response, seat, language)

    # The exchange panel: the prompt, the picture, and a button per hidden card named as in it.
    panel = Opened(await member.click(driver.table_message(), label="Exchange"))
    assert panel.response.content == t(language, "bue.panel.give")
    assert_the_hand_is_the_picture_alone(driver, panel.response, seat, language)
    labels = [button.label for button in components(panel.response.message)]
    cards = game.cards_of(seat)
    assert labels == [
        t(
            language,
            "bue.panel.card_option",
            position=position + 1,
            card=ADAPTER.label(card.code, viewer(language)),
        )
        for position, card in enumerate(cards)
    ]


def viewer(language: str) -> Viewer:
    return Viewer(language, ["Anna", "Bruno"], 0)


SLOTS = [
    {"card": "g12", "revealed": True},
    {"card": "b7", "revealed": False},
    {"card": "x2", "revealed": False},
    {"card": "h100", "revealed": True},
    {"card": "b15", "revealed": False},
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hands_picture_numbers_each_card_says_who_sees_it_and_which_card_a_multiplier_takes(
    monkeypatch, language
):
    written: list[tuple[Canvas, str, int]] = []
    marked: list[str] = []
    draw_text, draw_face = Canvas.text, Canvas.face

    def text(canvas, xy, words, size=20, *args, **kwargs):
        written.append((canvas, words, size))
        return draw_text(canvas, xy, words, size, *args, **kwargs)

    def face(canvas, box, label, code, fill, ink, **style):
        marked.append(style.get("mark", ""))
        return draw_face(canvas, box, label, code, fill, ink, **style)

    monkeypatch.setattr(Canvas, "text", text)
    monkeypatch.setattr(Canvas, "face", face)
    best = {"total": 50, "multipliers": {"2": 0}}  # card 3, the x2, doubles card 1
    canvas = ADAPTER.hand_image(SLOTS, best, viewer(language))

    # The captions (a card's own letters are drawn on the card's sprite, a canvas of its own).
    captions = [(words, size) for drawn_on, words, size in written if drawn_on is canvas]
    up, hidden = t(language, "bue.hand.face_up"), t(language, "bue.hand.hidden")
    gold = t(language, "bue.hand.gold_corner")  # gold in words and by a shape, not by colour alone
    acts = t(language, "bue.hand.acts_on", position="3", target=1)  # "3: on 1"
    expected = [gold, "1", up, "2", hidden, acts, hidden, "4", up, "5", hidden]
    assert [words for words, _ in captions] == expected
    assert canvas.faces == [slot["card"] for slot in SLOTS]
    assert marked == [GOLD_MARK, "", "", "", ""]
    # Each caption fits under its card with a space to the next one's, in every language ("scoperta"
    # left two pixels: three face-up cards read "scopertascopertascoperta").
    room = HAND_PITCH - WORD_SPACE
    too_wide = [words for words, size in captions if canvas.text_length(words, size) >= room]
    assert too_wide == []
