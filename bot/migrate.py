"""``python -m bot.migrate``: copy the bot's SQLite database into an empty PostgreSQL database.

For those who outgrow one machine: stop the bot, run this, then start the bot with
DATABASE_URL set. The SQLite file is only read.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from dotenv import load_dotenv

from bot.config import DEFAULT_DATABASE
from bot.store import Store
from bot.store.copy import CopyRefused, copy_database
from bot.store.sqlite import SQLiteBackend


async def migrate(sqlite_path: str, postgres_url: str) -> dict[str, int]:
    """Copy everything; returns the rows copied per table."""
    source = await Store.open(sqlite_path)
    try:
        target = await Store.open(postgres_url)
        try:
            if not isinstance(source.backend, SQLiteBackend):
                raise CopyRefused(f"{sqlite_path} is not an SQLite file")
            return await copy_database(source.backend, target.backend)
        finally:
            await target.close()
    finally:
        await source.close()


def main(arguments: list[str] | None = None) -> int:
    load_dotenv()
    parser = argparse.ArgumentParser(prog="python -m bot.migrate", description=__doc__)
    parser.add_argument(
        "--sqlite",
        default=os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE,
        help="the SQLite file (default: DATABASE_PATH, or %(default)s)",
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("DATABASE_URL", "").strip() or None,
        help="the empty PostgreSQL database, postgresql://user:password@host/name (default: DATABASE_URL)",
    )
    options = parser.parse_args(arguments)
    if options.postgres is None:
        parser.error("no PostgreSQL database: set DATABASE_URL or pass --postgres")
    if not os.path.exists(options.sqlite):
        parser.error(f"no SQLite file at {options.sqlite}")
    try:
        counts = asyncio.run(migrate(options.sqlite, options.postgres))
    except CopyRefused as refusal:
        print(f"Nothing copied: {refusal}", file=sys.stderr)
        return 1
    for table, count in counts.items():
        print(f"{table}: {count} row(s) copied")
    print("Counts match. Start the bot with DATABASE_URL set to the PostgreSQL database.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
