"""Build Bué positions by hand, in the rulebook's words ("b20", "g12", "h100", "x2", "x0").

A hand is written as a string of card codes; a trailing ``*`` marks a card already face up:
``"b20 g12* h100 x2 b5"``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from games.bue import Bue
from games.bue.cards import DECK, DECK_SIZE
from games.bue.engine import Slot
from games.core import JSON, LEAVE, Event, GameError, SeededRandom, perform


class Cards:
    """Hands out card ids by code, never the same physical card twice."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, code: str) -> int:
        for card in DECK:
            if card.code == code and card.id not in self.used:
                self.used.add(card.id)
                return card.id
        raise ValueError(f"no {code} left in the deck")

    def rest(self) -> list[int]:
        return [card.id for card in DECK if card.id not in self.used]


def parse(spec: str) -> list[tuple[str, bool]]:
    return [(word.rstrip("*"), word.endswith("*")) for word in spec.split()]


def codes(game: Bue, seat: int) -> list[str]:
    return [DECK[slot.card].code for slot in game.hands[seat]]


def code_of(card_id: int) -> str:
    return DECK[card_id].code


def build(
    hands: Sequence[str | None],
    *,
    dealer: int = 0,
    round: int = 1,
    phase: str = "exchange",
    turn: int | None = None,
    exchanged: Iterable[int] | None = None,
    deck: Sequence[str] = (),
    discard: Sequence[str] = (),
    fill_deck: bool = True,
    target: int = 110,
    points: Sequence[int] | None = None,
    seed: int = 0,
) -> Bue:
    """A match whose current game stands as described.

    ``hands`` has one entry per seat (None: the seat has left). ``deck`` lists the cards
    drawn next, first drawn first; the unused cards go under them unless ``fill_deck`` is
    False (then they are set aside, so every one of the 58 cards stays accounted for).
    ``turn`` defaults to the first seat in exchange order that has not exchanged yet.
    """
    players = len(hands)
    game = Bue.new(players, {"target": target}, seed)
    cards = Cards()
    game.active = [spec is not None for spec in hands]
    game.hands = [
        [Slot(cards.take(code), revealed) for code, revealed in parse(spec)] if spec is not None else []
        for spec in hands
    ]
    game.discard = [cards.take(code) for code in discard]
    top = [cards.take(code) for code in deck]
    rest = cards.rest()
    game.deck = (rest if fill_deck else []) + top[::-1]
    game.set_aside = [] if fill_deck else rest
    game.dealer = dealer
    game.game_number = 1
    game.round = round
    game.phase = phase
    game.reveals = {}
    game.swaps = []
    game.points = list(points) if points is not None else [0] * players
    game.last_hand_gold = [0] * players
    game.result = None
    order = game._exchange_order()
    game.exchanged = list(exchanged) if exchanged is not None else []
    if phase == "exchange":
        game.turn = turn if turn is not None else next(s for s in order if s not in game.exchanged)
    else:
        game.turn = None
    return game


def all_card_ids(game: Bue) -> list[int]:
    ids = [slot.card for hand in game.hands for slot in hand]
    return sorted(ids + game.deck + game.discard + game.set_aside)


def assert_58(game: Bue) -> None:
    assert all_card_ids(game) == list(range(DECK_SIZE))


def snapshot(game: Bue) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def keys(events: Iterable[Event]) -> list[str]:
    return [event.key for event in events]


def find(events: Iterable[Event], key: str) -> list[Event]:
    return [event for event in events if event.key == key]


def deck_exchange(game: Bue, seat: int, give: int) -> list[Event]:
    return game.apply(seat, {"type": "deck", "give": give})


def swap(game: Bue, seat: int, give: int, target: int, take: int) -> list[Event]:
    return game.apply(seat, {"type": "swap", "give": give, "target": target, "take": take})


def first_legal_swap(game: Bue, seat: int) -> dict[str, Any]:
    return next(move for move in game.legal_exchanges(seat) if move["type"] == "swap")


def reveal_first_hidden(game: Bue) -> list[Event]:
    """Every seat still to choose reveals its first hidden card."""
    events: list[Event] = []
    for seat in list(game.to_act()):
        events += game.apply(seat, {"type": "reveal", "position": game.hidden_positions(seat)[0]})
    return events


def end_game(game: Bue, final: Sequence[str | None], last: int | None = None) -> list[Event]:
    """Bring the current game to its end with these final hands, through the engine.

    Every seat but ``last`` (default: the dealer, who exchanges last) holds its final hand,
    already exchanged in round 5. ``last`` holds four of its final cards and a filler, and
    completes the hand with a deck exchange that draws the fifth card.
    """
    order = game._exchange_order()
    last = order[-1] if last is None else last
    cards = Cards()
    hands: list[list[Slot]] = []
    for seat, spec in enumerate(final):
        if spec is None or not game.active[seat]:
            hands.append([])
            continue
        parsed = parse(spec)
        hand = [Slot(cards.take(code), True) for code, _ in parsed]
        hand[-1].revealed = False
        hands.append(hand)
    drawn = hands[last][-1].card
    filler = next(card for card in cards.rest() if DECK[card].kind == "blue")
    cards.used.add(filler)
    hands[last][-1] = Slot(filler)
    game.hands = hands
    game.deck = [*cards.rest(), drawn]
    game.discard = []
    game.set_aside = []
    game.round = 5
    game.phase = "exchange"
    game.reveals = {}
    game.swaps = []
    game.exchanged = order[: order.index(last)]
    game.turn = last
    return deck_exchange(game, last, 4)


class RiggedRandom(SeededRandom):
    """A random stream with fixed shuffles: each full-deck shuffle takes the next preset
    order (identity when none is left); other shuffles keep the order they are given."""

    def __init__(self, deals: Iterable[list[int]] = ()) -> None:
        super().__init__(seed=0)
        self.deals = list(deals)

    def shuffle(self, items: list[Any]) -> None:
        self.draws += 1
        if len(items) == DECK_SIZE and self.deals:
            items[:] = self.deals.pop(0)


def deal_order(game: Bue, dealer: int, hands: dict[int, str]) -> list[int]:
    """The deck order that makes a deal by ``dealer`` give these hands (other seats: fillers)."""
    cards = Cards()
    wanted = {seat: [cards.take(code) for code, _ in parse(spec)] for seat, spec in hands.items()}
    order = [s for s in ((dealer + 1 + i) % game.players for i in range(game.players)) if game.active[s]]
    # Fillers: the lowest blue cards left, five by five (the tests check no filler makes 50).
    fillers = sorted((c for c in cards.rest() if DECK[c].kind == "blue"), key=lambda c: DECK[c].value)
    dealt: list[int] = []
    for seat in order:
        hand = wanted.get(seat) or [fillers.pop(0) for _ in range(5)]
        dealt += hand
    rest = [c for c in range(DECK_SIZE) if c not in set(dealt)]
    return rest + dealt[::-1]


def random_move(
    game: Bue, rnd: Any, *, leave_rate: float = 0.0, shuffle_rate: float = 0.03
) -> tuple[int, JSON]:
    """A move picked cheaply at random: often illegal (a revealed card, a swap back...)."""
    roll = rnd.random()
    if roll < leave_rate + shuffle_rate:
        seat = rnd.choice([s for s in range(game.players) if game.active[s]])
        return seat, {"type": LEAVE if roll < leave_rate else "shuffle"}
    to_act = game.to_act()
    seat = rnd.choice(sorted(to_act))
    if roll > 0.9:
        return seat, game.default_action(seat)
    if to_act[seat] == frozenset({"reveal"}):
        return seat, {"type": "reveal", "position": rnd.randrange(5)}
    if rnd.random() < 0.5:
        return seat, {"type": "deck", "give": rnd.randrange(5)}
    target = rnd.randrange(game.players)
    return seat, {"type": "swap", "give": rnd.randrange(5), "target": target, "take": rnd.randrange(5)}


def fallback_move(game: Bue, seat: int, rnd: Any) -> JSON:
    """A legal move for ``seat``, for when the random pick was refused."""
    if game.to_act()[seat] == frozenset({"reveal"}):
        return {"type": "reveal", "position": rnd.choice(game.hidden_positions(seat))}
    return rnd.choice(game.legal_exchanges(seat))


def play_random(
    game: Bue, rnd: Any, *, leave_rate: float = 0.0, check_refusals: bool = False
) -> tuple[int, JSON, list[Event]]:
    """Play one random legal move; return (seat, action, events) as logged."""
    seat, action = random_move(game, rnd, leave_rate=leave_rate)
    before = snapshot(game) if check_refusals else None
    try:
        return seat, action, perform(game, seat, action)
    except GameError:
        if before is not None:
            assert snapshot(game) == before, f"refused {action} changed the state"
    action = fallback_move(game, seat, rnd)
    return seat, action, perform(game, seat, action)
