"""Bué's computer player, from the seat's view and what it remembers of the events it was told.

What a seat knows beyond its view, and so keeps in ``memory``: the cards on the discard pile
(every deck exchange is public, the view only shows the top), where the cards it gave in its
own swaps went (until their holder moves cards around), and this exchange round's swaps with
it, whose values may not be swapped back (the engine refuses them before anything is shown).

``hard`` plans with card counting: the cards it cannot place (not in its hand, not face up,
not on the discard pile, not where it put them) are what a draw or a blind take can bring,
each as likely as its count. Every round each player replaces one card and locks one, so the
final hand is the four cards locked in rounds 1-4 plus one last exchanged card: it scores
its options by expectimax over that structure (exactly from round 3; before, the best cards
to lock from those at hand plus the odds of hitting 50 on the way), with Bué checked after
every exchange, and in the last round against every opponent's face-up cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import ClassVar, TypeVar

from games.bue.cards import DECK, Card
from games.bue.scoring import BUE, BUE_POINTS, PLACE_POINTS, TWO_PLAYER_POINTS, best_value
from games.core import JSON, Event, SeededRandom
from games.robots import Robot

# A card as the planner sees it: its value, or one of the multipliers. Gold counts as its value
# (SuperBué and the gold tie-break are too rare to plan for).
X2 = 200
X0 = 300
HUNDRED = 100
FULL_DECK: Counter[str] = Counter(card.code for card in DECK)
SwapPair = tuple[int, str, str]
T = TypeVar("T")


def token(code: str) -> int:
    if code in ("x2", "x0"):
        return X2 if code == "x2" else X0
    return int(code[1:])


def face(code: str) -> str:
    """The value the no-swap-back rule compares (``Card.face``): a gold 12 is a 12."""
    return code if code in ("x2", "x0") else code[1:]


@lru_cache(maxsize=200_000)
def hand_total(tokens: tuple[int, ...]) -> int:
    """The engine's own best total for these cards (``tokens`` sorted, so the cache is shared)."""
    cards = [
        Card(0, "x2", 0)
        if t == X2
        else Card(0, "x0", 0)
        if t == X0
        else Card(0, "hundred" if t == HUNDRED else "blue", t)
        for t in tokens
    ]
    return best_value(cards).total


def total_of(tokens: Sequence[int]) -> int:
    """Plain sum without a multiplier (nearly every hand), else the engine's best total."""
    if max(tokens) < X2:
        return sum(tokens)
    return hand_total(tuple(sorted(tokens)))


# ---------------------------------------------------------------------- what the seat knows


def hidden_positions(view: JSON, seat: int) -> list[int]:
    return [p for p, slot in enumerate(view["hands"][seat]) if not slot["revealed"]]


def exchange_order(view: JSON) -> list[int]:
    players, dealer = view["players"], view["dealer"]
    seats = ((dealer + 1 + i) % players for i in range(players))
    return [seat for seat in seats if view["active"][seat]]


def swap_pairs(memory: JSON) -> list[SwapPair]:
    return [(int(other), str(a), str(b)) for other, a, b in memory.get("pairs", [])]


def known_slots(memory: JSON, view: JSON) -> dict[int, dict[int, str]]:
    """Opponents' hidden cards this seat put there itself and has not lost track of."""
    known: dict[int, dict[int, str]] = {}
    for seat, slots in memory.get("known", {}).items():
        hand = view["hands"][int(seat)]
        live = {
            int(p): code for p, code in slots.items() if int(p) < len(hand) and not hand[int(p)]["revealed"]
        }
        if live:
            known[int(seat)] = live
    return known


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


def unknown_pool(view: JSON, memory: JSON) -> Counter[int]:
    """The cards this seat cannot place, by token: what a draw or a blind take may bring."""
    seen: Counter[str] = Counter()
    me = view["me"]
    for seat, hand in enumerate(view["hands"]):
        for slot in hand:
            if slot["revealed"] or seat == me:
                seen[slot["card"]] += 1
    discard = memory.get("discard", [])
    if view["discard_top"] is not None and (not discard or discard[-1] != view["discard_top"]):
        discard = [view["discard_top"]]
    seen.update(discard)
    for slots in known_slots(memory, view).values():
        seen.update(slots.values())
    pool: Counter[int] = Counter()
    for code, count in (FULL_DECK - seen).items():
        pool[token(code)] += count
    return pool


def deck_pool(view: JSON, memory: JSON, unknown: Counter[int]) -> Counter[int]:
    """What the next draw can be: with an empty deck, the discard pile but its top, if known whole."""
    discard = memory.get("discard", [])
    if view["deck"] == 0 and len(discard) == view["discard"] > 1 and discard[-1] == view["discard_top"]:
        return Counter(token(code) for code in discard[:-1])
    return unknown


# ---------------------------------------------------------------------- the planner


def place_utility(players: int, closer: Sequence[float]) -> float:
    """Points minus the others' average, when each opponent ends closer to 50 with these odds.

    Placing is worth ``n·EP - T`` over ``n - 1`` (EP: own expected points, T: points given
    out), so a Bué (50 for the maker, 0 for the rest) is worth 50 on the same scale.
    """
    points = TWO_PLAYER_POINTS if players == 2 else PLACE_POINTS
    ahead = [1.0]  # ahead[k]: chance that exactly k opponents are closer
    for q in closer:
        ahead = [
            (ahead[k] if k < len(ahead) else 0.0) * (1 - q) + (ahead[k - 1] * q if k else 0.0)
            for k in range(len(ahead) + 1)
        ]
    expected = sum(p * ahead[k] for k, p in enumerate(points) if k < len(ahead))
    return (players * expected - sum(points)) / (players - 1)


# An opponent's final distance from 50 when nothing better is known: 1 + geometric, mean ~6.
OPPONENT_SPREAD = 0.83


def typical_closer(distance: int) -> float:
    """Odds a typical opponent ends closer: P(D < d) + P(D = d) / 2, P(D = k) = (1 - r) r^(k - 1)."""
    r = OPPONENT_SPREAD
    return 1 - r ** (distance - 1) + 0.5 * (1 - r) * r ** (distance - 1)


@lru_cache(maxsize=16)
def utility_table(players: int) -> tuple[float, ...]:
    """Utility of ending at each distance from 50 (up to 399) against typical opponents."""
    placed = (place_utility(players, [typical_closer(d)] * (players - 1)) for d in range(1, 400))
    return (float(BUE_POINTS), *placed)


# Swapping a card to an opponent instead of discarding it changes their game: a 100 hurts them
# (they must spend an exchange on it), a multiplier helps them. In utility points, two players.
GIFT_HARM = {HUNDRED: 4.0, X2: -1.5, X0: -4.0}


class Planner:
    """Values of this seat's hand states for one decision, memoised (the pool is fixed)."""

    def __init__(self, players: int, draw: Counter[int], unknown: Counter[int]) -> None:
        self.players = players
        self.draw = _probabilities(draw)
        self.unknown = _probabilities(unknown)
        self.utility = utility_table(players)
        self.memo: dict[tuple[int, tuple[int, ...], tuple[int, ...]], float] = {}
        self.plain = [(c, p) for c, p in self.unknown if c < X2]
        self.special = [(c, p) for c, p in self.unknown if c >= X2]
        self.by_sum: dict[int, float] = {}
        self.chances = dict(self.plain)

    def final(self, tokens: Sequence[int]) -> float:
        return self.utility[min(abs(total_of(tokens) - BUE), 399)]

    def value(self, locked: tuple[int, ...], hidden: tuple[int, ...], round: int) -> float:
        """Expected utility at the start of exchange ``round`` with these cards locked and hidden."""
        if round >= 5 or not hidden:
            return self.last_draw(locked)
        key = (round, tuple(sorted(locked)), tuple(sorted(hidden)))
        if key not in self.memo:
            self.memo[key] = self._value(*key)
        return self.memo[key]

    def _value(self, round: int, locked: tuple[int, ...], hidden: tuple[int, ...]) -> float:
        if round <= 3:
            # Static: the best cards to lock from those at hand, then a drawn last card; unless
            # one of the exchanges of rounds ``round``-4 hits 50 first, as likely as the next one.
            need = 4 - len(locked)
            static = max(self.last_draw((*locked, *keep)) for keep in combinations(hidden, need))
            hit = max(self.hit_chance((*locked, *hidden[:i], *hidden[i + 1 :])) for i in range(len(hidden)))
            chance = 1 - (1 - hit) ** (5 - round)
            return chance * BUE_POINTS + (1 - chance) * static
        # Round 4: exchange one card (Bué at once?), lock the better of the rest, draw the last.
        draws = [(c, p, self.last_draw((*locked, c))) for c, p in self.unknown]
        keeps = [self.last_draw((*locked, card)) for card in hidden]
        best = -float(BUE_POINTS)
        for give in range(len(hidden)):
            others = hidden[:give] + hidden[give + 1 :]
            kept = max(keeps[:give] + keeps[give + 1 :], default=best)
            value = sum(
                p * (BUE_POINTS if total_of((*locked, *others, c)) == BUE else max(kept, drawn))
                for c, p, drawn in draws
            )
            best = max(best, value)
        return best

    def hit_chance(self, rest: tuple[int, ...]) -> float:
        """The odds that a pool card makes these four cards exactly 50."""
        if max(rest) >= X2:
            return sum(p for c, p in self.unknown if total_of((*rest, c)) == BUE)
        total = sum(rest)
        chance = self.chances.get(BUE - total, 0.0)
        for c, p in self.special:
            sign = 1 if c == X2 else -1
            if any(total + sign * card == BUE for card in rest):
                chance += p
        return chance

    def last_draw(self, locked: tuple[int, ...]) -> float:
        """The last hidden card is always exchanged: the final card is a pool card.

        Without a multiplier among ``locked`` the drawn numbers' part depends on the sum alone.
        """
        if locked and max(locked) >= X2:
            key = (5, tuple(sorted(locked)), ())
            if key not in self.memo:
                self.memo[key] = sum(p * self.final((*locked, c)) for c, p in self.unknown)
            return self.memo[key]
        total = sum(locked)
        if total not in self.by_sum:
            self.by_sum[total] = sum(p * self.utility[min(abs(total + c - BUE), 399)] for c, p in self.plain)
        special = 0.0
        for c, p in self.special:
            # A drawn multiplier acts on one of the numbers: adds it (x2) or removes it (x0).
            sign = 1 if c == X2 else -1
            distance = min((abs(total + sign * card - BUE) for card in locked), default=abs(total - BUE))
            special += p * self.utility[min(distance, 399)]
        return self.by_sum[total] + special

    def after_exchange(
        self, locked: tuple[int, ...], hidden: tuple[int, ...], give: int, received: int, round: int
    ) -> float:
        """The hand gives ``hidden[give]`` and receives a card: Bué at once, or the best lock next."""
        kept = (*hidden[:give], received, *hidden[give + 1 :])
        if total_of((*locked, *kept)) == BUE:
            return float(BUE_POINTS)
        if round >= 5 or len(kept) == 1:
            return self.final((*locked, *kept))
        return self.best_reveal(locked, kept, round)[1]

    def best_reveal(self, locked: tuple[int, ...], hidden: tuple[int, ...], round: int) -> tuple[int, float]:
        """Which hidden card to lock at the end of ``round``, and the value it leaves."""
        options = [
            (self.value((*locked, card), hidden[:i] + hidden[i + 1 :], round + 1), -i)
            for i, card in enumerate(hidden)
        ]
        value, index = max(options)
        return -index, value


def _probabilities(pool: Counter[int]) -> list[tuple[int, float]]:
    size = sum(pool.values())
    return [(c, n / size) for c, n in sorted(pool.items())] if size else [(10, 1.0)]


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
        me = view["me"]
        unknown = unknown_pool(view, self.memory)
        planner = Planner(sum(view["active"]), deck_pool(view, self.memory, unknown), unknown)
        hand = view["hands"][me]
        locked = tuple(token(slot["card"]) for slot in hand if slot["revealed"])
        hidden_at = hidden_positions(view, me)
        hidden = tuple(token(hand[p]["card"]) for p in hidden_at)
        if view["phase"] == "reveal":
            index, _ = planner.best_reveal(locked, hidden, view["round"])
            return {"type": "reveal", "position": hidden_at[index]}
        actions = legal_exchanges(view, self.memory)
        position = Position(view, planner, known_slots(self.memory, view), locked, hidden, hidden_at)
        if view["round"] >= 5:
            scorer = LastRound(position)
            return max(actions, key=lambda action: (scorer.score(action), -actions.index(action)))
        return self._best_exchange(position, actions)

    def _best_exchange(self, position: Position, actions: list[JSON]) -> JSON:
        """Rounds 1-4: expected value of the hand after the exchange, plus the gift's harm."""
        view, planner, known = position.view, position.planner, position.known
        locked, hidden, hidden_at = position.locked, position.hidden, position.hidden_at
        round = view["round"]
        cache: dict[tuple[int, int], float] = {}

        def after(index: int, received: int) -> float:
            if (index, received) not in cache:
                cache[index, received] = planner.after_exchange(locked, hidden, index, received, round)
            return cache[index, received]

        harm_scale = 1.0 if planner.players == 2 else 1.0 / (planner.players - 1)
        revealed_x0 = {
            seat for seat, cards in enumerate(view["hands"]) if any(s["card"] == "x0" for s in cards)
        }

        def score(action: JSON) -> float:
            index = hidden_at.index(action["give"])
            if action["type"] == "deck":
                return sum(p * after(index, c) for c, p in planner.draw)
            target = action["target"]
            taken = known.get(target, {}).get(action["take"])
            mine = (
                after(index, token(taken))
                if taken is not None
                else sum(p * after(index, c) for c, p in planner.unknown)
            )
            gift = hidden[index]
            harm = 0.0 if gift == HUNDRED and target in revealed_x0 else GIFT_HARM.get(gift, 0.0)
            return mine + harm * harm_scale

        return max(actions, key=lambda action: (round_score(score(action)), -actions.index(action)))


def round_score(value: float) -> float:
    """Scores equal up to float noise compare equal, so ties fall to the first listed action."""
    return round(value, 9)


@dataclass(frozen=True)
class Position:
    """What hard play weighs an exchange from: the seat's view, the odds of the cards it has
    not seen, the cards it knows in others' hands, and its own cards."""

    view: JSON
    planner: Planner
    known: dict[int, dict[int, str]]  # seat -> position -> card code, as remembered
    locked: tuple[int, ...]  # its face-up cards
    hidden: tuple[int, ...]  # its hidden cards, in hand order
    hidden_at: list[int]  # their positions in the hand


class LastRound:
    """Round 5: every hand is four face-up cards and one hidden; the outcome is nearly exact.

    Opponents who have exchanged keep their hidden card (unknown: a pool card) unless this
    seat swaps with them, and then they end with the card it gives; those still to exchange
    end with a pool card whatever they hold now.
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

    def _spread(self, seat: int, gift: int | None) -> list[tuple[int, float]]:
        """The opponent's final distance from 50, as (distance, probability)."""
        faceup = self.faceup[seat]
        hidden = len(hidden_positions(self.position.view, seat))
        if hidden != 1:
            return []  # not a last-round hand: a typical opponent
        if gift is not None and seat in self.done:
            return [(abs(total_of((*faceup, gift)) - BUE), 1.0)]
        holding = next(iter(self.position.known.get(seat, {}).values()), None)
        if holding is not None and seat in self.done:
            return [(abs(total_of((*faceup, token(holding))) - BUE), 1.0)]
        return [(abs(total_of((*faceup, c)) - BUE), p) for c, p in self.position.planner.unknown]

    def score(self, action: JSON) -> float:
        index = self.position.hidden_at.index(action["give"])
        kept = self.position.hidden[:index] + self.position.hidden[index + 1 :]
        spreads = dict(self.base)
        if action["type"] == "deck":
            received = self.position.planner.draw
        else:
            target = action["target"]
            spreads[target] = self._spread(target, self.position.hidden[index])
            taken = self.position.known.get(target, {}).get(action["take"])
            received = [(token(taken), 1.0)] if taken is not None else self.position.planner.unknown
        total = 0.0
        for c, p in received:
            distance = abs(total_of((*self.position.locked, *kept, c)) - BUE)
            total += p * self._utility(distance, spreads)
        return round_score(total)

    def _utility(self, distance: int, spreads: dict[int, list[tuple[int, float]]]) -> float:
        if distance == 0:
            return float(BUE_POINTS)
        typical = typical_closer(distance)
        closer = [
            sum(p for d, p in spread if d < distance) + 0.5 * sum(p for d, p in spread if d == distance)
            if spread
            else typical
            for spread in spreads.values()
        ]
        return place_utility(self.position.planner.players, closer)


__all__ = ["BueRobot", "legal_exchanges", "random_action"]
