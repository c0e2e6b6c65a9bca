"""``python -m bot.backup [FILE]``: copy the bot's SQLite database while the bot runs, check the copy,
and say where it is. PostgreSQL has its own tool for this: pg_dump (see docs/hosting.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from bot.config import Settings
from bot.store.backup import BackupFailed, backup_sqlite
from bot.store.store import POSTGRES_SCHEMES


def default_target(database: str, now: float) -> str:
    """``data/backups/tabletop-20260101-120000.sqlite3`` beside ``data/tabletop.sqlite3``."""
    path = Path(database)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
    return str(path.parent / "backups" / f"{path.stem}-{stamp}{path.suffix or '.sqlite3'}")


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.backup", description=__doc__)
    parser.add_argument("file", nargs="?", help="where to write the copy (default: a dated file in backups/)")
    options = parser.parse_args(arguments)
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    database = settings.database
    if database.startswith(POSTGRES_SCHEMES):
        print("The bot's database is PostgreSQL: back it up with pg_dump (docs/hosting.md).", file=sys.stderr)
        return 2
    if not Path(database).exists():
        print(f"No database at {database}", file=sys.stderr)
        return 2
    target = options.file or default_target(database, time.time())
    try:
        counts = asyncio.run(backup_sqlite(database, target))
    except BackupFailed as failure:
        print(f"No backup: {failure}", file=sys.stderr)
        return 1
    rows = sum(counts.values())
    print(f"Backed up {database} to {Path(target).resolve()}: {rows} rows in {len(counts)} tables, checked.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
