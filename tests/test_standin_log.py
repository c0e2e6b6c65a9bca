"""Stand-ins in the action log (issue 21): handing a seat to a computer, and back, is an action of
its own that changes nothing in the game, so every log replays, those from before included."""

from __future__ import annotations

from typing import Any

import pytest

from games.bue import Bue
from games.bue.robot import BueRobot
from games.core import BACK, JSON, LEAVE, STAND_IN, TABLE_OPTIONS, Game, GameError, replay
from games.robots import LEVELS, Robot, play_out
from games.rumbugz import RumBugz
from games.rumbugz.robot import RumBugzRobot
from games.rummikub import Rummikub
from games.rummikub.robot import RummikubRobot
from games.seriebum import SerieBum
from games.seriebum.robot import SerieBumRobot

ENGINES: list[type[Game]] = [Bue, SerieBum, Rummikub, RumBugz]


def default_log(engine: type[Game], players: int, seed: int, steps: int) -> list[tuple[int, JSON]]:
    """A seeded match played by the referee's default moves, as (seat, action): legal wherever a
    seat must decide, each decision taken by its lowest seat."""
    game = engine.new(players, {}, seed)
    log: list[tuple[int, JSON]] = []
    for _ in range(steps):
        deciding = game.required_to_act()
        if game.finished or not deciding:
            break
        seat = min(deciding)
        action = game.default_action(seat)
        game.apply(seat, action)
        log.append((seat, action))
    return log


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.name)
def test_handing_a_seat_over_and_back_replays_to_the_same_game(engine: type[Game]):
    players = 2 if engine is SerieBum else 3
    log = default_log(engine, players, seed=11, steps=40)
    assert log, "no move was played"
    handed: list[tuple[int, JSON]] = []
    for index, (seat, action) in enumerate(log):
        if index == 2:
            handed.append((seat, {"type": STAND_IN, "level": "hard", "left": False}))
        if index == 5:
            handed.append((seat, {"type": BACK}))
        handed.append((seat, action))
    plain = replay(engine, players, {}, 11, log)
    assert replay(engine, players, {}, 11, handed).to_json() == plain.to_json()


def test_a_bue_log_from_before_stand_ins_replays_its_leave_as_a_seat_set_aside():
    log: list[tuple[int, Any]] = [(1, {"type": LEAVE})]
    game = replay(Bue, 3, {"target": 110}, 4, log)
    assert not game.active[1] and game.hands[1] == []
    left_for_good = replay(
        Bue, 3, {"target": 110}, 4, [(1, {"type": STAND_IN, "level": "easy", "left": True})]
    )
    assert left_for_good.active[1] and len(left_for_good.hands[1]) == 5  # the stand-in keeps the hand


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.name)
def test_the_stand_in_option_is_the_referees_and_every_engine_lets_it_through(engine: type[Game]):
    assert [option.name for option in TABLE_OPTIONS] == ["stand_in"]
    assert engine.resolve_options({"stand_in": 0}) == engine.resolve_options({})
    players = 2 if engine is SerieBum else 3
    game = engine.new(players, {**engine.resolve_options({}), "stand_in": 1}, seed=3)
    assert game.to_json() == engine.new(players, {}, seed=3).to_json()
    with pytest.raises(GameError):
        engine.resolve_options({"stand_ins": 1})


ROBOTS: dict[type[Game], type[Robot]] = {
    Bue: BueRobot,
    SerieBum: SerieBumRobot,
    Rummikub: RummikubRobot,
    RumBugz: RumBugzRobot,
}


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.name)
@pytest.mark.parametrize("level", LEVELS)
def test_a_stand_in_sitting_down_mid_match_plays_the_seat_legally_to_the_end(engine: type[Game], level: str):
    """A computer that takes a seat late has seen nothing of the match before: it decides from the
    seat's view as it is, every move legal, until the match ends."""
    players = 2 if engine is SerieBum else 3
    log = default_log(engine, players, seed=7, steps=12)
    game = replay(engine, players, {}, 7, log)
    robots = [ROBOTS[engine](level, 100 + seat) for seat in range(players)]
    for seat, robot in enumerate(robots):
        robot.observe(game.view(seat), [])
    play_out(game, robots)
    assert game.finished
