"""The Rummikub robots: legal by construction, view-only, seeded, and strong where they should be."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.core import JSON, SeededRandom
from games.robots import Robot, play_out
from games.rummikub import Rummikub
from games.rummikub.robot import RummikubRobot, rack_sets, random_action, random_plays
from games.rummikub.solver import best_play
from games.rummikub.tiles import ALL_TILES, JOKER, is_valid_set
from tests.rummikub.helpers import game_with, most_tiles, tile_count

FILLER = ["o1", "k5", "b9", "r3"]  # four tiles that form nothing together


def position(
    rack: list[str], table: list[list[str]] = (), *, melded: bool = True, other: int = 8
) -> Rummikub:
    """Seat 0 to play ``rack``; seat 1 holds ``other`` tiles of those left (its rack does not matter)."""
    used = Counter(rack) + Counter(code for s in table for code in s)
    left = sorted((Counter(ALL_TILES) - used).elements())
    return game_with([rack, left[:other]], table=table, melded=[melded, True])


class RandomRobot(Robot):
    """The arena's random baseline as a seat."""

    game = "rummikub"

    def decide(self, view: JSON) -> JSON:
        return random_action(view, self.random)


def decide(level: str, game: Rummikub, seed: int = 1) -> JSON:
    return RummikubRobot(level, seed).decide(game.view(game.turn))


def accepted(game: Rummikub, action: JSON) -> None:
    """The engine takes the action; the tiles are all still there."""
    game.apply(game.turn, action)
    assert tile_count(game) == 106


# ------------------------------------------------------------------ hand-built positions


def test_hard_makes_the_initial_meld_with_the_most_tiles():
    game = position(["r10", "r11", "r12", "k10", "b10", "o10", "o2", *FILLER], melded=False)
    action = decide("hard", game)
    assert sorted(action["tiles"]) == sorted(["r10", "r11", "r12", "k10", "b10", "o10"])
    accepted(game, action)
    assert game.melded[0]


def test_an_initial_meld_worth_less_than_30_is_not_tried():
    game = position(["r1", "r2", "r3", "k2", *FILLER], [["b7", "b8", "b9"]], melded=False)
    for level in ("hard", "easy"):
        assert decide(level, game) == {"type": "draw"}


def test_a_joker_completes_the_initial_meld():
    game = position(["k10", "k11", JOKER, *FILLER], melded=False)
    for level in ("hard", "easy"):
        action = decide(level, game)
        assert sorted(action["tiles"]) == sorted(["k10", "k11", JOKER])
    accepted(game, action)


def test_hard_keeps_a_spare_joker_while_no_one_is_close_to_going_out():
    rack = ["k9", "k10", "k11", JOKER, "o1"]
    table = [["r3", "r4", "r5"]]
    far = position(rack, table)
    assert JOKER in best_play(rack, table).tiles  # the solver alone would lay it
    action = decide("hard", far)
    assert sorted(action["tiles"]) == ["k10", "k11", "k9"]
    accepted(far, action)
    near = position(rack, table, other=2)
    assert JOKER in decide("hard", near)["tiles"]  # a joker left on the rack would cost 30


def test_hard_lays_a_joker_it_needs():
    game = position(["k9", "k10", JOKER, "o1"], [["r3", "r4", "r5"]])
    action = decide("hard", game)
    assert sorted(action["tiles"]) == sorted(["k9", "k10", JOKER])
    accepted(game, action)


@pytest.mark.parametrize(
    ("table", "rack"),
    [
        ([["r3", "r4", "r5", "r6"], ["k7", "b7", "o7"]], ["r7", "r2", "b5", "o9"]),
        ([["k4", "k5", "k6", "k7", "k8"], ["b6", "r6", "o6"]], ["k6", "o5", "o7", "b1"]),
        ([["r9", "r10", "r11"], ["b10", "k10", "o10"]], ["r10", "r12", "k2", "b3"]),
        ([["o2", "o3", "o4", "o5"], ["k3", "r3", "b3"]], ["o3", "o6", "b4", "k13"]),
    ],
)
def test_hard_lays_the_most_tiles_even_rearranging_the_table(table, rack):
    game = position(rack, table)
    action = decide("hard", game)
    assert len(action["tiles"]) == most_tiles([c for s in table for c in s], rack) > 0
    accepted(game, action)


def test_easy_sees_its_own_sets_and_table_ends_but_no_rearrangement():
    table = [["r3", "r4", "r5", "r6"], ["k7", "b7", "o7"]]
    rack = ["r7", "r8", "b1", "b2", "b3", "o4", "r2"]
    game = position(rack, table)
    plays = [RummikubRobot("easy", seed).decide(game.view(0)) for seed in range(20)]
    laid = [sorted(action["tiles"]) for action in plays if action["type"] == "play"]
    assert laid and all(tiles == sorted(["b1", "b2", "b3", "r7", "r8", "r2"]) for tiles in laid)
    assert {"type": "draw"} in plays  # now and then it holds back
    accepted(game, plays[next(i for i, a in enumerate(plays) if a["type"] == "play")])
    split = position(["r5", "o9"], [["r3", "r4", "r5", "r6", "r7"]])
    assert decide("easy", split) == {"type": "draw"}  # splitting the run in two is out of its sight
    assert decide("hard", split)["tiles"] == ["r5"]


def test_every_level_draws_when_nothing_plays():
    game = position(FILLER, [["k7", "k8", "k9"]])
    for level in ("hard", "easy"):
        assert decide(level, game) == {"type": "draw"}
    assert random_plays(game.view(0)) == []


def test_going_out_is_never_held_back():
    game = position(["k10", "k11", "k12"], [["r3", "r4", "r5"]])
    for seed in range(20):
        assert RummikubRobot("easy", seed).decide(game.view(0))["tiles"] == ["k10", "k11", "k12"]


# ------------------------------------------------------------------ the random baseline


def test_rack_sets_lists_runs_and_groups_with_jokers_filling_gaps():
    sets = rack_sets(["k3", "k4", "k6", "r4", "b4", JOKER])
    assert all(is_valid_set(tiles) for tiles in sets)
    assert sets[tuple(sorted(["k3", "k4", JOKER, "k6"]))] == 3 + 4 + 5 + 6
    assert sets[tuple(sorted(["k4", "r4", "b4", JOKER]))] == 16
    assert tuple(sorted(["k4", "r4", "b4"])) in sets
    assert tuple(sorted(["k3", "k4", "k6"])) not in sets


def test_every_random_play_is_accepted():
    positions = [
        position(["k10", "k11", "k12", "r10", "b10", "o3", "o4", "o5", JOKER, "b2"], melded=False),
        position(["k1", "k2", "k3", "o8", "r8", "b8", "o4"], melded=False),
        position(
            ["r7", "r2", "k3", "k4", "k5", JOKER, "o7", "b13"],
            [["r3", "r4", "r5", "r6"], ["k7", "b7", "o7"], ["b10", "b11", "b12"]],
        ),
    ]
    for game in positions:
        plays = random_plays(game.view(0))
        assert plays
        for tiles in plays:
            Rummikub.from_json(game.to_json()).apply(0, {"type": "play", "tiles": list(tiles)})
    before_meld = random_plays(positions[1].view(0))
    assert sorted(["k1", "k2", "k3", "o8", "r8", "b8"]) in [sorted(p) for p in before_meld]  # two sets, 30


def test_random_action_is_uniform_over_its_plays_and_draw():
    game = position(["r7", "b13", "o7"], [["r3", "r4", "r5", "r6"], ["k7", "b7", "r7"]])
    view = game.view(0)
    choices = [json.dumps(random_action(view, SeededRandom(seed))) for seed in range(600)]
    counts = Counter(choices)
    assert len(counts) == len(random_plays(view)) + 1 == 3  # r7, o7 or draw (b13 fits nowhere)
    assert all(150 < count < 250 for count in counts.values())


# ------------------------------------------------------------------ view only, seeded, saved


def midgame(seed: int, players: int = 3, actions: int = 24) -> Rummikub:
    game = Rummikub.new(players, {}, seed)
    robots = [RummikubRobot("hard", seed + s) for s in range(players)]
    for _ in range(actions):
        game.apply(game.turn, robots[game.turn].decide(game.view(game.turn)))
    return game


def test_hard_decides_from_the_view_alone():
    decisions = []
    for seed in range(6):
        game = midgame(seed)
        seat = game.turn
        decision = RummikubRobot("hard", 5).decide(game.view(seat))
        decisions.append(decision["type"])
        for shuffle in range(4):
            state = game.to_json()
            others = [s for s in range(game.players) if s != seat]
            hidden = [code for s in others for code in state["racks"][s]] + state["pool"]
            SeededRandom(shuffle).shuffle(hidden)
            for s in others:
                size = len(state["racks"][s])
                state["racks"][s], hidden = hidden[:size], hidden[size:]
            state["pool"] = hidden
            twin = Rummikub.from_json(state)
            assert twin.view(seat) == game.view(seat)
            assert RummikubRobot("hard", 99).decide(twin.view(seat)) == decision
    assert "play" in decisions and "draw" in decisions


def match(kinds: list[str], seed: int) -> Rummikub:
    """A whole match, one robot of the given kind per seat (``"random"``: the baseline)."""
    game = Rummikub.new(len(kinds), {}, seed)
    robots = [
        RandomRobot("easy", seed * 10 + s) if kind == "random" else RummikubRobot(kind, seed * 10 + s)
        for s, kind in enumerate(kinds)
    ]
    play_out(game, robots)
    return game


def test_a_match_replays_exactly_from_the_seeds():
    kinds = ["easy", "random", "hard"]
    first = match(kinds, 3)
    second = match(kinds, 3)
    assert first.to_json() == second.to_json() and first.finished


def test_a_robot_saved_mid_match_goes_on_as_it_would_have():
    game = Rummikub.new(2, {}, 11)
    robots = [RummikubRobot("easy", 1), RummikubRobot("easy", 2)]
    for _ in range(30):
        game.apply(game.turn, robots[game.turn].decide(game.view(game.turn)))
    saved = json.loads(json.dumps([robot.to_json() for robot in robots]))
    copy = Rummikub.from_json(game.to_json())
    play_out(game, robots)
    play_out(copy, [RummikubRobot.from_json(data) for data in saved])
    assert copy.to_json() == game.to_json()


# ------------------------------------------------------------------ whole matches


@pytest.mark.parametrize("pairing", [("hard", "easy"), ("easy", "random"), ("hard", "random")])
def test_whole_matches_are_never_refused(pairing):
    wins = Counter()
    for seed in range(30):
        players = 2 + seed % 3
        kinds = [pairing[(seed + s) % 2] for s in range(players)]
        game = match(kinds, seed)  # play_out raises if the engine refuses a move
        assert game.finished and tile_count(game) == 106
        wins[kinds[game.winner()]] += 1
    assert wins[pairing[0]] > wins[pairing[1]]
