"""The simultaneous reveal (docs/rules/bue.md: reveal after each round; all face up after round 5)."""

from ..refusals import refused
from .helpers import RiggedRandom, build, codes, deck_exchange, find, keys

HANDS = ["b1 b2 b3 b4 b5", "b6 b7 b8 b9 b10", "b11 b12 b13 b14 b15"]


def test_reveal_choices_stay_hidden_until_the_last_player_has_chosen():
    game = build(HANDS, dealer=2, phase="reveal")
    assert game.to_act() == {0: {"reveal"}, 1: {"reveal"}, 2: {"reveal"}}
    events = game.apply(0, {"type": "reveal", "position": 2})
    assert [(e.key, e.params, e.seats) for e in events] == [("bue.event.reveal_chosen", {"seat": 0}, None)]
    events += game.apply(2, {"type": "reveal", "position": 4})
    for seat in (None, 0, 1, 2):
        view = game.view(seat)
        assert not any(slot["revealed"] for hand in view["hands"] for slot in hand)
        for owner in (0, 1, 2):
            if owner != seat:
                assert all(slot["card"] is None for slot in view["hands"][owner])
    assert game.view(0)["my_reveal"] == 2 and game.view(2)["my_reveal"] == 4
    assert game.view(1)["my_reveal"] is None and "my_reveal" not in game.view(None)
    assert game.to_act() == {1: {"reveal"}}
    assert "b3" not in str([e.params for e in events]) and "b15" not in str([e.params for e in events])
    # The last choice turns all three cards face up together.
    events = game.apply(1, {"type": "reveal", "position": 0})
    [shown] = find(events, "bue.event.revealed")
    assert shown.seats is None and shown.params == {"cards": {"0": "b3", "1": "b6", "2": "b15"}}
    assert [game.hands[0][2].revealed, game.hands[1][0].revealed, game.hands[2][4].revealed] == [True] * 3
    assert sum(slot.revealed for hand in game.hands for slot in hand) == 3
    assert game.view(None)["hands"][0][2] == {"card": "b3", "revealed": True}
    assert game.round == 2 and game.phase == "exchange" and game.turn == 0
    assert "bue.event.round_started" in keys(events)


def test_a_reveal_choice_cannot_be_changed_or_made_twice():
    game = build(HANDS, dealer=2, phase="reveal")
    game.apply(0, {"type": "reveal", "position": 2})
    refused(game, 0, {"type": "reveal", "position": 3}, "bue.error.not_reveal_time")


def test_reveal_only_a_hidden_card_and_only_at_reveal_time():
    game = build(
        ["b1 b2* b3 b4 b5", "b6 b7 b8 b9 b10", "b11 b12 b13 b14 b15"], dealer=2, phase="reveal", round=2
    )
    refused(game, 0, {"type": "reveal", "position": 1}, "bue.error.card_revealed")
    refused(game, 0, {"type": "reveal", "position": 5}, "bue.error.no_such_card")
    refused(game, 0, {"type": "reveal"}, "bue.error.no_such_card")
    refused(game, 0, {"type": "deck", "give": 0}, "error.not_your_turn")
    game = build(HANDS, dealer=2)
    refused(game, 0, {"type": "reveal", "position": 0}, "bue.error.not_reveal_time")


def test_after_round_5_all_five_cards_are_face_up_automatically():
    game = build(
        ["b1* b2* b3* b4* b5", "b6* b7* b8* b9* b10", "b11* b12* b13* b14* b15"],
        dealer=2,
        round=5,
        deck=["b16", "b17", "b18"],
    )
    game.rng = RiggedRandom()
    deck_exchange(game, 0, 4)
    deck_exchange(game, 1, 4)
    before = [codes(game, seat) for seat in range(3)]
    before[2][4] = "b18"
    events = deck_exchange(game, 2, 4)
    assert not find(events, "bue.event.reveal_time")
    [shown] = find(events, "bue.event.all_revealed")
    assert shown.seats is None and shown.params == {str(seat): before[seat] for seat in range(3)}
    [scored] = find(events, "bue.event.game_scored")
    assert scored.params["sums"] == {"0": 26, "1": 47, "2": 68}
    assert keys(events).index("bue.event.all_revealed") < keys(events).index("bue.event.game_scored")


def test_reordering_after_choosing_still_reveals_the_chosen_card():
    game = build(HANDS, dealer=2, phase="reveal")
    game.apply(0, {"type": "reveal", "position": 2})  # the b3
    for _ in range(6):
        game.apply(0, {"type": "shuffle"})
        chosen = game.view(0)["my_reveal"]
        assert game.view(0)["hands"][0][chosen]["card"] == "b3"
    game.apply(1, {"type": "reveal", "position": 0})
    events = game.apply(2, {"type": "reveal", "position": 0})
    assert find(events, "bue.event.revealed")[0].params["cards"]["0"] == "b3"
    shown = [code for code, slot in zip(codes(game, 0), game.hands[0], strict=True) if slot.revealed]
    assert shown == ["b3"]
