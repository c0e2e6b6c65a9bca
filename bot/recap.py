"""What happened while you were gone: the moves made since a player's last own move, told as
that player was told them.

The game is played again from its seed and its log (``bot.replays.replayed``, as a replay is),
and each position's events are worded by the game's adapter for the player's seat
(``bot.replays.step_lines``): an event only some seats see is told to those alone
(``Event.visible_to``), so the recap never names a card or a tile the player could not see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from bot.adapter import GameAdapter, Viewer
from bot.model import GameRow, SeatRow
from bot.replays import MatchRecord, Step, replayed, step_lines
from bot.store import Store
from bot.store.turns import Logged
from games.core import BACK, STAND_IN

# The most lines a recap shows: the latest ones, then how many came before them.
RECAP_LINES = 5
# A player called to move is told what happened since their last move when they last moved this
# long before: someone at the table saw it all; one back after an hour's break, or a night, did not.
RECAP_AFTER = 3600.0


@dataclass(frozen=True)
class Recap:
    """The latest ``lines`` (oldest first) and how many ``earlier`` ones were left out."""

    lines: tuple[str, ...]
    earlier: int = 0

    def text(self, viewer: Viewer) -> str:
        if not self.lines:
            return viewer.t("turns.recap.nothing")
        told = [f"> {line}" for line in self.lines]
        if self.earlier:
            told.append(viewer.t("turns.recap.more", count=self.earlier))
        return "\n".join(told)


def last_own_move(log: Sequence[Logged], seat: int) -> int:
    """The index in ``log`` of the seat's last move made by its player: not one the referee played
    on a timeout, nor a computer's standing in for them; -1 for none yet."""
    stood_in, last = False, -1
    for index, logged in enumerate(log):
        if logged.seat != seat:
            continue
        kind = logged.action.get("type")
        if kind == STAND_IN:
            stood_in = True
        elif kind == BACK:
            stood_in = False
        elif not logged.by_timeout and not stood_in:
            last = index
    return last


def steps_since_own_move(
    adapter: GameAdapter, match: MatchRecord, log: Sequence[Logged], seat: int
) -> list[Step]:
    """The positions after the seat's last own move, played again from the match's seed and log
    (``match.actions`` are the log's). Run it in a thread: it replays the whole match."""
    first = last_own_move(log, seat) + 1
    steps = [step for _, step in replayed(adapter.engine, match)]
    # Position k follows action k - 1; a seat that never moved is told everything since the deal.
    return steps[first + 1 :] if first else steps


def recap(adapter: GameAdapter, steps: Sequence[Step], viewer: Viewer, most: int = RECAP_LINES) -> Recap:
    """The lines ``viewer`` (a seat) was told over ``steps``: the latest ``most`` of them."""
    lines = [line for step in steps for line in step_lines(adapter, step, viewer)]
    shown = lines[-most:] if most else []
    return Recap(tuple(shown), len(lines) - len(shown))


async def since_own_move(
    store: Store,
    adapter: GameAdapter,
    row: GameRow,
    seats: Sequence[SeatRow],
    viewer: Viewer,
    *,
    now: float = 0.0,
    gone_for: float = 0.0,
) -> Recap | None:
    """The recap of a running game for ``viewer``'s seat, off the event loop (the match is played
    again from its deal); None when the player last moved themselves (or the game began) less than
    ``gone_for`` seconds before ``now``: they saw it all. Raises what the engine raises on a log it
    no longer plays."""
    assert viewer.seat is not None
    seat = viewer.seat
    log = await store.turns.log(row.id)
    last = last_own_move(log, seat)
    since = log[last].at if last >= 0 else row.started_at
    if gone_for and since is not None and now - since < gone_for:
        return None
    match = MatchRecord.of(row, seats, [(logged.seat, logged.action) for logged in log])

    def told() -> Recap:
        return recap(adapter, steps_since_own_move(adapter, match, log, seat), viewer)

    return await asyncio.to_thread(told)
