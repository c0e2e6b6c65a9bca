"""The check that a recap (bot/recap.py) never tells a seat what it could not see, shared by the
recap's own tests (seeded computer matches) and the week of play through the real bot (the recaps
players received in their DMs).

Every code a recap's events name must be in that seat's own views over the recap's moves (or have
been told to everyone); a line written for other seats never reaches it; and for the games whose
tiles read unambiguously, no hidden tile's name appears in its text."""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.adapter import GameAdapter, Viewer
from bot.recap import RECAP_LINES, last_own_move, recap, steps_since_own_move
from bot.replays import MatchRecord, replayed
from bot.store.turns import Logged
from games.bue.cards import DECK
from games.rumbugz.bugz import ALL_BUGZ
from games.rummikub.tiles import ALL_TILES
from games.seriebum.tiles import TILES

# The codes of each game's cards or tiles, as views and events name them.
CODES: dict[str, set[str]] = {
    "bue": {card.code for card in DECK},
    "seriebum": {tile.code for tile in TILES},
    "rummikub": set(ALL_TILES),
    "rumbugz": set(ALL_BUGZ),
}

# Games whose tiles' names tell one tile apart from every other in text (Bué's cards and RumBugz's
# Bugz read as bare numbers, which any line may hold): their recaps' text is checked too.
NAMED_APART = ("rummikub", "seriebum")


def strings(value: Any) -> Iterable[str]:
    """Every string in a JSON-like value, dict keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def label_pattern(label: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(label)}(?![\w])")


# Each engine's method that deals a new round or game. A step that ends one and deals the next
# leaves a seat's views with the new deal alone: what it held as the old one ended (a card it was
# just given, told to it alone) is seen as the method begins.
DEALS = ("_deal", "_start_round")


def seat_views(adapter: GameAdapter, match: MatchRecord, codes: set[str]) -> list[list[set[str]]]:
    """The codes each seat's view holds at every position (0: the deal; k: after the k-th action),
    with those it held just before a new deal in the step."""
    players = len(match.seats)
    held: list[list[set[str]]] = []

    def seen(game: Any) -> list[set[str]]:
        return [{code for code in strings(game.view(seat)) if code in codes} for seat in range(players)]

    views: list[list[set[str]]] = []
    with deals_watched(adapter.engine, lambda game: views and held.append(seen(game))):
        for game, _ in replayed(adapter.engine, match):
            views.append(
                [set().union(now, *(before[seat] for before in held)) for seat, now in enumerate(seen(game))]
            )
            held.clear()
    return views


@contextlib.contextmanager
def deals_watched(engine: type, watch: Callable[[Any], object]) -> Iterator[None]:
    """``engine``'s deals (``DEALS``) call ``watch`` with the game as each begins."""
    originals = {name: getattr(engine, name) for name in DEALS if hasattr(engine, name)}

    def watched(original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def dealing(self: Any, *args: Any, **kwargs: Any) -> Any:
            watch(self)
            return original(self, *args, **kwargs)

        return dealing

    try:
        for name, original in originals.items():
            setattr(engine, name, watched(original))
        yield
    finally:
        for name, original in originals.items():
            setattr(engine, name, original)


@dataclass
class Secrets:
    """What the checks saw, so that a run of them is shown not to be vacuous: events told only to
    the seat checked, and events that named what it could not see, kept from it."""

    private_told: int = 0
    hidden_kept: int = 0


def assert_recap_keeps_secrets(
    adapter: GameAdapter,
    match: MatchRecord,
    log: Sequence[Logged],
    views: Sequence[Sequence[set[str]]],
    codes: set[str],
    cut: int,
    seat: int,
    received: str | None = None,
) -> Secrets:
    """The recap of ``seat`` after the first ``cut`` actions of ``match`` (``log``, as the bot logs
    them) tells it nothing it could not see; ``received``, the recap as a player was sent it (the
    names of the seats as they read then), is checked for hidden tiles' names too."""
    secrets = Secrets()
    running = MatchRecord(match.kind, match.options, match.seed, match.seats, match.actions[:cut])
    viewer = Viewer("en", match.names, seat)
    steps = steps_since_own_move(adapter, running, log[:cut], seat)
    first = last_own_move(log[:cut], seat) + 1  # the position right after it (0: the deal)
    assert len(steps) == cut - first + (0 if first else 1)
    seen = set().union(*(views[position][seat] for position in range(first, cut + 1)))
    told = [event for step in steps for event in step.events if event.seats is None]
    public = {code for event in told for code in strings(event.params) if code in codes}
    allowed = seen | public
    others_lines: set[str] = set()
    for step in steps:
        for event in step.events:
            named = {code for code in strings(event.params) if code in codes}
            if event.visible_to(seat):
                secrets.private_told += event.seats is not None
                assert named <= allowed, (cut, seat, event)
                continue
            secrets.hidden_kept += bool(named - allowed)
            # The line the seats it was for read: never in this seat's recap.
            owner = Viewer("en", match.names, (event.seats or (None,))[0])
            others_lines.add(adapter.describe(event, owner) or "")
    every = recap(adapter, steps, viewer, most=10_000)
    own_lines = {
        adapter.describe(event, viewer) for step in steps for event in step.events if event.visible_to(seat)
    }
    assert not (others_lines - own_lines) & set(every.lines), (cut, seat)
    shown = recap(adapter, steps, viewer)
    assert len(shown.lines) <= RECAP_LINES
    if adapter.name in NAMED_APART:
        allowed_labels = {adapter.label(code, viewer) for code in allowed}
        for text in (every.text(viewer), received or ""):
            for code in codes - allowed:
                label = adapter.label(code, viewer)
                if label not in allowed_labels:
                    assert not label_pattern(label).search(text), (cut, seat, label, text)
    return secrets
