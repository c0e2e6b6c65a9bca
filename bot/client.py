"""The bot: opens the store, loads one extension per game, registers persistent components."""

from __future__ import annotations

import asyncio
import logging
import math
import random
import secrets
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import command_sync, metrics
from bot.adapter import GameAdapter
from bot.asks import Moves
from bot.commands import GameTree, help_command, history_command, leaderboard_command, stats_command
from bot.community import Community
from bot.community_commands import preferences_group, settings_group
from bot.components import COMPONENTS
from bot.config import Settings
from bot.game_catalogue import GAME_EXTENSIONS
from bot.i18n import CommandTranslator
from bot.league_commands import season_group, tournament_group
from bot.lobby import Lobbies
from bot.replay_panel import ReplayButton, ReplaySelect, replay_command
from bot.replays import ReplayService
from bot.replies import ANSWERABLE, claim, make_sure_answered, prefer, report_error, unclaimed
from bot.store import Store
from bot.tables import TableService
from bot.timers import Sleep, TimerService
from bot.tournaments import TournamentButton, TournamentSelect, TournamentService
from bot.turns import TurnsButton, away_command, turns_command
from games.core import GameError

log = logging.getLogger(__name__)

# Everything happens through interactions: the bot needs its guilds and channels, and that a
# message was posted in a server's channel (its content empty: no privileged intent), to count
# those under a game's table (``bot.traffic``); none of the typing, reaction or voice events.
INTENTS = discord.Intents(guilds=True, guild_messages=True)

# How long a handler of ours has to take an interaction before the bot answers it itself: Discord
# waits three seconds for the first answer.
CLAIM_WAIT = 2.0


class GameBot(commands.Bot):
    store: Store
    timers: TimerService
    replays: ReplayService

    def __init__(
        self,
        settings: Settings,
        *,
        seed_source: Callable[[], int] | None = None,
        extensions: Sequence[str] = GAME_EXTENSIONS,
        after_delivery: Callable[[], None] | None = None,
        timer_sleep: Sleep = asyncio.sleep,
        commands_only: bool = False,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            # Nothing reads messages back from discord.py's cache: every move reads the database.
            max_messages=None,
            help_command=None,
            tree_cls=GameTree,
            http_trace=metrics.discord_trace(),
            **self.client_options(settings),
        )
        self.settings = settings
        self.seed_source = seed_source or deal_seeds(settings.deal_seed)
        self.game_extensions = tuple(extensions)
        # How the timers wait for the next due one (the playground's wall clock, see bot.playground.live).
        self.timer_sleep = timer_sleep
        # Built to sync the commands by hand (python -m bot sync): it neither syncs by itself nor
        # runs any game.
        self.commands_only = commands_only
        self.adapters: dict[str, GameAdapter] = {}
        # The services get what they need; the store and the timers follow once opened.
        self.tables = TableService(self.adapters, settings, self, after_delivery)
        self.moves = Moves(self.tables)
        self.community = Community(lambda: self.store.community, settings.robot_pause)
        # Read at each lobby: a test may seed the next game by setting the bot's seed_source.
        self.lobbies = Lobbies(self.tables, self.adapters, lambda: self.seed_source(), self.community)
        self.tournaments = TournamentService(
            self.tables,
            self.adapters,
            self.community,
            lambda: self.seed_source(),
            lambda: self.store.tournaments,
        )

    @staticmethod
    def client_options(settings: Settings) -> dict[str, Any]:
        """What discord.py's client is given beyond what every bot is given."""
        return {}

    def register(self, adapter: GameAdapter, group: app_commands.Group) -> None:
        """Called by each game's extension."""
        self.adapters[adapter.name] = adapter
        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database, self.settings.shards)
        self.timers = TimerService(self.store.timers, self.tables.fire, self.timer_sleep)
        # A game's end, once saved, moves its tournament on (when it is a tournament's table).
        self.tables.open(self.store, self.timers, self.tournaments.rounds.game_over)
        self.replays = ReplayService(self.store, self.adapters)
        self.tree.error(self.on_app_command_error)
        await self.tree.set_translator(CommandTranslator())
        for extension in self.game_extensions:
            await self.load_extension(extension)
        for command in (help_command, leaderboard_command, stats_command, history_command, replay_command):
            self.tree.add_command(command(self))
        self.tree.add_command(turns_command(self))
        self.tree.add_command(away_command(self))
        self.tree.add_command(settings_group(self))
        self.tree.add_command(preferences_group(self))
        self.tree.add_command(season_group(self))
        self.tree.add_command(tournament_group(self))
        self.add_dynamic_items(
            *COMPONENTS, ReplayButton, ReplaySelect, TournamentButton, TournamentSelect, TurnsButton
        )
        if self.settings.dev_guild_id is not None:
            # The test server gets every command as its own too (Discord shows them there at once).
            self.tree.copy_global_to(guild=discord.Object(id=self.settings.dev_guild_id))
        if self.commands_only:
            return
        await self._sync_commands()
        await self._resume_games()

    def command_scopes(self) -> list[discord.Object | None]:
        """Where the commands go: the DEV_GUILD_ID server when set, and everywhere."""
        if self.settings.dev_guild_id is None:
            return [None]
        return [discord.Object(id=self.settings.dev_guild_id), None]

    async def _sync_commands(self) -> None:
        """The commands, if they changed since they were last synced; by one process, the one
        holding shard 0 (see bot/command_sync.py)."""
        if 0 not in self.settings.shards.ids:
            log.info("commands: left to the process holding shard 0")
            return
        now = discord.utils.utcnow().timestamp()
        await command_sync.sync_changed(self.tree, self.store.command_syncs, self.command_scopes(), now)

    async def sync_commands_now(self) -> list[str]:
        """Every scope's commands synced, changed or not (python -m bot sync); the scopes synced."""
        return await command_sync.sync_now(self.tree, self.store.command_syncs, self.command_scopes())

    async def _resume_games(self) -> None:
        """Restart the timers of this process's running games. A game is read from the database
        when a click or a timer first needs it, so start-up does not grow with the games stored."""
        log.info("resumed %d running game(s)", await self.tables.running_count())
        # What this process's shards had claimed before it started, a process now gone held.
        await self.store.timers.take_back_claims()
        self.timers.poke()
        # What a crash left between a commit and its announcements, once the channels are known.
        self._delivery = asyncio.create_task(self._deliver_pending(), name="deliver-pending")
        self._heartbeat = asyncio.create_task(self._beat(), name="heartbeat")

    def gateway_connected(self) -> bool:
        """Connected to Discord's gateway: ready, not closed, and with a websocket (discord.py's
        latency is NaN without one; infinite only until the gateway's first heartbeat answer)."""
        return self.is_ready() and not self.is_closed() and not math.isnan(self.latency)

    async def _beat(self) -> None:
        """Say the process is alive, in the database (``python -m bot.health`` reads it), every
        ``heartbeat_seconds``; with the metrics on, the games running and what is still to announce."""
        await self.wait_until_ready()
        while True:
            try:
                now = discord.utils.utcnow().timestamp()
                await self.store.heartbeats.beat(self.settings.process_name, self.gateway_connected(), now)
                if metrics.enabled():
                    running = await self.tables.running_count()
                    metrics.tables(running, await self.store.heartbeats.pending_announcements())
            except Exception:
                log.exception("could not write the heartbeat")
            if self.settings.heartbeat_seconds is None or self.is_closed():
                return
            await asyncio.sleep(self.settings.heartbeat_seconds)

    async def _deliver_pending(self) -> None:
        await self.wait_until_ready()
        try:
            await self.tables.resume()
        except Exception:
            log.exception("could not deliver what was pending at start-up")
        # Then the tournaments go on from where their rows stand (a round a crash cut short).
        await self.tournaments.rounds.resume()

    async def close(self) -> None:
        if hasattr(self, "_heartbeat"):
            self._heartbeat.cancel()
        if hasattr(self, "timers"):
            self.timers.stop()
        self.tables.close()
        self.tournaments.rounds.close()
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()

    async def guard(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None:
        """Run a component's work; any error is answered ephemerally (and logged if unexpected),
        and a click its work left unanswered is answered all the same."""
        claim(interaction)
        try:
            prefer(interaction, await self.community.language(interaction.user.id))
            await work
            await make_sure_answered(interaction)
        except Exception as error:
            await report_error(interaction, error)
        self.tables.answered(interaction)

    async def on_message(self, message: discord.Message) -> None:
        """A message in a server's channel, anyone's (the bot's own included): one more under the
        table of the channel's game, if it has one. Nothing else reads messages."""
        if message.guild is not None:
            await self.tables.message_posted(message.channel.id, message.id)

    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        """A command that returned without answering is answered all the same."""
        await make_sure_answered(interaction)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction gets an answer: one that no handler of ours took (a forged custom_id
        or option that discord.py drops while parsing) is refused here."""
        if interaction.type in ANSWERABLE and await unclaimed(interaction, CLAIM_WAIT):
            await report_error(interaction, GameError("error.unanswerable"))

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await report_error(interaction, original)


def deal_seeds(seed: int | None) -> Callable[[], int]:
    """Where each game's seed comes from: a sequence drawn from ``seed`` (``DEAL_SEED``), the
    same at every start; else the system's randomness."""
    if seed is None:
        return lambda: secrets.randbits(31)
    drawn = random.Random(seed)
    return lambda: drawn.getrandbits(31)


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The bot holding some of Discord's shards (``SHARD_COUNT``, ``SHARD_IDS``): it runs only the
    games of its shards' guilds, and other processes on the same database run the rest."""

    @staticmethod
    def client_options(settings: Settings) -> dict[str, Any]:
        return {"shard_count": settings.shard_count, "shard_ids": list(settings.shards.ids)}


def bot_for(settings: Settings, **options: Any) -> GameBot:
    """The bot the settings ask for: sharded when they name a shard count."""
    if settings.shard_count is None:
        return GameBot(settings, **options)
    return ShardedGameBot(settings, **options)
