"""A copy of the SQLite database taken while the bot runs (``python -m bot.backup``).

SQLite's online backup, through aiosqlite as the bot uses it, from a read transaction: in WAL mode
the bot's writes go on meanwhile, and the copy is the database as that transaction saw it, which
the row counts are compared with.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite


class BackupFailed(Exception):
    """The copy is not whole: it is deleted."""


async def _rows(db: aiosqlite.Connection, sql: str) -> list[sqlite3.Row]:
    return list(await db.execute_fetchall(sql))


async def _counts(db: aiosqlite.Connection) -> dict[str, int]:
    tables = await _rows(
        db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    )
    return {name: (await _rows(db, f'SELECT COUNT(*) FROM "{name}"'))[0][0] for (name,) in tables}


async def backup_sqlite(source: str, target: str) -> dict[str, int]:
    """Copy ``source`` to the new file ``target``, check it, and return its rows per table."""
    if Path(target).exists():
        raise BackupFailed(f"{target} already exists")
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    # isolation_level None: the read transaction is begun and ended here, not by sqlite3.
    async with aiosqlite.connect(source, isolation_level=None) as reading:
        # Waits for a commit of the bot's to end, as the bot's own connection does.
        await reading.execute("PRAGMA busy_timeout = 5000")
        try:
            async with aiosqlite.connect(target, isolation_level=None) as copy:
                await reading.execute("BEGIN")
                expected = await _counts(reading)  # the snapshot the backup copies
                await reading.backup(copy)
                await reading.execute("COMMIT")
                (integrity,) = (await _rows(copy, "PRAGMA integrity_check"))[0]
                copied = await _counts(copy)
            if integrity != "ok":
                raise BackupFailed(f"the copy fails SQLite's integrity check: {integrity}")
            if copied != expected:
                raise BackupFailed(f"row counts differ: {expected} in the database, {copied} copied")
        except BaseException:
            Path(target).unlink(missing_ok=True)
            raise
    return copied
