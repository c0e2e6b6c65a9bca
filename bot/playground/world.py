"""The playground's simulated Discord: a server, a channel to play in, you and a few friends."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from simcord import ChannelHandle, Env, GuildHandle, MemberActor

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, described, language_of, t

SERVER = "Playground"
CHANNEL = "games"
YOU = "Anna"  # a name, not "You": the bot writes "Anna flips A1", "It is Anna's turn"
# Friends whose view the page can switch to ("Viewing as"): people sharing one computer.
FRIENDS = ("Bruno", "Carla", "Dario")
# Discord's answer when a user's DMs are closed to the bot.
DMS_CLOSED = 50007

# Each language's Discord locale: what the people's Discord clients and the server are set to.
DISCORD_LOCALES = {"en": "en-US", "it": "it", "fr": "fr"}
# How the languages are offered, each in itself.
NATIVE_NAMES = {"en": "English", "it": "Italiano", "fr": "Français"}


class ClientLocale:
    """The Discord language of the people's clients, and of their server, in every interaction,
    as Discord sends them. SimCord (3.2.1) writes "en-US" in both and has no setting for either:
    from now on its gateway events are rewritten on their way out, with ``locale`` for the
    clients and each server's own preferred locale."""

    def __init__(self, env: Env, locale: str) -> None:
        self.locale = locale
        backend = env.backend
        send = backend.emit

        def emit(event: str, payload: Mapping[str, Any]) -> None:
            if event == "INTERACTION_CREATE":
                payload = {**payload, "locale": self.locale}
                if "guild_id" in payload:
                    payload["guild_locale"] = backend.get_guild(int(payload["guild_id"])).preferred_locale
            send(event, payload)

        # SimCord sends every interaction in its users' default locale; the playground's world
        # speaks its own language, so its events carry that locale (no SimCord option does it).
        backend.emit = emit  # type: ignore[method-assign]


@dataclass(frozen=True)
class World:
    env: Env
    guild: GuildHandle
    channel: ChannelHandle
    people: tuple[MemberActor, ...]  # you first, then the friends
    clients: ClientLocale  # the language everyone's Discord is in, as the server's

    @property
    def language(self) -> str:
        return language_of(self.clients.locale)

    def speak(self, language: str) -> None:
        """From now on the server and everyone's Discord are in ``language``: new games announce
        in it, and every answer and panel is in it."""
        locale = DISCORD_LOCALES[language]
        backend = self.env.backend
        backend.edit_guild(self.guild.id, {"preferred_locale": locale})
        backend.edit_channel(self.channel.id, {"topic": t(language, "playground.channel_topic")})
        self.clients.locale = locale


def build_world(env: Env, language: str = DEFAULT_LANGUAGE) -> World:
    """The server, its channel and its people, their DMs closed: a hand then reaches its
    player on the table's **My hand** button and the closed-DM note, which the page shows
    (it shows one channel, never DMs). You own the server, as whoever starts the bot owns the
    server they add it to: ``/settings`` (Manage Server) is yours. The server and the people's
    Discord are in ``language``."""
    locale = DISCORD_LOCALES[language]
    users = [env.create_user(name.lower(), global_name=name) for name in (YOU, *FRIENDS)]
    guild = env.create_guild(SERVER, owner=users[0], preferred_locale=locale)
    channel = guild.create_text_channel(CHANNEL, topic=t(language, "playground.channel_topic"))
    people = tuple(guild.add_member(user) for user in users)
    for person in people:
        close_dms(env, person)
    return World(env, guild, channel, people, ClientLocale(env, locale))


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


def welcome_embed(language: str) -> discord.Embed:
    """What to type, and how the page works."""
    return discord.Embed(
        title=t(language, "playground.welcome_title"),
        description=t(language, "playground.welcome", you=YOU, friends=", ".join(FRIENDS)),
        colour=discord.Colour.blurple(),
    )


async def welcome(world: World) -> discord.Message:
    """The first message in the channel."""
    host = world.guild.create_webhook(world.channel, name=SERVER)
    return await host.send(embed=welcome_embed(world.language))


def language_command(world: World) -> app_commands.Command[Any, ..., None]:
    """``/playground language:Italiano``: the playground's people switch its language themselves
    (the page has no setting for it), and read the welcome again in it."""

    @app_commands.command(name="playground", description=described("playground.cmd"))
    @app_commands.describe(language=described("playground.cmd.language"))
    @app_commands.choices(
        language=[app_commands.Choice(name=NATIVE_NAMES[code], value=code) for code in LANGUAGES]
    )
    async def playground(interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        # A Choice: discord.py refuses a value that is not one of them (a forged option).
        world.speak(language.value)
        await interaction.response.send_message(
            t(language.value, "playground.language_set"), embed=welcome_embed(language.value)
        )

    return playground
