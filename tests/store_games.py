"""Games put in a store directly, as the one path writes them (``Games.create_lobby``,
``commit_lobby``, ``commit``), for tests of the store, the records and the migration: no Discord."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.model import LOBBY, RUNNING, Commit, GameRow, LobbyChange, Publication, SeatRow, Timer
from bot.store import Store


def lobby_row(
    kind: str = "bue",
    *,
    channel: int = 10,
    host: int = 1,
    guild: int = 5,
    options: dict[str, int] | None = None,
    seed: int = 7,
    turn_timeout: int = 3600,
    server_settings: dict[str, Any] | None = None,
) -> GameRow:
    """A lobby as it is to be opened (its id the database's)."""
    return GameRow(
        0,
        kind,
        guild,
        channel,
        host,
        LOBBY,
        {"target": 110} if options is None else options,
        turn_timeout,
        "en",
        seed,
        None,
        0,
        None,
        server_settings=server_settings or {},
    )


def seat(number: int, user_id: int, name: str, locale: str = "en", robot: str | None = None) -> SeatRow:
    return SeatRow(number, user_id, name, locale, 0, False, False, robot=robot)


async def open_lobby(
    store: Store, row: GameRow | None = None, players: Sequence[tuple[int, str, str]] = ((1, "anna", "it"),)
) -> int:
    """A lobby of ``row`` (``lobby_row()`` by default) with ``players`` seated in order."""
    row = row or lobby_row()
    seats = [seat(number, user, name, locale) for number, (user, name, locale) in enumerate(players)]
    return await store.games.create_lobby(row, seats, Publication(), 0.0)


async def seated(store: Store, game_id: int, seats: Sequence[SeatRow], now: float = 0.0) -> None:
    """The lobby's seats become ``seats`` (a join, a leave), as a lobby's change writes them."""
    row = await store.games.game(game_id)
    assert row is not None
    await store.games.commit_lobby(row, LobbyChange(Publication(), seats), now)


async def join(
    store: Store, game_id: int, user_id: int, name: str, locale: str = "en", robot: str | None = None
) -> None:
    """``user_id`` takes the lobby's next seat (a computer at level ``robot``, its id negative)."""
    seats = await store.games.seats(game_id)
    await seated(store, game_id, [*seats, seat(len(seats), user_id, name, locale, robot)])


async def start(
    store: Store,
    game_id: int,
    state: dict[str, Any],
    timers: Sequence[Timer] = (),
    *,
    robot_states: dict[int, dict[str, Any]] | None = None,
    now: float = 0.0,
) -> GameRow:
    """The lobby dealt: running at the next version with ``state``; the row as it then is."""
    row = await store.games.game(game_id)
    assert row is not None
    players = len(await store.games.seats(game_id))
    change = Commit(
        status=RUNNING,
        state=state,
        totals=[0] * players,
        timers=timers,
        publication=Publication(show_hands=True),
        changed_decisions=range(players),
        robot_states=robot_states or {},
        clocks_started=dict.fromkeys(range(players), now),
    )
    await store.games.commit(row, change, now)
    return replace(row, status=RUNNING, state=state, version=row.version + 1, started_at=now)


def move(n: int, *, seat: int = 0, totals: Sequence[int] = (0, 0), **change: Any) -> Commit:
    """A move of ``seat`` to the state ``{"n": n}``; ``change`` sets any other of its fields, and
    ``action`` what is logged (None: nothing, as for a reminder or an abort)."""
    action = change.pop("action", {"type": "deck"})
    return Commit(
        status=change.pop("status", RUNNING),
        state={"n": n},
        totals=totals,
        timers=change.pop("timers", []),
        publication=change.pop("publication", Publication()),
        logged=None if action is None else (seat, action),
        **change,
    )
