"""Copying a whole SQLite database into an empty PostgreSQL one (``python -m bot.migrate``)."""

from __future__ import annotations

from bot.store.backend import Backend, Executor
from bot.store.sqlite import SQLiteBackend


class CopyRefused(Exception):
    """The copy would mix two databases' games, or lost rows on the way."""


async def row_counts(db: Executor, tables: list[str]) -> dict[str, int]:
    return {table: (await db.fetch(f'SELECT COUNT(*) FROM "{table}"'))[0][0] for table in tables}


async def copy_database(source: SQLiteBackend, target: Backend) -> dict[str, int]:
    """Copy every row of every table, ids included, into ``target``; returns the rows per table.

    Both are migrated to the same schema first (``Store.open``). The target must be empty:
    ids are kept, so the games' buttons (which carry them) go on working. All rows go in one
    transaction, each table after the tables it references, and the counts are checked and the
    numbering of new ids set past the copied ones before it commits.
    """
    tables = await source.tables()
    already = {table: count for table, count in (await row_counts(target, tables)).items() if count}
    if already:
        raise CopyRefused(f"the target database is not empty: {already}")
    async with target.transaction() as db:
        for table in tables:
            rows = await source.fetch(f'SELECT * FROM "{table}"')
            if not rows:
                continue
            columns = list(rows[0].keys())
            names = ", ".join(f'"{column}"' for column in columns)
            placeholders = ", ".join("?" for _ in columns)
            await db.executemany(
                f'INSERT INTO "{table}" ({names}) VALUES ({placeholders})', [tuple(row) for row in rows]
            )
        counts = await row_counts(source, tables)
        copied = await row_counts(db, tables)
        if copied != counts:
            raise CopyRefused(f"row counts differ: {counts} in the source, {copied} copied")
        # In the same transaction: a copy killed after its commit leaves nothing half done.
        await target.after_copy(db)
    return counts
