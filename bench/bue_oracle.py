"""The arena's ceiling for Bué: the ``hard`` planner handed every card instead of samples.

It reads the match itself (every hidden hand and the deck's order), which no player can, so
it exists in the bench only: nothing in ``bot/`` or ``games/`` builds it. Its one world is the
truth, so each exchange is scored with the card it will really receive and every other seat's
real hand.
"""

from __future__ import annotations

from collections import Counter

from games.bue import Bue
from games.bue.cards import DECK
from games.bue.planner import token
from games.bue.robot import BueRobot, Sight, hard_decision
from games.bue.strategy import World
from games.core import JSON


class OracleRobot(BueRobot):
    def __init__(self, match: Bue, seed: int) -> None:
        super().__init__("hard", seed)
        self.match = match

    def decide(self, view: JSON) -> JSON:
        game, me = self.match, view["me"]
        known = {
            seat: {p: DECK[slot.card].code for p, slot in enumerate(hand) if not slot.revealed}
            for seat, hand in enumerate(game.hands)
            if seat != me and game.active[seat]
        }
        # The next draw; with an empty deck the refill is shuffled later, so any card of it.
        upcoming = game.deck or game.discard[:-1] or game.discard
        pool = Counter(token(DECK[card].code) for card in upcoming) or Counter({10: 1})
        draw = token(DECK[upcoming[-1]].code) if upcoming else 10
        hands = {seat: {p: token(code) for p, code in slots.items()} for seat, slots in known.items()}
        sight = Sight(pool, Counter({draw: 1}), known, [World(hands, draw)], exact=True)
        return hard_decision(view, self.memory, sight)
