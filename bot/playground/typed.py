"""A command typed whole in the page's box (``/settings sh`` and Enter) goes out as a chat message:
the box runs a command only once it is picked from the list that opens as one types ``/``.

On Discord the bot never sees such a message (it asks for no message events, and reading one
would need the privileged message-content intent); nor does Discord's own app let it happen so
easily. The playground reads it where SimCord's simulated Discord publishes it, before any intent,
and has the bot answer, in the channel, how to pick the command, naming the commands it meant.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from simcord import Env

from bot.i18n import t
from bot.playground.world import World

# A few commands at most: the list the box opens shows the rest.
SUGGESTED = 3
# What a newcomer runs first of a command's subcommands: suggested before the others.
FIRST_RUN = ("start", "show")


def meant(typed: str, names: Iterable[str]) -> list[str]:
    """The commands (full names: "settings show") a text typed whole most likely meant: those that
    its words name exactly, else those that begin with them ("settings sh"), what a newcomer runs
    first (``FIRST_RUN``) before the rest, in ``names``' order."""
    words = typed.removeprefix("/").split()
    known = sorted(names, key=lambda name: name.rpartition(" ")[2] not in FIRST_RUN)
    for count in range(len(words), 0, -1):
        start = " ".join(words[:count]).lower()
        found = [name for name in known if name == start] or [
            name for name in known if name.startswith(start)
        ]
        if found:
            return found[:SUGGESTED]
    return []


def command_names(tree: app_commands.CommandTree[Any]) -> list[str]:
    """Every command a person can run, by its full name: "bue start", "help"."""
    return [
        command.qualified_name
        for command in tree.walk_commands()
        if isinstance(command, app_commands.Command)
    ]


def answer(language: str, typed: str, names: Iterable[str]) -> str:
    """The bot's reply to ``typed``, in ``language``."""
    suggestions = meant(typed, names)
    key = "playground.typed_command" if suggestions else "playground.typed_unknown"
    return t(language, key, commands=" · ".join(f"`/{name}`" for name in suggestions))


class TypedCommands:
    """Watches the playground's channel for a person's message beginning with ``/`` and has the
    bot reply to it (``answer``); ``shown`` is told once the reply is sent (the page's redraw)."""

    def __init__(self, env: Env, bot: commands.Bot, world: World, shown: Callable[[], None]) -> None:
        self._bot, self._world, self._shown = bot, world, shown
        self._people = {person.id for person in world.people}
        self._replies: set[asyncio.Task[None]] = set()
        env.backend.subscribers.append(self._published)

    def _published(self, event: str, payload: Mapping[str, Any]) -> None:
        if event != "MESSAGE_CREATE" or int(payload.get("channel_id", 0)) != self._world.channel.id:
            return
        author = int(payload.get("author", {}).get("id", 0))
        content = str(payload.get("content", "")).strip()
        if author in self._people and content.startswith("/"):
            reply = asyncio.get_running_loop().create_task(self._reply(int(payload["id"]), content))
            self._replies.add(reply)
            reply.add_done_callback(self._replies.discard)

    async def _reply(self, message_id: int, content: str) -> None:
        channel = self._bot.get_channel(self._world.channel.id)
        if not isinstance(channel, discord.TextChannel):
            return
        await channel.send(
            answer(self._world.language, content, command_names(self._bot.tree)),
            reference=discord.MessageReference(message_id=message_id, channel_id=channel.id),
            mention_author=False,
        )
        self._shown()
