"""Bué's computer player: legal moves, decisions from the seat's view only, seeded replays,
and whole matches at every pairing without a single refused move."""

import json

import pytest

from games.bue import Bue
from games.bue.robot import BueRobot, legal_exchanges, random_action
from games.core import GameError, SeededRandom
from games.robots import play_out

from .helpers import build, swap

PAIRINGS = [("hard", "easy"), ("easy", "random"), ("hard", "random")]


class RandomRobot(BueRobot):
    """The arena's baseline: a uniformly random legal action, with memory to avoid swap backs."""

    def decide(self, view):
        return random_action(view, self.random, self.memory)


def robot(level, seed):
    return RandomRobot("easy", seed) if level == "random" else BueRobot(level, seed)


def decide_and_apply(game, seat, bot):
    action = bot.decide(game.view(seat))
    game.apply(seat, action)  # a refusal raises GameError and fails the test
    return action


# ---------------------------------------------------------------------- hand-built positions


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_every_level_is_legal_in_hand_built_positions(level):
    positions = [
        build(["b20 b20 b5 h100 b4", "b1 b2 b3 b6 b7"]),
        build(["b20* b15 h100 b10 b4", "b1* b2 b3 b6 b7"], round=2, phase="reveal"),
        build(["x2 x0 h100 h100 g6", "b11 b12 b13 b14 b15", "b1 b2 b3 b4 b5"], dealer=2),
        build(["b20* b10* b5* b4* h100", "b11* b12* b13* b14 b9*"], round=5, dealer=0, turn=1),
    ]
    for seed in range(5):
        for game in positions:
            game = Bue.from_json(game.to_json())
            seat = min(game.to_act())
            decide_and_apply(game, seat, BueRobot(level, seed))


def test_hard_gives_away_the_hundred():
    game = build(["b20 b20 b5 h100 b4", "b1 b2 b3 b6 b7"])
    action = BueRobot("hard", 0).decide(game.view(0))
    assert action["give"] == 3


def test_hard_locks_a_card_it_keeps_and_not_the_hundred():
    game = build(["b20 b15 h100 b10 b4", "b1* b2 b3 b6 b7"], round=1, phase="reveal")
    action = BueRobot("hard", 0).decide(game.view(0))
    assert action["type"] == "reveal" and action["position"] != 2


def test_hard_passes_its_hundred_to_an_opponent_who_has_exchanged_in_the_last_round():
    # Seat 0 exchanged already; seat 1, the dealer, ends the game: a swap leaves seat 0 at 140+.
    game = build(["b20* b10* b5* b4* b9", "b20* b10* b6* b4* h100"], round=5, dealer=1, exchanged=[0], turn=1)
    action = BueRobot("hard", 0).decide(game.view(1))
    assert action == {"type": "swap", "give": 4, "target": 0, "take": 4}


def test_hard_never_hands_a_bue_in_the_last_round_to_an_opponent_still_to_exchange():
    # Seat 1 (40 face up) has not exchanged: a 10 given to it makes 50 at once. Seat 0 knows
    # seat 1 holds its 12 (51: a near-sure first place), but the swap would end the game on
    # seat 1's Bué.
    game = build(["b20* b10* b5* b4* b10", "b19* b11* b6* b4* b12"], round=5, dealer=1)
    bot = BueRobot("hard", 0)
    bot.memory["known"] = {"1": {"4": "b12"}}
    action = bot.decide(game.view(0))
    assert action == {"type": "deck", "give": 4}


def test_no_swap_back_after_being_swapped_with():
    """Seat 0 gave its 4 for seat 1's 100: seat 1 may not hand the 100 back for the 4 this round,
    and its robots (and the random player given their memory) never try."""
    for seed in range(30):
        game = build(["b4 b4 b8 b8 b7", "h100 h100 b9 b9 b10", "b1 b2 b3 b5 b6"], dealer=2)
        bots = [robot(level, seed) for level in ("hard", "easy", "random")]
        events = swap(game, 0, 0, 1, 0)
        for bot in bots:
            bot.observe(game.view(1), [e for e in events if e.visible_to(1)])
        for bot in bots:
            trial = Bue.from_json(game.to_json())
            decide_and_apply(trial, 1, bot)
        view = game.view(1)
        assert all(
            not (a["type"] == "swap" and a["target"] == 0 and view["hands"][1][a["give"]]["card"] == "h100")
            for a in legal_exchanges(view, bots[0].memory)
        )


def test_random_action_is_uniform_over_legal_actions():
    game = build(["b20 b20 b5 h100 b4", "b1 b2 b3 b6 b7"])
    view = game.view(0)
    legal = legal_exchanges(view)
    assert len(legal) == 5 * (1 + 5)
    random = SeededRandom(7)
    picks = [json.dumps(random_action(view, random), sort_keys=True) for _ in range(3000)]
    counts = {pick: picks.count(pick) for pick in set(picks)}
    assert len(counts) == len(legal)
    assert min(counts.values()) > 50 and max(counts.values()) < 150
    assert all(json.loads(pick)["type"] != "shuffle" for pick in counts)


# ---------------------------------------------------------------------- only the view


def hidden_from(game, seat):
    """Where the cards ``seat`` cannot see are: other seats' hidden slots and the deck."""
    slots = [(owner, p) for owner, hand in enumerate(game.hands) if owner != seat for p, s in enumerate(hand)]
    return [(o, p) for o, p in slots if not game.hands[o][p].revealed]


def permuted(game, seat, rng):
    """The same game as ``seat`` sees it, with every card it cannot see dealt anew."""
    other = Bue.from_json(game.to_json())
    slots = hidden_from(other, seat)
    cards = [other.hands[o][p].card for o, p in slots] + other.deck
    rng.shuffle(cards)
    for (o, p), card in zip(slots, cards, strict=False):
        other.hands[o][p].card = card
    other.deck = cards[len(slots) :]
    return other


def decides_alike_behind_its_back(game: Bue, bots: list[BueRobot], seat: int, rng) -> Bue:
    """One move of ``seat``'s computer, checked against a twin game with the hidden cards re-dealt
    (same view): the same decision, also from a JSON copy of the computer. Plays it, lets every
    computer observe, and returns the twin."""
    twin = permuted(game, seat, rng)
    assert twin.view(seat) == game.view(seat)
    copy = BueRobot.from_json(json.loads(json.dumps(bots[seat].to_json())))
    action = bots[seat].decide(game.view(seat))
    assert copy.decide(twin.view(seat)) == action
    twin.apply(seat, action)
    events = game.apply(seat, action)
    for other, bot in enumerate(bots):
        bot.observe(game.view(other), [e for e in events if e.visible_to(other)])
    return twin


def test_hard_decides_from_the_view_alone():
    """Mid-match positions re-dealt behind the seat's back: same view, same decision."""
    checked = 0
    for seed in range(6):
        game = Bue.new(3, {"target": 10}, seed)
        bots = [BueRobot("hard", seed * 3 + s) for s in range(3)]
        rng = SeededRandom(seed).stream()
        while not game.finished:
            seat = min(game.to_act())
            twin = decides_alike_behind_its_back(game, bots, seat, rng)
            assert twin.to_json() != game.to_json() or not hidden_from(game, seat)
            checked += 1
    assert checked > 50


# ---------------------------------------------------------------------- seeds


def step(game, bots):
    """One action as play_out plays it; returns (seat, action)."""
    seat = min(game.to_act())
    action = bots[seat].decide(game.view(seat))
    events = game.apply(seat, action)
    for other, bot in enumerate(bots):
        bot.observe(game.view(other), [e for e in events if e.visible_to(other)])
    return seat, action


def match_log(players, seed, levels, target=60):
    game = Bue.new(players, {"target": target}, seed)
    bots = [robot(level, seed * 10 + s) for s, level in enumerate(levels)]
    log = []
    while not game.finished:
        log.append(step(game, bots))
    return log, game.totals()


def test_same_seed_same_match():
    first = match_log(3, 5, ["hard", "easy", "random"])
    assert match_log(3, 5, ["hard", "easy", "random"]) == first
    assert match_log(3, 6, ["hard", "easy", "random"]) != first


def test_saved_robots_carry_on_identically():
    """Halfway through, every robot is saved to JSON and loaded: the rest of the match is the same."""
    game = Bue.new(3, {"target": 110}, 11)
    bots = [robot(level, 40 + s) for s, level in enumerate(["hard", "easy", "random"])]
    saved = None
    actions = []
    for count in range(400):
        if game.finished:
            break
        if count == 25:
            saved = game.to_json(), [json.loads(json.dumps(bot.to_json())) for bot in bots], len(actions)
        actions.append(step(game, bots))
    assert saved is not None
    state, robots, done = saved
    game = Bue.from_json(state)
    bots = [type(bot).from_json(data) for bot, data in zip(bots, robots, strict=True)]
    for expected in actions[done:]:
        assert step(game, bots) == expected


# ---------------------------------------------------------------------- whole matches


@pytest.mark.parametrize(("first", "second"), PAIRINGS)
def test_whole_matches_never_refused(first, second):
    """50 seeded matches per pairing, 2 to 5 players, seats alternating levels; a refusal
    would raise GameError. A target of 10 ends each match after one game, to keep the file fast
    (the seeded-replay tests play longer matches)."""
    for seed in range(50):
        players = 2 + seed % 4
        levels = [first if (seat + seed) % 2 == 0 else second for seat in range(players)]
        game = Bue.new(players, {"target": 10}, seed)
        try:
            play_out(game, [robot(level, seed * 10 + seat) for seat, level in enumerate(levels)])
        except GameError as error:  # pragma: no cover - the message names the refusal
            pytest.fail(f"seed {seed}: refused {error.key}")
        assert game.finished and game.winner() is not None
