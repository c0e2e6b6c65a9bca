"""``python -m bot``: read the configuration, set up logging, run the bot."""

from __future__ import annotations

import logging
import sys

import discord

from bot.client import bot_for
from bot.config import Settings

MISSING_TOKEN = """\
No Discord token is set, so the bot cannot log in.

Set DISCORD_TOKEN to your bot's token, either in the environment or in a file named .env
in the folder you start the bot from (copy .env.example to .env and fill it in).
The token is on https://discord.com/developers/applications -> your application -> Bot ->
Reset Token. See README.md, "Creating the Discord application".
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


def main() -> int:
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    if settings.token is None:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    bot = bot_for(settings)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(REJECTED_TOKEN, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
