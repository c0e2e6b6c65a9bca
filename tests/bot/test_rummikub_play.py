"""Rummikub end to end through the real bot (SimCord)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.rummikub import Rummikub
from games.rummikub.tiles import ALL_TILES
from tests.bot.driver import Opened, TableDriver, components
from tests.conftest import BACKENDS


class RummikubDriver(TableDriver[Rummikub]):
    engine = Rummikub
    default_players = 2

    def assert_table_shows_only_the_table(self) -> None:
        """The table image shows exactly the tiles on the table: never a rack."""
        faces = self.image_faces(self.table_message())
        assert Counter(faces) == Counter(t for s in self.state().table for t in s)

    def arrange_going_out(self) -> tuple[int, str]:
        """Give the player to move a rack that goes out in one play: their seat, and the play."""
        game = self.state()
        game.racks[game.turn] = ["r1", "r2", "r3", "k5", "b5", "o5", "r10", "r11", "r12", "r13"]
        self.arrange(game)
        return game.turn, " ".join(game.racks[game.turn])

    async def pick(self, member: Any, panel: Opened, code: str) -> None:
        """Picks the rack's tile ``code`` in the play panel's menus."""
        menus = [c for c in components(panel.response) if c.type.value == 3]
        menu = next(m for m in menus if any(o.value.startswith(code + ":") for o in m.options))
        value = next(o.value for o in menu.options if o.value.startswith(code + ":"))
        await member.select(panel.response, [value], custom_id=menu.custom_id)

    async def play_with_buttons(self, seat: int, tiles: list[str]) -> Any:
        member = self.members[seat]
        panel = Opened(await member.click(self.table_message(), label="Play tiles"))
        for code in tiles:
            await self.pick(member, panel, code)
        return await member.click(panel.response, label="Play them")


def tiles_on_table_and_racks(game: Rummikub) -> Counter[str]:
    return Counter(
        [t for s in game.table for t in s] + [t for r in game.racks for t in r] + game.pool + game.set_aside
    )


async def test_a_full_two_player_round_from_a_seeded_deal(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open(hints=True)
    dealt = driver.state()
    for seat in range(2):
        dm = next(iter(driver.members[seat].user.dm_channel.history()))
        assert sorted(driver.image_faces(dm)) == sorted(dealt.racks[seat])
    turns = 0
    while not driver.state().finished:
        game = driver.state()
        seat = game.turn
        play = game.best_play(seat)
        member = driver.members[seat]
        if play is None:
            await member.click(driver.table_message(), label="Draw")
        elif turns % 2:
            await driver.play_with_buttons(seat, play["tiles"])
        else:
            await member.slash(driver.channel, "rummikub play", tiles=" ".join(play["tiles"]))
        turns += 1
        assert tiles_on_table_and_racks(driver.state()) == Counter(ALL_TILES)
        driver.assert_table_shows_only_the_table()
    game = driver.state()
    assert game.finished and game.winner() is not None
    assert any("wins the match" in (e.title or "") for e in driver.channel.last_message.embeds)
    assert turns > 5


async def test_an_initial_meld_under_30_is_refused_with_its_reason(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    game = driver.state()
    seat = game.turn
    game.racks[seat] = ["k1", "k2", "k3", "r9", "b4", "o11", "k7", "r2", "b9", "o5", "k12", "r13", "b1", "o8"]
    driver.arrange(game)
    result = await driver.members[seat].slash(driver.channel, "rummikub play", tiles="k1 k2 k3")
    assert result.ephemeral
    assert "6" in result.response.content and "30" in result.response.content
    assert driver.state().to_json() == game.to_json()


async def test_a_refused_play_names_its_tiles_as_every_line_does(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    game = driver.state()
    seat = game.turn
    game.racks[seat] = [
        "k1",
        "k13",
        "r12",
        "r9",
        "b4",
        "o11",
        "k7",
        "r2",
        "b9",
        "o5",
        "k12",
        "r13",
        "b1",
        "o8",
    ]
    driver.arrange(game)
    result = await driver.members[seat].slash(driver.channel, "rummikub play", tiles="k13 r12")
    text = result.response.content
    assert "black 13" in text and "k13" not in text, text
    assert driver.state().to_json() == game.to_json()


async def test_the_play_panel_is_the_menu_naming_the_rack_s_tiles_with_no_picture(simcord_env, database):
    """The panel stays short, and the playground's page can keep its menu open: no picture (the
    rack's is in the DM), the first play's rule in a line until the player has melded."""
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    panel = Opened(await driver.members[seat].click(driver.table_message(), label="Play tiles"))
    message = panel.response.message
    assert not message.embeds and not message.attachments
    assert "new sets worth 30 or more" in message.content
    named = [o.label for c in components(panel.response) if c.type.value == 3 for o in c.options]
    assert len(named) == len(driver.state().racks[seat])


async def test_a_rack_of_more_than_25_tiles_is_offered_in_two_menus_and_the_second_picks(
    simcord_env, database
):
    """Two menus of one message need ids of their own: with the same id, Discord refused the
    whole panel (a rack grows past 25 tiles after a dozen draws)."""
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    game = driver.state()
    seat = game.turn
    drawn, game.pool = game.pool[:16], game.pool[16:]
    game.racks[seat] += drawn
    driver.arrange(game)
    member = driver.members[seat]
    panel = Opened(await member.click(driver.table_message(), label="Play tiles"))
    menus = [c for c in components(panel.response) if c.type.value == 3]
    assert len(menus) == 2 and len({menu.custom_id for menu in menus}) == 2
    assert sum(len(menu.options) for menu in menus) == 30
    last = menus[1].options[-1]
    await member.select(panel.response, [last.value], custom_id=menus[1].custom_id)
    assert last.label in panel.response.content


async def test_a_play_that_rearranges_the_table_and_marks_the_changed_sets(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    game = driver.state()
    seat = game.turn
    game.melded = [True, True]
    game.table = [["r2", "r3", "r4", "r5", "r6", "r7", "r8"], ["k11", "k12", "k13"]]
    game.racks[seat] = ["b5", "k5", "o1", "o2"]
    driver.arrange(game)
    await driver.play_with_buttons(seat, ["b5", "k5"])
    after = driver.state()
    assert sorted(map(sorted, after.table)) == sorted(
        map(sorted, [["r2", "r3", "r4"], ["r5", "b5", "k5"], ["r6", "r7", "r8"], ["k11", "k12", "k13"]])
    )
    assert ["k11", "k12", "k13"] in after.table
    assert len(after.changed) == 3
    text = next(f.value for f in driver.table_message().embeds[0].fields if f.name == "Sets on the table")
    assert "black 11 · black 12 · black 13" in text


async def test_a_joker_won_back_is_played_again_the_same_turn(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    game = driver.state()
    seat = game.turn
    game.melded = [True, True]
    game.table = [["r7", "j", "r9"]]
    game.racks[seat] = ["r8", "b5", "k5", "o12"]
    driver.arrange(game)
    await driver.members[seat].slash(driver.channel, "rummikub play", tiles="r8 b5 k5")
    table = [sorted(s) for s in driver.state().table]
    assert sorted(["r7", "r8", "r9"]) in table
    assert any("j" in s and "b5" in s and "k5" in s for s in table)


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_a_restart_mid_round_is_finished_with_the_same_components(simcord_env, database, make_bot):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    for _ in range(3):
        seat = driver.state().turn
        await driver.members[seat].click(driver.table_message(), label="Draw")
    table_id = driver.table_message().id
    seat = driver.state().turn
    panel = Opened(await driver.members[seat].click(driver.table_message(), label="Play tiles"))
    await simcord_env.restart_bot(make_bot())
    # The private panel opened before the restart still answers after it.
    menu = next(c for c in components(panel.response) if c.type.value == 3)
    await driver.members[seat].select(panel.response, [menu.options[0].value], custom_id=menu.custom_id)
    assert "Picked" in panel.response.message.content
    while not driver.state().finished:
        game = driver.state()
        seat = game.turn
        play = game.best_play(seat)
        if play is None:
            await driver.members[seat].click(driver.table_message(), label="Draw")
        else:
            await driver.play_with_buttons(seat, play["tiles"])
        table_id = driver.kept_table(table_id)
