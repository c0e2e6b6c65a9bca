"""A move's pictures are drawn off the event loop in one trip to a thread (issue 22)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tests.bot.test_rummikub_play import RummikubDriver


async def test_a_draw_draws_the_table_and_the_rack_in_one_trip_to_a_thread(
    simcord_env, database, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    trips: list[str] = []
    to_thread = asyncio.to_thread

    async def counted(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        trips.append(getattr(function, "__qualname__", repr(function)))
        return await to_thread(function, *args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", counted)
    await driver.members[seat].click(driver.table_message(), label="Draw")
    monkeypatch.undo()
    # The move itself, then the new table and the drawer's new rack together.
    assert len(trips) == 2, trips
    rack = driver.dm_messages(seat)[-1]
    assert sorted(driver.image_faces(rack)) == sorted(driver.state().racks[seat])
    driver.assert_table_shows_only_the_table()
