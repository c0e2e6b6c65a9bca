"""The arena's ceiling for Bué: the ``hard`` planner handed hidden cards instead of samples.

It reads the match itself, which no player can, so it exists in the bench only: nothing in
``bot/`` or ``games/`` builds it. Three kinds split the ceiling by what is seen:

- ``oracle``: every hidden hand and the deck's order. Its one world is the truth, so each
  exchange is scored with the card it will really receive and every other seat's real hand.
- ``oracle_hands``: every hidden hand, but not the deck's order: a take brings the card it
  sees, a draw any card of the deck, as likely as its count.
- ``oracle_deck``: the next card of the deck, but not the others' hands (sampled as ``hard``
  samples them): what knowing the draw alone is worth.
- ``oracle_race``: the others' hands, only to weigh the race (each seat's odds of a Bué, what a
  take breaks, a gift that completes the target's hand); a blind take still brings an unseen
  card, as ``hard`` reckons it. What seeing hands is worth to everything but choosing the card
  to take.
"""

from __future__ import annotations

from collections import Counter

from games.bue import Bue
from games.bue.cards import DECK
from games.bue.planner import BUE, deck_pool, known_slots, token, total_of, unknown_pool
from games.bue.robot import BueRobot, Sight, hard_decision, legal_exchanges, samples
from games.bue.strategy import World, sample_worlds
from games.core import JSON

ORACLES = ("oracle", "oracle_hands", "oracle_deck", "oracle_race")
# ``hard`` kept from some of its exchanges, to see what they are worth: ``hard_safe_gifts`` reads
# the hands only to drop every swap whose gift makes 50 in the target's hand at once (the most
# that care with gifts could bring); ``hard_no_blind_swaps`` exchanges with the deck, or takes
# back a card it placed, and never takes blind (what blind swaps bring).
VARIANTS = ("hard_safe_gifts", "hard_no_blind_swaps")


class OracleRobot(BueRobot):
    def __init__(self, match: Bue, seed: int, sees: str = "oracle") -> None:
        super().__init__("hard", seed)
        self.match, self.sees = match, sees

    def decide(self, view: JSON) -> JSON:
        game, me = self.match, view["me"]
        # The next draw; with an empty deck the refill is shuffled later, so any card of it.
        upcoming = game.deck or game.discard[:-1] or game.discard
        deck = Counter(token(DECK[card].code) for card in upcoming) or Counter({10: 1})
        draw = token(DECK[upcoming[-1]].code) if upcoming else 10
        if self.sees == "oracle_deck":
            unknown = unknown_pool(view, self.memory)
            planning = view["phase"] == "exchange" and view["round"] < 5
            count = samples(sum(view["active"])) if planning else 0
            worlds = sample_worlds(view, self.memory, count, self.random.stream()) if count else []
            known = known_slots(self.memory, view)
            sight = Sight(unknown, Counter({draw: 1}), known, worlds)
            return hard_decision(view, self.memory, sight)
        known = {
            seat: {p: DECK[slot.card].code for p, slot in enumerate(hand) if not slot.revealed}
            for seat, hand in enumerate(game.hands)
            if seat != me and game.active[seat]
        }
        hands = {seat: {p: token(code) for p, code in slots.items()} for seat, slots in known.items()}
        if self.sees == "oracle_race":
            unknown = unknown_pool(view, self.memory)
            own = known_slots(self.memory, view)
            sight = Sight(unknown, deck_pool(view, self.memory, unknown), own, [World(hands)])
            return hard_decision(view, self.memory, sight)
        next_draw = Counter({draw: 1}) if self.sees == "oracle" else deck
        sight = Sight(deck, next_draw, known, [World(hands)], exact=True)
        return hard_decision(view, self.memory, sight)


class VariantRobot(BueRobot):
    def __init__(self, match: Bue, seed: int, variant: str) -> None:
        super().__init__("hard", seed)
        self.match, self.variant = match, variant

    def decide(self, view: JSON) -> JSON:
        if view["phase"] != "exchange":
            return super().decide(view)
        exchanges = [action for action in legal_exchanges(view, self.memory) if self.allows(view, action)]
        return hard_decision(view, self.memory, self.sight(view), exchanges or None)

    def allows(self, view: JSON, action: JSON) -> bool:
        if action["type"] != "swap":
            return True
        target, take = action["target"], action["take"]
        if self.variant == "hard_no_blind_swaps":
            return take in known_slots(self.memory, view).get(target, {})
        hand = [token(DECK[slot.card].code) for slot in self.match.hands[target]]
        hand[take] = token(view["hands"][view["me"]][action["give"]]["card"])
        return total_of(hand) != BUE
