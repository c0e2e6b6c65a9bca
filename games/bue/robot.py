"""Bué's computer player, from the seat's view and what it remembers of the events it was told.

``easy`` plays like a casual player: a quick sum and a guess, and now and then a careless move.
``hard`` samples the cards it cannot see and plans against every other seat
(``games.bue.strategy``), with its own hand valued by ``games.bue.planner``; in the last round it
weighs every opponent's face-up cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from games.bue.planner import (
    BUE,
    BUE_POINTS,
    Planner,
    SwapPair,
    deck_pool,
    exchange_order,
    face,
    hidden_positions,
    known_slots,
    place_utility,
    round_score,
    swap_pairs,
    token,
    total_of,
    typical_closer,
    unknown_pool,
)
from games.bue.stakes import match_stakes
from games.bue.strategy import Seat, TablePlan, World, best_reveal, distinct_exchanges, sample_worlds
from games.core import JSON, Event, SeededRandom
from games.robots import Robot

T = TypeVar("T")


def _swap_safe(
    give_face: str, target: int, take: int, pairs: Sequence[SwapPair], known: dict[int, dict[int, str]]
) -> bool:
    """Not a swap back: the seat knows both values of every swap made with it this round, but a
    blind take may hit the other value, so such a give is only safe when the take is known."""
    for other, a, b in pairs:
        if other != target or give_face not in (a, b):
            continue
        counterpart = b if give_face == a else a
        taken = known.get(target, {}).get(take)
        if taken is None or face(taken) == counterpart:
            return False
    return True


def legal_exchanges(view: JSON, memory: JSON | None = None) -> list[JSON]:
    """Every exchange the seat may make now that is sure not to be refused as a swap back.

    Without ``memory`` nothing is known of this round's swaps, and every swap is listed.
    """
    me = view["me"]
    memory = memory or {}
    pairs, known = swap_pairs(memory), known_slots(memory, view)
    deck_usable = view["deck"] > 0 or view["discard"] > 0
    actions: list[JSON] = []
    for give in hidden_positions(view, me):
        give_face = face(view["hands"][me][give]["card"])
        if deck_usable:
            actions.append({"type": "deck", "give": give})
        for target in exchange_order(view):
            if target == me:
                continue
            for take in hidden_positions(view, target):
                if _swap_safe(give_face, target, take, pairs, known):
                    actions.append({"type": "swap", "give": give, "target": target, "take": take})
    return actions


def random_action(view: JSON, random: SeededRandom, memory: JSON | None = None) -> JSON:
    """A uniformly random legal action for the seat (never a shuffle, which changes nothing).

    ``memory`` (a ``BueRobot``'s) lets it steer clear of swap backs, which the view alone
    does not show; without it a swap back can be drawn and refused.
    """
    me = view["me"]
    if view["phase"] == "reveal":
        return {"type": "reveal", "position": _pick(hidden_positions(view, me), random)}
    return _pick(legal_exchanges(view, memory), random)


def _pick(items: Sequence[T], random: SeededRandom) -> T:
    return items[random.randrange(len(items))]


# ---------------------------------------------------------------------- the robot


class BueRobot(Robot):
    """``easy``: a quick sum and a guess, and now and then a careless move. ``hard``: the planner."""

    game: ClassVar[str] = "bue"

    def observe(self, view: JSON, events: Sequence[Event]) -> None:
        memory = self.memory
        me = view["me"]
        for event in events:
            params = event.params
            if event.key == "bue.event.dealt":
                memory.clear()
            elif event.key == "bue.event.round_started":
                memory["pairs"] = []
            elif event.key == "bue.event.exchanged_deck":
                memory.setdefault("discard", []).append(params["card"])
                self._lose_track(params["seat"], params["card"])
            elif event.key == "bue.event.deck_refilled":
                memory["discard"] = memory.get("discard", [])[-1:]
            elif event.key in ("bue.event.shuffled", "bue.event.player_left"):
                self._lose_track(params["seat"])
            elif event.key == "bue.event.swapped":
                if params["seat"] != me:
                    self._lose_track(params["seat"])
                    self._lose_track(params["target_seat"], position=params["position"] - 1)
            elif event.key == "bue.event.you_swapped":
                other = params["other_seat"]
                take = next(
                    e.params["position"] - 1
                    for e in events
                    if e.key == "bue.event.swapped" and e.params["seat"] == me
                )
                memory.setdefault("known", {}).setdefault(str(other), {})[str(take)] = params["gave"]
                self._remember_pair(other, params["gave"], params["received"])
            elif event.key == "bue.event.you_were_swapped":
                self._remember_pair(params["other_seat"], params["gave"], params["received"])

    def _remember_pair(self, other: int, gave: str, received: str) -> None:
        self.memory.setdefault("pairs", []).append([other, face(gave), face(received)])

    def _lose_track(self, seat: int, card: str | None = None, position: int | None = None) -> None:
        """Forget where this seat's cards are: all of them, one position, or the discarded card."""
        slots = self.memory.get("known", {}).get(str(seat))
        if not slots:
            return
        if position is not None:
            slots.pop(str(position), None)
        elif card is not None:
            # A different card discarded leaves ours in place; the same code may have been ours.
            for where, code in list(slots.items()):
                if code == card:
                    del slots[where]
                    break
        else:
            slots.clear()

    def decide(self, view: JSON) -> JSON:
        if self.level == "easy":
            return self._easy(view)
        return self._hard(view)

    # ------------------------------------------------------------------ easy

    def _easy(self, view: JSON) -> JSON:
        """Keeps the cards that leave a sum a single card can bring to 50; one move in five careless."""
        if self.random.randrange(5) == 0:
            return random_action(view, self.random, self.memory)
        me = view["me"]
        hand = [token(slot["card"]) for slot in view["hands"][me]]
        hidden = hidden_positions(view, me)

        def misfit(position: int) -> float:
            """How far the rest of the hand is from 'one more card makes 50'."""
            rest = hand[:position] + hand[position + 1 :]
            need = BUE - total_of(rest)
            return max(0, 1 - need, need - 20) + abs(need - 10) / 10

        if view["phase"] == "reveal":
            return {"type": "reveal", "position": max(hidden, key=misfit)}
        give = min(hidden, key=misfit)
        options = [a for a in legal_exchanges(view, self.memory) if a["give"] == give]
        swaps = [a for a in options if a["type"] == "swap"]
        decks = [a for a in options if a["type"] == "deck"]
        if swaps and (not decks or self.random.randrange(4) == 0):
            return _pick(swaps, self.random)
        return decks[0] if decks else random_action(view, self.random, self.memory)

    # ------------------------------------------------------------------ hard

    def _hard(self, view: JSON) -> JSON:
        return hard_decision(view, self.memory, self.sight(view))

    def sight(self, view: JSON) -> Sight:
        """What hard play knows of the cards it cannot see, with worlds sampled to plan from."""
        unknown = unknown_pool(view, self.memory)
        planning = view["phase"] == "exchange" and view["round"] < 5
        count = samples(sum(view["active"])) if planning else 0
        worlds = sample_worlds(view, self.memory, count, self.random.stream()) if count else []
        return Sight(unknown, deck_pool(view, self.memory, unknown), known_slots(self.memory, view), worlds)


# Worlds sampled per exchange decision, by table size: the work grows with the seats (every
# seat's odds in every world, and one exchange per seat to score), so fewer worlds at big tables
# keep the p99 under 200 ms of CPU at ten seats (bench/README.md, "Computer players' arena").
SAMPLES = {2: 40, 3: 40, 4: 32, 5: 28, 6: 24, 7: 20, 8: 18, 9: 16, 10: 14}


def samples(players: int) -> int:
    return SAMPLES[min(max(players, 2), 10)]


@dataclass(frozen=True)
class Sight:
    """What hard play knows of the cards it cannot see: the odds of each unseen card (anywhere,
    and at the top of the deck), the cards it placed in others' hands, and the sampled worlds.
    ``exact``: the one world is the truth (only the bench's oracle is built so)."""

    unknown: Counter[int]
    draw: Counter[int]
    known: dict[int, dict[int, str]]
    worlds: list[World]
    exact: bool = False


def hard_decision(view: JSON, memory: JSON, sight: Sight, exchanges: Sequence[JSON] | None = None) -> JSON:
    """The best action; ``exchanges``: the exchanges to choose from (default: every legal one)."""
    me = view["me"]
    planner = Planner(match_stakes(view), sight.draw, sight.unknown)
    hand = view["hands"][me]
    locked = tuple(token(slot["card"]) for slot in hand if slot["revealed"])
    hidden_at = hidden_positions(view, me)
    hidden = tuple(token(hand[p]["card"]) for p in hidden_at)
    if view["phase"] == "reveal":
        index = best_reveal(view, planner, locked, hidden, sight.known)
        return {"type": "reveal", "position": hidden_at[index]}
    actions = list(exchanges) if exchanges is not None else legal_exchanges(view, memory)
    seat = Seat(locked, hidden, hidden_at)
    if view["round"] >= 5:
        scorer = LastRound(Position(view, planner, sight.known, seat))
        return max(actions, key=lambda action: (scorer.score(action), -actions.index(action)))
    plan = TablePlan(view, planner, seat, sight.worlds, sight.exact)
    candidates = distinct_exchanges(actions, sight.known)
    return max(candidates, key=lambda action: (plan.score(action, sight.known), -candidates.index(action)))


@dataclass(frozen=True)
class Position:
    """What hard play weighs an exchange from: the seat's view, the odds of the cards it has
    not seen, the cards it knows in others' hands, and its own cards."""

    view: JSON
    planner: Planner
    known: dict[int, dict[int, str]]  # seat -> position -> card code, as remembered
    seat: Seat  # its own cards


class LastRound:
    """Round 5: every hand is four face-up cards and one hidden; the outcome is nearly exact.

    Opponents who have exchanged keep their hidden card (unknown: a pool card, but not one that
    made 50, or the game would be over) unless this seat swaps with them, and then they end
    with the card it gives; those still to exchange end with a pool card whatever they hold
    now, and end the game if it makes 50. A card given makes 50 in the target's hand at once
    whether or not the target has exchanged.
    """

    def __init__(self, position: Position) -> None:
        self.position = position
        view = position.view
        me = view["me"]
        order = exchange_order(view)
        self.done = set(order[: order.index(me)])
        self.opponents = [seat for seat in order if seat != me]
        self.faceup = {
            seat: tuple(token(s["card"]) for s in view["hands"][seat] if s["revealed"]) for seat in order
        }
        self.base = {seat: self._spread(seat, None) for seat in self.opponents}
        self.loss = position.planner.stakes.loss

    def _spread(self, seat: int, gift: int | None) -> list[tuple[int, float]]:
        """The opponent's final distance from 50, as (distance, probability); distance 0 is a
        Bué at its own exchange, which only a seat still to exchange can make."""
        faceup = self.faceup[seat]
        hidden = len(hidden_positions(self.position.view, seat))
        if hidden != 1:
            return []  # not a last-round hand: a typical opponent
        if gift is not None and seat in self.done:
            return [(abs(total_of((*faceup, gift)) - BUE), 1.0)]
        holding = next(iter(self.position.known.get(seat, {}).values()), None)
        if holding is not None and seat in self.done:
            return [(abs(total_of((*faceup, token(holding))) - BUE), 1.0)]
        spread = [(abs(total_of((*faceup, c)) - BUE), p) for c, p in self.position.planner.unknown]
        if seat not in self.done:
            return spread
        missed = [(d, p) for d, p in spread if d]
        weight = sum(p for _, p in missed)
        return [(d, p / weight) for d, p in missed] if weight else []

    def _gift_makes_50(self, target: int, gift: int) -> bool:
        """The card given completes the target's last-round hand there and then."""
        return len(hidden_positions(self.position.view, target)) == 1 and (
            total_of((*self.faceup[target], gift)) == BUE
        )

    def score(self, action: JSON) -> float:
        mine = self.position.seat
        index = mine.hidden_at.index(action["give"])
        kept = mine.hidden[:index] + mine.hidden[index + 1 :]
        spreads = dict(self.base)
        handed = False
        if action["type"] == "deck":
            received = self.position.planner.draw
        else:
            target = action["target"]
            handed = self._gift_makes_50(target, mine.hidden[index])
            spreads[target] = self._spread(target, mine.hidden[index])
            taken = self.position.known.get(target, {}).get(action["take"])
            received = [(token(taken), 1.0)] if taken is not None else self.position.planner.unknown
        total = 0.0
        for c, p in received:
            distance = abs(total_of((*mine.locked, *kept, c)) - BUE)
            if handed:
                # Two Bués at once: the tie rule picks one; call it even.
                loss = self.loss[action["target"]]
                total += p * ((BUE_POINTS - loss) / 2 if distance == 0 else -loss)
            else:
                total += p * self._utility(distance, spreads)
        return round_score(total)

    def _utility(self, distance: int, spreads: dict[int, list[tuple[int, float]]]) -> float:
        """Points minus the others' average: its own Bué, another seat's Bué at a later
        exchange (``loss``), or the places."""
        if distance == 0:
            return float(BUE_POINTS)
        typical = typical_closer(distance)
        no_bue, lost = 1.0, 0.0
        closer = []
        for seat, spread in spreads.items():
            if not spread:
                closer.append(typical)
                continue
            bue = sum(p for d, p in spread if d == 0)
            lost += no_bue * bue * self.loss[seat]  # the first of them in turn to make it
            no_bue *= 1 - bue
            missed = 1 - bue
            ahead = sum(p for d, p in spread if 0 < d < distance) + 0.5 * sum(
                p for d, p in spread if d == distance
            )
            closer.append(ahead / missed if missed > 1e-12 else 0.0)
        placed = place_utility(self.position.planner.stakes.places, closer)
        return no_bue * placed - lost


__all__ = ["BueRobot", "legal_exchanges", "random_action"]
