"""The playground's simulated Discord: a server, a channel to play in, you and a few friends."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord
from simcord import ChannelHandle, Env, GuildHandle, MemberActor

from bot.i18n import DEFAULT_LANGUAGE, t

SERVER = "Playground"
CHANNEL = "games"
YOU = "Anna"  # a name, not "You": the bot writes "Anna flips A1", "It is Anna's turn"
# Friends whose view the page can switch to ("Viewing as"): people sharing one computer.
FRIENDS = ("Bruno", "Carla", "Dario")
# Discord's answer when a user's DMs are closed to the bot.
DMS_CLOSED = 50007

# Each language's Discord locale: what the people's Discord clients and the server are set to.
DISCORD_LOCALES = {"en": "en-US", "it": "it", "fr": "fr"}


@dataclass(frozen=True)
class World:
    guild: GuildHandle
    channel: ChannelHandle
    people: tuple[MemberActor, ...]  # you first, then the friends
    language: str  # the server's and everyone's Discord language: "en", "it" or "fr"


def build_world(env: Env, language: str = DEFAULT_LANGUAGE) -> World:
    """The server, its channel and its people, their DMs closed: a hand then reaches its
    player on the table's **My hand** button and the closed-DM note, which the page shows
    (it shows one channel, never DMs). The server and the people's Discord are in ``language``."""
    guild = env.create_guild(SERVER, preferred_locale=DISCORD_LOCALES[language])
    channel = guild.create_text_channel(CHANNEL, topic=t(language, "playground.channel_topic"))
    people = tuple(
        guild.add_member(env.create_user(name.lower(), global_name=name)) for name in (YOU, *FRIENDS)
    )
    for person in people:
        close_dms(env, person)
    speak(env, DISCORD_LOCALES[language])
    return World(guild, channel, people, language)


def speak(env: Env, locale: str) -> None:
    """From now on every interaction comes from a Discord client set to ``locale``, in a server
    set to its own preferred locale, as Discord sends them. SimCord (3.2.1) writes "en-US" in
    both and has no setting for either: its gateway events are rewritten on their way out."""
    backend = env.backend
    send = backend.emit

    def emit(event: str, payload: Mapping[str, Any]) -> None:
        if event == "INTERACTION_CREATE":
            payload = {**payload, "locale": locale}
            if "guild_id" in payload:
                guild = backend.get_guild(int(payload["guild_id"]))
                payload["guild_locale"] = guild.preferred_locale
        send(event, payload)

    backend.emit = emit


def close_dms(env: Env, person: MemberActor) -> None:
    """From now on the person's DMs refuse the bot, as Discord does when they are closed."""
    env.inject_error(
        "POST",
        f"/channels/{person.user.dm_channel.id}/messages",
        status=403,
        code=DMS_CLOSED,
        message="Cannot send messages to this user",
        times=None,
    )


async def welcome(world: World) -> discord.Message:
    """The first message in the channel: what to type."""
    host = world.guild.create_webhook(world.channel, name=SERVER)
    embed = discord.Embed(
        title=t(world.language, "playground.welcome_title"),
        description=t(world.language, "playground.welcome", you=YOU, friends=", ".join(FRIENDS)),
        colour=discord.Colour.blurple(),
    )
    return await host.send(embed=embed)
