"""Every command and every click, of every game, in every state a game can be in (none in the
channel, a lobby, running, finished, aborted), by a player and by a stranger, is answered by its
handler: Discord never tells anyone "The application did not respond" (issue 37).

Each command the bot registers is sent with its required options filled in (``/turns``, ``/away``
and the preferences of time among them); each move a game's buttons and menus can name (the shared
ones, its own flows, the lobby's) is clicked on the game's message, as a button and as a select,
and so are ``/turns``' buttons. So is every /season and /tournament command, and every button and
menu of a tournament's sign-up message, in every state a tournament can be in. The bot's last
resort (``replies.make_sure_answered``) answers whatever a handler left unanswered, and says so in
the log: that warning fails the test, for it would be a handler's oversight."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from simcord.interactions import command_leaves

from bot.components import SHARED
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import TableDriver
from tests.bot.forging import forge_click
from tests.bot.seriebum_driver import SerieBumDriver
from tests.bot.test_rumbugz_play import RumBugzDriver
from tests.bot.test_rummikub_play import RummikubDriver
from tests.bot.test_tournaments import Tournament

DRIVERS: dict[str, type[TableDriver[Any]]] = {
    "bue": BueDriver,
    "seriebum": SerieBumDriver,
    "rummikub": RummikubDriver,
    "rumbugz": RumBugzDriver,
}
STATES = ("none", "lobby", "running", "finished", "aborted")
# Discord's option types, and a value of each a client could send.
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, NUMBER = 3, 4, 5, 6, 7, 8, 10


async def into(driver: TableDriver[Any], state: str) -> int:
    """The channel's game brought to ``state``; its id (an id no game has, with none)."""
    host, *_others = driver.members
    kind = driver.engine.name
    if state == "none":
        await host.send(driver.channel, "a message to click on")
        return 999
    if state == "lobby":
        await host.slash(driver.channel, f"{kind} start")
        return int(driver.query("SELECT MAX(id) FROM games")[0][0])
    await driver.open()
    if state == "finished":
        # Every person leaves: computers finish nothing, the game ends with no result.
        for member in driver.members:
            await member.slash(driver.channel, f"{kind} leave")
    elif state == "aborted":
        question = await host.slash(driver.channel, f"{kind} abort")
        await host.click(question.response, label="Abort")
    assert driver.status() == state
    return driver.game_id


def options_for(leaf: dict[str, Any], member: Any, channel: Any) -> dict[str, Any]:
    """The command's required options, each filled with a value of its type."""
    filled: dict[str, Any] = {}
    for option in leaf.get("options") or []:
        if not option.get("required"):
            continue
        choices = option.get("choices")
        kind = option["type"]
        if choices:
            filled[option["name"]] = choices[0]["value"]
        elif kind == USER:
            filled[option["name"]] = member
        elif kind == CHANNEL:
            filled[option["name"]] = channel
        elif kind in (INTEGER, NUMBER):
            filled[option["name"]] = max(option.get("min_value", 1), 1)
        elif kind == BOOLEAN:
            filled[option["name"]] = True
        else:
            filled[option["name"]] = "1"
    return filled


def commands(env: Any, member: Any, channel: Any, kind: str) -> list[tuple[str, dict[str, Any]]]:
    """Every slash command ``member`` sees in ``channel``: the bot's own, with the Bué run (the
    commands every game shares); a game's group only with its own."""
    found = []
    for command in env.backend.visible_commands(user_id=member.id, channel_id=channel.id):
        for path, leaf in command_leaves(command):
            name = " ".join(path)
            if kind == "bue" or path[0] == kind:
                found.append((name, options_for(leaf, member, channel)))
    return found


# Moves that change what state the game is in: clicked last, so that every other is clicked in
# the state the test is about.
LAST = ("lobby_begin", "rematch", "lobby_cancel", "abort")


def moves(env: Any, kind: str) -> list[str]:
    """Every move a game's message can name: the shared ones (the lobby's among them), the game's
    own, and one no message names."""
    every = {*SHARED, *env.bot.adapters[kind].flows(), "nosuchmove"}
    return sorted(every, key=lambda move: (move in LAST, LAST.index(move) if move in LAST else 0, move))


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("kind", list(DRIVERS))
async def test_every_command_and_click_is_answered(simcord_env, database, caplog, kind, state):
    driver = DRIVERS[kind](simcord_env, database)
    stranger = driver.guild.add_member(simcord_env.create_user("stranger"))
    game_id = await into(driver, state)
    version = driver.query("SELECT COALESCE(MAX(version), 0) FROM games")[0][0]
    kept = driver.query("SELECT message_id FROM games WHERE id = ?", game_id)
    # The game's own message (its lobby or table), where its clicks come from; any message without.
    message = next((m for m in driver.channel.history() if kept and m.id == kept[0][0]), None)
    message = message or driver.channel.last_message
    player = driver.members[0]
    unanswered = []
    with caplog.at_level(logging.WARNING):
        for member in (stranger, player):
            for name, options in commands(simcord_env, member, driver.channel, kind):
                result = await member.slash(driver.channel, name, **options)
                if not result.acknowledged:
                    unanswered.append(f"/{name} by {member.name}")
            for move in moves(simcord_env, kind):
                for custom_id, values in (
                    (f"gm:{game_id}:{version}:{move}:", None),
                    (f"gm:{game_id}:{version}:{move}:0", None),
                    (f"gs:{game_id}:{version}:{move}:0", ["0"]),
                ):
                    result = await forge_click(
                        simcord_env, member, driver.channel, message, custom_id, values=values
                    )
                    if not result.acknowledged:
                        unanswered.append(f"{custom_id} by {member.name}")
            # /turns' buttons: Next and What happened, the clicker's own and another player's.
            for owner in (member, player):
                for which in ("n", "r"):
                    custom_id = f"turns:{owner.id}:{game_id}:{which}"
                    result = await forge_click(simcord_env, member, driver.channel, message, custom_id)
                    if not result.acknowledged:
                        unanswered.append(f"{custom_id} by {member.name}")
    assert not unanswered, unanswered
    left = [record.getMessage() for record in caplog.records if "left unanswered" in record.getMessage()]
    assert not left, left


# A tournament's states, and its moves: the sign-up message's buttons and the organiser's menus.
TOURNAMENT_STATES = ("none", "signup", "running", "finished", "cancelled")
TOURNAMENT_MOVES = ("join", "leave", "computers", "nosuchmove", "begin")
TOURNAMENT_MENUS = (("add", "hard"), ("remove", "1"), ("nosuchmenu", "1"))
# Commands that change the state of the tournament or the season: sent last.
LAST_COMMANDS = ("season start", "season end", "tournament drop", "tournament close", "tournament cancel")


async def tournament_into(tour: Tournament, state: str) -> None:
    """The channel's tournament brought to ``state``: a Bué tournament at two seats, one round,
    of a person (an entrant who plays) and computers."""
    if state == "none":
        return
    (entrant,) = tour.members
    # An hour's clock: the person's table plays on after their time runs out twice (on a day's
    # clock, away days would be used first, a day each).
    await tour.create("bue", 2, rounds=1, clock="1h", options="target=10")
    await entrant.click(tour.signup(), label="Join")
    await tour.add_computers(2)
    if state == "signup":
        return
    await tour.organiser.click(tour.signup(), label="Begin")
    if state == "finished":
        await tour.play_out()
    elif state == "cancelled":
        await tour.organiser.slash(tour.channel, "tournament cancel")
    assert tour.value("status") == state


def league_commands(env: Any, member: Any, channel: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every /season and /tournament command ``member`` sees in ``channel``, those that change
    the tournament or the season last."""
    found = [
        (" ".join(path), options_for(leaf, member, channel))
        for command in env.backend.visible_commands(user_id=member.id, channel_id=channel.id)
        for path, leaf in command_leaves(command)
        if path[0] in ("season", "tournament")
    ]
    return sorted(found, key=lambda found: found[0] in LAST_COMMANDS)


@pytest.mark.parametrize("state", TOURNAMENT_STATES)
async def test_every_season_and_tournament_command_and_click_is_answered(
    simcord_env, database, caplog, state
):
    """Every /season and /tournament command, in the channel and in a table's thread, and every
    button and menu of a sign-up message, by a stranger, an entrant and the organiser."""
    tour = Tournament(simcord_env, database, players=1)
    stranger = tour.guild.add_member(simcord_env.create_user("stranger"))
    await tournament_into(tour, state)
    message = tour.signup() if tour.id else tour.channel.last_message
    if message is None:
        message = await stranger.send(tour.channel, "a message to click on")
    tournament_id = tour.id or 999
    where = [tour.channel, *tour.channel.threads[:1]]
    unanswered = []
    with caplog.at_level(logging.WARNING):
        for member in (stranger, *tour.members, tour.organiser):
            for channel in where:
                for name, options in league_commands(simcord_env, member, channel):
                    result = await member.slash(channel, name, **options)
                    if not result.acknowledged:
                        unanswered.append(f"/{name} by {member.name} in {channel.name}")
            clicks = [(f"tourney:{tournament_id}:{move}", None) for move in TOURNAMENT_MOVES]
            clicks += [(f"tourneysel:{tournament_id}:{menu}", [value]) for menu, value in TOURNAMENT_MENUS]
            for custom_id, values in clicks:
                result = await forge_click(
                    simcord_env, member, tour.channel, message, custom_id, values=values
                )
                if not result.acknowledged:
                    unanswered.append(f"{custom_id} by {member.name}")
    assert not unanswered, unanswered
    left = [record.getMessage() for record in caplog.records if "left unanswered" in record.getMessage()]
    assert not left, left
