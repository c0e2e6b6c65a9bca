"""``python -m bot.health``: exit 0 when the bot is healthy, 1 otherwise, for a supervisor.

Healthy: the bot's process (the one with this configuration's shards) wrote its heartbeat in the
last minute, connected to Discord's gateway, and the database answered this check. It reads the
same configuration as the bot (.env, DATABASE_PATH or DATABASE_URL, SHARD_COUNT and SHARD_IDS).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time

from bot.config import Settings
from bot.store.heartbeats import Heartbeats
from bot.store.store import POSTGRES_SCHEMES, open_backend

# A heartbeat older than this says the process is stuck or gone (it beats every 20 seconds).
STALE_AFTER = 60.0


async def check(settings: Settings, now: float) -> tuple[bool, str]:
    """Whether the bot is healthy at ``now``, and why (one line for a person)."""
    database = settings.database
    if not database.startswith(POSTGRES_SCHEMES) and not os.path.exists(database):
        # Opening it would make an empty one.
        return False, f"unhealthy: no database at {database}"
    try:
        backend = await open_backend(database)
    except Exception as error:
        return False, f"unhealthy: the database does not answer ({type(error).__name__}: {error})"
    try:
        beat = await Heartbeats(backend).last(settings.process_name)
    except Exception as error:
        return False, f"unhealthy: the database does not answer ({type(error).__name__}: {error})"
    finally:
        await backend.close()
    if beat is None:
        return False, f"unhealthy: the bot ({settings.process_name}) never wrote a heartbeat"
    age = now - beat.at
    if age > STALE_AFTER:
        return False, f"unhealthy: the bot's last heartbeat is {age:.0f} s old"
    if not beat.gateway:
        return False, "unhealthy: the bot is not connected to Discord's gateway"
    return True, f"healthy: heartbeat {max(age, 0):.0f} s ago, gateway connected, database answering"


def main(arguments: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python -m bot.health", description=__doc__).parse_args(arguments)
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"unhealthy: configuration error: {error}")
        return 1
    healthy, why = asyncio.run(check(settings, time.time()))
    print(why)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
