"""Exchange rounds (docs/rules/bue.md: order, five rounds, the two kinds of exchange,
revealed cards, no swap back, deck refill, reordering one's own cards)."""

from collections import Counter

from ..refusals import refused
from .helpers import (
    RiggedRandom,
    assert_58,
    build,
    code_of,
    codes,
    deck_exchange,
    find,
    first_legal_swap,
    keys,
    reveal_first_hidden,
    swap,
)

# Twenty cards from b1 to g7: no five of them reach 50, so swapping among them never makes Bué.
SMALL = ["b1 b2 b3 b4 b5", "b1 b2 b3 b4 b6", "b5 b6 b7 b7 b8", "b8 b9 b9 g6 g7"]


def test_seat_after_the_dealer_exchanges_first_and_the_dealer_last_for_five_rounds():
    game = build(SMALL, dealer=2)
    game.rng = RiggedRandom()
    rounds = []
    for number in range(1, 6):
        assert game.round == number and game.phase == "exchange"
        order = []
        while game.phase == "exchange" and game.game_number == 1:
            [(seat, allowed)] = game.to_act().items()
            assert allowed == {"deck", "swap"}
            order.append(seat)
            events = game.apply(seat, first_legal_swap(game, seat))
        rounds.append(order)
        if number < 5:
            assert game.phase == "reveal" and game.round == number
            assert game.to_act() == {seat: frozenset({"reveal"}) for seat in (3, 0, 1, 2)}
            reveal_first_hidden(game)
    assert rounds == [[3, 0, 1, 2]] * 5
    # After the fifth round every card is face up and the game is scored: no sixth round.
    assert "bue.event.all_revealed" in keys(events) and "bue.event.game_scored" in keys(events)
    assert not find(events, "bue.event.reveal_time")
    assert game.game_number == 2 and game.dealer == 3


def test_every_player_exchanges_exactly_once_per_round():
    game = build(SMALL, dealer=3)
    swap(game, 0, 0, 1, 0)
    refused(game, 0, {"type": "deck", "give": 1}, "error.not_your_turn")
    refused(game, 2, {"type": "deck", "give": 1}, "error.not_your_turn")
    assert game.turn == 1


def test_two_players_five_deck_rounds_use_ten_cards_from_the_deck():
    deck = ["b5", "b6", "b7", "b7", "b8", "b8", "b9", "b9", "g6", "g7"]
    game = build(SMALL[:2], dealer=1, deck=deck, fill_deck=False)
    game.rng = RiggedRandom()
    drawn, discarded = [], []
    for number in range(1, 6):
        for seat in (0, 1):
            assert game.round == number and game.turn == seat
            events = deck_exchange(game, seat, game.hidden_positions(seat)[0])
            drawn += [e.params["card"] for e in find(events, "bue.event.you_drew")]
            discarded += [e.params["card"] for e in find(events, "bue.event.exchanged_deck")]
        if number < 5:
            reveal_first_hidden(game)
    assert drawn == deck
    assert len(discarded) == 10
    assert "bue.event.all_revealed" in keys(events) and game.game_number == 2


def test_deck_exchange_discards_face_up_then_draws_the_top_card():
    game = build(
        ["b3 b9 h100 b4 b5", "b1 b2 b6 b7 b8", "b10 b11 b12 b13 b14"], dealer=2, deck=["b15"], discard=["b2"]
    )
    events = deck_exchange(game, 0, 2)
    assert codes(game, 0) == ["b3", "b9", "b15", "b4", "b5"]
    assert not game.hands[0][2].revealed
    assert [code_of(card) for card in game.discard] == ["b2", "h100"]
    assert game.view(None)["discard_top"] == "h100"
    [public] = find(events, "bue.event.exchanged_deck")
    assert public.seats is None and public.params == {"seat": 0, "card": "h100"}
    [private] = find(events, "bue.event.you_drew")
    assert private.seats == (0,) and private.params == {"card": "b15"}
    assert game.turn == 1
    assert_58(game)


def test_nobody_takes_from_the_discard_pile():
    game = build(SMALL[:3], dealer=2, deck=["b20"], discard=["b18", "b19"])
    refused(game, 0, {"type": "discard", "give": 0}, "error.unknown_action")
    refused(game, 0, {"type": "take_discard", "give": 0}, "error.unknown_action")
    deck_exchange(game, 0, 0)
    assert codes(game, 0)[0] == "b20"  # the deck's top card, not the discard's b19


def test_swap_takes_a_card_chosen_blind_by_position_and_only_the_two_learn_it():
    game = build(["b3 b9 b11 b4 b5", "b1 b2 h100 b7 b8", "b10 b11 b12 b13 b14"], dealer=2)
    before = game.view(0)
    assert [slot["card"] for slot in before["hands"][1]] == [None] * 5  # blind: positions only
    events = swap(game, 0, 0, 1, 2)
    assert codes(game, 0) == ["h100", "b9", "b11", "b4", "b5"]
    assert codes(game, 1) == ["b1", "b2", "b3", "b7", "b8"]
    [public] = find(events, "bue.event.swapped")
    assert public.seats is None and public.params == {"seat": 0, "target_seat": 1, "position": 3}
    [mine] = find(events, "bue.event.you_swapped")
    assert mine.seats == (0,) and mine.params == {"other_seat": 1, "gave": "b3", "received": "h100"}
    [theirs] = find(events, "bue.event.you_were_swapped")
    assert theirs.seats == (1,) and theirs.params == {"other_seat": 0, "gave": "h100", "received": "b3"}
    # No one else is told: the third seat sees no card code at all in these events.
    for event in events:
        if event.visible_to(2) or event.visible_to(None):
            assert "b3" not in str(event.params) and "h100" not in str(event.params)
    for seat in (2, None):
        hands = game.view(seat)["hands"]
        assert hands[0][0]["card"] is None and hands[1][2]["card"] is None
    # Each of the two sees the card it now holds.
    assert game.view(0)["hands"][0][0]["card"] == "h100"
    assert game.view(1)["hands"][1][2]["card"] == "b3"


def test_swap_with_oneself_or_with_an_absent_seat_is_refused():
    game = build(SMALL[:3], dealer=2)
    refused(game, 0, {"type": "swap", "give": 0, "target": 0, "take": 1}, "bue.error.swap_with_self")
    refused(game, 0, {"type": "swap", "give": 0, "target": 3, "take": 1}, "bue.error.no_such_player")
    refused(game, 0, {"type": "swap", "give": 0, "target": "1", "take": 1}, "bue.error.no_such_player")
    refused(game, 0, {"type": "swap", "give": 0, "target": 1, "take": 5}, "bue.error.no_such_card")
    refused(game, 0, {"type": "deck", "give": 7}, "bue.error.no_such_card")
    refused(game, 0, {"type": "deck", "give": True}, "bue.error.no_such_card")


def test_own_revealed_cards_can_never_be_given():
    game = build(["b3* b9 b11 b4* b5", "b1 b2 h100 b7 b8", "b10 b11 b12 b13 b14"], dealer=2, round=3)
    refused(game, 0, {"type": "deck", "give": 0}, "bue.error.card_revealed")
    refused(game, 0, {"type": "swap", "give": 3, "target": 1, "take": 0}, "bue.error.card_revealed")
    assert {move["give"] for move in game.legal_exchanges(0)} == {1, 2, 4}


def test_other_players_revealed_cards_can_never_be_taken():
    game = build(["b3 b9 b11 b4 b5", "b1* b2 h100* b7 b8", "b10 b11 b12 b13 b14"], dealer=2, round=3)
    refused(game, 0, {"type": "swap", "give": 0, "target": 1, "take": 2}, "bue.error.card_revealed")
    refused(game, 0, {"type": "swap", "give": 0, "target": 1, "take": 0}, "bue.error.card_revealed")
    taken = {move["take"] for move in game.legal_exchanges(0) if move.get("target") == 1}
    assert taken == {1, 3, 4}


def test_no_swap_back_of_the_same_two_values_in_the_same_round():
    # A (seat 0) gives the 100 and takes B's 4; B may not give A the 100 and take the 4.
    game = build(["h100 b1 b2 b3 b5", "b4 b7 b8 b9 b10", "b11 b12 b13 b14 b15"], dealer=2)
    swap(game, 0, 0, 1, 0)
    assert codes(game, 0)[0] == "b4" and codes(game, 1)[0] == "h100"
    back = {"type": "swap", "give": 0, "target": 0, "take": 0}
    refused(game, 1, back, "bue.error.swap_back")
    assert back not in game.legal_exchanges(1)


def test_swap_with_different_values_is_allowed_in_the_same_round():
    game = build(["h100 b1 b2 b3 b5", "b4 b7 b8 b9 b10", "b11 b12 b13 b14 b15"], dealer=2)
    swap(game, 0, 0, 1, 0)
    swap(game, 1, 0, 0, 1)  # B gives the 100 back but takes the 1, not the 4
    assert codes(game, 0)[:2] == ["b4", "h100"] and codes(game, 1)[0] == "b1"
    game = build(["h100 b1 b2 b3 b5", "b4 b7 b8 b9 b10", "b11 b12 b13 b14 b15"], dealer=2)
    swap(game, 0, 0, 1, 0)
    swap(game, 1, 1, 0, 0)  # B gives the 7, not the 100, and takes the 4
    assert codes(game, 1)[:2] == ["h100", "b4"]


def test_swap_back_is_allowed_in_the_next_round():
    game = build(["h100 b1 b2 b3 b5", "b4 b7 b8 b9 b10", "b11 b12 b13 b14 b15"], dealer=2)
    swap(game, 0, 0, 1, 0)
    deck_exchange(game, 1, 4)
    deck_exchange(game, 2, 4)
    for seat in (0, 1, 2):
        game.apply(seat, {"type": "reveal", "position": 3})
    assert game.round == 2 and game.turn == 0
    deck_exchange(game, 0, 4)
    swap(game, 1, 0, 0, 0)  # now B gives the 100 and takes the 4
    assert codes(game, 0)[0] == "h100" and codes(game, 1)[0] == "b4"


def test_no_swap_back_compares_values_not_cards_and_only_between_the_same_two():
    # A gives g12 for B's 4; B may not give a 12 (even a blue one) for A's 4 this round.
    game = build(["g12 b1 b2 b3 b5", "b4 b12 b8 b9 b10", "b11 b4 b13 b14 b15"], dealer=2)
    swap(game, 0, 0, 1, 0)
    refused(game, 1, {"type": "swap", "give": 1, "target": 0, "take": 0}, "bue.error.swap_back")
    # A third player may make the same exchange of values with A.
    deck_exchange(game, 1, 4)
    swap(game, 2, 1, 0, 0)  # C gives a 4 and takes A's 4: another pair of players
    assert codes(game, 2)[1] == "b4" and codes(game, 0)[0] == "b4"


def test_deck_refill_shuffles_the_discard_pile_except_its_top_card():
    game = build(
        ["b5 b1 b2 b3 b4", "b6 b7 b8 b9 b10", "b11 b12 b13 b14 b15"],
        dealer=2,
        discard=["b16", "b17", "b18"],
        fill_deck=False,
    )
    assert game.deck == []
    events = deck_exchange(game, 0, 0)
    [refill] = find(events, "bue.event.deck_refilled")
    assert refill.seats is None and refill.params == {"size": 3}
    drawn = codes(game, 0)[0]
    assert drawn in {"b16", "b17", "b18"}
    assert [code_of(card) for card in game.discard] == ["b5"]  # the top card stays
    assert sorted([drawn] + [code_of(card) for card in game.deck]) == ["b16", "b17", "b18"]
    assert_58(game)


def test_with_deck_and_discard_empty_only_exchanges_with_players_remain():
    game = build(["b5 b1 b2 b3 b4", "b6 b7 b8 b9 b10", "b11 b12 b13 b14 b15"], dealer=2, fill_deck=False)
    refused(game, 0, {"type": "deck", "give": 0}, "bue.error.deck_empty")
    moves = game.legal_exchanges(0)
    assert moves and all(move["type"] == "swap" for move in moves)
    assert game.default_action(0)["type"] == "swap"


def test_shuffle_reorders_own_hidden_cards_only_at_any_time():
    game = build(["b1 b2 b3 b4 b5", "b6* b7 b8 b9* b10", "b11 b12 b13 b14 b15"], dealer=2, round=3)
    others = (codes(game, 0), codes(game, 2))
    orders = set()
    for _ in range(12):
        events = game.apply(1, {"type": "shuffle"})  # not seat 1's turn: allowed anyway
        assert [(e.key, e.params, e.seats) for e in events] == [("bue.event.shuffled", {"seat": 1}, None)]
        hand = codes(game, 1)
        assert hand[0] == "b6" and hand[3] == "b9"  # revealed cards stay where they are
        assert [slot.revealed for slot in game.hands[1]] == [True, False, False, True, False]
        assert Counter(hand) == Counter(["b6", "b7", "b8", "b9", "b10"])
        orders.add(tuple(hand))
        assert (codes(game, 0), codes(game, 2)) == others
        assert game.turn == 0 and game.exchanged == []  # a shuffle is not an exchange
    assert len(orders) > 1
    game.phase, game.turn = "reveal", None
    game.apply(2, {"type": "shuffle"})  # also while the reveal is being chosen
