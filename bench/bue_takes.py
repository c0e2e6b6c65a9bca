"""Is a blind take from a hand better than a draw? At each exchange of the hero (``hard``), by
round: the odds that a draw makes 50 with the give the unseen pool favours, against the share of
the others' hidden cards (those it did not place) that would make 50 with the same give, read
from the match itself; and how much more often each value lies in the others' hidden cards than
in the deck.

    python bench/bue_takes.py --seats 4 --matches 80 --first-seed 9000

Seats, seeds and robots are the arena's (``bench/arena.py``).
"""

from __future__ import annotations

import argparse
from collections import Counter

from bench.arena import player
from games.bue import Bue
from games.bue.cards import DECK
from games.bue.planner import BUE, known_slots, token, total_of, unknown_pool
from games.core import JSON

ROUNDS = range(1, 6)


class Tally:
    def __init__(self) -> None:
        self.draw = {r: [0.0, 0] for r in ROUNDS}  # summed odds, decisions
        self.take = {r: [0, 0] for r in ROUNDS}  # cards that make 50, cards
        self.in_hands: Counter[int] = Counter()
        self.in_deck: Counter[int] = Counter()

    def exchange(self, match: Bue, view: JSON, memory: JSON) -> None:
        me, round_ = view["me"], view["round"]
        hand = view["hands"][me]
        locked = [token(slot["card"]) for slot in hand if slot["revealed"]]
        hidden = [token(slot["card"]) for slot in hand if not slot["revealed"]]
        pool = unknown_pool(view, memory)
        size = sum(pool.values())
        best, makers = -1.0, set()
        for give in range(len(hidden)):
            rest = (*locked, *hidden[:give], *hidden[give + 1 :])
            these = {card for card in pool if total_of((*rest, card)) == BUE}
            odds = sum(pool[card] for card in these) / size
            if odds > best:
                best, makers = odds, these
        self.draw[round_][0] += best
        self.draw[round_][1] += 1
        known = known_slots(memory, view)
        for seat in range(match.players):
            if seat == me or not match.active[seat]:
                continue
            for position in match.hidden_positions(seat):
                if position in known.get(seat, {}):
                    continue
                card = token(DECK[match.hands[seat][position].card].code)
                self.take[round_][0] += card in makers
                self.take[round_][1] += 1
                if round_ > 1:
                    self.in_hands[card] += 1
        if round_ > 1:
            self.in_deck.update(token(DECK[card].code) for card in match.deck)

    def report(self) -> list[str]:
        lines = [
            f"round {r}: draw {self.draw[r][0] / max(1, self.draw[r][1]):.3f}, "
            f"blind take with the same give {self.take[r][0] / max(1, self.take[r][1]):.3f} "
            f"({self.draw[r][1]} decisions)"
            for r in ROUNDS
        ]
        hands, deck = sum(self.in_hands.values()), sum(self.in_deck.values())
        ratios = (
            f"{card}: {(self.in_hands[card] / hands) / (self.in_deck[card] / deck):.2f}"
            for card in sorted(self.in_deck)
        )
        return [
            *lines,
            "share in the others' hidden cards over share in the deck, rounds 2-5:",
            " ".join(ratios),
        ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--field", default="easy")
    parser.add_argument("--matches", type=int, default=80)
    parser.add_argument("--first-seed", type=int, default=9000)
    arguments = parser.parse_args()
    tally = Tally()
    for seed in range(arguments.first_seed, arguments.first_seed + arguments.matches):
        hero = seed % arguments.seats
        match = Bue.new(arguments.seats, {}, seed)
        robots = [
            player("bue", "hard" if seat == hero else arguments.field, seed * 16 + seat, match)
            for seat in range(arguments.seats)
        ]
        while not match.finished and match.to_act():
            seat = min(match.to_act())
            view = match.view(seat)
            if seat == hero and view["phase"] == "exchange":
                tally.exchange(match, view, robots[seat].memory)
            events = match.apply(seat, robots[seat].decide(view))
            for other, robot in enumerate(robots):
                robot.observe(match.view(other), [event for event in events if event.visible_to(other)])
    print("\n".join(tally.report()))


if __name__ == "__main__":
    main()
