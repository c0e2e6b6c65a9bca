"""Forged numbers in component ids: every number a click carries is checked against what its
player may see, in every game, and refused like any other forged click (issue 30: a Bué partner
seat or a card past the hand raised IndexError and was answered "Sorry, something went wrong").

The ids are those the bot really showed (the table's buttons and the panels they open), with
their numbers pushed past the hand, the table or the players, extra numbers added, and each one
sent under every move name of the game. Some variants are legal moves: they may play; what must
never happen is an unanswered click, an unexpected error or a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games import bue, rumbugz, rummikub, seriebum
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import Opened, TableDriver, components, move_of
from tests.bot.forging import forge_click
from tests.bot.seriebum_driver import SerieBumDriver
from tests.bot.test_rumbugz_play import RumBugzDriver
from tests.bot.test_rummikub_play import RummikubDriver

# Past any hand, rack, table or number of players; the last is the longest number a click may carry.
OUT_OF_RANGE = ("9", "99", "999999999")
# How many forged clicks one game gets at most (the ids and their variants, deduplicated).
BUDGET = 400


def variants(arg: str) -> Iterator[str]:
    """``arg`` with each of its numbers pushed out of range, and with out-of-range numbers added."""
    fields = arg.split(".") if arg else []
    yield arg
    for index, field in enumerate(fields):
        if field.isdigit():
            for number in OUT_OF_RANGE:
                yield ".".join([*fields[:index], number, *fields[index + 1 :]])
    for extra in ("9", "0.9", "9.9.9", "0.0.9"):
        yield f"{arg}.{extra}" if arg else extra


def select_values(component: Any) -> list[list[str]]:
    """What a forged select sends: its first option, and numbers no option holds."""
    offered = [option.value for option in getattr(component, "options", [])][:1]
    return [offered, *([number] for number in OUT_OF_RANGE)]


async def shown_ids(driver: TableDriver[Any], member: Any) -> tuple[list[tuple[str, Any]], Any]:
    """The game's components on the table, and on each panel a table button opens for ``member``;
    with the last panel opened, where forged clicks are made (as a client clicks a panel's button)."""
    table = driver.table_message()
    found = [(c.custom_id, c) for c in components(table) if move_of(c.custom_id)]
    carrier, version = table, driver.version()
    for custom_id, component in list(found):
        # A table button may be a move of its own (a draw): the table has other buttons after it.
        if custom_id.startswith("gm:") and not component.disabled and driver.version() == version:
            result = Opened(await member.click(table, custom_id=custom_id))
            if result.response is not None and result.response.ephemeral:
                found += [(c.custom_id, c) for c in components(result.response) if move_of(c.custom_id)]
                carrier = result.response.message
    return found, carrier


def forgeries(
    driver: TableDriver[Any], moves: list[str], shown: list[tuple[str, Any]]
) -> Iterator[tuple[str, Any]]:
    """Every shown id's variants, under every move name, each with the values a select sends."""
    for custom_id, component in shown:
        kind, game_id, version, _move, arg = custom_id.split(":", 4)
        for move in moves:
            for forged_arg in variants(arg):
                forged = f"{kind}:{game_id}:{version}:{move}:{forged_arg}"
                if kind == "gs":
                    for values in select_values(component):
                        yield forged, values
                else:
                    yield forged, None


def unversioned(custom_id: str, values: list[str] | None) -> tuple[str, ...]:
    kind, _game, _version, move, arg = custom_id.split(":", 4)
    return kind, move, arg, repr(values)


async def opened(kind: str, env: Any, database: str) -> TableDriver[Any]:
    driver: TableDriver[Any]
    if kind == "bue":
        driver = BueDriver(env, database, players=3)
    elif kind == "seriebum":
        driver = SerieBumDriver(env, database)
    elif kind == "rummikub":
        driver = RummikubDriver(env, database)
    else:
        driver = RumBugzDriver(env, database)
    await driver.open()
    return driver


FLOWS = {
    "bue": bue.ADAPTER,
    "seriebum": seriebum.ADAPTER,
    "rummikub": rummikub.ADAPTER,
    "rumbugz": rumbugz.ADAPTER,
}


@pytest.mark.parametrize("kind", sorted(FLOWS))
async def test_numbers_past_what_a_player_sees_are_refused_cleanly(simcord_env, database, caplog, kind):
    driver = await opened(kind, simcord_env, database)
    moves = sorted(FLOWS[kind].flows())
    tried: set[tuple[str, str]] = set()
    forged_clicks = 0
    dealt = driver.state()
    with caplog.at_level(logging.ERROR):
        while forged_clicks < BUDGET and driver.status() == "running":
            member = driver.members[min(driver.state().to_act())]
            version = driver.version()
            # The panels' ids first (the deeper, the more numbers they carry); each variant once,
            # whatever the version it was shown at.
            shown, carrier = await shown_ids(driver, member)
            shown.reverse()
            fresh = [
                (custom_id, values)
                for custom_id, values in forgeries(driver, moves, shown)
                if unversioned(custom_id, values) not in tried
            ]
            if not fresh:
                break
            for custom_id, values in fresh[: BUDGET - forged_clicks]:
                tried.add(unversioned(custom_id, values))
                forged_clicks += 1
                result = await forge_click(
                    simcord_env, member, driver.channel, carrier, custom_id, values=values
                )
                assert result.response is not None, custom_id
                assert "went wrong" not in (result.response.content or ""), (custom_id, values)
                if driver.version() != version:
                    # A variant was a legal move: back to the dealt position, where the most
                    # decisions are open, and on with what the bot shows there now.
                    driver.arrange(dealt)
                    break
    assert forged_clicks > 50, forged_clicks
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
