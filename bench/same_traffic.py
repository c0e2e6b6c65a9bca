"""The reference for a move's cost: a bare discord.py bot that sends, for each interaction, exactly
the requests the real bot sent for it, with the same picture bytes, and does nothing else (no
game, no database, no drawing).

It replays a recording of the real bot (``bench/transport.py``'s ``Recorder``) in a new SimCord
world of the same shape (a guild, its channel, the same number of members, their DMs): the ids
of the recorded world are translated to the new one's before the timing starts, save the
interaction's own id and token, known only when it comes. Its driver clicks what the recorded
players clicked, on the messages they clicked it on; before a click, the message clicked is put
in the state the recording saw it in (untimed: the real bot's moves between the timed ones are not
replayed). ``same_requests`` then checks, on a recording of the reference itself, that both made
the same requests: route, body and files, ids aside.
"""

from __future__ import annotations

import copy
import io
import json
import re
from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.webhook.async_

from bench.transport import Call, Exchange

SNOWFLAKE = re.compile(r"\d{17,20}")
# discord.py draws a random nonce for every message it sends: not part of what a move sends.
NONCE = re.compile(r'("nonce": ?)"?\d+"?')


@dataclass
class World:
    """The ids of the world a recording was made in, or of the reference's own."""

    guild: int
    channel: int
    members: list[int]
    dm_channels: list[int | None]

    @classmethod
    def of(cls, driver: Any) -> World:
        return cls(
            driver.guild.id,
            driver.channel.id,
            [member.id for member in driver.members],
            [getattr(member.user.dm_channel, "id", None) for member in driver.members],
        )


def translated(text: str, ids: Mapping[str, str]) -> str:
    return SNOWFLAKE.sub(lambda found: ids.get(found.group(), found.group()), text)


def _translate(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        return translated(value, ids)
    if isinstance(value, dict):
        return {key: _translate(item, ids) for key, item in value.items()}
    if isinstance(value, list):
        return [_translate(item, ids) for item in value]
    return value


def created(recorded: Any, new: Any) -> dict[str, str]:
    """The recorded id of the message a request made, and its new id (none for an edit: it made
    nothing, and its id is known already)."""
    for answer in (recorded, new):
        if isinstance(answer, dict) and "resource" in answer:  # an interaction's response
            recorded, new = (
                recorded.get("resource", {}).get("message"),
                new.get("resource", {}).get("message"),
            )
            break
    if isinstance(recorded, dict) and isinstance(new, dict) and "id" in recorded and "id" in new:
        return {recorded["id"]: new["id"]}
    return {}


@dataclass
class Replay:
    """One recorded interaction as the reference answers it."""

    interaction: dict[str, Any]  # the recorded INTERACTION_CREATE
    calls: list[Call]


@dataclass
class SameTraffic:
    """The recording, and the translation of its world's ids to the reference's."""

    exchanges: list[Exchange]
    recorded_world: World
    ids: dict[str, str] = field(default_factory=dict)
    replays: list[Replay] = field(default_factory=list)

    def __post_init__(self) -> None:
        for exchange in self.exchanges:
            (interaction,) = (e["d"] for e in exchange.events if e["t"] == "INTERACTION_CREATE")
            self.replays.append(Replay(interaction, exchange.calls))

    def learn_world(self, world: World) -> None:
        old = self.recorded_world
        pairs = [(old.guild, world.guild), (old.channel, world.channel)]
        pairs += list(zip(old.members, world.members, strict=True))
        pairs += [(a, b) for a, b in zip(old.dm_channels, world.dm_channels, strict=True) if a and b]
        self.ids.update((str(a), str(b)) for a, b in pairs)

    def prepared(self) -> None:
        """Translate every recorded request's body to the reference's world, once, before the
        timing (its route is translated as it is sent: it may name what an earlier request of
        the interaction made)."""
        for replay in self.replays:
            replay.calls = [
                Call(
                    call.webhook,
                    call.route,
                    _translate(copy.deepcopy(call.options), self.ids),
                    call.files,
                    _translate(copy.deepcopy(call.form), self.ids),
                    call.answer,
                )
                for call in replay.calls
            ]


class SameTrafficBot(discord.Client):
    """Answers its k-th interaction with the requests of the recording's k-th, and nothing else."""

    def __init__(self, same: SameTraffic) -> None:
        super().__init__(intents=discord.Intents(guilds=True), max_messages=None)
        self.same = same
        self.next = 0

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        replay = self.same.replays[self.next]
        self.next += 1
        # The interaction's own id and token, and what its earlier requests made (a results
        # message the chart is then added to): known only now.
        made = {replay.interaction["id"]: str(interaction.id)}
        ids = ChainMap(made, self.same.ids)
        webhooks = discord.webhook.async_.async_context.get()
        for call in replay.calls:
            route = copy.copy(call.route)
            route.url = translated(route.url, ids)
            files = [discord.File(io.BytesIO(content), filename=name) for name, content in call.files]
            arguments = dict(call.options)
            if files:
                arguments["files"] = files
            if call.form is not None:
                arguments["multipart" if call.webhook else "form"] = [
                    {**part, "value": files[part["value"]].fp} if "filename" in part else part
                    for part in call.form
                ]
            if call.webhook:
                answer = await webhooks.request(route, interaction._session, **arguments)
            else:
                answer = await self.http.request(route, **arguments)
            made.update(created(call.answer, answer))


async def open_dms(bot: discord.Client, world: World) -> World:
    """The reference's DM channels with each member, as the real bot had opened them."""
    channels = []
    for member, recorded in zip(world.members, world.dm_channels, strict=True):
        channels.append((await bot.create_dm(discord.Object(member))).id if recorded else None)
    return World(world.guild, world.channel, world.members, channels)


def message_payload(message: dict[str, Any]) -> dict[str, Any]:
    """What to send to make a message look, to a click, like the recorded one (no pictures)."""
    return {key: message[key] for key in ("content", "embeds", "components") if key in message}


# ---------------------------------------------------------------------- same requests?


def normalised(call: Call) -> tuple[Any, ...]:
    """A request with its ids and nonce blanked: what must match between the two bots."""
    body = json.dumps(
        {"options": call.options, "form": call.form}, sort_keys=True, default=str, ensure_ascii=False
    )
    body = SNOWFLAKE.sub("<id>", NONCE.sub(r"\1<nonce>", body))
    return (call.webhook, call.route.method, call.route.path, body, tuple(call.files))


def same_requests(real: list[Exchange], reference: list[Exchange]) -> None:
    """Raise unless both bots made the same requests, interaction by interaction."""
    assert len(real) == len(reference), (len(real), len(reference))
    for number, (ours, theirs) in enumerate(zip(real, reference, strict=True)):
        mine = [normalised(call) for call in ours.calls]
        other = [normalised(call) for call in theirs.calls]
        assert mine == other, f"interaction {number} ({ours.names}): the requests differ"


# ---------------------------------------------------------------------- its driver

EPHEMERAL = 64


async def replay_clicks(env: Any, bot: SameTrafficBot, meter: Any, suffix: str) -> None:
    """The recorded players' clicks, on the reference's messages; each timed under the recorded
    interaction's names with ``suffix``."""
    same = bot.same
    recorded = same.recorded_world
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(f"player {n}")) for n in range(len(recorded.members))]
    world = World(guild.id, channel.id, [member.id for member in members], recorded.dm_channels)
    same.learn_world(await open_dms(bot, world))
    clicked = [replay.interaction["message"] for replay in same.replays]
    in_channel = {message["id"]: message for message in clicked if not message.get("flags", 0) & EPHEMERAL}
    for recorded_id, message in in_channel.items():
        route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
        answer = await bot.http.request(route, json=_translate(message_payload(message), same.ids))
        same.ids[recorded_id] = answer["id"]
    same.prepared()
    seat_of = {str(user): seat for seat, user in enumerate(recorded.members)}
    last: Any = None
    for replay, exchange in zip(same.replays, same.exchanges, strict=True):
        message = replay.interaction["message"]
        if message["id"] in in_channel:
            # As the recorded click saw it (untimed): the real bot's moves between the timed ones
            # changed it meanwhile.
            mine = same.ids[message["id"]]
            path = "/channels/{channel_id}/messages/{message_id}"
            route = discord.http.Route("PATCH", path, channel_id=channel.id, message_id=mine)
            await bot.http.request(route, json=_translate(message_payload(message), same.ids))
            target = next(m for m in channel.history() if m.id == int(mine))
        else:
            target = last.response  # the panel the previous click opened
        data = replay.interaction["data"]
        member = members[seat_of[replay.interaction["member"]["user"]["id"]]]
        with meter.interaction(*(f"{name}{suffix}" for name in exchange.names)):
            if data["component_type"] == discord.ComponentType.button.value:
                last = await member.click(target, custom_id=data["custom_id"])
            else:
                last = await member.select(target, data["values"], custom_id=data["custom_id"])
