"""``python -m bot``: read the configuration, set up logging, and run the bot in Discord, or,
with no token (or ``python -m bot playground``), in the playground: a simulated Discord on a local
page. The same bot either way: only this root knows which. ``python -m bot sync`` gives Discord
the bot's commands now, changed or not."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
import webbrowser
from urllib.parse import urlsplit

import discord

from bot import metrics
from bot.client import GameBot, bot_for
from bot.config import Settings
from bot.i18n import LANGUAGES

MISSING_TOKEN = """\
No Discord token is set, so the bot cannot log in, and the playground (the bot in a simulated
Discord, in your browser) is not installed: pip install -e ".[playground]" (then python -m bot).

Set DISCORD_TOKEN to your bot's token, either in the environment or in a file named .env
in the folder you start the bot from (copy .env.example to .env and fill it in).
The token is on https://discord.com/developers/applications -> your application -> Bot ->
Reset Token. See docs/hosting.md, "The Discord application".
"""

NO_TOKEN_TO_SYNC = """\
No Discord token is set, so there is no application to give the commands to.

Set DISCORD_TOKEN to your bot's token, either in the environment or in a file named .env
in the folder you start the bot from, then run python -m bot sync again.
"""

REJECTED_TOKEN = """\
Discord rejected the token in DISCORD_TOKEN (401 Unauthorized).

It may be mistyped, or it was reset. Copy a fresh one from
https://discord.com/developers/applications -> your application -> Bot -> Reset Token,
and put it in DISCORD_TOKEN (environment or .env).
"""


# discord.py's loggers write whole payloads at DEBUG (hand DMs included): they never go below INFO.
PAYLOAD_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook", "discord.state")


def configure_logging(level_name: str) -> None:
    level = getattr(logging, level_name, logging.INFO)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.INFO))


PLAYGROUND_INTRO = """\
{why}, so this is the playground: the real bot in a simulated Discord on this computer.
Play in your browser: {url}
(this address is a password for the page; nothing listens beyond this computer)
To run the bot in your Discord server instead, set DISCORD_TOKEN (docs/hosting.md, "The Discord
application"). Ctrl-C stops the playground; every start is a fresh server and database.
"""


NO_BROWSER = """\
No browser opens from here (this computer has no screen, or no browser): open the address above in
a browser on this computer. From another computer, forward the port first, then open the same
address there: ssh -L {port}:127.0.0.1:{port} <this computer>
"""


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the bot in Discord (with DISCORD_TOKEN) or in the playground, in your browser.",
    )
    parser.add_argument(
        "mode",
        nargs="?",
        choices=["discord", "playground", "sync"],
        help="default: discord if DISCORD_TOKEN is set; sync: give Discord the commands now, and exit",
    )
    parser.add_argument("--no-browser", action="store_true", help="the playground opens no browser")
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        help="the playground's language: its welcome, its people's Discord and its server "
        "(default: PLAYGROUND_LANGUAGE, else en)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv or [])
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    playground = args.mode == "playground" or (args.mode is None and settings.token is None)
    # The playground prints its address first: the bot's routine lines would bury it.
    configure_logging(settings.log_level if "LOG_LEVEL" in os.environ or not playground else "ERROR")
    if playground:
        why = "No Discord token is set" if settings.token is None else "You asked for the playground"
        return run_playground(settings, why, args.language, open_browser=not args.no_browser)
    if args.mode == "sync":
        return sync_commands(settings)
    if settings.token is None:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    if settings.metrics_port is not None:
        try:
            metrics.start(settings.metrics_port)
        except (RuntimeError, OSError) as error:
            print(f"Configuration error: METRICS_PORT: {error}", file=sys.stderr)
            return 2
    bot = bot_for(settings)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(REJECTED_TOKEN, file=sys.stderr)
        return 2
    return 0


def sync_commands(settings: Settings) -> int:
    """The commands synced to Discord now, changed or not, with the configured token (and to the
    DEV_GUILD_ID server if set), and their digests kept: the next start finds them unchanged."""
    if settings.token is None:
        print(NO_TOKEN_TO_SYNC, file=sys.stderr)
        return 2
    token = settings.token

    async def sync() -> list[str]:
        async with GameBot(settings, commands_only=True) as bot:
            await bot.login(token)
            return await bot.sync_commands_now()

    try:
        scopes = asyncio.run(sync())
    except discord.LoginFailure:
        print(REJECTED_TOKEN, file=sys.stderr)
        return 2
    except discord.DiscordException as error:
        print(f"Discord refused the commands: {error}", file=sys.stderr)
        return 1
    print(f"Commands synced: {', '.join(scopes)}.")
    return 0


def run_playground(settings: Settings, why: str, language: str | None, *, open_browser: bool) -> int:
    from bot import playground

    try:
        chosen = playground.playground_language(language)
    except ValueError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    missing = playground.missing_packages()
    if missing:
        print(MISSING_TOKEN, file=sys.stderr)
        print(f"(missing for the playground: {', '.join(missing)})", file=sys.stderr)
        return 2
    from bot.playground.serve import serve

    def ready(url: str) -> None:
        print(PLAYGROUND_INTRO.format(why=why, url=url), flush=True)
        # webbrowser.open is False when it found no browser to run.
        if open_browser and not (can_open_a_browser() and webbrowser.open(url)):
            print(NO_BROWSER.format(port=urlsplit(url).port), flush=True)

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: asyncio.run has already cleaned up
        asyncio.run(serve(playground.playground_settings(settings), chosen, ready))
    print("The playground has stopped.", flush=True)
    return 0


def can_open_a_browser() -> bool:
    """Not on a Linux machine without a screen: webbrowser would start a text browser in this
    terminal (or fail)."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
