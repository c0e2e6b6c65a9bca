"""The publisher on its own, through a fake messenger (no SimCord): a delivery's parts go out in
the order ``DELIVERY`` states, and one resumed after a crash sends no part twice."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.adapter import LoadedGame
from bot.config import Settings
from bot.games.bue.adapter import BueAdapter
from bot.model import Commit, Lobby, Publication
from bot.outbox import CHANNEL_PART, CHART_PART, DM_PART, TABLE_PART, part_nonce
from bot.planning import Pace
from bot.publisher import DELIVERY
from bot.referee import Context, deal
from bot.store import Pending, Store
from bot.tables import TableService
from tests.store_games import lobby_row, open_lobby

CHANNEL_ID = 500


@dataclass(frozen=True)
class Sent:
    id: int


class FakeChannel(discord.PartialMessageable):
    """A channel that keeps what it is sent, and, as Discord does, one message per nonce."""

    def __init__(
        self, channel_id: int, sent: list[tuple[int, str | None]], ids: itertools.count[int]
    ) -> None:
        super().__init__(state=None, id=channel_id)  # type: ignore[arg-type]
        self.sent, self.ids, self.by_nonce = sent, ids, dict[str, Sent]()

    async def send(self, content: str | None = None, **kwargs: Any) -> Sent:  # type: ignore[override]
        nonce = kwargs.get("nonce")
        if nonce is not None and nonce in self.by_nonce:
            return self.by_nonce[nonce]
        message = Sent(next(self.ids))
        if nonce is not None:
            self.by_nonce[nonce] = message
        self.sent.append((self.id, nonce))
        return message


class FakeMessenger:
    """The table's channel and a DM channel per player, all keeping what they are sent in one list."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str | None]] = []
        self.ids = itertools.count(10_000)
        self.channels: dict[int, FakeChannel] = {}

    def reach(self, channel_id: int) -> FakeChannel:
        if channel_id not in self.channels:
            self.channels[channel_id] = FakeChannel(channel_id, self.sent, self.ids)
        return self.channels[channel_id]

    def get_channel(self, channel_id: int, /) -> FakeChannel:
        return self.reach(channel_id)

    async def fetch_channel(self, channel_id: int, /) -> FakeChannel:
        return self.reach(channel_id)

    def get_partial_messageable(self, channel_id: int, **_: Any) -> FakeChannel:
        return self.reach(channel_id)

    async def create_dm(self, user: discord.abc.Snowflake) -> FakeChannel:
        return self.reach(user.id + 1)


class NoTimers:
    def poke(self, earliest: float | None = None) -> None:
        pass


async def dealt_bue(tmp_path: Path) -> tuple[TableService, FakeMessenger, int, Publication]:
    """A two-player Bué dealt, its deal's publication in the outbox, nothing delivered yet."""
    messenger = FakeMessenger()
    adapter = BueAdapter()
    settings = Settings(
        token=None, database=str(tmp_path / "games.sqlite3"), dev_guild_id=None, log_level="INFO"
    )
    service = TableService({adapter.name: adapter}, settings, messenger)
    store = await Store.open(settings.database)
    service.open(store, NoTimers())
    row = lobby_row(channel=CHANNEL_ID, guild=1, options=adapter.engine.resolve_options({}))
    game_id = await open_lobby(store, row, [(1, "anna", "en"), (2, "bruno", "en")])
    snapshot = await store.games.snapshot(game_id)
    assert snapshot is not None
    await store.outbox.delivered((await store.outbox.pending())[0])  # the lobby's own announcement
    ruling = deal(Lobby(snapshot.game, snapshot.seats, adapter), Context(0.0, Pace()))
    assert isinstance(ruling.change, Commit)
    await store.games.commit(snapshot.game, ruling.change, 0.0)
    return service, messenger, game_id, ruling.publication


async def dealt(service: TableService, game_id: int) -> LoadedGame:
    return await service.load(game_id, finished_too=True)


def test_the_order_is_stated_once() -> None:
    assert [step.part for step in DELIVERY] == [TABLE_PART, CHANNEL_PART, DM_PART, CHART_PART]


async def test_parts_go_out_in_the_stated_order(tmp_path: Path) -> None:
    service, messenger, game_id, publication = await dealt_bue(tmp_path)
    table = await dealt(service, game_id)
    pending = Pending(game_id, table.row.version, {}, frozenset())
    nonces = {
        part_nonce(table.row, pending, part): part for part in (TABLE_PART, CHANNEL_PART, "dm:0", "dm:1")
    }
    await service.publisher.deliver(table, publication)
    sent = [nonces[nonce] for _, nonce in messenger.sent if nonce is not None]
    assert sent == [TABLE_PART, CHANNEL_PART, "dm:0", "dm:1"]
    order = [step.part for step in DELIVERY]
    kinds = [DM_PART if part.startswith(DM_PART) else part for part in sent]
    assert kinds == sorted(kinds, key=order.index)
    assert await service.store.outbox.pending() == []
    await service.store.close()


async def test_a_crash_before_a_mark_sends_nothing_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, messenger, game_id, publication = await dealt_bue(tmp_path)
    store = service.store
    mark = store.outbox.mark_delivered

    async def crash_at_the_first_dm(pending: Pending, part: str) -> Pending:
        if part == "dm:0":
            raise RuntimeError("killed after the first DM, before its mark")
        return await mark(pending, part)

    with monkeypatch.context() as patch:
        patch.setattr(store.outbox, "mark_delivered", crash_at_the_first_dm)
        with pytest.raises(RuntimeError):
            await service.publisher.deliver(await dealt(service, game_id), publication)
    sent_before = list(messenger.sent)
    (pending,) = await store.outbox.pending()
    assert {TABLE_PART, CHANNEL_PART} <= pending.delivered

    # The next start delivers what is pending, from the state committed with it.
    await service.publisher.deliver_pending()
    resent = messenger.sent[len(sent_before) :]
    table = await dealt(service, game_id)
    # The table and the channel's lines were marked: not sent again; the first DM was sent
    # again with its nonce (Discord kept one message); the second was sent once.
    assert resent == [(3, part_nonce(table.row, pending, "dm:1"))]
    assert await store.outbox.pending() == []
    await store.close()
