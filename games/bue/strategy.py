"""Bué's ``hard`` play against a whole table: determinized sampling (perfect-information Monte
Carlo, PIMC) of the cards the seat cannot see.

Why PIMC rather than ISMCTS: Bué hides little for long (every round each hand turns one card
face up, and the last round shows all of them), which is where Long et al. (2010) find
determinization close to the information-set optimum (high disambiguation); what it cannot
model, bluffing and information hiding, hardly matters against a blind take. ISMCTS (Cowling
et al. 2012) would grow a tree over some 230 exchanges a turn at ten seats and need many iterations
per decision; sampling worlds and scoring every exchange in each, with a planner of its own hand
and each other seat's odds of a Bué, fits the 200 ms budget at ten seats with counts alone.

A world deals the cards the seat cannot place (``unknown_pool``) at random into the other seats'
hidden slots it does not know, the rest being the deck. In each world, an exchange is scored by:

- its immediate outcome: this seat's Bué, or the Bué it hands the seat it swaps with;
- then the race: each other seat, at each exchange until this seat's next one, hits 50 with the
  odds its hand gives (its best card to give, against the pool of unseen cards), a hit ending the
  game; if nobody does, this seat's hand is worth what ``Planner`` says.

Utilities are in points minus the others' average (an opponent's Bué costs 50 / (n - 1)), or,
in a game that can end the match, its match equivalent (``games.bue.stakes``): what each
seat's Bué and each place do to the odds of winning the match.

Two things the worlds alone would get wrong. A card this seat gave in a swap is parked where it
knows it: taking it back later is a sure card, so a hand's value counts the odds of a sure Bué
at the next exchange that way (``park_chance``), and the reveal keeps hidden the card to give for
it. And players keep hands one card from 50, so a card given is far likelier to complete the
target's Bué than in a uniform deal (``TablePlan.gift_danger``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.bue.planner import (
    BUE,
    BUE_POINTS,
    HUNDRED,
    X0,
    X2,
    Planner,
    exchange_order,
    hidden_positions,
    known_slots,
    round_score,
    token,
    total_of,
    unknown_pool,
)
from games.core import JSON


@dataclass(frozen=True)
class World:
    """One guess at every card the seat cannot see, consistent with what it saw."""

    hands: dict[int, dict[int, int]]  # other seat -> hidden position -> card token


def sample_worlds(view: JSON, memory: JSON, count: int, generator: random.Random) -> list[World]:
    """``count`` worlds: the unseen cards dealt at random into the slots the seat cannot see."""
    pool = sorted(unknown_pool(view, memory).elements())
    known = known_slots(memory, view)
    me = view["me"]
    blind = [
        (seat, position)
        for seat in exchange_order(view)
        if seat != me
        for position in hidden_positions(view, seat)
        if position not in known.get(seat, {})
    ]
    worlds = []
    for _ in range(count):
        cards = list(pool)
        generator.shuffle(cards)
        cards += [10] * max(0, len(blind) - len(cards))  # a memory out of step: never short
        hands = {seat: {p: token(code) for p, code in slots.items()} for seat, slots in known.items()}
        for (seat, position), card in zip(blind, cards, strict=False):
            hands.setdefault(seat, {})[position] = card
        worlds.append(World(hands))
    return worlds


def hit_odds(planner: Planner, locked: tuple[int, ...], hidden: Sequence[int]) -> float:
    """The odds that the hand's next exchange makes 50, giving its best card for it."""
    cards = (*locked, *hidden)
    if not hidden or max(cards) >= X2:
        return max(
            (planner.hit_chance((*locked, *hidden[:i], *hidden[i + 1 :])) for i in range(len(hidden))),
            default=0.0,
        )
    # No multiplier (nearly every hand): the card needed, or a drawn x2 doubling / x0 cancelling
    # one of the cards kept.
    chances, total, best = planner.chances, sum(cards), 0.0
    x2, x0 = chances.get(X2, 0.0), chances.get(X0, 0.0)
    for index, card in enumerate(hidden):
        need = BUE - total + card
        rest = (*locked, *hidden[:index], *hidden[index + 1 :])
        chance = chances.get(need, 0.0) + (x2 if need in rest else 0.0) + (x0 if -need in rest else 0.0)
        best = max(best, chance)
    return best


def no_hit(odds: dict[int, float], seats: Sequence[int]) -> float:
    """The odds that none of ``seats`` makes 50 with their next exchange."""
    product = 1.0
    for seat in seats:
        product *= 1 - odds[seat]
    return product


@dataclass(frozen=True)
class Seat:
    """This seat's own cards, as the planner sees them."""

    locked: tuple[int, ...]  # face up
    hidden: tuple[int, ...]  # hidden, in hand order
    hidden_at: list[int]  # their positions in the hand


# Handing an opponent a card instead of discarding it changes their game beyond their odds of a
# Bué next turn: a 100 costs them an exchange, a multiplier gives them ways to 50. In utility
# points at two seats, shared out among the opponents at bigger tables.
GIFT_HARM = {HUNDRED: 4.0, X2: -1.5, X0: -4.0}

# How often the four cards a blind take leaves in a hand are one card from 50: in a hand a
# player has exchanged from (measured against ``easy``: 64%), and in a hand as dealt.
KEEPER = 0.6
DEALT = 0.35

# Besides the holder's one exchange and one reveal, a parked card is lost to a third seat's take
# from its holder, and out of sight when the holder swaps (its give is unseen, so this seat
# forgets that hand): sized so that, as measured in play, about a third of the cards parked in
# rounds 1-2 are still known in place at this seat's next exchange.
PARK_UNDISTURBED = 0.5


Parked = tuple[tuple[int, int, int], ...]  # (seat, position, card token) of cards it placed


def parked_cards(known: dict[int, dict[int, str]]) -> Parked:
    """The cards this seat put into others' hidden slots and still knows the place of."""
    return tuple(
        (seat, position, token(code))
        for seat, slots in sorted(known.items())
        for position, code in sorted(slots.items())
    )


def park_survival(view: JSON, seat: int, exchanged_first: bool) -> float:
    """The odds a card this seat parked in ``seat``'s hidden slots is still there, hidden, when
    this seat exchanges next: the holder exchanges once and reveals once before then, each
    taken as a blind choice among its hidden cards, and a third seat may take it now and then.

    ``exchanged_first``: the holder's exchange comes before its reveal (it has not exchanged
    this round yet); otherwise it reveals first and exchanges from one hidden card fewer.
    """
    hidden = len(hidden_positions(view, seat))
    if hidden <= 1:
        return 0.0
    keep_reveal = (hidden - 1) / hidden
    keep_exchange = (hidden - 1) / hidden if exchanged_first else (hidden - 2) / (hidden - 1)
    return keep_reveal * keep_exchange * PARK_UNDISTURBED


def park_chance(
    locked: tuple[int, ...], hidden: Sequence[int], parked: Parked, survival: dict[int, float]
) -> float:
    """The odds this seat can make 50 for sure at its next exchange: some hidden card of its
    own, given for a card it parked, makes the hand exactly 50, and that card is still there."""
    total = total_of((*locked, *hidden))
    plain = max((*locked, *hidden)) < X2
    miss = 1.0
    for seat, _, card in parked:
        for index, mine in enumerate(hidden):
            if plain and card < X2:
                hit = total - mine + card == BUE
            else:
                hit = total_of((*locked, *hidden[:index], card, *hidden[index + 1 :])) == BUE
            if hit:
                miss *= 1 - survival.get(seat, 0.0)
                break
    return 1 - miss


def reveal_survival(view: JSON, seat: int) -> float:
    """``park_survival`` from the reveal on: the holder reveals now, then, if it exchanges before
    this seat next round, exchanges from one hidden card fewer."""
    order = exchange_order(view)
    hidden = len(hidden_positions(view, seat))
    if hidden <= 1:
        return 0.0
    first = order.index(seat) < order.index(view["me"])
    keep_exchange = (hidden - 2) / (hidden - 1) if first else 1.0
    return (hidden - 1) / hidden * keep_exchange * PARK_UNDISTURBED


def best_reveal(
    view: JSON,
    planner: Planner,
    locked: tuple[int, ...],
    hidden: tuple[int, ...],
    known: dict[int, dict[int, str]],
) -> int:
    """Which hidden card to lock: the planner's choice, unless keeping a card hidden keeps a sure
    Bué by a parked card within reach (the card to give for it must stay hidden)."""
    parked = parked_cards(known)
    if not parked or view["round"] >= 5:
        return planner.best_reveal(locked, hidden, view["round"])[0]
    survival = {seat: reveal_survival(view, seat) for seat in exchange_order(view) if seat != view["me"]}
    options = []
    for index, card in enumerate(hidden):
        rest = hidden[:index] + hidden[index + 1 :]
        value = planner.value((*locked, card), rest, view["round"] + 1)
        chance = park_chance((*locked, card), rest, parked, survival) if rest else 0.0
        options.append((round_score(chance * BUE_POINTS + (1 - chance) * value), -index))
    return -max(options)[1]


class TablePlan:
    """Scores this seat's exchanges in rounds 1-4 over sampled worlds.

    Its own hand after the exchange is valued by the planner (``Planner.after_exchange``), which
    plays on as if the game lasted; the worlds weigh that against every other seat: the value
    counts only if nobody else makes Bué before this seat's next exchange, and an opponent's Bué
    costs what the stakes say for that seat (``50 / (n - 1)`` while the match is young). A swap
    changes the target's hand, in each world: the card taken may break their Bué to come, the
    card given may complete it at once.

    ``exact`` worlds are the truth (the bench's oracles): the card a take brings is the world's;
    otherwise it is any unseen card, as likely as its count, and the world only decides the other
    seats' hands. A draw is any card of the planner's ``draw`` (the oracle's holds one card).
    """

    def __init__(
        self, view: JSON, planner: Planner, seat: Seat, worlds: Sequence[World], exact: bool
    ) -> None:
        self.view, self.planner, self.seat, self.worlds, self.exact = view, planner, seat, worlds, exact
        me = view["me"]
        order = exchange_order(view)
        index = order.index(me)
        # Until this seat's next exchange: the rest of this round, then the next one up to it.
        self.after, self.before = order[index + 1 :], order[:index]
        self.loss = planner.stakes.loss
        self.faceup = {
            seat: tuple(token(s["card"]) for s in view["hands"][seat] if s["revealed"]) for seat in order
        }
        self.odds_memo: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        self.mine: dict[tuple[int, int], float | None] = {}
        self.odds = [
            {seat: self.seat_odds(seat, world.hands[seat]) for seat in order if seat != me}
            for world in worlds
        ]
        self.survival = [no_hit(odds, (*self.after, *self.before)) for odds in self.odds]
        self.raced = [self.race_loss(odds) for odds in self.odds]
        self.park_survival = {
            seat: park_survival(view, seat, seat in self.after) for seat in order if seat != me
        }
        self.park_memo: dict[tuple[int, int, Parked], float | None] = {}

    def seat_odds(self, seat: int, hidden: dict[int, int]) -> float:
        key = (self.faceup[seat], tuple(sorted(hidden.values())))
        if key not in self.odds_memo:
            self.odds_memo[key] = hit_odds(self.planner, self.faceup[seat], key[1])
        return self.odds_memo[key]

    def my_value(self, give: int, received: int) -> float | None:
        """The planner's value of the hand after giving hidden card ``give`` for ``received``;
        None for a Bué there and then."""
        key = (give, received)
        if key not in self.mine:
            seat = self.seat
            kept = (*seat.hidden[:give], received, *seat.hidden[give + 1 :])
            self.mine[key] = (
                None
                if total_of((*seat.locked, *kept)) == BUE
                else self.planner.after_exchange(seat.locked, seat.hidden, give, received, self.view["round"])
            )
        return self.mine[key]

    def parked_value(self, give: int, received: int, parked: Parked) -> float | None:
        """``my_value``, with the odds of a sure Bué next exchange by taking back a parked card."""
        key = (give, received, parked)
        if key not in self.park_memo:
            value = self.my_value(give, received)
            # With one hidden card left the game ends before its next exchange: after round 5's.
            if value is not None and parked and len(self.seat.hidden) > 1:
                seat = self.seat
                kept = (*seat.hidden[:give], received, *seat.hidden[give + 1 :])
                chance = park_chance(seat.locked, kept, parked, self.park_survival)
                value = chance * BUE_POINTS + (1 - chance) * value
            self.park_memo[key] = value
        return self.park_memo[key]

    def outcome(
        self,
        survival: float,
        give: int,
        received: Sequence[tuple[int, float]],
        target_bue: float,
        parked: Parked,
        losses: tuple[float, float],
    ) -> float:
        """Expected utility over the cards this seat may receive, when the exchange hands the
        seat swapped with a Bué with odds ``target_bue``; ``losses``: what that Bué costs, and
        what another seat's Bué before this seat's next exchange costs on average."""
        handed, raced = losses
        bue = BUE_POINTS
        total = 0.0
        for card, chance in received:
            value = self.parked_value(give, card, parked)
            if value is None:
                # Two Bués at once: the tie rule picks one; call it even.
                mine = target_bue * (bue - handed) / 2 + (1 - target_bue) * bue
            else:
                mine = (1 - target_bue) * (survival * value - (1 - survival) * raced)
                mine -= target_bue * handed
            total += chance * mine
        return total

    def race_loss(self, odds: dict[int, float]) -> float:
        """What a Bué by another seat before this seat's next exchange costs, each seat
        weighted by its odds of making it."""
        weight = sum(odds.values())
        if weight <= 1e-12:
            return sum(self.loss[seat] for seat in odds) / max(1, len(odds))
        return sum(chance * self.loss[seat] for seat, chance in odds.items()) / weight

    def gift_danger(self, target: int, give: int) -> float:
        """The odds the card given completes the target's Bué: the target's four other cards are
        one card from 50 with odds ``KEEPER`` (players keep such hands; a dealt hand is such
        less often), and then need any number up to 20 that the cards face up allow, as likely
        as its count among the unseen cards."""
        gift = self.seat.hidden[give]
        faceup = self.faceup[target]
        if gift >= X2 or (faceup and max(faceup) >= X2):
            return 0.0  # multipliers: left to the worlds and ``GIFT_HARM``
        most = min(20, BUE - sum(faceup) - (4 - len(faceup)))
        if gift > most:
            return 0.0
        weight = sum(chance for card, chance in self.planner.plain if 1 <= card <= most)
        dealt = self.view["round"] == 1 and target not in self.before
        return (DEALT if dealt else KEEPER) * self.planner.chances.get(gift, 0.0) / max(weight, 1e-9)

    def gift_harm(self, target: int, give: int) -> float:
        gift = self.seat.hidden[give]
        if gift == HUNDRED and X0 in self.faceup[target]:
            return 0.0  # their x0 cancels it
        return GIFT_HARM.get(gift, 0.0) / max(1, self.planner.players - 1)

    def score(self, action: JSON, known: dict[int, dict[int, str]]) -> float:
        give = self.seat.hidden_at.index(action["give"])
        parked = self.parked_after(action, known)
        danger = self.gift_danger(action["target"], give) if action["type"] == "swap" else 0.0
        total = 0.0
        per_world = zip(self.worlds, self.odds, self.survival, self.raced, strict=True)
        for world, odds, survival, raced in per_world:
            if action["type"] == "deck":
                received = self.planner.draw
                total += self.outcome(survival, give, received, 0.0, parked, (0.0, raced))
                continue
            target, take = action["target"], action["take"]
            hand = dict(world.hands[target])
            taken = hand[take]
            hand[take] = self.seat.hidden[give]
            bue_here = total_of((*self.faceup[target], *hand.values())) == BUE
            target_bue = 1.0 if bue_here else 0.0 if self.exact else danger
            target_odds = self.seat_odds(target, hand)
            survival *= (1 - target_odds) / max(1 - odds[target], 1e-9)
            if target_odds != odds[target]:
                raced = self.race_loss({**odds, target: target_odds})
            known_take = self.exact or take in known.get(target, {})
            received = [(taken, 1.0)] if known_take else self.planner.unknown
            losses = (self.loss[target], raced)
            total += self.outcome(survival, give, received, target_bue, parked, losses)
            total += self.gift_harm(target, give)
        return round_score(total / len(self.worlds))

    def parked_after(self, action: JSON, known: dict[int, dict[int, str]]) -> Parked:
        """The cards this seat knows the place of after ``action``: a swap parks the card given
        where the card taken was."""
        parked = parked_cards(known)
        if action["type"] != "swap":
            return parked
        target, take = action["target"], action["take"]
        given = self.seat.hidden[self.seat.hidden_at.index(action["give"])]
        kept = tuple(entry for entry in parked if entry[:2] != (target, take))
        return tuple(sorted((*kept, (target, take, given))))


def distinct_exchanges(actions: Sequence[JSON], known: dict[int, dict[int, str]]) -> list[JSON]:
    """The exchanges worth scoring apart: blind takes from the same seat are alike to this seat,
    so one stands for all of them (the first listed)."""
    seen: set[tuple[int, int]] = set()
    kept = []
    for action in actions:
        if action["type"] == "swap" and action["take"] not in known.get(action["target"], {}):
            key = (action["give"], action["target"])
            if key in seen:
                continue
            seen.add(key)
        kept.append(action)
    return kept
