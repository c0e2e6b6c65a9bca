"""What happened while you were gone (bot/recap.py): over seeded random matches of the four games,
played by their computers with timeouts, stand-ins and a seat leaving, the recap of every seat at
many points never tells a card or tile that seat could not see: every code its events name is in
that seat's own views over the recap's moves (or was told to everyone), and for the games whose
tiles read unambiguously, no hidden tile's name appears in its text."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from typing import Any

import pytest

from bot.adapter import Viewer
from bot.games.bue.adapter import ADAPTER as BUE
from bot.games.rumbugz.adapter import ADAPTER as RUMBUGZ
from bot.games.rummikub.adapter import ADAPTER as RUMMIKUB
from bot.games.seriebum.adapter import ADAPTER as SERIEBUM
from bot.recap import RECAP_LINES, last_own_move, recap, steps_since_own_move
from bot.replays import MatchRecord, SeatEntry, replayed
from bot.store.turns import Logged
from games.bue.cards import DECK
from games.core import BACK, JSON, LEAVE, STAND_IN, perform
from games.rumbugz.bugz import ALL_BUGZ
from games.rummikub.tiles import ALL_TILES
from games.seriebum.tiles import TILES

MATCHES = [
    (BUE, 4, {"target": 110}, {card.code for card in DECK}),
    (SERIEBUM, 2, {"target": 10}, {tile.code for tile in TILES}),
    (RUMMIKUB, 3, {"rounds": 1}, set(ALL_TILES)),
    (RUMBUGZ, 3, {"rounds": 1}, set(ALL_BUGZ)),
]
# Games whose tiles' names tell one tile apart from every other in text (Bué's cards and RumBugz's
# Bugz read as bare numbers, which any line may hold): their recaps' text is checked too.
NAMED_APART = ("rummikub", "seriebum")


def plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


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


def played_log(
    adapter: Any, players: int, options: dict[str, int], seed: int
) -> tuple[MatchRecord, list[Logged]]:
    """A match as the bot logs it: computers' moves, some turns run out (the referee's default
    move), stand-ins coming and going, and with more than two seats one leaving."""
    options = adapter.engine.resolve_options(options)
    game, _ = adapter.engine.begin(players, options, seed)
    robots = [adapter.robot("easy", seed * 16 + seat) for seat in range(players)]
    rng = random.Random(seed)
    log: list[Logged] = []
    left = False
    while not game.finished and len(log) < 400:
        seat = rng.choice(sorted(game.to_act()))
        roll, by_timeout = rng.random(), False
        if roll < 0.03:
            action: JSON = {"type": STAND_IN, "level": "easy", "left": False}
        elif roll < 0.06:
            action = {"type": BACK}
        elif roll < 0.07 and players > 2 and not left and len(log) > 10:
            action, left = {"type": LEAVE}, True
        elif roll < 0.2:
            action, by_timeout = game.default_action(seat), True
        else:
            action = robots[seat].decide(game.view(seat))
        events = perform(game, seat, plain(action))
        log.append(Logged(seat, plain(action), by_timeout, float(len(log))))
        for other, robot in enumerate(robots):
            robot.observe(game.view(other), [event for event in events if event.visible_to(other)])
    seats = [SeatEntry(f"p{seat}") for seat in range(players)]
    return MatchRecord(adapter.name, options, seed, seats, [(item.seat, item.action) for item in log]), log


def label_pattern(label: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(label)}(?![\w])")


@pytest.mark.parametrize(
    ("adapter", "players", "options", "codes"), MATCHES, ids=[m[0].name for m in MATCHES]
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_recap_never_names_what_its_seat_could_not_see(adapter, players, options, codes, seed):
    match, log = played_log(adapter, players, options, seed)
    # Each seat's view at every position (0: the deal; k: after the k-th action).
    views = [
        [{code for code in strings(game.view(seat)) if code in codes} for seat in range(players)]
        for game, _ in replayed(adapter.engine, match)
    ]
    cuts = sorted(random.Random(seed).sample(range(1, len(log) + 1), min(8, len(log))))
    private_told = hidden_kept = 0
    for cut in cuts:
        running = MatchRecord(match.kind, match.options, match.seed, match.seats, match.actions[:cut])
        for seat in range(players):
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
                        private_told += event.seats is not None
                        assert named <= allowed, (cut, seat, event)
                        continue
                    hidden_kept += bool(named - allowed)
                    # The line the seats it was for read: never in this seat's recap.
                    owner = Viewer("en", match.names, (event.seats or (None,))[0])
                    others_lines.add(adapter.describe(event, owner) or "")
            every = recap(adapter, steps, viewer, most=10_000)
            told_text = every.text(viewer)
            own_lines = {
                adapter.describe(event, viewer)
                for step in steps
                for event in step.events
                if event.visible_to(seat)
            }
            assert not (others_lines - own_lines) & set(every.lines), (cut, seat)
            shown = recap(adapter, steps, viewer)
            assert len(shown.lines) <= RECAP_LINES
            if adapter.name in NAMED_APART:
                allowed_labels = {adapter.label(code, viewer) for code in allowed}
                for code in codes - allowed:
                    label = adapter.label(code, viewer)
                    if label not in allowed_labels:
                        assert not label_pattern(label).search(told_text), (cut, seat, label, told_text)
    # Not vacuous: seats were told their own secrets, and kept from others' (Serie Bum!'s tiles are
    # all on the table, every flip told to both).
    if adapter.name != "seriebum":
        assert private_told > 0 and hidden_kept > 0


def test_the_recap_shows_the_latest_lines_and_how_many_came_before():
    match, log = played_log(RUMMIKUB, 3, {"rounds": 1}, 4)
    running = MatchRecord(match.kind, match.options, match.seed, match.seats, match.actions[:40])
    viewer = Viewer("en", match.names, 2)
    steps = steps_since_own_move(RUMMIKUB, running, log[:40], 2)
    every = recap(RUMMIKUB, steps, viewer, most=10_000)
    latest = recap(RUMMIKUB, steps, viewer)
    assert latest.lines == every.lines[-RECAP_LINES:]
    assert latest.earlier == len(every.lines) - RECAP_LINES > 0
    text = latest.text(viewer)
    assert text.count("\n> ") == RECAP_LINES - 1 and f"and {latest.earlier} more before these" in text


def test_the_last_own_move_is_the_players_not_a_timeout_nor_a_stand_ins():
    log = [
        Logged(0, {"type": "draw"}, False, 0.0),  # 0: theirs
        Logged(1, {"type": "draw"}, False, 0.0),
        Logged(0, {"type": "draw"}, True, 0.0),  # 2: the referee's, on a timeout
        Logged(0, {"type": STAND_IN, "level": "easy", "left": False}, True, 0.0),
        Logged(0, {"type": "draw"}, False, 0.0),  # 4: the stand-in's
        Logged(1, {"type": "draw"}, False, 0.0),
    ]
    assert last_own_move(log, 0) == 0
    assert last_own_move(log, 1) == 5
    assert last_own_move(log, 2) == -1
    back = [*log, Logged(0, {"type": BACK}, False, 0.0), Logged(0, {"type": "draw"}, False, 0.0)]
    assert last_own_move(back, 0) == 7
