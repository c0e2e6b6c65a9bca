"""The Serie Bum! computer player: legal, blind to what its seat cannot see, remembering what it
watched, replayable from its seed and its saved JSON, and never refused in whole matches."""

from __future__ import annotations

import json

import pytest

from games.core import JSON, Event, SeededRandom
from games.robots import Robot, play_out
from games.seriebum import SerieBum
from games.seriebum.robot import SerieBumRobot, random_action
from games.seriebum.tiles import CELL_INDEX, TILES

from .builders import build, codes_of

MATCHES = 50  # whole matches per pairing
TARGET = 10  # one manche decides a match: enough to exercise every phase, and quick


class RandomRobot(Robot):
    """The arena's baseline: a uniformly random legal action."""

    game = "seriebum"

    def decide(self, view: JSON) -> JSON:
        return random_action(view, self.random)


class Checked(Robot):
    """Wraps a robot: every decision must be among the view's legal actions."""

    game = "seriebum"

    def __init__(self, inner: Robot) -> None:
        super().__init__(inner.level, 0)
        self.inner = inner
        self.decisions = 0

    def decide(self, view: JSON) -> JSON:
        action = self.inner.decide(view)
        assert action in view["actions"], (action, view["phase"])
        self.decisions += 1
        return action

    def observe(self, view: JSON, events: list[Event]) -> None:
        self.inner.observe(view, events)


def watching(game: SerieBum, seat: int, level: str = "hard", seed: int = 1) -> SerieBumRobot:
    """A robot for ``seat`` of a hand-built position, as if it had watched the manche so far:
    it knows which tiles left the game."""
    robot = SerieBumRobot(level, seed)
    robot.observe(game.view(seat), [])
    robot.memory["gone"] = sorted(TILES[tile].code for tile in game.out)
    return robot


def act(game: SerieBum, robots: dict[int, Robot], seat: int, action: JSON) -> list[Event]:
    """Apply an action and let every robot watch, as ``play_out`` does."""
    events = game.apply(seat, action)
    for who, robot in robots.items():
        robot.observe(game.view(who), [event for event in events if event.visible_to(who)])
    return events


def flip(cell: str) -> JSON:
    return {"type": "flip", "cell": cell}


# ------------------------------------------------------------------ hand-built positions


def test_random_action_is_legal_and_seeded():
    game = build({"A1": "R20", "B1": "Y50", "C1": "W30", "G5": "RUBA1"})
    view = game.view(0)
    picks = [random_action(view, SeededRandom(seed)) for seed in range(20)]
    assert all(pick in view["actions"] for pick in picks)
    assert len({pick["cell"] for pick in picks}) > 1
    assert random_action(view, SeededRandom(3)) == random_action(view, SeededRandom(3))


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_takes_a_pair_it_can_see(level):
    board = {"A1": "R20", "B1": "Y50", "C1": "R30", "D1": "W60", "E1": "B10", "F1": "R40", "G5": "RUBA1"}
    game = build(board, seen=["A1", "C1"])
    robot = watching(game, 0, level)
    first = robot.decide(game.view(0))
    assert first in (flip("A1"), flip("C1"))
    act(game, {0: robot}, 0, first)
    second = robot.decide(game.view(0))
    assert second == flip("C1" if first == flip("A1") else "A1")
    act(game, {0: robot}, 0, second)
    assert codes_of(game, 0) == [["R20", "R30"]]


def test_hard_stops_flipping_when_a_bum_is_likely():
    # A run worth 150 and three BUM! among the four unknown tiles: the hard robot flips its two
    # known tiles, which take nothing and show the opponent nothing new.
    board = {"A1": "Y10", "B1": "W50", "C1": "BUM1", "D1": "BUM2", "E1": "BUM3", "F1": "B70"}
    game = build(board, mine=["run:R10 R20 R30 R40 R50"], seen=["A1", "B1"])
    robot = watching(game, 0)
    first = robot.decide(game.view(0))
    assert first in (flip("A1"), flip("B1"))
    act(game, {0: robot}, 0, first)
    assert robot.decide(game.view(0)) == flip("B1" if first == flip("A1") else "A1")


def test_hard_places_taken_tiles_where_they_score():
    game = build({"A1": "R50", "B1": "R40", "C1": "Y10", "G5": "RUBA1"}, mine=["run:R20 R30"])
    robot = watching(game, 0)
    act(game, {0: robot}, 0, flip("A1"))
    act(game, {0: robot}, 0, flip("B1"))
    assert game.phase == "place"
    choice = robot.decide(game.view(0))
    assert choice == {"type": "place", "option": "R40>0@high,R50>0@high"}


def test_hard_steals_the_tile_that_completes_a_series():
    game = build(
        {"A1": "RUBA1", "B1": "Y10", "G5": "RUBA2"},
        mine=["run:W50 W60", "set:R20 Y20"],
        theirs=["run:W20 W30 W40", "set:B70 R70 Y70"],
    )
    robot = watching(game, 0)
    act(game, {0: robot}, 0, flip("A1"))
    assert game.phase == "steal"
    view = game.view(0)
    choice = robot.decide(view)
    assert choice in view["actions"]
    # W40 would leave W20-W30 and make W40-W50-W60 (150); W20 moves 20 points; a 70 fits nowhere.
    assert choice == {"type": "steal", "option": "W40>0@low"}


def test_hard_chooses_the_bum_that_hurts_most():
    game = build(
        {"A1": "BUM1", "B1": "W10", "G5": "RUBA1"},
        mine=["run:W40 W50 W60 W70", "set:B10 R10 Y10"],
        theirs=["run:R20 R30 R40"],
        turn=1,
    )
    robot = watching(game, 0)
    act(game, {0: robot}, 1, flip("A1"))
    assert game.phase == "bum"
    view = game.view(0)
    choice = robot.decide(view)
    assert choice in view["actions"]
    act(game, {0: robot}, 0, choice)
    # The 220-point run is cut to two tiles rather than the 30-point set.
    kept, sets = codes_of(game, 1)
    assert len(kept) == 2 and kept[0].startswith("W") and sets == ["B10", "R10", "Y10"]


def test_hard_moves_tiles_when_it_pays():
    # Emptying the pair R40-R50 onto R10-R20-R30 makes a run of five worth 150.
    game = build({"A1": "Y10", "B1": "W70", "G5": "RUBA1"}, mine=["run:R10 R20 R30", "run:R40 R50"])
    robot = watching(game, 0)
    view = game.view(0)
    choice = robot.decide(view)
    assert choice["type"] == "move" and choice in view["actions"]
    act(game, {0: robot}, 0, choice)
    assert codes_of(game, 0) == [["R10", "R20", "R30", "R40", "R50"]]


# ------------------------------------------------------------------ memory and view only


def test_hard_remembers_a_covered_tile_after_the_view_forgot_it():
    board = {"A1": "R20", "B1": "W60", "C1": "Y10", "D1": "B70", "E1": "Y40", "F1": "B50", "A2": "R30"}
    board |= {"G5": "RUBA1"}
    game = build(board, turn=1)
    robot = SerieBumRobot("hard", 5)
    robots = {0: robot}
    for seat, cells in ((1, ("A1", "B1")), (0, ("C1", "D1")), (1, ("E1", "F1"))):
        for cell in cells:
            act(game, robots, seat, flip(cell))
    act(game, robots, 0, flip("A2"))  # R30: its partner R20 was seen two turns ago
    view = game.view(0)
    assert view["cells"][CELL_INDEX["A1"]] == {"cell": "A1", "state": "down", "tile": None}
    assert robot.memory["cells"]["A1"] == "R20"
    assert robot.decide(view) == flip("A1")
    # A robot that did not watch cannot know where R20 is.
    assert "A1" not in SerieBumRobot("hard", 5).memory.get("cells", {})


def test_easy_memory_is_a_subset_of_what_was_seen():
    game = SerieBum.new(2, {"target": TARGET}, 11)
    easy, shadow = SerieBumRobot("easy", 3), SerieBumRobot("hard", 4)
    robots: list[Robot] = [easy, SerieBumRobot("hard", 5)]
    forgot = False
    while not game.finished:
        seat = min(game.to_act())
        events = game.apply(seat, robots[seat].decide(game.view(seat)))
        for who, robot in enumerate(robots):
            robot.observe(game.view(who), events)
        shadow.observe(game.view(0), events)
        remembered = set(easy.memory["cells"].items())
        assert remembered <= set(shadow.memory["cells"].items())
        forgot |= remembered != set(shadow.memory["cells"].items())
    assert forgot


def _hidden_shuffled(game: SerieBum, never_seen: set[int], seed: int) -> SerieBum:
    """The same match with the tiles of the cells in ``never_seen`` shuffled among them."""
    copy = SerieBum.from_json(game.to_json())
    cells = sorted(never_seen)
    tiles = [copy.board[cell] for cell in cells]
    SeededRandom(seed).shuffle(tiles)
    for cell, tile in zip(cells, tiles, strict=True):
        copy.board[cell] = tile
    return copy


@pytest.mark.parametrize("seed", range(4))
def test_hard_decides_from_its_view_only(seed):
    game = SerieBum.new(2, {"target": TARGET}, seed)
    robots: list[Robot] = [SerieBumRobot("hard", seed), SerieBumRobot("easy", seed + 1)]
    flipped: set[int] = set()
    checked = 0
    while not game.finished and checked < 12:
        seat = min(game.to_act())
        view = game.view(seat)
        if seat == 0 and view["phase"] in ("flip", "flip_second"):
            never_seen = {
                CELL_INDEX[cell["cell"]]
                for cell in view["cells"]
                if cell["state"] == "down" and CELL_INDEX[cell["cell"]] not in flipped
            }
            other = _hidden_shuffled(game, never_seen, seed * 100 + checked)
            assert other.board != game.board or len(never_seen) < 2
            twin = SerieBumRobot.from_json(json.loads(json.dumps(robots[0].to_json())))
            assert twin.decide(other.view(0)) == SerieBumRobot.from_json(robots[0].to_json()).decide(view)
            checked += 1
        events = game.apply(seat, robots[seat].decide(view))
        flipped |= {CELL_INDEX[e.params["cell"]] for e in events if e.key.endswith(".flipped")}
        for who, robot in enumerate(robots):
            robot.observe(game.view(who), events)
    assert checked


# ------------------------------------------------------------------ determinism


def _logged_match(seed: int, restore_at: int | None = None) -> list[tuple[int, JSON]]:
    """A match of hard against easy; at action ``restore_at`` both robots are saved to JSON text
    and loaded back, as the bot does between moves."""
    game = SerieBum.new(2, {"target": 300}, seed)
    robots: list[SerieBumRobot] = [SerieBumRobot("hard", seed), SerieBumRobot("easy", seed + 7)]
    log = []
    while not game.finished:
        if len(log) == restore_at:
            robots = [SerieBumRobot.from_json(json.loads(json.dumps(robot.to_json()))) for robot in robots]
        seat = min(game.to_act())
        action = robots[seat].decide(game.view(seat))
        log.append((seat, action))
        events = game.apply(seat, action)
        for who, robot in enumerate(robots):
            robot.observe(game.view(who), events)
    return log


def test_same_seed_same_match_and_json_round_trip_continues_identically():
    log = _logged_match(21)
    assert _logged_match(21) == log
    assert _logged_match(21, restore_at=len(log) // 2) == log
    assert _logged_match(22) != log


# ------------------------------------------------------------------ whole matches


def _robot(kind: str, seed: int) -> Robot:
    return RandomRobot("easy", seed) if kind == "random" else SerieBumRobot(kind, seed)


@pytest.mark.parametrize(("first", "second"), [("hard", "easy"), ("easy", "random"), ("hard", "random")])
def test_whole_matches_are_never_refused(first, second):
    wins = 0
    for seed in range(MATCHES):
        kinds = (first, second) if seed % 2 == 0 else (second, first)
        robots = [Checked(_robot(kind, seed * 2 + seat)) for seat, kind in enumerate(kinds)]
        game = SerieBum.new(2, {"target": TARGET}, seed)
        play_out(game, robots)
        assert game.finished and game.winner() is not None
        assert all(robot.decisions for robot in robots)
        wins += kinds[game.winner()] == first
    # The stronger side wins most: a loose bound, the figures are in the report.
    assert wins >= MATCHES * 0.6


def test_unknown_level_is_refused():
    with pytest.raises(Exception, match="robot_level"):
        SerieBumRobot("medium", 1)
