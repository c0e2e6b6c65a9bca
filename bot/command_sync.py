"""Application commands given to Discord only when they change (discord.py's advice: a sync at
every start spends a rate-limited call for nothing, and with shards every process would repeat it).

Each scope (global, and the DEV_GUILD_ID server when set) keeps in the database a digest of what
its last sync sent: every command's payload as ``CommandTree.sync`` builds it, translations
included, with the application it went to. A start compares, and syncs a scope only when its
digest differs; a compare-and-set on the scope's row (``CommandSyncs.claim``) makes one of several
processes starting together the one that syncs. A sync Discord refuses puts the row back, so the
next start tries again; ``python -m bot sync`` syncs whatever the row says.
"""

from __future__ import annotations

import enum
import hashlib
import json
import logging
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.abc import Snowflake

from bot.store.command_syncs import CommandSyncs, SyncRecord

log = logging.getLogger(__name__)

# How long a claim keeps other processes from syncing the scope: a sync takes a second, a minute
# is plenty even behind a rate limit. A claim older than this was left by a process that died
# while syncing, and the next start syncs again.
CLAIM_LEASE = 60.0

# What stops a sync but not the bot: Discord's refusals, and no answer at all.
REFUSALS = (discord.DiscordException, aiohttp.ClientError)


class SyncOutcome(enum.Enum):
    SYNCED = "synced"
    UNCHANGED = "unchanged"
    ELSEWHERE = "being synced by another process"


def scope_name(guild: Snowflake | None) -> str:
    return "global" if guild is None else f"guild {guild.id}"


async def payload(tree: app_commands.CommandTree[Any], guild: Snowflake | None) -> list[dict[str, Any]]:
    """The commands ``tree.sync(guild=guild)`` sends, built as it builds them."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


def digest(application_id: int | None, commands: Sequence[dict[str, Any]]) -> str:
    """A digest of the commands sent to the application, the same for the same commands whatever
    order they were added in (a command's options keep theirs: Discord shows them so)."""
    ordered = sorted(commands, key=lambda command: (command.get("type", 1), command["name"]))
    text = json.dumps(
        {"application_id": application_id, "commands": ordered},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(text.encode()).hexdigest()


async def digest_of(tree: app_commands.CommandTree[Any], guild: Snowflake | None) -> str:
    return digest(tree.client.application_id, await payload(tree, guild))


def left_alone(record: SyncRecord | None, wanted: str, now: float) -> SyncOutcome | None:
    """Why a start leaves a scope whose row is ``record`` alone (the commands are those synced, or
    another process is syncing them); None: it claims the scope and syncs."""
    if record is None:
        return None
    if record.claimed_at is not None and now - record.claimed_at < CLAIM_LEASE:
        return SyncOutcome.ELSEWHERE
    if record.digest == wanted and record.claimed_at is None:
        return SyncOutcome.UNCHANGED
    return None


async def sync_if_changed(
    tree: app_commands.CommandTree[Any], syncs: CommandSyncs, guild: Snowflake | None, now: float
) -> SyncOutcome:
    """The scope synced if its commands differ from those its row says were synced, by this
    process if its claim on the row holds. Raises what Discord raised, the row put back."""
    scope = scope_name(guild)
    wanted = await digest_of(tree, guild)
    record = await syncs.record(scope)
    reason = left_alone(record, wanted, now)
    if reason is not None:
        return reason
    if not await syncs.claim(scope, record, wanted, now):
        return SyncOutcome.ELSEWHERE
    try:
        await tree.sync(guild=guild)
    except BaseException:
        await syncs.release(scope, record, wanted, now)
        raise
    await syncs.confirm(scope, wanted, now)
    return SyncOutcome.SYNCED


async def sync_changed(
    tree: app_commands.CommandTree[Any], syncs: CommandSyncs, guilds: Sequence[Snowflake | None], now: float
) -> None:
    """At start: each scope synced if its commands changed, and one line logged saying so. A
    refusal leaves the bot to start with the commands Discord has."""
    told: list[str] = []
    refused = False
    for guild in guilds:
        scope = scope_name(guild)
        try:
            told.append(f"{scope} {(await sync_if_changed(tree, syncs, guild, now)).value}")
        except REFUSALS as error:
            refused = True
            told.append(f"{scope} refused ({error}); the next start tries again")
        except Exception:
            log.exception("could not sync the %s commands", scope)
            refused = True
            told.append(f"{scope} not synced; the next start tries again")
    log.log(logging.WARNING if refused else logging.INFO, "commands: %s", "; ".join(told))


async def sync_now(
    tree: app_commands.CommandTree[Any], syncs: CommandSyncs, guilds: Sequence[Snowflake | None]
) -> list[str]:
    """Every scope synced, whatever its row says (``python -m bot sync``), and its row set; the
    scopes synced. Raises what Discord raised, the rows left as they were."""
    for guild in guilds:
        wanted = await digest_of(tree, guild)
        await tree.sync(guild=guild)
        await syncs.synced(scope_name(guild), wanted)
    return [scope_name(guild) for guild in guilds]
