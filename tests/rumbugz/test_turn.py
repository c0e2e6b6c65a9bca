"""The start and the five steps of a turn (docs/rules/rumbugz.md: start, turn, final phase)."""

from __future__ import annotations

import pytest

from games.core import GameError
from games.rumbugz import RumBugz

from ..refusals import refused
from .positions import FOUR_KINDS, arrange, assert_conserved, seq


def table_values(game: RumBugz, sequence_id: int) -> list[int]:
    sequence = next(sequence for sequence in game.table if sequence.id == sequence_id)
    return [value for _, value in sequence.bugz]


# ----------------------------------------------------------------- start


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_new_match_deals_six_each_and_the_starter_draws_first(players: int) -> None:
    game = RumBugz.new(players, {}, seed=players)
    assert [len(hand) for hand in game.hands] == [6] * players
    assert len(game.bag) == 100 - 6 * players
    assert game.discard_pile == [] and game.table == []
    assert game.to_act() == {game.starter: frozenset({"draw"})}
    assert game.round_number == 1
    assert_conserved(game)


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    with pytest.raises(GameError) as error:
        RumBugz.new(players, {}, seed=1)
    assert error.value.key == "rumbugz.error.player_count"


def test_starting_draw_highest_starts_and_plyt_and_ties_draw_again() -> None:
    saw_plyt = saw_tie = False
    for seed in range(300):
        game = RumBugz.new(6, {}, seed)
        draws = list(game.start_draw)
        contenders = list(range(6))
        while True:
            numbers = {}
            for seat in contenders:
                draw = draws.pop(0)
                while draw["number"] is None:
                    assert draw["seat"] == seat
                    saw_plyt = True
                    draw = draws.pop(0)
                assert draw["seat"] == seat
                numbers[seat] = draw["number"]
            best = max(numbers.values())
            contenders = [seat for seat in contenders if numbers[seat] == best]
            if len(contenders) == 1:
                break
            saw_tie = True
        assert draws == []
        assert game.starter == contenders[0]
    assert saw_plyt and saw_tie


def test_the_very_first_turn_draws_from_the_bag() -> None:
    game = RumBugz.new(3, {}, seed=5)
    refused(game, game.starter, {"type": "draw", "source": "discard"}, "rumbugz.error.discard_empty")
    top = game.bag[-1]
    events = game.apply(game.starter, {"type": "draw", "source": "bag"})
    assert top in game.hands[game.starter]
    assert len(game.hands[game.starter]) == 7
    private = [event for event in events if event.seats is not None]
    assert private and all(event.seats == (game.starter,) for event in private)
    assert all(top not in str(event.params) for event in events if event.seats is None)


# ----------------------------------------------------------------- step 1: draw


def test_draw_takes_the_top_of_the_discard_pile() -> None:
    game = arrange(2, {0: ["1a"], 1: ["2a"]}, discard=["5a", "9b"], turn=0, phase="draw")
    game.apply(0, {"type": "draw", "source": "discard"})
    assert game.hands[0] == ["1a", "9b"]
    assert game.discard_pile == ["5a"]
    assert game.phase == "play"


def test_nothing_but_drawing_before_the_draw() -> None:
    game = arrange(2, {0: ["1a", "2a"], 1: ["2b"]}, discard=["5a"], turn=0, phase="draw")
    refused(game, 0, {"type": "discard", "bug": "1a"}, "rumbugz.error.wrong_step")
    refused(game, 1, {"type": "draw", "source": "bag"}, "rumbugz.error.not_your_turn")


# ----------------------------------------------------------------- step 2: change


def test_changing_needs_a_sequence_laid_in_an_earlier_turn() -> None:
    hand = ["2a", "3a", "4a", "5a", "7a", "9c"]
    game = arrange(2, {0: hand, 1: ["1a"]}, table=[(1, "simple", ["3b", "4b", "5b", "6b"])])
    change = {"type": "change", "sequence": 1, "add": seq("7a"), "remove": ["3b"]}
    refused(game, 0, change, "rumbugz.error.change_needs_sequence")
    # Laying the first sequence this turn does not open step 2 either: it comes before step 3.
    game.apply(0, {"type": "lay", "kind": "simple", "bugz": seq("2a", "3a", "4a", "5a")})
    refused(game, 0, change, "rumbugz.error.wrong_step")


def test_push_out_an_end_bug_rulebook_example() -> None:
    """3,4,5,6 on the table: add a 7 and take off the 3, it stays a simple sequence of 4,5,6,7."""
    game = arrange(
        2,
        {0: ["7a", "11a"], 1: ["1a"]},
        table=[(0, "match", ["8a", "8b", "8c", "8d"]), (0, "simple", ["3a", "4a", "5a", "6a"])],
    )
    game.apply(0, {"type": "change", "sequence": 2, "add": seq("7a"), "remove": ["3a"]})
    assert table_values(game, 2) == [4, 5, 6, 7]
    assert game.hands[0] == ["3a", "11a"]
    assert game.phase == "play"
    assert_conserved(game)


def test_a_plyt_replaced_by_its_number_is_reused_at_once() -> None:
    """Triple 3,6,9,PLYT: a 12 replaces the PLYT, which goes into a new sequence the same turn."""
    game = arrange(
        2,
        {0: ["12a", "5a", "6c", "7a", "2b"], 1: ["1a"]},
        table=[(0, "triple", ["3a", "6a", "9a", ("Pa", 12)])],
    )
    game.apply(0, {"type": "change", "sequence": 1, "add": seq("12a"), "remove": ["Pa"]})
    assert table_values(game, 1) == [3, 6, 9, 12]
    assert "Pa" in game.hands[0]
    game.apply(0, {"type": "lay", "kind": "simple", "bugz": seq("5a", "6c", "7a", ("Pa", 8))})
    assert table_values(game, 2) == [5, 6, 7, 8]
    assert game.hands[0] == ["2b"]
    assert_conserved(game)


def test_a_player_changes_another_players_sequence() -> None:
    game = arrange(
        3,
        {0: ["1a"], 1: ["Pa", "10a"], 2: ["2a"]},
        table=[(0, "double", ["4a", "6a", "8a", "10b"]), (1, "match", ["2b", "2c", "2d", "2e"])],
        turn=1,
    )
    events = game.apply(1, {"type": "change", "sequence": 1, "add": seq(("Pa", 2)), "remove": ["10b"]})
    sequence = game.table[0]
    assert sequence.owner == 0
    assert sequence.bugz == [("Pa", 2), ("4a", 4), ("6a", 6), ("8a", 8)]
    assert game.hands[1] == ["10a", "10b"]
    assert events[0].key == "rumbugz.event.changed"
    assert events[0].params["owner_seat"] == 0 and events[0].params["seat"] == 1
    assert game.completed == [["double"], ["match"], []]
    assert_conserved(game)


def test_a_change_keeps_every_sequence_valid_with_four_bugz() -> None:
    game = arrange(
        2,
        {0: ["Pa", "9a", "3c"], 1: ["1a"]},
        table=[
            (0, "simple", ["4a", "5a", "6a", "7a", "8a"]),
            (1, "match", ["3a", ("Pb", 3), ("Pc", 3), ("Pd", 3)]),
        ],
    )
    cases = [
        # A middle Bug taken off breaks the run; three Bugz left are too short.
        ({"sequence": 1, "add": seq("9a"), "remove": ["6a"]}, "rumbugz.error.not_a_sequence"),
        ({"sequence": 1, "add": seq("9a"), "remove": ["4a", "5a", "6a"]}, "rumbugz.error.too_short"),
        # A match only takes its own number, from a numbered Bug or a PLYT.
        ({"sequence": 2, "add": seq("9a")}, "rumbugz.error.not_a_sequence"),
        ({"sequence": 2, "add": seq(("Pa", 4))}, "rumbugz.error.not_a_sequence"),
        # A PLYT stands for 1 to 12 only: no wrap past 12.
        ({"sequence": 1, "add": seq(("Pa", 13))}, "rumbugz.error.plyt_value"),
        # The last numbered Bug of a sequence cannot be swapped for a PLYT.
        ({"sequence": 2, "add": seq(("Pa", 3)), "remove": ["3a"]}, "rumbugz.error.no_number"),
    ]
    for change, key in cases:
        refused(game, 0, {"type": "change", **change}, key)
    game.apply(0, {"type": "change", "sequence": 2, "add": seq("3c")})
    assert table_values(game, 2) == [3, 3, 3, 3, 3]
    assert_conserved(game)


def test_a_change_adds_a_bug_from_the_hand() -> None:
    game = arrange(2, {0: ["9a"], 1: ["1a"]}, table=[(0, "simple", ["4a", "5a", "6a", "7a", "8a"])])
    refused(
        game, 0, {"type": "change", "sequence": 1, "add": [], "remove": ["8a"]}, "rumbugz.error.nothing_added"
    )
    refused(game, 0, {"type": "change", "sequence": 1, "add": seq("4b")}, "rumbugz.error.not_in_hand")
    refused(game, 0, {"type": "change", "sequence": 7, "add": seq("9a")}, "rumbugz.error.unknown_sequence")
    refused(
        game,
        0,
        {"type": "change", "sequence": 1, "add": seq("9a"), "remove": ["2a"]},
        "rumbugz.error.not_in_sequence",
    )


def test_a_change_that_leaves_the_sequence_as_it_was_is_refused() -> None:
    game = arrange(2, {0: ["5b", "Pb"], 1: ["1a"]}, table=[(0, "simple", ["4a", "5a", "6a", ("Pa", 7)])])
    refused(
        game,
        0,
        {"type": "change", "sequence": 1, "add": seq("5b"), "remove": ["5a"]},
        "rumbugz.error.nothing_changes",
    )
    refused(
        game,
        0,
        {"type": "change", "sequence": 1, "add": seq(("Pb", 7)), "remove": ["Pa"]},
        "rumbugz.error.nothing_changes",
    )


def test_a_plyt_from_the_hand_frees_a_numbered_bug() -> None:
    game = arrange(2, {0: ["Pb", "1a"], 1: ["1b"]}, table=[(0, "simple", ["4a", "5a", "6a", "7a"])])
    game.apply(0, {"type": "change", "sequence": 1, "add": seq(("Pb", 5)), "remove": ["5a"]})
    assert game.table[0].bugz == [("4a", 4), ("Pb", 5), ("6a", 6), ("7a", 7)]
    assert game.hands[0] == ["1a", "5a"]


# ----------------------------------------------------------------- step 3: lay


def test_lay_declares_the_kind_and_each_plyt_value() -> None:
    game = arrange(2, {0: ["3a", "6a", "9a", "Pa", "1a"], 1: ["1b"]})
    refused(
        game,
        0,
        {"type": "lay", "kind": "triple", "bugz": seq("3a", "6a", "9a", "Pa")},
        "rumbugz.error.plyt_value",
    )
    refused(
        game,
        0,
        {"type": "lay", "kind": "triple", "bugz": seq("3a", "6a", "9a", ("Pa", 0))},
        "rumbugz.error.plyt_value",
    )
    bad_number = {
        "type": "lay",
        "kind": "triple",
        "bugz": [{"bug": "3a", "value": 4}, *seq("6a", "9a", ("Pa", 12))],
    }
    refused(game, 0, bad_number, "rumbugz.error.wrong_value")
    refused(game, 0, {"type": "lay", "kind": "straight", "bugz": seq("3a")}, "rumbugz.error.unknown_kind")
    refused(
        game,
        0,
        {"type": "lay", "kind": "double", "bugz": seq("3a", "6a", "9a", ("Pa", 12))},
        "rumbugz.error.not_a_sequence",
    )
    refused(
        game, 0, {"type": "lay", "kind": "triple", "bugz": seq("3a", "6a", "9a")}, "rumbugz.error.too_short"
    )
    refused(
        game,
        0,
        {"type": "lay", "kind": "triple", "bugz": seq("3a", "3a", "6a", "9a")},
        "rumbugz.error.duplicate_bug",
    )
    events = game.apply(0, {"type": "lay", "kind": "triple", "bugz": seq(("Pa", 12), "3a", "6a", "9a")})
    assert events[0].key == "rumbugz.event.laid.triple"
    assert events[0].params["values"] == [3, 6, 9, 12]
    assert game.view(1)["table"] == [
        {
            "id": 1,
            "owner": 0,
            "kind": "triple",
            "bugz": [
                {"bug": "3a", "value": 3},
                {"bug": "6a", "value": 6},
                {"bug": "9a", "value": 9},
                {"bug": "Pa", "value": 12},
            ],
        }
    ]
    assert game.completed[0] == ["triple"]


def test_at_most_one_new_sequence_per_turn() -> None:
    game = arrange(2, {0: ["1a", "2a", "3a", "4a", "5c", "5d", "5e", "5f", "9a"], 1: ["1b"]})
    game.apply(0, {"type": "lay", "kind": "simple", "bugz": seq("1a", "2a", "3a", "4a")})
    assert game.to_act() == {0: frozenset({"discard"})}
    refused(
        game,
        0,
        {"type": "lay", "kind": "match", "bugz": seq("5c", "5d", "5e", "5f")},
        "rumbugz.error.wrong_step",
    )


def test_only_a_kind_not_completed_yet() -> None:
    game = arrange(
        2,
        {0: ["1a", "2a", "3a", "4a", "9a"], 1: ["1b"]},
        table=[(0, "simple", ["6a", "7a", "8a", "9b"])],
    )
    refused(
        game,
        0,
        {"type": "lay", "kind": "simple", "bugz": seq("1a", "2a", "3a", "4a")},
        "rumbugz.error.kind_done.simple",
    )
    assert all(action["kind"] != "simple" for action in game.legal_actions(0) if action["type"] == "lay")


# ----------------------------------------------------------------- steps 4 and 5


def test_discard_ends_the_turn() -> None:
    game = arrange(2, {0: ["1a", "9a"], 1: ["1b"]}, discard=["4a"])
    events = game.apply(0, {"type": "discard", "bug": "9a"})
    assert [event.key for event in events] == ["rumbugz.event.discarded"]
    assert game.discard_pile == ["4a", "9a"]
    assert game.to_act() == {1: frozenset({"draw"})}
    refused(game, 0, {"type": "discard", "bug": "1a"}, "rumbugz.error.not_your_turn")


def test_four_replacement_bugz_after_laying() -> None:
    game = arrange(2, {0: ["1a", "2a", "3a", "4a", "9a", "10a"], 1: ["1b"]}, bag_top=["5a", "6a", "7a", "8a"])
    game.apply(0, {"type": "lay", "kind": "simple", "bugz": seq("1a", "2a", "3a", "4a")})
    events = game.apply(0, {"type": "discard", "bug": "9a"})
    assert sorted(game.hands[0]) == sorted(["10a", "5a", "6a", "7a", "8a"])
    drew = [event for event in events if event.key == "rumbugz.event.drew_bag"]
    assert drew[0].params == {"seat": 0, "count": 4}
    assert_conserved(game)


def test_no_discard_when_the_hand_is_empty_but_replacements_still_come() -> None:
    game = arrange(2, {0: ["1a", "2a", "3a", "4a"], 1: ["1b"]}, bag_top=["5a", "6a", "7a", "8a"])
    game.apply(0, {"type": "lay", "kind": "simple", "bugz": seq("1a", "2a", "3a", "4a")})
    assert game.hands[0] == ["5a", "6a", "7a", "8a"]
    assert game.discard_pile == []
    assert game.turn == 1 and game.phase == "draw"


def test_an_empty_hand_without_all_four_kinds_does_not_win() -> None:
    game = arrange(2, {0: ["8a"], 1: ["1b"]}, table=[(0, "simple", ["4a", "5a", "6a", "7a"])])
    game.apply(0, {"type": "change", "sequence": 1, "add": seq("8a")})
    assert game.hands[0] == []
    assert game.turn == 1 and game.round_number == 1 and game.totals() == [0, 0]


# ----------------------------------------------------------------- four kinds and going out


def test_no_replacements_after_the_fourth_kind_and_the_steps_still_hold() -> None:
    game = arrange(
        2,
        {0: ["12a", "12b", "12c", "Pa", "1b", "9a"], 1: ["1c"]},
        table=FOUR_KINDS[:3],
    )
    bag_before = len(game.bag)
    events = game.apply(0, {"type": "lay", "kind": "match", "bugz": seq("12a", "12b", "12c", ("Pa", 12))})
    assert "rumbugz.event.all_kinds" in [event.key for event in events]
    # The fourth kind is this turn's one sequence: the final phase starts next turn.
    assert game.to_act() == {0: frozenset({"discard"})}
    game.apply(0, {"type": "discard", "bug": "9a"})
    assert game.hands[0] == ["1b"]
    assert len(game.bag) == bag_before


def test_final_phase_adds_bugz_and_lays_any_number_of_sequences_of_any_kind() -> None:
    """Rulebook: add an 8 to the simple 4,5,6,7 and a 10 to the match 10,10,10,10."""
    hand = ["8b", "10e", "1c", "2c", "3c", "4c", "6d", "6e", "6f", "6g", "12a"]
    game = arrange(2, {0: hand, 1: ["1d", "Pd"]}, table=FOUR_KINDS)
    game.apply(0, {"type": "change", "sequence": 1, "add": seq("8b")})
    game.apply(0, {"type": "change", "sequence": 4, "add": seq("10e")})
    assert table_values(game, 1) == [4, 5, 6, 7, 8]
    assert table_values(game, 4) == [10] * 5
    game.apply(0, {"type": "lay", "kind": "simple", "bugz": seq("1c", "2c", "3c", "4c")})
    game.apply(0, {"type": "lay", "kind": "match", "bugz": seq("6d", "6e", "6f", "6g")})
    assert game.phase == "play" and game.hands[0] == ["12a"]
    events = game.apply(0, {"type": "discard", "bug": "12a"})
    keys = [event.key for event in events]
    assert "rumbugz.event.went_out" in keys
    won = next(event for event in events if event.key == "rumbugz.event.round_won")
    assert won.params == {"seat": 0, "points": 1 + 15, "round": 1}
    assert game.totals() == [16, 0]
    assert game.round_number == 2


def test_the_last_discard_may_empty_the_hand() -> None:
    game = arrange(2, {0: ["3d"], 1: ["5d", "6d"]}, table=FOUR_KINDS, phase="draw", bag_top=["8b"])
    game.apply(0, {"type": "draw", "source": "bag"})
    game.apply(0, {"type": "change", "sequence": 1, "add": seq("8b")})
    events = game.apply(0, {"type": "discard", "bug": "3d"})
    assert "rumbugz.event.went_out" in [event.key for event in events]
    assert game.totals() == [11, 0]


def test_laying_the_whole_hand_in_the_final_phase_goes_out_at_once() -> None:
    game = arrange(3, {0: ["9b", "9c", "9d", "Pa"], 1: ["12a"], 2: ["Pb", "1b"]}, table=FOUR_KINDS)
    events = game.apply(0, {"type": "lay", "kind": "match", "bugz": seq("9b", "9c", "9d", ("Pa", 9))})
    assert "rumbugz.event.went_out" in [event.key for event in events]
    hands_left = {
        event.params["seat"]: event.params["points"]
        for event in events
        if event.key == "rumbugz.event.hand_left"
    }
    assert hands_left == {1: 12, 2: 16}
    assert game.totals() == [28, 0, 0]


def test_plyt_value_is_a_setting() -> None:
    game = arrange(2, {0: ["9b"], 1: ["Pa", "Pb", "2b"]}, table=FOUR_KINDS, options={"plyt_value": 20})
    game.apply(0, {"type": "discard", "bug": "9b"})
    assert game.totals() == [42, 0]
