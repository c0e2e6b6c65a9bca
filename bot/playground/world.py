"""The playground's simulated Discord: a server, a channel to play in, you and a few friends."""

from __future__ import annotations

from dataclasses import dataclass

import discord
from simcord import ChannelHandle, Env, GuildHandle, MemberActor

SERVER = "Playground"
CHANNEL = "games"
YOU = "Anna"  # a name, not "You": the bot writes "Anna flips A1", "It is Anna's turn"
# Friends whose view the page can switch to ("Viewing as"): people sharing one computer.
FRIENDS = ("Bruno", "Carla", "Dario")
# Discord's answer when a user's DMs are closed to the bot.
DMS_CLOSED = 50007

WELCOME = """\
This is the real bot in a simulated Discord on your computer: no account, no token. \
Type a command in the box at the bottom and send it, then press **Begin**:
`/seriebum start computers:1` · Serie Bum! against the computer
`/rummikub start computers:2` · Rummikub against two computers
`/bue start computers:2` · `/rumbugz start computers:1`
Your cards or tiles: the **My hand** (**My rack**) button on the table; DMs are off here.
The **Table** links lead to Discord, not here: `/rummikub table` (or `/bue table`...) shows the \
table again at the bottom.
You are {you}; **Viewing as** at the top switches to a friend ({friends}): several people can \
play at one computer, or add computers instead.
Games last as long as this playground runs: every start is a fresh server and database.
To run the bot in your own Discord server, set `DISCORD_TOKEN` (README, "Creating the Discord \
application")."""


@dataclass(frozen=True)
class World:
    guild: GuildHandle
    channel: ChannelHandle
    people: tuple[MemberActor, ...]  # you first, then the friends


def build_world(env: Env) -> World:
    """The server, its channel and its people, their DMs closed: a hand then reaches its
    player on the table's **My hand** button and the closed-DM note, which the page shows
    (it shows one channel, never DMs)."""
    guild = env.create_guild(SERVER)
    channel = guild.create_text_channel(CHANNEL, topic="Play any game here, one after another")
    people = tuple(
        guild.add_member(env.create_user(name.lower(), global_name=name)) for name in (YOU, *FRIENDS)
    )
    for person in people:
        close_dms(env, person)
    return World(guild, channel, people)


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
        title="Welcome to the playground",
        description=WELCOME.format(you=YOU, friends=", ".join(FRIENDS)),
        colour=discord.Colour.blurple(),
    )
    return await host.send(embed=embed)
