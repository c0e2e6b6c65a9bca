"""Bué's hard play at a whole table: the sampled worlds are the seat's view dealt out, the quick
valuations agree with the engine's, and decisions stay legal, view-only and seeded at every size."""

import random
from collections import Counter

import pytest

from games.bue import Bue
from games.bue.cards import DECK, Card
from games.bue.planner import (
    HUNDRED,
    TOKENS,
    X0,
    X2,
    Planner,
    bue_makers,
    hand_total,
    known_slots,
    token,
    unknown_pool,
)
from games.bue.robot import BueRobot
from games.bue.scoring import BUE, best_value
from games.bue.stakes import points_stakes
from games.bue.strategy import hit_odds, sample_worlds
from games.core import GameError, SeededRandom
from games.robots import play_out

from .test_robot import decides_alike_behind_its_back, step

TOKEN_DECK = [token(card.code) for card in DECK]
NUMBERS = [card for card in TOKEN_DECK if card < X2]


def engine_total(tokens):
    kinds = {X2: "x2", X0: "x0", HUNDRED: "hundred"}
    return best_value([Card(0, kinds.get(t, "blue"), 0 if t >= X2 else t) for t in tokens]).total


def hands_with_multipliers(count, size, seed):
    rng = random.Random(seed)
    for _ in range(count):
        multipliers = rng.sample([X2, X2, X0, X0], rng.choice([0, 1, 1, 2, 2, 3]))
        yield tuple(sorted(multipliers + rng.sample(NUMBERS, size - len(multipliers))))


def test_the_quick_totals_are_the_engines():
    for hand in hands_with_multipliers(3000, 5, 1):
        assert hand_total(hand) == engine_total(hand), hand


def test_the_cards_that_make_50_are_the_engines():
    for rest in hands_with_multipliers(1500, 4, 2):
        assert bue_makers(rest) == tuple(c for c in TOKENS if engine_total((*rest, c)) == BUE), rest


def test_the_quick_hit_odds_are_the_planners():
    pool = Counter(TOKEN_DECK)
    planner = Planner(points_stakes(4, 4, 0, (True,) * 4), pool, pool)
    rng = random.Random(3)
    for _ in range(2000):
        hand = rng.sample(TOKEN_DECK, 5)
        split = rng.randrange(5)
        locked, hidden = tuple(hand[:split]), hand[split:]
        slow = max(planner.hit_chance((*locked, *hidden[:i], *hidden[i + 1 :])) for i in range(len(hidden)))
        assert hit_odds(planner, locked, hidden) == pytest.approx(slow)


def mid_game(players, seed, actions):
    """A match some way in, with every seat's robot having observed it all."""
    game = Bue.new(players, {"target": 500}, seed)
    bots = [BueRobot("hard" if seat == 0 else "easy", seed * 10 + seat) for seat in range(players)]
    for _ in range(actions):
        step(game, bots)
    return game, bots


@pytest.mark.parametrize("players", [3, 6, 10])
def test_sampled_worlds_deal_the_unseen_cards_into_the_unseen_slots(players):
    for seed in range(4):
        game, bots = mid_game(players, seed, 3 * players)
        seat = 1
        view, memory = game.view(seat), bots[seat].memory
        pool = unknown_pool(view, memory)
        known = known_slots(memory, view)
        for world in sample_worlds(view, memory, 20, random.Random(seed)):
            for other in range(players):
                hidden = [p for p, slot in enumerate(game.hands[other]) if not slot.revealed]
                if other == seat or not game.active[other]:
                    assert other not in world.hands
                    continue
                assert sorted(world.hands[other]) == hidden
                for position, code in known.get(other, {}).items():
                    assert world.hands[other][position] == token(code)
            dealt = Counter(
                card
                for other, slots in world.hands.items()
                for position, card in slots.items()
                if position not in known.get(other, {})
            )
            assert not dealt - pool


@pytest.mark.parametrize(("players", "seeds"), [(4, 3), (6, 2), (10, 1)])
def test_hard_decides_from_the_view_alone_at_every_size(players, seeds):
    """Positions re-dealt behind the seat's back, at bigger tables: same view, same decision."""
    checked = 0
    for seed in range(seeds):
        game = Bue.new(players, {"target": 60}, seed)
        bots = [BueRobot("hard", seed * 10 + s) for s in range(players)]
        rng = SeededRandom(seed).stream()
        while not game.finished and checked < 60 * (seed + 1):
            decides_alike_behind_its_back(game, bots, min(game.to_act()), rng)
            checked += 1
    assert checked > 30 * seeds


@pytest.mark.parametrize("players", [6, 10])
def test_whole_matches_at_big_tables_are_legal_and_replay(players):
    """hard against easy at big tables: never refused, and the same seed plays the same match."""
    logs = []
    for _ in range(2):
        game = Bue.new(players, {"target": 60}, players)
        bots = [BueRobot("hard" if seat % 2 == 0 else "easy", seat) for seat in range(players)]
        try:
            log = []
            while not game.finished:
                log.append(step(game, bots))
        except GameError as error:  # pragma: no cover - the message names the refusal
            pytest.fail(f"refused {error.key}")
        logs.append((log, game.totals()))
    assert logs[0] == logs[1]


def test_play_out_at_ten_seats_of_hard():
    game = Bue.new(10, {"target": 10}, 3)
    play_out(game, [BueRobot("hard", seat) for seat in range(10)])
    assert game.finished and game.winner() is not None
