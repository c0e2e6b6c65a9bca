"""What each scope's application commands were last given to Discord, as a digest (see
bot/command_sync.py), and which process is giving them now: a compare-and-set on the scope's row
lets one of several processes starting together sync, and the others see it done."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.backend import Backend

# In the compare-and-set, a row nobody claims (claimed_at NULL): a claim's time is always after it.
UNCLAIMED = 0.0


@dataclass(frozen=True)
class SyncRecord:
    digest: str
    # When a process began giving Discord these commands (seconds since the epoch); None once it took them.
    claimed_at: float | None


class CommandSyncs:
    def __init__(self, backend: Backend) -> None:
        self._db = backend

    async def record(self, scope: str) -> SyncRecord | None:
        """The scope's row; None if its commands were never synced from this database."""
        rows = await self._db.fetch("SELECT digest, claimed_at FROM command_syncs WHERE scope = ?", (scope,))
        return SyncRecord(rows[0]["digest"], rows[0]["claimed_at"]) if rows else None

    async def claim(self, scope: str, seen: SyncRecord | None, digest: str, now: float) -> bool:
        """The scope's row becomes ``digest``, claimed at ``now``, if it is still ``seen``: whether it
        did (if not, another process changed it since it was read)."""
        if seen is None:
            changed = await self._db.execute(
                "INSERT INTO command_syncs (scope, digest, claimed_at) VALUES (?, ?, ?)"
                " ON CONFLICT (scope) DO NOTHING",
                (scope, digest, now),
            )
        else:
            seen_claim = UNCLAIMED if seen.claimed_at is None else seen.claimed_at
            changed = await self._db.execute(
                "UPDATE command_syncs SET digest = ?, claimed_at = ?"
                " WHERE scope = ? AND digest = ? AND COALESCE(claimed_at, ?) = ?",
                (digest, now, scope, seen.digest, UNCLAIMED, seen_claim),
            )
        return changed == 1

    async def confirm(self, scope: str, digest: str, claimed_at: float) -> None:
        """Discord took the commands of the claim made at ``claimed_at``."""
        await self._db.execute(
            "UPDATE command_syncs SET claimed_at = NULL WHERE scope = ? AND digest = ? AND claimed_at = ?",
            (scope, digest, claimed_at),
        )

    async def release(self, scope: str, seen: SyncRecord | None, digest: str, claimed_at: float) -> None:
        """Discord refused the claim made at ``claimed_at``: the row goes back to what it was
        (``seen``), so that the next start tries again."""
        mine = (scope, digest, claimed_at)
        if seen is None:
            await self._db.execute(
                "DELETE FROM command_syncs WHERE scope = ? AND digest = ? AND claimed_at = ?", mine
            )
        else:
            await self._db.execute(
                "UPDATE command_syncs SET digest = ?, claimed_at = ?"
                " WHERE scope = ? AND digest = ? AND claimed_at = ?",
                (seen.digest, seen.claimed_at, *mine),
            )

    async def synced(self, scope: str, digest: str) -> None:
        """Discord took ``digest``'s commands, whatever the row said (a sync forced by hand)."""
        await self._db.execute(
            "INSERT INTO command_syncs (scope, digest, claimed_at) VALUES (?, ?, NULL)"
            " ON CONFLICT (scope) DO UPDATE SET digest = excluded.digest, claimed_at = NULL",
            (scope, digest),
        )
