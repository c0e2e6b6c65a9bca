"""The playground: the real bot in SimCord's preview, with no token. Its world, its welcome, the
closed DMs that put every hand on the page, the redraw after a computer's move, a restart, and
``python -m bot`` choosing it."""

from __future__ import annotations

import asyncio
import re
import signal
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.config import Settings
from bot.playground import live, playground_settings
from bot.playground.serve import open_playground
from bot.playground.world import CHANNEL, FRIENDS, SERVER, YOU
from tests.bot.test_bue_play import ephemeral_text
from tests.playground_process import start_playground

ADDRESS = re.compile(r"http://127\.0\.0\.1:\d+/#\S{20,}")


def settings_in(folder: Path, monkeypatch: pytest.MonkeyPatch, **overrides: object) -> Settings:
    monkeypatch.setenv("PLAYGROUND_DATABASE", str(folder / "playground.sqlite3"))
    defaults = Settings(token=None, database="unused", dev_guild_id=None, log_level="INFO")
    return playground_settings(Settings(**{**defaults.__dict__, **overrides}))


def games_in(settings: Settings) -> list[tuple[str, str]]:
    with sqlite3.connect(settings.database) as db:
        return db.execute("SELECT kind, status FROM games").fetchall()


async def begin(playground, game: str, computers: int) -> None:
    you = playground.world.people[0]
    await you.slash(playground.world.channel, f"{game} start", computers=computers)
    await you.click(playground.world.channel.last_message, label="Begin")


async def test_a_server_with_a_channel_you_and_friends_and_a_welcome_saying_what_to_type(
    tmp_path, monkeypatch
):
    async with open_playground(settings_in(tmp_path, monkeypatch)) as playground:
        world = playground.world
        assert world.guild.name == SERVER and world.channel.name == CHANNEL
        assert [person.user.global_name for person in world.people] == [YOU, *FRIENDS]
        assert ADDRESS.fullmatch(playground.preview.url)
        # Every person may be the page's viewer ("Viewing as").
        assert [viewer.id for viewer in playground.preview.viewers] == [p.id for p in world.people]
        (welcome,) = world.channel.history()
        text = welcome.embeds[0].description
        assert "/seriebum start computers:1" in text and "/rummikub start computers:2" in text
        assert "My hand" in text and "Viewing as" in text and "DISCORD_TOKEN" in text
        assert "fresh server and database" in text
        # Today's dates, not SimCord's 2026-01-01.
        assert abs((playground.env.now() - discord_now()).total_seconds()) < 3600


def discord_now():
    from datetime import UTC, datetime

    return datetime.now(UTC)


async def test_dms_are_closed_so_the_hand_is_on_the_page(tmp_path, monkeypatch):
    async with open_playground(settings_in(tmp_path, monkeypatch)) as playground:
        await begin(playground, "rummikub", computers=1)
        you = playground.world.people[0]
        assert list(you.user.dm_channel.history()) == []
        lines = "\n".join(message.content for message in playground.world.channel.history())
        assert "I can't send you direct messages" in lines
        table = next(m for m in playground.world.channel.history() if m.components)
        rack = await you.click(table, label="My rack")
        assert rack.response.ephemeral and "rack" in rack.response.embeds[0].title.lower()
        assert ephemeral_text(rack) is not None


async def test_a_computers_move_redraws_the_page_by_itself(tmp_path, monkeypatch):
    refreshes: list[float] = []
    real_publish = live.publish

    def counted(preview):
        refreshes.append(preview.env.now().timestamp())
        real_publish(preview)

    monkeypatch.setattr(live, "publish", counted)
    settings = settings_in(tmp_path, monkeypatch, robot_pause=0.01)
    async with open_playground(settings) as playground:
        await begin(playground, "rummikub", computers=1)
        you = playground.world.people[0]
        table = next(m for m in playground.world.channel.history() if m.components)
        if "🎲" not in str([c.emoji for row in table.components for c in row.children]):
            pytest.fail("the table has no Draw button")
        await you.click(table, label="Draw")  # the computer's turn now (or after its own move)
        # No click, no call from the test: the computer's timer fires, it moves, and the page is
        # redrawn after its move is delivered (a bound of minutes on the wait alone, for busy cores).
        for _ in range(6000):
            moved = computers_move_at(settings)
            shown = any("🤖 Hard 1" in message.content for message in playground.world.channel.history())
            if moved is not None and shown and any(at >= moved for at in refreshes):
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail(f"the page was not redrawn after the computer's move: {refreshes}")


def computers_move_at(settings: Settings) -> float | None:
    """When the computer (seat 1) last moved, if it did."""
    with sqlite3.connect(settings.database) as db:
        return db.execute("SELECT MAX(at) FROM actions WHERE seat = 1").fetchone()[0]


async def test_a_restart_is_a_fresh_world_and_database_as_the_page_says(tmp_path, monkeypatch):
    settings = settings_in(tmp_path, monkeypatch)
    async with open_playground(settings) as playground:
        await begin(playground, "seriebum", computers=1)
        first_channel = playground.world.channel.id
    assert games_in(settings) == [("seriebum", "running")]

    settings = settings_in(tmp_path, monkeypatch)
    assert not Path(settings.database).exists()
    async with open_playground(settings) as playground:
        assert playground.world.channel.id != first_channel
        assert games_in(settings) == []
        (welcome,) = playground.world.channel.history()
        assert "every start is a fresh server and database" in welcome.embeds[0].description


def test_without_a_token_python_m_bot_is_the_playground_until_ctrl_c(tmp_path):
    """The README's first command, where no browser can open (no screen): it says where to point
    one (issue 39)."""
    bot = start_playground(tmp_path, browser=True, DISPLAY="", WAYLAND_DISPLAY="")
    assert bot.stdout is not None
    first = [bot.stdout.readline() for _ in range(9)]
    bot.send_signal(signal.SIGINT)
    rest, _ = bot.communicate(timeout=60)
    assert bot.returncode == 0, rest
    assert first[0].startswith("No Discord token is set, so this is the playground")
    address = ADDRESS.search(first[1])
    assert address
    assert "DISCORD_TOKEN" in "".join(first[3:5])
    no_browser = "".join(first[5:]).strip()
    assert no_browser.startswith("No browser opens from here"), first
    port = urlsplit(address.group(0)).port
    assert f"ssh -L {port}:127.0.0.1:{port}" in no_browser
    assert "The playground has stopped." in rest and "Traceback" not in rest
    assert (tmp_path / "data" / "playground.sqlite3").exists()


def test_with_a_token_python_m_bot_playground_still_opens_the_playground(monkeypatch):
    from bot import __main__ as root
    from bot.client import GameBot

    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    opened: list[tuple[str, bool]] = []
    monkeypatch.setattr(
        root,
        "run_playground",
        lambda settings, why, language, open_browser: opened.append((why, open_browser)) or 0,
    )
    ran_in_discord: list[str] = []
    monkeypatch.setattr(GameBot, "run", lambda self, token, **options: ran_in_discord.append(token))

    assert root.main(["playground", "--no-browser"]) == 0
    assert opened == [("You asked for the playground", False)] and ran_in_discord == []
    assert root.main([]) == 0
    assert ran_in_discord == ["a-token"] and len(opened) == 1


async def test_no_link_the_page_cannot_open_and_names_where_it_cannot_draw_a_mention(tmp_path, monkeypatch):
    """The page opens no discord.com address: where a message would link to the table, it names
    the command that shows it; the lobby names its players rather than mention them."""
    async with open_playground(settings_in(tmp_path, monkeypatch)) as playground:
        you, channel = playground.world.people[0], playground.world.channel
        await you.slash(channel, "rummikub start", computers=1)
        assert f"{YOU} 👑" in channel.last_message.embeds[0].fields[0].value
        await you.click(channel.last_message, label="Begin")
        busy = await you.slash(channel, "bue start")
        assert "`/rummikub table`" in ephemeral_text(busy)
        copy = await you.slash(channel, "rummikub table")
        assert copy.response.embeds and not copy.response.content
        shown = [busy.response.content or "", *(message.content for message in channel.history())]
        shown += [embed.description or "" for message in channel.history() for embed in message.embeds]
        assert "`/rummikub table`" in "\n".join(shown)
        assert not [text for text in shown if "discord.com" in text]


def test_history_links_to_results_only_where_links_open():
    from bot.records import history_embed
    from bot.store.rows import FinishedMatch, MatchSeat

    seats = [MatchSeat("Anna", 50, True, False), MatchSeat("🤖 Hard 1", 0, False, False)]
    match = FinishedMatch(1, "bue", 5, 6, 7, 1_700_000_000.0, seats)
    assert "discord.com/channels/5/6/7" in history_embed("en", None, [match]).description
    in_the_playground = history_embed("en", None, [match], linked=False).description
    assert "discord.com" not in in_the_playground and "Anna" in in_the_playground


def test_what_only_the_table_message_shows_is_pointed_at_above_not_at_a_copy():
    """Serie Bum!'s ``/seriebum table`` copy hides the faces: a panel about a face-up tile points
    at the table message itself, a link on Discord, "above" in the playground."""
    from bot.adapter import Links

    url = "https://discord.com/channels/1/2/3"
    assert url in Links().table("en", "seriebum", url, message=True)
    assert Links(False).table("en", "seriebum", url) == "`/seriebum table`"
    assert Links(False).table("en", "seriebum", url, message=True) == "its message above"


async def test_a_lobby_posted_anew_in_the_playground_points_below_without_a_link(tmp_path, monkeypatch):
    """A lobby older than the rule (``REPOST_AGE``) is posted anew at a join; the old one says
    where it went, without a discord.com address the page cannot open."""
    from bot.i18n import t
    from bot.refusals import REPOST_AGE

    async with open_playground(settings_in(tmp_path, monkeypatch)) as playground:
        you, friend = playground.world.people[:2]
        channel = playground.world.channel
        await you.slash(channel, "bue start")
        lobby = channel.last_message
        await playground.env.advance_time(REPOST_AGE + 1)
        await friend.click(lobby, label="Join")
        assert channel.last_message.id != lobby.id
        old = next(message for message in channel.history() if message.id == lobby.id)
        assert old.content == t("en", "lobby.moved_below") and "discord.com" not in old.content


async def test_you_own_the_server_and_a_command_typed_whole_is_answered(tmp_path, monkeypatch):
    """Issue 39: ``/settings`` was missing for everyone (nobody had Manage Server), and
    ``/settings sh`` typed whole and sent went out as chat, unanswered."""
    async with open_playground(settings_in(tmp_path, monkeypatch)) as playground:
        you, friend = playground.world.people[:2]
        channel = playground.world.channel
        assert "settings show" in you.available_commands(channel)
        assert "settings show" not in friend.available_commands(channel)
        shown = await you.slash(channel, "settings show")
        assert shown.response.ephemeral and shown.response.embeds

        for typed, meant in [("/settings sh", "`/settings show`"), ("/rummikub", "`/rummikub start`")]:
            sent = await you.send(channel, typed)
            await playground.env.settle()
            reply = channel.last_message
            assert reply.author.bot and reply.reference.message_id == sent.id
            assert "went out as a message" in reply.content and meant in reply.content
        await you.send(channel, "/dance")
        await playground.env.settle()
        assert "`/help` lists the games" in channel.last_message.content
        await friend.send(channel, "hello")
        await playground.env.settle()
        assert channel.last_message.content == "hello"
