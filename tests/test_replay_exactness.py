"""A replay is exact: seeded matches of every game, played by computers with seats changing hands
and a seat leaving, replay to the very state they finished in, and every position on the way
is the state the match had there. A log that no longer leads to its match cannot be replayed."""

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
from bot.replays import CannotReplay, MatchRecord, Replay, SeatEntry, draw_panel, export_data, read_export
from games.core import BACK, JSON, LEAVE, STAND_IN, perform

MATCHES = [
    (BUE, 4, {"target": 40}),
    (SERIEBUM, 2, {"target": 10}),
    (RUMMIKUB, 3, {"rounds": 2}),
    (RUMBUGZ, 3, {"rounds": 2}),
]

NAMES = [adapter.name for adapter, *_ in MATCHES]


def plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


def played(adapter: Any, players: int, options: dict[str, int], seed: int) -> tuple[MatchRecord, list[JSON]]:
    """A match played by computers as the bot logs it, a stand-in coming and going and, with more
    than two seats, a seat leaving; with the state after every action."""
    options = adapter.engine.resolve_options(options)
    game, _ = adapter.engine.begin(players, options, seed)
    robots = [adapter.robot("easy", seed * 16 + seat) for seat in range(players)]
    rng = random.Random(seed)
    log: list[tuple[int, JSON]] = []
    states = [plain(game.to_json())]
    left = False
    while not game.finished:
        seat = min(game.to_act())
        roll = rng.random()
        if roll < 0.02:
            action: JSON = {"type": STAND_IN, "level": "easy", "left": False}
        elif roll < 0.04:
            action = {"type": BACK}
        elif roll < 0.05 and players > 2 and not left and len(log) > 10:
            action, left = {"type": LEAVE}, True
        else:
            action = robots[seat].decide(game.view(seat))
        events = perform(game, seat, plain(action))
        log.append((seat, plain(action)))
        states.append(plain(game.to_json()))
        for other, robot in enumerate(robots):
            robot.observe(game.view(other), [event for event in events if event.visible_to(other)])
    seats = [SeatEntry(f"p{seat}", "easy") for seat in range(players)]
    return MatchRecord(adapter.name, options, seed, seats, log), states


@pytest.mark.parametrize(("adapter", "players", "options"), MATCHES, ids=NAMES)
@pytest.mark.parametrize("seed", [3, 8])
def test_a_replay_rebuilds_every_position_of_the_match(adapter, players, options, seed):
    match, states = played(adapter, players, options, seed)
    replay = Replay.build(adapter, match, states[-1])
    assert replay.last == len(match.actions) == len(states) - 1
    assert plain(replay.final.to_json()) == states[-1]
    positions = random.Random(seed).sample(range(len(states)), min(12, len(states)))
    for step in [*positions, 0, replay.last]:
        assert plain(replay.position(step).to_json()) == states[step]
    round_ends = sum(adapter.ends_round(step.events) for step in replay.steps)
    assert len(replay.round_starts) == round_ends  # the last round's end is the match's end

    # Every position draws: the table as the channel saw it, every hand beside it.
    viewer = Viewer("en", match.names)
    for step in (0, replay.last):
        panel = draw_panel(replay, 1, step, True, 0, viewer)
        assert panel.file is not None and panel.content.startswith("🎬")

    # The file holds it all, and replays to the same match.
    again, result = read_export(json.dumps(export_data(replay)))
    assert again == match and result == {"totals": replay.final.totals(), "winner": replay.final.winner()}


@pytest.mark.parametrize(("adapter", "players", "options"), MATCHES, ids=NAMES)
def test_a_log_that_no_longer_leads_to_its_match_cannot_be_replayed(adapter, players, options):
    match, states = played(adapter, players, options, 5)
    cut = MatchRecord(match.kind, match.options, match.seed, match.seats, match.actions[:-1])
    with pytest.raises(CannotReplay):
        Replay.build(adapter, cut)
    with pytest.raises(CannotReplay):
        Replay.build(adapter, match, {**states[-1], "unexpected": True})
