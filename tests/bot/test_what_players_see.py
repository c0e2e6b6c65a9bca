"""What players see: a hand sent whenever it changes, refusals and buttons that fit, tile names,
plural forms, the leaderboards, the empty answers and the score charts."""

from __future__ import annotations

import importlib
import io

import pytest
from PIL import Image

from bot import charts
from bot.i18n import t
from games.bue.cards import DECK
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import component_for, components
from tests.bot.forging import forge_click
from tests.bot.test_bue_play import ephemeral_text
from tests.bot.test_rumbugz_play import RumBugzDriver
from tests.bot.test_rummikub_play import RummikubDriver
from tests.rumbugz.positions import arrange, seq

# ---------------------------------------------------------------------- hands in DMs


async def test_a_rummikub_play_sends_the_player_their_new_rack(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    game = driver.state()
    seat = game.turn
    game.racks[seat] = ["r9", "r10", "r11", "k5", "b5", "o5", "b1", "o13"]
    driver.arrange(game)
    before = len(driver.dm_messages(seat))
    other_before = len(driver.dm_messages(1 - seat))
    await driver.members[seat].slash(driver.channel, "rummikub play", tiles="r9 r10 r11 k5 b5 o5")
    dms = driver.dm_messages(seat)
    assert len(dms) == before + 1
    assert driver.image_faces(dms[-1]) == ["b1", "o13"]
    assert dms[-1].embeds[0].description == "blue 1 · orange 13"  # named as the channel names them
    assert len(driver.dm_messages(1 - seat)) == other_before  # the other rack did not change


async def test_every_rumbugz_move_that_changes_a_hand_sends_it(simcord_env, database):
    driver = RumBugzDriver(simcord_env, database, players=2)
    await driver.open()
    driver.arrange(
        arrange(2, {0: ["3a", "4a", "5a", "6a", "9b", "11c", "12c", "10d"], 1: ["1b", "2b", "8c"]})
    )
    hand = await driver.members[0].click(driver.table_message(), label="My hand")
    before = len(driver.dm_messages(0))
    await driver.lay(
        0, {"type": "lay", "kind": "simple", "bugz": seq("3a", "4a", "5a", "6a")}, False, on=hand.response
    )
    assert len(driver.dm_messages(0)) == before + 1
    assert sorted(driver.image_faces(driver.dm_messages(0)[-1])) == ["10d", "11c", "12c", "9b"]
    await driver.discard(0, "9b")
    assert len(driver.dm_messages(0)) == before + 2
    assert "9b" not in driver.image_faces(driver.dm_messages(0)[-1])


async def test_a_bue_shuffle_sends_the_hand_in_its_new_order_and_an_exchange_one_dm(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    seat = driver.state().turn
    member = driver.members[seat]
    before = len(driver.dm_messages(seat))
    hand = await member.click(driver.table_message(), label="My hand")
    order = [slot.card for slot in driver.state().hands[seat]]
    while [slot.card for slot in driver.state().hands[seat]] == order:  # a shuffle may keep the order
        await member.click(hand.response, label="Shuffle my hidden cards")
    shuffles = len(driver.dm_messages(seat)) - before
    assert shuffles >= 1
    in_order = [DECK[slot.card].code for slot in driver.state().hands[seat]]
    assert driver.image_faces(driver.dm_messages(seat)[-1]) == in_order
    other = len(driver.dm_messages(1 - seat))
    await driver.exchange_with_deck(seat, 0)
    assert len(driver.dm_messages(seat)) == before + shuffles + 1  # one DM, not two
    assert len(driver.dm_messages(1 - seat)) == other


# ---------------------------------------------------------------------- refusals and buttons


async def test_a_guest_pressing_computers_is_told_only_the_host_manages_them(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.members[0].slash(driver.channel, "rummikub start")
    lobby = driver.channel.last_message
    answer = await driver.members[1].click(lobby, label="Computers")
    assert "Only the host can add or remove computer players" in ephemeral_text(answer)


async def test_change_a_sequence_is_offered_only_to_a_player_who_has_laid_one(simcord_env, database):
    driver = RumBugzDriver(simcord_env, database, players=2)
    await driver.open()
    driver.arrange(arrange(2, {0: ["3a", "4a", "5a", "6a", "9b", "11c"], 1: ["1b", "2b", "8c"]}))
    member = driver.members[0]
    table = await member.slash(driver.channel, "rumbugz table")
    hand = await member.click(driver.table_message(), label="My hand")
    for shown in (table, hand):
        labels = [c.label for c in components(shown.response)]
        assert "Change a sequence" not in labels and "Discard" in labels, labels
    # Forged anyway: still refused, privately.
    lay = component_for(hand.response, driver.game_id, "lay").custom_id
    change = lay.replace(":lay:", ":change:")
    refused = await forge_click(simcord_env, member, driver.channel, driver.table_message(), change)
    assert "once you have laid one" in ephemeral_text(refused)

    await driver.lay(
        0, {"type": "lay", "kind": "simple", "bugz": seq("3a", "4a", "5a", "6a")}, False, on=hand.response
    )
    # Laid: the next turn of this player offers it (the table shows the turn's player's steps).
    game = driver.state()
    game.turn, game.phase = 0, "play"
    driver.arrange(game)
    hand = await member.click(driver.table_message(), label="My hand")
    assert "Change a sequence" in [c.label for c in components(hand.response)]


async def test_rummikub_answers_name_tiles_as_the_channel_does_sorted_by_set(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    game = driver.state()
    seat = game.turn
    game.racks[seat] = ["r11", "k5", "r9", "b5", "r10", "o5", "b1"]
    driver.arrange(game)
    answer = await driver.members[seat].slash(driver.channel, "rummikub play", tiles="r11 k5 r9 b5 r10 o5")
    laid = ephemeral_text(answer)
    assert "r9" not in laid and "red 9" in laid
    line = next(m.content for m in driver.channel.history() if "opens with" in m.content)
    names = laid.split("Laid ", 1)[1].rstrip(".")
    assert names in line, (names, line)  # the same words in the same order
    items = names.split(" · ")
    run = items.index("red 9")
    assert items[run : run + 3] == ["red 9", "red 10", "red 11"]  # set by set
    sets = next(f.value for f in driver.table_message().embeds[0].fields if f.name == "Sets on the table")
    assert "red 9 · red 10 · red 11" in sets and "r9" not in sets


# ---------------------------------------------------------------------- numbers and boards


@pytest.mark.parametrize(
    ("language", "what", "count", "text"),
    [
        ("en", "wins", 1, "1 win"),
        ("en", "matches", 1, "1 match"),
        ("en", "matches", 3, "3 matches"),
        ("it", "wins", 1, "1 vittoria"),
        ("it", "matches", 0, "0 sfide"),
        ("fr", "matches", 0, "0 partie"),
        ("fr", "wins", 2, "2 victoires"),
    ],
)
def test_counts_take_the_plural_form_of_each_language(language, what, count, text):
    assert t(language, f"count.{what}", count=count) == text


async def test_the_leaderboards_say_one_match_and_show_points_only_per_game(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat, going_out = driver.arrange_going_out()
    winner = driver.members[seat]
    await winner.slash(driver.channel, "rummikub play", tiles=going_out)
    assert driver.state().finished
    every_game = await winner.slash(driver.channel, "leaderboard")
    board = every_game.response.embeds[0].description
    assert "1 win in 1 match" in board.splitlines()[0] and "0 wins in 1 match" in board
    assert "point" not in board  # a Rummikub -52 and a Bué +50 do not add up
    rummikub = await winner.slash(driver.channel, "leaderboard", game="rummikub")
    assert "1 win in 1 match, " in rummikub.response.embeds[0].description
    assert "point" in rummikub.response.embeds[0].description


# ---------------------------------------------------------------------- empty answers


@pytest.mark.parametrize(
    ("command", "options", "start"),
    [
        ("leaderboard", {}, "`/bue start`"),
        ("leaderboard", {"game": "rummikub"}, "`/rummikub start`"),
        ("leaderboard", {"game": "bue", "order": "rating"}, "`/bue start`"),
        ("history", {}, "`/seriebum start`"),
        ("stats", {"game": "rumbugz"}, "`/rumbugz start`"),
    ],
)
async def test_every_empty_answer_is_private_and_says_how_to_start(
    simcord_env, database, command, options, start
):
    driver = RummikubDriver(simcord_env, database)
    answer = await driver.members[0].slash(driver.channel, command, **options)
    text = ephemeral_text(answer)
    assert "No finished match" in text or "no finished match" in text
    assert start in text and "⚠️" not in text


# ---------------------------------------------------------------------- score charts


def colour_pixels(png: bytes, colour: str) -> int:
    raw = Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    target = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    pixels = (raw[i : i + 3] for i in range(0, len(raw), 3))
    return sum(1 for pixel in pixels if sum(abs(a - b) for a, b in zip(pixel, target, strict=True)) < 40)


def score_chart(names: list[str], totals: list[list[int]]) -> bytes:
    chart = charts.ScoreChart(
        names=names,
        totals=totals,
        target=110,
        winner=0,
        x_label="Game",
        y_label="Match points",
        target_label="Target",
        winner_label="Winner",
    )
    return charts.draw_scores(chart)


def test_players_with_equal_totals_each_keep_a_visible_line():
    png = score_chart(["anna", "bruno", "carla"], [[10, 10, 5], [30, 30, 20], [60, 60, 40], [110, 110, 70]])
    alone = score_chart(["anna"], [[10], [30], [60], [110]])
    anna = charts.OKABE_ITO[0]
    # Most of anna's line shows beside bruno's, drawn after it.
    assert colour_pixels(png, anna) > colour_pixels(alone, anna) // 3


@pytest.mark.parametrize("language", ["en", "it", "fr"])
@pytest.mark.parametrize(
    ("game", "button"),
    [
        ("bue", "bue.button.hand"),
        ("rummikub", "rummikub.ui.button.rack"),
        ("rumbugz", "rumbugz.ui.button.hand"),
    ],
)
def test_the_closed_dm_note_names_the_hand_button_players_see(game, button, language):
    adapter = importlib.import_module(f"bot.games.{game}").ADAPTER
    note = t(language, adapter.dm_closed_key, mention="@anna")
    assert f"**{t(language, button)}**" in note


# ---------------------------------------------------------------------- a closed table


@pytest.mark.parametrize("kind", ["bue", "seriebum", "rummikub", "rumbugz"])
async def test_a_table_closed_by_an_abort_names_no_move_still_awaited(simcord_env, database, kind):
    """Issue 39: after an abort, Serie Bum!'s closed table still read "⏳ Anna: flip a tile"."""
    from tests.bot.test_every_interaction_answered import DRIVERS

    driver = DRIVERS[kind](simcord_env, database)
    await driver.open()
    assert "⏳" in message_text(driver.table_message())  # the running table names whom it awaits
    question = await driver.members[0].slash(driver.channel, f"{kind} abort")
    await driver.members[0].click(question.response, label="Abort")
    assert driver.status() == "aborted"
    closed = driver.table_message()
    text = message_text(closed)
    assert "⏳" not in text and "Waiting for" not in text and "flip a tile" not in text, text
    assert not components(closed)


def message_text(message) -> str:
    """Everything a message says in words: its content, and its embeds' title, text and fields."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{field.name} {field.value}" for field in embed.fields]
    return "\n".join(parts)
