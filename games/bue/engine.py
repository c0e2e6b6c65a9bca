"""Bué: a match of games to a target, each game five exchange rounds (docs/rules/bue.md).

Actions (JSON):
- ``{"type": "deck", "give": p}``: put own hidden card at position p on the discard, draw.
- ``{"type": "swap", "give": p, "target": s, "take": q}``: give own hidden card p, take
  seat s's hidden card at position q, chosen blind.
- ``{"type": "reveal", "position": p}``: the card to turn face up at the round's end.
- ``{"type": "shuffle"}``: reorder one's own hidden cards (allowed at any time).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from games.bue.cards import DECK, DECK_SIZE, Card
from games.bue.scoring import (
    BUE,
    BUE_POINTS,
    SUPERBUE_POINTS,
    best_value,
    gold_count,
    is_superbue,
    place_points,
    rank_by_distance,
    tie_order,
)
from games.core import JSON, Event, Game, GameError, Option, SeededRandom, action_type, is_int

HAND_SIZE = 5
ROUNDS = 5
EXCHANGES = frozenset({"deck", "swap"})
REVEAL = frozenset({"reveal"})


@dataclass
class Slot:
    card: int
    revealed: bool = False

    def to_json(self) -> JSON:
        return {"card": self.card, "revealed": self.revealed}


def _swap_key(seat: int, other: int, face: str, other_face: str) -> str:
    """The same two values between the same two players, whichever way they move."""
    low, high = sorted([seat, other])
    return f"{low}-{high}:" + "|".join(sorted([face, other_face]))


@dataclass
class Bue(Game):
    name: ClassVar[str] = "bue"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    options: ClassVar[tuple[Option, ...]] = (Option("target", 110, 10, 1000),)

    players: int
    target: int
    rng: SeededRandom
    active: list[bool]
    points: list[int]
    dealer: int = 0
    game_number: int = 0
    round: int = 1
    phase: str = "exchange"  # exchange | reveal | over
    turn: int | None = None
    exchanged: list[int] = field(default_factory=list)
    hands: list[list[Slot]] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    set_aside: list[int] = field(default_factory=list)
    reveals: dict[int, int] = field(default_factory=dict)
    swaps: list[str] = field(default_factory=list)
    last_hand_gold: list[int] = field(default_factory=list)
    result: int | None = None

    # ------------------------------------------------------------------ creation

    @classmethod
    def begin(cls, players: int, options: Mapping[str, int], seed: int) -> tuple[Self, list[Event]]:
        cls.check_player_count(players)
        resolved = cls.resolve_options(options)
        rng = SeededRandom(seed)
        game = cls(
            players=players,
            target=resolved["target"],
            rng=rng,
            active=[True] * players,
            points=[0] * players,
            last_hand_gold=[0] * players,
        )
        game.dealer = rng.randrange(players)
        events: list[Event] = []
        game._deal(events)
        return game, events

    # ------------------------------------------------------------------ helpers

    def _seats_from(self, first: int) -> list[int]:
        """Active seats clockwise starting at ``first``."""
        return [s for s in ((first + i) % self.players for i in range(self.players)) if self.active[s]]

    def _next_active(self, seat: int) -> int:
        return self._seats_from((seat + 1) % self.players)[0]

    def _exchange_order(self) -> list[int]:
        return self._seats_from((self.dealer + 1) % self.players)

    def cards_of(self, seat: int) -> list[Card]:
        return [DECK[slot.card] for slot in self.hands[seat]]

    def hidden_positions(self, seat: int) -> list[int]:
        return [p for p, slot in enumerate(self.hands[seat]) if not slot.revealed]

    def _deal(self, events: list[Event]) -> None:
        self.game_number += 1
        self.round = 1
        self.phase = "exchange"
        self.exchanged = []
        self.reveals = {}
        self.swaps = []
        cards = list(range(DECK_SIZE))
        self.rng.shuffle(cards)
        self.hands = [[] for _ in range(self.players)]
        self.discard = []
        self.set_aside = []
        for seat in self._exchange_order():
            self.hands[seat] = [Slot(cards.pop()) for _ in range(HAND_SIZE)]
        self.deck = cards
        self.turn = self._exchange_order()[0]
        events.append(Event("bue.event.dealt", {"game": self.game_number, "dealer_seat": self.dealer}))
        for seat in self._exchange_order():
            codes = [DECK[slot.card].code for slot in self.hands[seat]]
            events.append(Event("bue.event.your_hand", {"cards": codes}, seats=(seat,)))
        self._check_bue(self._exchange_order(), events)

    def _draw(self, events: list[Event]) -> int:
        if not self.deck:
            # The discard pile except its top card becomes the new deck.
            self.deck, self.discard = self.discard[:-1], self.discard[-1:]
            self.rng.shuffle(self.deck)
            events.append(Event("bue.event.deck_refilled", {"size": len(self.deck)}))
        return self.deck.pop()

    def _deck_usable(self) -> bool:
        # After discarding, the old discard pile (if any) can refill an empty deck.
        return bool(self.deck) or bool(self.discard)

    def _swap_forbidden(self, seat: int, target: int, give: int, take: int) -> bool:
        if not self.swaps:
            return False
        given, taken = DECK[self.hands[seat][give].card], DECK[self.hands[target][take].card]
        return _swap_key(seat, target, given.face, taken.face) in self.swaps

    # ------------------------------------------------------------------ queries

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    def totals(self) -> list[int]:
        return list(self.points)

    def winner(self) -> int | None:
        return self.result

    def to_act(self) -> dict[int, frozenset[str]]:
        if self.phase == "exchange" and self.turn is not None:
            return {self.turn: EXCHANGES}
        if self.phase == "reveal":
            return {seat: REVEAL for seat in self._exchange_order() if seat not in self.reveals}
        return {}

    def legal_exchanges(self, seat: int) -> list[JSON]:
        """Every exchange ``seat`` may make now (empty when it is not their turn)."""
        return self._exchanges_for(seat) if self.to_act().get(seat) == EXCHANGES else []

    def _exchanges_for(self, seat: int) -> list[JSON]:
        return list(self._iter_exchanges(seat))

    def _iter_exchanges(self, seat: int) -> Iterator[JSON]:
        for give in self.hidden_positions(seat):
            if self._deck_usable():
                yield {"type": "deck", "give": give}
            for target in self._exchange_order():
                if target == seat:
                    continue
                for take in self.hidden_positions(target):
                    if not self._swap_forbidden(seat, target, give, take):
                        yield {"type": "swap", "give": give, "target": target, "take": take}

    def default_action(self, seat: int) -> JSON:
        """Deck exchange of the hidden card that keeps the hand furthest from 50; reveal the lowest."""
        allowed = self.to_act().get(seat)
        if allowed == REVEAL:
            hidden = self.hidden_positions(seat)
            return {
                "type": "reveal",
                "position": min(hidden, key=lambda p: (DECK[self.hands[seat][p].card].value, p)),
            }
        if allowed == EXCHANGES:
            cards = self.cards_of(seat)
            hidden = self.hidden_positions(seat)
            worst = min(
                hidden,
                key=lambda p: (best_value(cards[:p] + cards[p + 1 :]).distance, p),
            )
            legal = self.legal_exchanges(seat)
            preferred = [m for m in legal if m["give"] == worst]
            return (preferred or legal or [{"type": "deck", "give": worst}])[0]
        raise GameError("error.not_your_decision")

    # ------------------------------------------------------------------ actions

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        kind = action_type(seat, action)
        if self.phase == "over":
            raise GameError("error.game_over")
        if not 0 <= seat < self.players or not self.active[seat]:
            raise GameError("error.not_a_player")
        if kind == "shuffle":
            return self._shuffle(seat)
        allowed = self.to_act().get(seat)
        if kind in EXCHANGES:
            if allowed != EXCHANGES:
                raise GameError("error.not_your_turn")
            return self._exchange(seat, action)
        if kind == "reveal":
            if allowed != REVEAL:
                raise GameError("bue.error.not_reveal_time")
            return self._reveal(seat, self._position(action, "position", seat))
        raise GameError("error.unknown_action")

    def _position(self, action: Mapping[str, Any], key: str, seat: int) -> int:
        position = action.get(key)
        if not is_int(position) or not 0 <= position < HAND_SIZE:
            raise GameError("bue.error.no_such_card")
        if self.hands[seat][position].revealed:
            raise GameError("bue.error.card_revealed")
        return position

    def _shuffle(self, seat: int) -> list[Event]:
        hidden = self.hidden_positions(seat)
        cards = [self.hands[seat][p].card for p in hidden]
        chosen = self.hands[seat][self.reveals[seat]].card if seat in self.reveals else None
        self.rng.shuffle(cards)
        for position, card in zip(hidden, cards, strict=True):
            self.hands[seat][position].card = card
        if chosen is not None:
            # A reveal already chosen is a card, not a place: it follows the card.
            self.reveals[seat] = next(p for p in hidden if self.hands[seat][p].card == chosen)
        return [Event("bue.event.shuffled", {"seat": seat})]

    def _exchange(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        give = self._position(action, "give", seat)
        events: list[Event] = []
        if action["type"] == "deck":
            if not self._deck_usable():
                raise GameError("bue.error.deck_empty")
            card = self.hands[seat][give].card
            self.discard.append(card)
            drawn = self._draw(events)
            self.hands[seat][give].card = drawn
            events.insert(0, Event("bue.event.exchanged_deck", {"seat": seat, "card": DECK[card].code}))
            events.append(Event("bue.event.you_drew", {"card": DECK[drawn].code}, seats=(seat,)))
            affected = [seat]
        else:
            target = action.get("target")
            if not is_int(target) or not 0 <= target < self.players:
                raise GameError("bue.error.no_such_player")
            if target == seat:
                raise GameError("bue.error.swap_with_self")
            if not self.active[target]:
                raise GameError("bue.error.no_such_player")
            take = self._position(action, "take", target)
            if self._swap_forbidden(seat, target, give, take):
                raise GameError("bue.error.swap_back")
            given, taken = self.hands[seat][give].card, self.hands[target][take].card
            self.hands[seat][give].card, self.hands[target][take].card = taken, given
            self.swaps.append(_swap_key(seat, target, DECK[given].face, DECK[taken].face))
            events.append(
                Event("bue.event.swapped", {"seat": seat, "target_seat": target, "position": take + 1})
            )
            events.append(
                Event(
                    "bue.event.you_swapped",
                    {"other_seat": target, "gave": DECK[given].code, "received": DECK[taken].code},
                    seats=(seat,),
                )
            )
            events.append(
                Event(
                    "bue.event.you_were_swapped",
                    {"other_seat": seat, "gave": DECK[taken].code, "received": DECK[given].code},
                    seats=(target,),
                )
            )
            affected = [seat, target]
        self.exchanged.append(seat)
        if self._check_bue(affected, events):
            return events
        self._advance_turn(events)
        return events

    def _advance_turn(self, events: list[Event]) -> None:
        remaining = [s for s in self._exchange_order() if s not in self.exchanged]
        while remaining:
            candidate = remaining[0]
            if next(self._iter_exchanges(candidate), None) is not None:
                self.turn = candidate
                return
            # Only reachable when every exchange is blocked (deck and discard gone, every
            # swap a swap-back): the player passes rather than stalling the table.
            self.exchanged.append(candidate)
            events.append(Event("bue.event.no_exchange", {"seat": candidate}))
            remaining.pop(0)
        self.turn = None
        if self.round == ROUNDS:
            for seat in self._exchange_order():
                for slot in self.hands[seat]:
                    slot.revealed = True
            events.append(Event("bue.event.all_revealed", self._hands_param()))
            self._score_closest(events)
        else:
            self.phase = "reveal"
            events.append(Event("bue.event.reveal_time", {"round": self.round}))

    def _reveal(self, seat: int, position: int) -> list[Event]:
        self.reveals[seat] = position
        events = [Event("bue.event.reveal_chosen", {"seat": seat})]
        if not self.to_act():
            self._complete_reveals(events)
        return events

    def _complete_reveals(self, events: list[Event]) -> None:
        """Every seat has chosen: all chosen cards turn face up together."""
        revealed = {}
        for who, where in sorted(self.reveals.items()):
            self.hands[who][where].revealed = True
            revealed[str(who)] = DECK[self.hands[who][where].card].code
        events.append(Event("bue.event.revealed", {"cards": revealed}))
        self.reveals = {}
        self.round += 1
        self.phase = "exchange"
        self.exchanged = []
        self.swaps = []
        events.append(Event("bue.event.round_started", {"round": self.round}))
        self._advance_turn(events)

    def _hands_param(self) -> dict[str, list[str]]:
        return {str(seat): [card.code for card in self.cards_of(seat)] for seat in self._exchange_order()}

    # ------------------------------------------------------------------ scoring

    def _check_bue(self, seats: Sequence[int], events: list[Event]) -> bool:
        """Declare Bué/SuperBué for whoever has it now; the game ends at once."""
        makers = [seat for seat in seats if best_value(self.cards_of(seat)).total == BUE]
        if not makers:
            return False
        gold = {seat: gold_count(self.cards_of(seat)) for seat in makers}
        seat = tie_order(makers, self.dealer, self.players, gold)[0]
        cards = self.cards_of(seat)
        superbue = is_superbue(cards)
        points = {seat: SUPERBUE_POINTS if superbue else BUE_POINTS}
        events.append(
            Event(
                "bue.event.superbue" if superbue else "bue.event.bue",
                {"seat": seat, "cards": [card.code for card in cards]},
            )
        )
        self._end_game(points, None, events)
        return True

    def _score_closest(self, events: list[Event]) -> None:
        seats = self._exchange_order()
        sums = {seat: best_value(self.cards_of(seat)).total for seat in seats}
        gold = {seat: gold_count(self.cards_of(seat)) for seat in seats}
        ranking = rank_by_distance(sums, gold, self.dealer, self.players)
        self._end_game(place_points(ranking), {str(s): sums[s] for s in seats}, events)

    def _end_game(self, points: dict[int, int], sums: dict[str, int] | None, events: list[Event]) -> None:
        for seat in self._exchange_order():
            self.points[seat] += points.get(seat, 0)
            self.last_hand_gold[seat] = gold_count(self.cards_of(seat))
        events.append(
            Event(
                "bue.event.game_scored",
                {
                    "game": self.game_number,
                    "points": [points.get(seat, 0) for seat in range(self.players)],
                    "sums": sums,
                    "totals": list(self.points),
                },
            )
        )
        self.turn = None
        leaders = [seat for seat in self._exchange_order() if self.points[seat] >= self.target]
        if leaders:
            best = max(self.points[seat] for seat in self._exchange_order())
            top = [seat for seat in self._exchange_order() if self.points[seat] == best]
            self.result = tie_order(top, self.dealer, self.players, dict(enumerate(self.last_hand_gold)))[0]
            self.phase = "over"
            events.append(Event("bue.event.match_won", {"seat": self.result, "totals": list(self.points)}))
            return
        self.dealer = self._next_active(self.dealer)
        self._deal(events)

    # ------------------------------------------------------------------ leaving

    def remove_player(self, seat: int) -> list[Event]:
        if self.phase == "over" or not 0 <= seat < self.players or not self.active[seat]:
            raise GameError("error.not_a_player")
        events = [Event("bue.event.player_left", {"seat": seat})]
        self.active[seat] = False
        self.set_aside.extend(slot.card for slot in self.hands[seat])
        self.hands[seat] = []
        self.reveals.pop(seat, None)
        if sum(self.active) < self.min_players:
            self.phase = "over"
            self.turn = None
            events.append(Event("bue.event.match_abandoned"))
            return events
        if self.dealer == seat:
            # The seat before the dealer button keeps the exchange order unchanged
            # (the last active seat going clockwise from the one who left).
            self.dealer = self._seats_from(seat)[-1]
        if self.phase == "exchange" and self.turn == seat:
            self.exchanged.append(seat)
            self._advance_turn(events)
        elif self.phase == "reveal" and not self.to_act():
            self._complete_reveals(events)
        return events

    # ------------------------------------------------------------------ views

    def hand(self, seat: int) -> object:
        # The cards in their positions: others take a hidden card by its position.
        return [DECK[slot.card].code for slot in self.hands[seat]] if self.active[seat] else None

    def view(self, seat: int | None) -> JSON:
        def slot_view(owner: int, slot: Slot) -> JSON:
            visible = slot.revealed or owner == seat
            return {"card": DECK[slot.card].code if visible else None, "revealed": slot.revealed}

        view: JSON = {
            "game": self.name,
            "players": self.players,
            "active": list(self.active),
            "target": self.target,
            "totals": list(self.points),
            "game_number": self.game_number,
            "round": self.round,
            "rounds": ROUNDS,
            "phase": self.phase,
            "dealer": self.dealer,
            "turn": self.turn,
            "to_act": sorted(self.to_act()),
            "deck": len(self.deck),
            "discard": len(self.discard),
            "discard_top": DECK[self.discard[-1]].code if self.discard else None,
            "hands": [[slot_view(owner, slot) for slot in hand] for owner, hand in enumerate(self.hands)],
            "winner": self.result,
            "me": seat,
        }
        if seat is not None and self.active[seat] and self.hands[seat]:
            value = best_value(self.cards_of(seat))
            view["best"] = {
                "total": value.total,
                "multipliers": {str(k): v for k, v in value.multipliers.items()},
            }
            view["my_reveal"] = self.reveals.get(seat)
        return view

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> JSON:
        # Copies, not the live lists: a saved state must not change with later play.
        return {
            "players": self.players,
            "target": self.target,
            "rng": self.rng.to_json(),
            "active": list(self.active),
            "points": list(self.points),
            "dealer": self.dealer,
            "game_number": self.game_number,
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "exchanged": list(self.exchanged),
            "hands": [[slot.to_json() for slot in hand] for hand in self.hands],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "set_aside": list(self.set_aside),
            "reveals": {str(k): v for k, v in self.reveals.items()},
            "swaps": list(self.swaps),
            "last_hand_gold": list(self.last_hand_gold),
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(
            players=data["players"],
            target=data["target"],
            rng=SeededRandom.from_json(data["rng"]),
            active=list(data["active"]),
            points=list(data["points"]),
            dealer=data["dealer"],
            game_number=data["game_number"],
            round=data["round"],
            phase=data["phase"],
            turn=data["turn"],
            exchanged=list(data["exchanged"]),
            hands=[[Slot(s["card"], s["revealed"]) for s in hand] for hand in data["hands"]],
            deck=list(data["deck"]),
            discard=list(data["discard"]),
            set_aside=list(data["set_aside"]),
            reveals={int(k): v for k, v in data["reveals"].items()},
            swaps=list(data["swaps"]),
            last_hand_gold=list(data["last_hand_gold"]),
            result=data["result"],
        )
