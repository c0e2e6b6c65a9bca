"""What Bué's computer knows from its seat, and how it values its own hand.

What a seat knows beyond its view, and so keeps in ``memory``: the cards on the discard pile
(every deck exchange is public, the view only shows the top), where the cards it gave in its
own swaps went (until their holder moves cards around), and this exchange round's swaps with
it, whose values may not be swapped back (the engine refuses them before anything is shown).

The cards it cannot place (not in its hand, not face up, not on the discard pile, not where it
put them) are what a draw or a blind take can bring, each as likely as its count. Every round
each player replaces one card and locks one, so the final hand is the four cards locked in
rounds 1-4 plus one last exchanged card: ``Planner`` scores a hand by expectimax over that
structure (exactly from round 3; before, the best cards to lock from those at hand plus the
odds of hitting 50 on the way), with Bué checked after every exchange.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from games.bue.cards import DECK, Card
from games.bue.scoring import BUE, BUE_POINTS, best_value
from games.bue.stakes import Stakes
from games.core import JSON

# A card as the planner sees it: its value, or one of the multipliers. Gold counts as its value
# (SuperBué and the gold tie-break are too rare to plan for).
X2 = 200
X0 = 300
HUNDRED = 100
FULL_DECK: Counter[str] = Counter(card.code for card in DECK)
SwapPair = tuple[int, str, str]


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
    totals = multiplied_totals(tokens)
    if totals:
        return min(totals, key=lambda total: (abs(total - BUE), total))
    cards = [
        Card(0, "x2", 0)
        if t == X2
        else Card(0, "x0", 0)
        if t == X0
        else Card(0, "hundred" if t == HUNDRED else "blue", t)
        for t in tokens
    ]
    return best_value(cards).total


def multiplied_totals(tokens: Sequence[int]) -> set[int]:
    """Every total the engine may choose for a hand of one or two multipliers and enough numbers
    for each to act on its own one, solved directly (``best_value`` enumerates, far slower);
    empty for any other hand. x2 doubles a number, x0 cancels one, or cancels the x2."""
    numbers = [t for t in tokens if t < X2]
    multipliers = sorted(t for t in tokens if t >= X2)
    total = sum(numbers)
    pairs = [(a, b) for i, a in enumerate(numbers) for j, b in enumerate(numbers) if i != j]
    if len(numbers) < len(multipliers) or not multipliers or len(multipliers) > 2:
        return set()
    if multipliers == [X2]:
        return {total + n for n in numbers}
    if multipliers == [X0]:
        return {total - n for n in numbers}
    if multipliers == [X2, X2]:
        return {total + a + b for a, b in pairs}
    if multipliers == [X0, X0]:
        return {total - a - b for a, b in pairs}
    return {total} | {total + a - b for a, b in pairs}


def total_of(tokens: Sequence[int]) -> int:
    """Plain sum without a multiplier (nearly every hand), else the engine's best total."""
    if max(tokens) < X2:
        return sum(tokens)
    return hand_total(tuple(sorted(tokens)))


# Every kind of card there is, as the planner sees it.
TOKENS = tuple(sorted({token(card.code) for card in DECK}))
PLAIN_TOKENS = frozenset(card for card in TOKENS if card < X2)


@lru_cache(maxsize=100_000)
def bue_makers(rest: tuple[int, ...]) -> tuple[int, ...]:
    """The cards that make these cards (``rest`` sorted, so the cache is shared) exactly 50.

    Numbers are solved for directly when ``rest`` holds at most one multiplier (nearly always:
    a multiplier acts on one number, x2 adding it again, x0 taking it away); the rest, rare,
    goes through the engine's own valuation.
    """
    numbers = [card for card in rest if card < X2]
    multipliers = [card for card in rest if card >= X2]
    if len(multipliers) > 1:
        return tuple(card for card in TOKENS if total_of((*rest, card)) == BUE)
    total = sum(numbers)
    if not multipliers:
        plain = {BUE - total}
    elif multipliers[0] == X2:
        # x2 doubles one of the numbers, the new card included.
        plain = {BUE - total - card for card in numbers}
        plain |= {(BUE - total) // 2} if (BUE - total) % 2 == 0 else set()
    else:
        # x0 cancels one of the numbers; cancelling the new card leaves the rest as it was.
        plain = set(TOKENS) if total == BUE else {BUE - total + card for card in numbers}
    makers = {card for card in plain if card in PLAIN_TOKENS}
    makers |= {card for card in (X2, X0) if total_of((*rest, card)) == BUE}
    return tuple(sorted(makers))


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


def place_utility(places: Sequence[float], closer: Sequence[float]) -> float:
    """A place's value (``Stakes.places``: by how many opponents end closer to 50), when each
    opponent ends closer with these odds."""
    ahead = [1.0]  # ahead[k]: chance that exactly k opponents are closer
    for q in closer:
        ahead = [
            (ahead[k] if k < len(ahead) else 0.0) * (1 - q) + (ahead[k - 1] * q if k else 0.0)
            for k in range(len(ahead) + 1)
        ]
    return sum(value * ahead[k] for k, value in enumerate(places) if k < len(ahead))


# An opponent's final distance from 50 when nothing better is known: 1 + geometric, mean ~6.
OPPONENT_SPREAD = 0.83


def typical_closer(distance: int) -> float:
    """Odds a typical opponent ends closer: P(D < d) + P(D = d) / 2, P(D = k) = (1 - r) r^(k - 1)."""
    r = OPPONENT_SPREAD
    return 1 - r ** (distance - 1) + 0.5 * (1 - r) * r ** (distance - 1)


@lru_cache(maxsize=64)
def utility_table(stakes: Stakes) -> tuple[float, ...]:
    """Utility of ending at each distance from 50 (up to 399) against typical opponents."""
    opponents = len(stakes.places) - 1
    placed = (place_utility(stakes.places, [typical_closer(d)] * opponents) for d in range(1, 400))
    return (float(BUE_POINTS), *placed)


class Planner:
    """Values of this seat's hand states for one decision, memoised (the pool is fixed)."""

    def __init__(self, stakes: Stakes, draw: Counter[int], unknown: Counter[int]) -> None:
        self.stakes = stakes
        self.players = len(stakes.places)
        self.draw = _probabilities(draw)
        self.unknown = _probabilities(unknown)
        self.utility = utility_table(stakes)
        self.memo: dict[tuple[int, tuple[int, ...], tuple[int, ...]], float] = {}
        self.plain = [(c, p) for c, p in self.unknown if c < X2]
        self.special = [(c, p) for c, p in self.unknown if c >= X2]
        self.by_sum: dict[int, float] = {}
        self.chances = dict(self.unknown)

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
            return sum(self.chances.get(c, 0.0) for c in bue_makers(tuple(sorted(rest))))
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


def round_score(value: float) -> float:
    """Scores equal up to float noise compare equal, so ties fall to the first listed action."""
    return round(value, 9)
