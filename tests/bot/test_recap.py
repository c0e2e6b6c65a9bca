"""What happened while you were gone (bot/recap.py): over seeded random matches of the four games,
played by their computers with timeouts, stand-ins and a seat leaving, the recap of every seat at
many points never tells a card or tile that seat could not see: every code its events name is in
that seat's own views over the recap's moves (or was told to everyone), and for the games whose
tiles read unambiguously, no hidden tile's name appears in its text."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.adapter import Viewer
from bot.games.bue.adapter import ADAPTER as BUE
from bot.games.rumbugz.adapter import ADAPTER as RUMBUGZ
from bot.games.rummikub.adapter import ADAPTER as RUMMIKUB
from bot.games.seriebum.adapter import ADAPTER as SERIEBUM
from bot.recap import RECAP_LINES, last_own_move, recap, steps_since_own_move
from bot.replays import MatchRecord, SeatEntry
from bot.store.turns import Logged
from games.core import BACK, JSON, LEAVE, STAND_IN, perform
from tests.bot.recap_secrets import CODES, Secrets, assert_recap_keeps_secrets, seat_views

MATCHES = [
    (BUE, 4, {"target": 110}, CODES["bue"]),
    (SERIEBUM, 2, {"target": 10}, CODES["seriebum"]),
    (RUMMIKUB, 3, {"rounds": 1}, CODES["rummikub"]),
    (RUMBUGZ, 3, {"rounds": 1}, CODES["rumbugz"]),
]


def plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


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


@pytest.mark.parametrize(
    ("adapter", "players", "options", "codes"), MATCHES, ids=[m[0].name for m in MATCHES]
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_recap_never_names_what_its_seat_could_not_see(adapter, players, options, codes, seed):
    match, log = played_log(adapter, players, options, seed)
    views = seat_views(adapter, match, codes)
    cuts = sorted(random.Random(seed).sample(range(1, len(log) + 1), min(8, len(log))))
    secrets = Secrets()
    for cut in cuts:
        for seat in range(players):
            found = assert_recap_keeps_secrets(adapter, match, log, views, codes, cut, seat)
            secrets.private_told += found.private_told
            secrets.hidden_kept += found.hidden_kept
    # Not vacuous: seats were told their own secrets, and kept from others' (Serie Bum!'s tiles are
    # all on the table, every flip told to both).
    if adapter.name != "seriebum":
        assert secrets.private_told > 0 and secrets.hidden_kept > 0


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
