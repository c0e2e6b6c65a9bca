"""Bué and SuperBué, declared by the bot the moment they happen (docs/rules/bue.md)."""

from games.core import GameError

from .helpers import RiggedRandom, build, deal_order, deck_exchange, end_game, find, keys, swap

FOUR = ["b1 b2 b3 b4 b5", "b1 b2 b3 b4 b6", "b5 b6 b7 b7 b8", "b8 b9 b9 g6 g7"]
ROUND_END = ["b10 b9 b6 b4 b3", "b20 b19 b15 b10 b5", "h100 b14 b11 b8 b2", "b18 b17 b13 b12 b1"]


def declared(events):
    found = find(events, "bue.event.bue") + find(events, "bue.event.superbue")
    return [(e.key.rsplit(".", 1)[1], e.params["seat"]) for e in found]


def points_of(events, game_number):
    [event] = [e for e in find(events, "bue.event.game_scored") if e.params["game"] == game_number]
    return event.params["points"]


def new_deal(hands):
    """End game 1 (dealer 3) so that game 2, dealt by seat 0, gives these hands."""
    game = build(FOUR, dealer=3)
    game.rng = RiggedRandom([deal_order(game, 0, hands)])
    events = end_game(game, ROUND_END)
    start = keys(events).index("bue.event.dealt")
    return game, events[start:]


def test_bue_right_after_the_deal():
    game, events = new_deal({2: "b20 b10 b10 b5 b5"})
    assert keys(events)[:6] == ["bue.event.dealt"] + ["bue.event.your_hand"] * 4 + ["bue.event.bue"]
    assert events[0].params == {"game": 2, "dealer_seat": 0}
    assert events[5].seats is None
    assert events[5].params == {"seat": 2, "cards": ["b20", "b10", "b10", "b5", "b5"]}
    assert points_of(events, 2) == [0, 0, 50, 0]
    assert game.totals() == [20, 10, 50, 30]
    assert game.game_number == 3 and game.dealer == 1 and game.round == 1


def test_superbue_right_after_the_deal_scores_70():
    _game, events = new_deal({1: "g6 g7 g8 g14 g15"})
    assert declared(events) == [("superbue", 1)]
    assert points_of(events, 2) == [0, 70, 0, 0]


def test_two_bue_at_the_deal_more_gold_wins():
    _game, events = new_deal({1: "b20 b10 b10 b5 b5", 3: "g15 b20 b6 b6 b3"})
    assert declared(events) == [("bue", 3)]
    assert points_of(events, 2) == [0, 0, 0, 50]


def test_two_bue_at_the_deal_the_dealer_wins_then_nearest_clockwise():
    _game, events = new_deal({2: "b20 b10 b10 b5 b5", 0: "b20 b15 b6 b6 b3"})
    assert declared(events) == [("bue", 0)]  # seat 0 deals game 2
    _game, events = new_deal({3: "b20 b10 b10 b5 b5", 1: "b20 b15 b6 b6 b3"})
    assert declared(events) == [("bue", 1)]  # clockwise from the dealer (0): 1 before 3


def test_bue_after_ones_own_deck_exchange_ends_the_game_at_once():
    game = build(
        ["b1 b2 b3 b4 b6", "b20 b10 b10 b5 b1", "b11 b6 b7 b7 b8", "b8 b9 b9 g6 g7"],
        dealer=3,
        round=2,
        deck=["b12", "b5"],
    )
    game.rng = RiggedRandom()
    deck_exchange(game, 0, 0)
    events = deck_exchange(game, 1, 4)
    assert keys(events)[:3] == ["bue.event.exchanged_deck", "bue.event.you_drew", "bue.event.bue"]
    assert declared(events) == [("bue", 1)]
    assert points_of(events, 1) == [0, 50, 0, 0]
    # Seats 2 and 3 never exchange in this round: the next game is already dealt.
    assert game.game_number == 2 and game.round == 1 and game.dealer == 0 and game.turn == 1


def test_bue_after_ones_own_swap():
    game = build(["b20 b10 b10 b5 b1", "b5 b2 b3 b4 b6", "b11 b12 b13 b14 b15"], dealer=2)
    events = swap(game, 0, 4, 1, 0)
    assert declared(events) == [("bue", 0)]
    assert points_of(events, 1) == [50, 0, 0]


def test_bue_after_another_players_swap_with_them():
    # Seat 0 gives its 5 and takes seat 1's 1: seat 1 (46) now holds exactly 50.
    game = build(["b5 b2 b3 b6 b7", "b20 b10 b10 b5 b1", "b11 b12 b13 b14 b15"], dealer=2)
    events = swap(game, 0, 0, 1, 4)
    assert declared(events) == [("bue", 1)]
    assert points_of(events, 1) == [0, 50, 0]


def test_bue_through_a_multiplier_drawn_from_the_deck():
    game = build(["b20 b10 b5 b5 b1", "b1 b2 b3 b4 b6", "b11 b12 b13 b14 b15"], dealer=2, deck=["x2"])
    events = deck_exchange(game, 0, 4)  # doubling the 10: 20 + 20 + 5 + 5
    assert declared(events) == [("bue", 0)]
    assert events[2].params["cards"] == ["b20", "b10", "b5", "b5", "x2"]


def test_superbue_after_a_swap_scores_70_everyone_else_0():
    game = build(["g6 g7 g8 g14 b1", "g15 b2 b3 b4 b6", "b11 b12 b13 b14 b15"], dealer=2)
    events = swap(game, 0, 4, 1, 0)
    assert declared(events) == [("superbue", 0)]
    assert points_of(events, 1) == [70, 0, 0]


def test_fifty_with_a_multiplier_is_bue_not_superbue():
    game = build(["g6 g8 g10 g13 b1", "x2 b2 b3 b4 b6", "b11 b12 b13 b14 b15"], dealer=2)
    events = swap(game, 0, 4, 1, 0)  # 6 + 8 + 10 + 2 x 13 = 50, four gold cards and an x2
    assert declared(events) == [("bue", 0)]
    assert points_of(events, 1) == [50, 0, 0]


def test_both_players_of_a_swap_make_bue_more_gold_wins():
    # Seat 0 (49) gives a 4 for seat 1's 5: seat 0 has 50, seat 1 (51, one gold) has 50.
    game = build(["b20 b10 b10 b5 b4", "b5 b19 b14 b6 g7", "b11 b12 b13 b15 b16"], dealer=2)
    events = swap(game, 0, 4, 1, 0)
    assert declared(events) == [("bue", 1)]
    assert points_of(events, 1) == [0, 50, 0]


def test_both_players_of_a_swap_make_bue_dealer_then_nearest_clockwise():
    hands = ["b20 b10 b10 b5 b4", "b5 b19 b14 b6 b7", "b11 b12 b13 b15 b16"]
    game = build(hands, dealer=1, turn=0, exchanged=[2])
    assert declared(swap(game, 0, 4, 1, 0)) == [("bue", 1)]  # the dealer
    game = build(hands, dealer=2)
    assert declared(swap(game, 0, 4, 1, 0)) == [("bue", 0)]  # clockwise from seat 2: 0, then 1


def test_no_one_declares_bue_by_hand():
    game = build(FOUR, dealer=3)
    for kind in ("bue", "declare", "superbue"):
        try:
            game.apply(0, {"type": kind})
        except GameError as error:
            assert error.key == "error.unknown_action"
        else:
            raise AssertionError(kind)
