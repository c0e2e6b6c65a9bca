"""Commands synced only when they change: a digest of what a sync sends, kept per scope in the
database; one process syncs (the one holding shard 0, and the one whose claim on the row holds);
a refused sync is tried again at the next start, and never keeps the bot from starting."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import pytest

from bot import __main__ as root
from bot import command_sync
from bot.client import GameBot
from bot.command_sync import CLAIM_LEASE, SyncOutcome, left_alone
from bot.config import Settings
from bot.game_catalogue import GAME_EXTENSIONS
from bot.i18n import CATALOG
from bot.store import Store
from bot.store.command_syncs import SyncRecord
from tests.bot.driver import NAMES
from tests.conftest import BACKENDS

MISSING_ACCESS = {"status": 403, "code": 50001, "message": "Missing Access"}


class Refused:
    """An HTTP answer as discord.py's errors read it."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "refused"


@pytest.fixture
def simcord_bot(make_bot, request):
    """The first bot to start; a test may give its settings (``indirect`` parametrization)."""
    return make_bot(**getattr(request, "param", {}))


@pytest.fixture
def sync_log(caplog) -> pytest.LogCaptureFixture:
    """The bot's log from now on, INFO included."""
    caplog.set_level(logging.INFO, logger="bot")
    return caplog


def syncs_sent(env: Any) -> list[str]:
    """Every bulk overwrite of the commands the bot sent to (simulated) Discord, by path."""
    return [
        request.path
        for request in env.http_requests
        if request.method == "PUT" and request.path.endswith("/commands")
    ]


def about_commands(log: pytest.LogCaptureFixture) -> list[str]:
    """The lines the bot logged about its commands."""
    return [message for message in log.messages if message.startswith("commands:")]


async def answers_help(env: Any) -> bool:
    guild = env.create_guild()
    member = guild.add_member(env.create_user(NAMES[0]))
    answer = await member.slash(guild.create_text_channel("games"), "help")
    return bool(answer.response.embeds)


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_the_first_start_syncs_and_a_restart_with_the_same_commands_does_not(
    simcord_env, make_bot, sync_log
):
    application = simcord_env.backend.application_id
    assert syncs_sent(simcord_env) == [f"/applications/{application}/commands"]
    stored = await simcord_env.bot.store.command_syncs.record("global")
    assert stored is not None and stored.claimed_at is None
    # The digest is of what was sent, translations included.
    (sent,) = [request.json for request in simcord_env.http_requests if request.method == "PUT"]
    assert any(command.get("description_localizations") for command in sent)
    assert stored.digest == command_sync.digest(application, sent)

    await simcord_env.restart_bot(make_bot())
    assert len(syncs_sent(simcord_env)) == 1
    assert about_commands(sync_log) == ["commands: global unchanged"]
    assert await simcord_env.bot.store.command_syncs.record("global") == stored
    assert await answers_help(simcord_env)


@pytest.mark.parametrize("simcord_bot", [{"extensions": GAME_EXTENSIONS[:-1]}], indirect=True)
async def test_a_command_added_is_synced_at_the_next_start(simcord_env, make_bot, sync_log):
    assert len(syncs_sent(simcord_env)) == 1
    await simcord_env.restart_bot(make_bot())
    assert len(syncs_sent(simcord_env)) == 2
    assert about_commands(sync_log) == ["commands: global synced"]
    guild = simcord_env.create_guild()
    member = guild.add_member(simcord_env.create_user(NAMES[0]))
    answer = await member.slash(guild.create_text_channel("games"), "rumbugz start")
    assert answer.response is not None


async def test_a_translation_changed_is_synced_at_the_next_start(simcord_env, make_bot, monkeypatch):
    group = dict(CATALOG.messages["bue.cmd.group"])
    monkeypatch.setitem(CATALOG.messages, "bue.cmd.group", group | {"it": group["it"] + "!"})
    await simcord_env.restart_bot(make_bot())
    assert len(syncs_sent(simcord_env)) == 2
    (bue,) = (command for command in simcord_env.backend.commands[None].values() if command["name"] == "bue")
    assert bue["description_localizations"]["it"].endswith("!")


@pytest.mark.parametrize("simcord_bot", [{"shard_count": 2, "shard_ids": (1,)}], indirect=True)
async def test_of_two_sharded_processes_only_the_one_holding_shard_0_syncs(simcord_env, make_bot, sync_log):
    assert syncs_sent(simcord_env) == []
    await simcord_env.restart_bot(make_bot(shard_count=2, shard_ids=(0,)))
    assert len(syncs_sent(simcord_env)) == 1
    # The other process starts again with other commands: they wait for shard 0's process.
    await simcord_env.restart_bot(make_bot(shard_count=2, shard_ids=(1,), extensions=GAME_EXTENSIONS[:-1]))
    assert len(syncs_sent(simcord_env)) == 1
    assert about_commands(sync_log) == [
        "commands: global synced",
        "commands: left to the process holding shard 0",
    ]


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_two_processes_starting_together_with_new_commands_sync_them_once(
    simcord_env, database, monkeypatch
):
    """Both read the row before either claims it (the worst case): the compare-and-set lets one."""
    tree = simcord_env.bot.tree
    tree.remove_command("bue")  # the commands the two processes start with differ from those synced
    processes = [await Store.open(database), await Store.open(database)]
    both_read = asyncio.Barrier(2)
    for process in processes:
        reading = process.command_syncs.record

        async def record_then_wait(scope: str, reading: Any = reading) -> SyncRecord | None:
            record = await reading(scope)
            await both_read.wait()
            return record

        monkeypatch.setattr(process.command_syncs, "record", record_then_wait)
    try:
        starts = [command_sync.sync_if_changed(tree, each.command_syncs, None, 1000.0) for each in processes]
        outcomes = await asyncio.gather(*starts)
    finally:
        for process in processes:
            await process.close()
    assert sorted(outcomes, key=lambda outcome: outcome.value) == [SyncOutcome.ELSEWHERE, SyncOutcome.SYNCED]
    assert len(syncs_sent(simcord_env)) == 2  # the first start's, and one of the two processes'
    assert "bue" not in {command["name"] for command in simcord_env.backend.commands[None].values()}


async def test_a_sync_discord_refuses_is_tried_again_at_the_next_start_and_the_bot_starts(
    simcord_env, make_bot, sync_log
):
    synced = await simcord_env.bot.store.command_syncs.record("global")
    simcord_env.inject_error("PUT", "/applications/*/commands", **MISSING_ACCESS)
    await simcord_env.restart_bot(make_bot(extensions=GAME_EXTENSIONS[:-1]))
    assert len(syncs_sent(simcord_env)) == 2
    (line,) = about_commands(sync_log)
    assert line.startswith("commands: global refused (403 Forbidden") and "next start tries again" in line
    assert await simcord_env.bot.store.command_syncs.record("global") == synced
    assert await answers_help(simcord_env)

    await simcord_env.restart_bot(make_bot(extensions=GAME_EXTENSIONS[:-1]))
    assert len(syncs_sent(simcord_env)) == 3
    assert about_commands(sync_log)[-1] == "commands: global synced"
    assert "rumbugz" not in {command["name"] for command in simcord_env.backend.commands[None].values()}


async def test_a_refused_first_sync_leaves_no_row_and_the_next_start_syncs(simcord_env, make_bot):
    await simcord_env.bot.store.backend.execute("DELETE FROM command_syncs")
    simcord_env.inject_error("PUT", "/applications/*/commands", **MISSING_ACCESS)
    await simcord_env.restart_bot(make_bot())
    assert await simcord_env.bot.store.command_syncs.record("global") is None
    await simcord_env.restart_bot(make_bot())
    assert len(syncs_sent(simcord_env)) == 3
    assert await simcord_env.bot.store.command_syncs.record("global") is not None


async def test_the_test_server_of_dev_guild_id_has_a_row_of_its_own(simcord_env, make_bot, sync_log):
    guild = simcord_env.create_guild()
    await simcord_env.restart_bot(make_bot(dev_guild_id=guild.id))
    application = simcord_env.backend.application_id
    assert syncs_sent(simcord_env)[1:] == [f"/applications/{application}/guilds/{guild.id}/commands"]
    assert about_commands(sync_log) == [f"commands: guild {guild.id} synced; global unchanged"]
    await simcord_env.restart_bot(make_bot(dev_guild_id=guild.id))
    assert len(syncs_sent(simcord_env)) == 2


async def test_a_forced_sync_syncs_unchanged_commands_and_keeps_their_digest(simcord_env):
    bot = simcord_env.bot
    await bot.store.backend.execute("UPDATE command_syncs SET digest = 'stale'")
    assert await bot.sync_commands_now() == ["global"]
    assert len(syncs_sent(simcord_env)) == 2
    assert await bot.store.command_syncs.record("global") == SyncRecord(
        await command_sync.digest_of(bot.tree, None), None
    )


async def test_the_bot_python_m_bot_sync_builds_syncs_only_when_asked_and_runs_no_game(
    simcord_env, database, sync_log
):
    bot = GameBot(
        Settings(token=None, database=database, dev_guild_id=None, log_level="INFO"), commands_only=True
    )
    try:
        await simcord_env.restart_bot(bot)
        assert len(syncs_sent(simcord_env)) == 1
        assert about_commands(sync_log) == [] and "resumed" not in sync_log.text
        assert await bot.sync_commands_now() == ["global"]
        assert len(syncs_sent(simcord_env)) == 2
    finally:
        await bot.store.close()


def test_python_m_bot_sync_without_a_token_says_so_and_fails(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert root.main(["sync"]) != 0
    assert "No Discord token is set" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("refused", "refusal", "status", "said"),
    [
        ("login", discord.LoginFailure("Improper token has been passed."), 2, "rejected the token"),
        (
            "sync_commands_now",
            discord.Forbidden(Refused(403), {"code": 50001, "message": "Missing Access"}),
            1,
            "Discord refused the commands: 403 refused (error code: 50001): Missing Access",
        ),
    ],
)
def test_python_m_bot_sync_says_what_discord_refused_and_fails(
    refused, refusal, status, said, monkeypatch, tmp_path, capsys
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "games.sqlite3"))

    async def logged_in(self: GameBot, token: str) -> None:
        """No Discord to log in to here."""

    async def refuse(self: GameBot, *args: Any) -> None:
        raise refusal

    monkeypatch.setattr(GameBot, "login", logged_in)
    monkeypatch.setattr(GameBot, refused, refuse)
    assert root.main(["sync"]) == status
    assert said in capsys.readouterr().err


def test_a_claim_keeps_other_starts_away_until_its_lease_ends():
    assert left_alone(None, "new", 0.0) is None
    assert left_alone(SyncRecord("new", None), "new", 0.0) is SyncOutcome.UNCHANGED
    assert left_alone(SyncRecord("old", None), "new", 0.0) is None
    # Another process claimed the row: it is syncing, whatever it syncs.
    for digest in ("old", "new"):
        assert left_alone(SyncRecord(digest, 100.0), "new", 100.0 + CLAIM_LEASE - 1) is SyncOutcome.ELSEWHERE
        # The claim of a process that died while syncing: the next start syncs.
        assert left_alone(SyncRecord(digest, 100.0), "new", 100.0 + CLAIM_LEASE) is None


def test_the_digest_covers_what_is_sent_and_where_not_the_order_commands_were_added_in():
    one = {"name": "one", "type": 1, "options": [{"name": "a"}, {"name": "b"}]}
    two = {"name": "two", "type": 1, "description_localizations": {"it": "due", "fr": "deux"}}
    digest = command_sync.digest(7, [one, two])
    assert command_sync.digest(7, [two, one]) == digest
    reordered = {**two, "description_localizations": {"fr": "deux", "it": "due"}}
    assert command_sync.digest(7, [reordered, one]) == digest
    assert command_sync.digest(8, [one, two]) != digest  # another application has none of them
    assert command_sync.digest(7, [{**one, "options": [{"name": "b"}, {"name": "a"}]}, two]) != digest
    assert command_sync.digest(7, [one, {**two, "description_localizations": {"it": "Due"}}]) != digest


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_the_store_sets_a_scope_s_row_only_from_what_was_read(database):
    store = await Store.open(database)
    try:
        syncs = store.command_syncs
        assert await syncs.claim("global", None, "one", 10.0)
        assert not await syncs.claim("global", None, "one", 11.0)  # someone made the row meanwhile
        claimed = SyncRecord("one", 10.0)
        assert await syncs.record("global") == claimed
        await syncs.confirm("global", "one", 10.0)
        synced = SyncRecord("one", None)
        assert await syncs.record("global") == synced

        assert not await syncs.claim("global", claimed, "two", 20.0)  # read before the confirm
        assert await syncs.claim("global", synced, "two", 20.0)
        await syncs.confirm("global", "two", 19.0)  # not this claim's: left alone
        assert await syncs.record("global") == SyncRecord("two", 20.0)
        await syncs.release("global", synced, "two", 20.0)
        assert await syncs.record("global") == synced

        assert await syncs.claim("guild 5", None, "three", 30.0)
        await syncs.release("guild 5", None, "three", 30.0)
        assert await syncs.record("guild 5") is None
        await syncs.synced("guild 5", "four")
        await syncs.synced("global", "four")
        assert await syncs.record("guild 5") == await syncs.record("global") == SyncRecord("four", None)
    finally:
        await store.close()
