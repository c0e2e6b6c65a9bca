"""The RumBugz computer player: legal and sensible on hand-built positions, blind to what its seat
cannot see, replayable from its seed and its JSON, and able to play whole matches at every pairing."""

from __future__ import annotations

import pytest

from games.core import JSON
from games.robots import Robot, play_out
from games.rumbugz import RumBugz
from games.rumbugz.bugz import KINDS, NUMBER_OF
from games.rumbugz.engine import BidWindow
from games.rumbugz.robot import RumBugzRobot, open_types, random_action

from .positions import FOUR_KINDS, arrange, assert_conserved


class RandomRobot(Robot):
    """The arena's baseline as a robot."""

    game = "rumbugz"

    def decide(self, view: JSON) -> JSON:
        return random_action(view, self.random)


def decide(level: str, game: RumBugz, seat: int, seed: int = 1) -> JSON:
    return RumBugzRobot(level, seed).decide(game.view(seat))


def numbers(bugz: list[JSON]) -> list[int | None]:
    return sorted(entry["value"] for entry in bugz)


# ----------------------------------------------------------------- hand-built positions


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_takes_the_discard_that_completes_a_sequence(level: str) -> None:
    game = arrange(2, {0: ["2a", "3a", "4a", "8a", "11a", "12a"]}, discard=["5a"], phase="draw")
    action = decide(level, game, 0)
    assert action == {"type": "draw", "source": "discard"}
    game.apply(0, action)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_lays_a_sequence_it_holds(level: str) -> None:
    game = arrange(2, {0: ["2a", "3a", "4a", "5a", "9a", "12a", "12b"]})
    action = decide(level, game, 0)
    assert action["type"] == "lay" and action["kind"] == "simple"
    assert numbers(action["bugz"])[:4] == [2, 3, 4, 5]
    game.apply(0, action)
    assert game.completed[0] == ["simple"]


def test_hard_lays_the_kind_that_keeps_the_better_hand() -> None:
    # 1 4 7 10 is a triple; 7 7 7 would want a fourth 7 for a match, so the triple goes down.
    game = arrange(2, {0: ["1a", "4a", "7a", "7b", "7c", "10a", "12a"]})
    action = decide("hard", game, 0)
    assert action["type"] == "lay" and action["kind"] == "triple"


def test_hard_wins_a_plyt_back_from_the_table_to_lay_with_it() -> None:
    table = [(1, "double", ["2a", "4a", ("Pa", 6), "8a"]), (0, "simple", ["9a", "10a", "11a", "12a"])]
    game = arrange(2, {0: ["6b", "1b", "1c", "1d", "12b"]}, table=table)
    action = decide("hard", game, 0)
    assert action == {"type": "change", "sequence": 1, "add": [{"bug": "6b", "value": 6}], "remove": ["Pa"]}
    game.apply(0, action)
    action = decide("hard", game, 0)
    assert action["type"] == "lay" and action["kind"] == "match"
    assert {entry["bug"] for entry in action["bugz"]} == {"1b", "1c", "1d", "Pa"}
    game.apply(0, action)


def test_hard_with_four_kinds_sheds_everything_and_goes_out() -> None:
    # 8 then 9 follow the simple 4 5 6 7; the 12 is thrown.
    game = arrange(2, {0: ["8b", "9b", "12b"], 1: ["1b", "2b"]}, table=FOUR_KINDS)
    robot = RumBugzRobot("hard", 3)
    kinds = []
    while game.round_number == 1:
        action = robot.decide(game.view(0))
        kinds.append(action["type"])
        game.apply(0, action)
    assert kinds == ["change", "change", "discard"]
    assert game.last_round is not None and game.last_round["winners"] == [0]


def test_hard_takes_the_discard_that_lets_it_go_out() -> None:
    game = arrange(2, {0: ["8b", "12b"], 1: ["1b", "2b"]}, table=FOUR_KINDS, discard=["9b"], phase="draw")
    assert decide("hard", game, 0) == {"type": "draw", "source": "discard"}


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_bids_for_a_discard_that_completes_a_sequence(level: str) -> None:
    hands = {0: ["1a", "2a"], 1: ["1b", "2b"], 2: ["6a", "6b", "6c", "1c", "11a", "12a"]}
    game = arrange(3, hands, discard=["6d"], turn=1, phase="draw")
    game.bids = BidWindow([2])
    assert open_types(game.view(2)) == {"bid", "decline"}
    # easy bids half the time: some seed bids.
    actions = [decide(level, game, 2, seed) for seed in range(8)]
    assert {"type": "bid"} in actions and all(action["type"] in ("bid", "decline") for action in actions)
    game.apply(2, {"type": "bid"})


def test_hard_declines_a_useless_discard_and_bids_nothing_with_four_kinds() -> None:
    # Only the match is left to lay: a 3 helps none of the pairs.
    hands = {0: ["1a", "2a"], 1: ["1b", "2b"], 2: ["1c", "1d", "6c", "6d", "11c", "11d"]}
    completed = {2: ["simple", "double", "triple"]}
    game = arrange(3, hands, discard=["3a"], turn=1, phase="draw", completed=completed)
    game.bids = BidWindow([2])
    assert decide("hard", game, 2) == {"type": "decline"}
    game = arrange(
        3, {0: ["8b"], 1: ["1b"], 2: ["12b"]}, table=FOUR_KINDS, discard=["9b"], turn=1, phase="draw"
    )
    game.completed[2] = list(KINDS)
    game.bids = BidWindow([2])
    assert decide("hard", game, 2) == {"type": "decline"}


def test_lays_and_changes_are_worked_out_from_the_hand_not_to_act() -> None:
    game = arrange(2, {0: ["2a", "3a", "4a", "5a", "9a"]})
    view = game.view(0)
    view["to_act"] = [["change", "discard", "lay"], []]  # a public to_act may say anything here
    view["hand"] = ["2a", "3a", "9a", "11a", "12a"]  # nothing to lay, no sequence to change with
    assert open_types(view) == {"discard"}
    view["to_act"] = [["discard"], []]
    view["hand"] = ["2a", "3a", "4a", "5a", "9a"]
    assert open_types(view) == {"discard", "lay"}


def test_random_action_is_legal_and_tries_every_open_type() -> None:
    game = arrange(2, {0: ["2a", "3a", "4a", "5a", "7e"]}, table=[(0, "match", ["7a", "7b", "7c", "7d"])])
    robot = RandomRobot("easy", 5)
    seen = set()
    for _ in range(60):
        action = robot.decide(game.view(0))
        seen.add(action["type"])
        RumBugz.from_json(game.to_json()).apply(0, action)
    assert seen == {"change", "discard", "lay"}


# ----------------------------------------------------------------- view only, seeds, JSON


def positions_along_a_match(players: int, seed: int, every: int) -> list[tuple[RumBugz, int, JSON]]:
    """Positions met while robots play a match, with the robot state of the seat to act."""
    game = RumBugz.new(players, {"rounds": 1}, seed)
    robots = [RumBugzRobot("hard" if seat % 2 == 0 else "easy", seed + seat) for seat in range(players)]
    found = []
    for count in range(2_000):
        if game.finished:
            break
        seat = min(game.to_act())
        if count % every == 0 and robots[seat].level == "hard":
            found.append((RumBugz.from_json(game.to_json()), seat, robots[seat].to_json()))
        events = game.apply(seat, robots[seat].decide(game.view(seat)))
        for other, robot in enumerate(robots):
            robot.observe(game.view(other), [event for event in events if event.visible_to(other)])
    return found


def test_hard_decides_the_same_whatever_is_hidden() -> None:
    checked = 0
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        for game, seat, saved in positions_along_a_match(players, seed, every=5):
            before = RumBugzRobot.from_json(saved).decide(game.view(seat))
            hidden = game.bag + [
                code for other, hand in enumerate(game.hands) if other != seat for code in hand
            ]
            RumBugzRobot("easy", len(hidden)).random.shuffle(hidden)
            for other, hand in enumerate(game.hands):
                if other != seat:
                    game.hands[other] = sorted(hidden[: len(hand)], key=lambda code: NUMBER_OF[code] or 13)
                    del hidden[: len(hand)]
            game.bag = hidden
            assert RumBugzRobot.from_json(saved).decide(game.view(seat)) == before
            checked += 1
    assert checked > 20


def logged_match(levels: list[str], seed: int) -> list[JSON]:
    game = RumBugz.new(len(levels), {"rounds": 1}, seed)
    robots = [RumBugzRobot(level, 100 + seat) for seat, level in enumerate(levels)]
    log: list[JSON] = []

    class Logged(RumBugzRobot):
        def decide(inner, view: JSON) -> JSON:
            action = robots[view["seat"]].decide(view)
            log.append(action)
            return action

        def observe(inner, view: JSON, events: list) -> None:
            robots[view["seat"]].observe(view, events)

    play_out(game, [Logged("easy", 0) for _ in levels])
    return log


def test_a_match_replays_exactly_from_the_seeds() -> None:
    assert logged_match(["hard", "easy", "easy"], 4) == logged_match(["hard", "easy", "easy"], 4)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_json_round_trip_mid_match(level: str) -> None:
    game = RumBugz.new(3, {"rounds": 1}, 9)
    robots = [RumBugzRobot(level, seat) for seat in range(3)]
    for _ in range(60):
        seat = min(game.to_act())
        restored = RumBugzRobot.from_json(robots[seat].to_json())
        assert restored.to_json() == robots[seat].to_json()
        action = robots[seat].decide(game.view(seat))
        assert restored.decide(game.view(seat)) == action
        events = game.apply(seat, action)
        for other, robot in enumerate(robots):
            robot.observe(game.view(other), [event for event in events if event.visible_to(other)])


# ----------------------------------------------------------------- whole matches


def make(level: str, seed: int) -> Robot:
    return RandomRobot("easy", seed) if level == "random" else RumBugzRobot(level, seed)


PAIRINGS = [("hard", "easy"), ("easy", "random"), ("hard", "random")]


@pytest.mark.parametrize(("first", "second"), PAIRINGS, ids=["-".join(pair) for pair in PAIRINGS])
def test_whole_matches_at_every_pairing(first: str, second: str) -> None:
    for match in range(36):
        players = 2 + match % 3
        game = RumBugz.new(players, {"rounds": 1}, seed=match)
        robots = [
            make(first if (seat + match) % 2 == 0 else second, match * 10 + seat) for seat in range(players)
        ]
        play_out(game, robots)  # a refused action raises GameError
        assert game.finished and game.winner() is not None
        assert_conserved(game)
