"""A move and its pictures are drawn off the event loop in one trip to a thread (issue 22)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.publisher import Publisher
from tests.bot.test_rummikub_play import RummikubDriver


def count_trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, each trip to a thread by ``asyncio.to_thread``, by the name of what it runs."""
    trips: list[str] = []
    to_thread = asyncio.to_thread

    async def counted(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        trips.append(getattr(function, "__qualname__", repr(function)))
        return await to_thread(function, *args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", counted)
    return trips


async def test_a_draw_plays_and_draws_the_table_and_the_rack_in_one_trip_to_a_thread(
    simcord_env, database, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    trips = count_trips(monkeypatch)
    await driver.members[seat].click(driver.table_message(), label="Draw")
    monkeypatch.undo()
    # The move itself, with the new table and the drawer's new rack.
    assert len(trips) == 1, trips
    rack = driver.dm_messages(seat)[-1]
    assert sorted(driver.image_faces(rack)) == sorted(driver.state().racks[seat])
    driver.assert_table_shows_only_the_table()


async def test_a_draw_announced_after_a_restart_draws_its_pictures_then(
    simcord_env, database, make_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pictures drawn with a move live in memory only: killed between the commit and the
    announcements, the next start draws them for the announcements it makes."""
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    dealt = driver.dm_messages(seat)
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "deliver", nothing_announced)
        await driver.members[seat].click(driver.table_message(), label="Draw")
    assert driver.dm_messages(seat) == dealt
    trips = count_trips(monkeypatch)
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(1.0)
    # Each part draws what it sends: the table in one trip to a thread, the rack in another.
    assert trips.count("Publisher.render_all.<locals>.drawn") == 2, trips
    rack = driver.dm_messages(seat)[-1]
    assert len(driver.dm_messages(seat)) == len(dealt) + 1
    assert sorted(driver.image_faces(rack)) == sorted(driver.state().racks[seat])
    driver.assert_table_shows_only_the_table()


async def nothing_announced(*args: Any, **kwargs: Any) -> None:
    return None


async def test_a_picture_that_fails_with_the_move_does_not_refuse_the_move(
    simcord_env, database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Drawing with the move is only ahead of time: should it fail, the move is played and its
    publication draws the pictures, as it did before it was drawn with the move."""
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    drawing = Publisher._drawing
    calls: list[int | None] = []

    def fails_first(self: Publisher, table: Any, publication: Any, whose: int | None) -> Any:
        calls.append(whose)
        if len(calls) == 1:
            raise RuntimeError("a picture that cannot be drawn")
        return drawing(self, table, publication, whose)

    monkeypatch.setattr(Publisher, "_drawing", fails_first)
    done = await driver.members[seat].click(driver.table_message(), label="Draw")
    assert "You drew" in done.response.content
    assert driver.state().turn != seat
    assert "not drawn with its change" in caplog.text
    rack = driver.dm_messages(seat)[-1]
    assert sorted(driver.image_faces(rack)) == sorted(driver.state().racks[seat])
    driver.assert_table_shows_only_the_table()
