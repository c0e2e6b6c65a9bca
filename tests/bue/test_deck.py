"""The 58-card deck as one data table, and the deal (docs/rules/bue.md: deck; the deal)."""

from collections import Counter

from games.bue import Bue
from games.bue.cards import DECK, DECK_COMPOSITION, DECK_SIZE, build_deck

from .helpers import assert_58, codes, end_game


def test_deck_table_counts_and_values():
    assert DECK_SIZE == len(DECK) == 58
    assert [card.id for card in DECK] == list(range(58))
    assert Counter(card.kind for card in DECK) == {"blue": 40, "gold": 10, "hundred": 4, "x2": 2, "x0": 2}
    blue = Counter(card.value for card in DECK if card.kind == "blue")
    assert blue == {value: 2 for value in range(1, 21)}
    gold = Counter(card.value for card in DECK if card.kind == "gold")
    assert gold == {value: 1 for value in range(6, 16)}
    assert [card.value for card in DECK if card.kind == "hundred"] == [100] * 4
    assert [card.value for card in DECK if card.is_multiplier] == [0] * 4


def test_deck_is_built_from_the_single_data_table():
    assert build_deck() == DECK
    assert sum(len(values) * copies for _, values, copies in DECK_COMPOSITION) == 58


def test_card_codes_and_faces():
    by_code = Counter(card.code for card in DECK)
    assert by_code["b7"] == 2 and by_code["g12"] == 1 and by_code["h100"] == 4
    assert by_code["x2"] == 2 and by_code["x0"] == 2
    # The no-swap-back rule compares values: a gold 12 says 12 like a blue 12.
    faces = {card.code: card.face for card in DECK}
    assert faces["g12"] == faces["b12"] == "12"
    assert faces["x2"] == "x2" and faces["x0"] == "x0"


def test_the_dealer_deals_five_cards_each_face_down():
    for players in range(2, 11):
        game = Bue.new(players, {}, seed=players)
        assert_58(game)
        for seat in range(players):
            assert len(game.hands[seat]) == 5
            assert not any(slot.revealed for slot in game.hands[seat])
        assert len(game.deck) == 58 - 5 * players - len(game.discard)
        table = game.view(None)
        assert all(slot["card"] is None for hand in table["hands"] for slot in hand)
        mine = game.view(0)
        assert [slot["card"] for slot in mine["hands"][0]] == codes(game, 0)
        assert all(slot["card"] is None for hand in mine["hands"][1:] for slot in hand)


def test_the_deal_tells_each_player_their_own_hand_only():
    game = Bue.new(4, {}, seed=3)
    assert game.game_number == 1  # no Bué at this deal
    game.points = [0] * 4
    # A new deal happens at the end of a game; its events tell each seat its own hand.
    events = end_game(game, ["b1 b2 b3 b4 b5", "b6 b7 b8 b9 b10", "b11 b12 b13 b14 b15", "b1 b2 b3 b4 b6"])
    dealt = [e for e in events if e.key == "bue.event.dealt"]
    assert dealt and dealt[-1].seats is None
    assert game.game_number == 2  # (this seed makes no Bué at the new deal)
    hands = [e for e in events if e.key == "bue.event.your_hand"]
    assert sorted(e.seats for e in hands) == [(0,), (1,), (2,), (3,)]
    for event in hands:
        assert event.params["cards"] == codes(game, event.seats[0])


def test_the_first_dealer_is_random_and_seeded():
    first = {seed: Bue.new(4, {}, seed) for seed in range(60)}
    for seed, game in first.items():
        again = Bue.new(4, {}, seed)
        assert again.dealer == game.dealer and again.to_json() == game.to_json()
    assert {game.dealer for game in first.values() if game.game_number == 1} == {0, 1, 2, 3}
    for game in first.values():
        if game.game_number == 1:
            # The seat after the dealer exchanges first.
            assert game.turn == (game.dealer + 1) % 4


def test_begin_tells_each_seat_its_first_hand_and_nobody_else():
    for seed in range(20):
        game, events = Bue.begin(5, {}, seed)
        assert game.to_json() == Bue.new(5, {}, seed).to_json()
        dealt = [e for e in events if e.key == "bue.event.dealt"]
        assert dealt[0].params == {"game": 1, "dealer_seat": dealt[0].params["dealer_seat"]}
        assert all(e.seats is None for e in dealt)
        last = max(i for i, e in enumerate(events) if e.key == "bue.event.dealt")
        hands = [e for e in events[last:] if e.key == "bue.event.your_hand"]
        assert sorted(e.seats for e in hands) == [(s,) for s in range(5)]
        for event in hands:
            assert event.params["cards"] == codes(game, event.seats[0])


def test_begin_declares_a_bue_made_by_the_first_deal():
    seed = next(s for s in range(500) if Bue.new(6, {}, s).game_number > 1)
    game, events = Bue.begin(6, {}, seed)
    keys = [e.key for e in events]
    assert keys[0] == "bue.event.dealt" and keys[1:7] == ["bue.event.your_hand"] * 6
    assert keys[7] in ("bue.event.bue", "bue.event.superbue")
    assert sum(game.totals()) in (50, 70)
