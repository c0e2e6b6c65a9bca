"""What the outcomes of the game being played are worth to a seat, given its match's totals.

Hard play scores outcomes on the scale of points minus the others' average: its own Bué is
worth 50, another seat's costs 50 / (n - 1), a place what it adds over the others' share. That
is right while the match is young. Near the target it is not: with one seat at 95 of 110, its
Bué or a second place ends the match, while a Bué by a seat at 20 changes little. A person plays
to the score; ``match_stakes`` does so by the odds of winning the match that follow each outcome,
brought to the same scale (its own Bué 50 above the mean of the others' Bués, which cost
50 / (n - 1) on average), so everything else hard play weighs stays in proportion.

The odds come from playing the rest of the match out many times with every seat equal: a game
ends in a Bué by any seat alike, or with no Bué (at rates measured in play) in places dealt at
random. The draws are seeded from the totals themselves, so the stakes are a pure function of
the view, computed once a game (cached), and only in a game that can end the match.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.bue.scoring import BUE_POINTS, PLACE_POINTS, TWO_PLAYER_POINTS
from games.core import JSON

# A game's odds of ending with no Bué, by the exchanges in it: each ends on a Bué with about
# these odds (all sources: own draws and swaps, gifts, the deal), measured in the arena's games.
BUE_PER_EXCHANGE = 0.07
ROUNDS = 5
# Playouts of the rest of the match per outcome, in total across outcomes: more seats, more
# outcomes, fewer playouts each (the cost stays flat; bench/README.md, "Computer players' arena").
PLAYOUTS = 2400
# Below this spread of match odds between its own Bué and another's, the game cannot change the
# seat's match (it has won or lost whatever happens): points decide.
LEAST_SPREAD = 0.02


@dataclass(frozen=True)
class Stakes:
    """Outcome values for one seat, in points minus the others' average (or its match
    equivalent, on the scale where its own Bué is worth ``BUE_POINTS``): ``loss[s]`` what seat
    ``s``'s Bué costs it (0 for itself), ``places[k]`` ending with ``k`` opponents closer to 50
    in a game without a Bué."""

    loss: tuple[float, ...]
    places: tuple[float, ...]

    def mean_loss(self, seats: Sequence[int]) -> float:
        return sum(self.loss[seat] for seat in seats) / len(seats) if seats else 0.0


def place_points(players: int) -> tuple[int, ...]:
    points = TWO_PLAYER_POINTS if players == 2 else PLACE_POINTS
    return tuple(points[k] if k < len(points) else 0 for k in range(players))


@lru_cache(maxsize=16)
def points_stakes(players: int, seats: int, me: int, active: tuple[bool, ...]) -> Stakes:
    """Points minus the others' average: a place is worth ``n·P - T`` over ``n - 1`` (P: its
    points, T: the points given out), a Bué 50, another seat's Bué ``50 / (n - 1)``."""
    points = place_points(players)
    share = BUE_POINTS / max(1, players - 1)
    loss = tuple(0.0 if seat == me or not active[seat] else share for seat in range(seats))
    places = tuple((players * p - sum(points)) / max(1, players - 1) for p in points)
    return Stakes(loss, places)


def match_stakes(view: JSON) -> Stakes:
    """The stakes of the game being played for the viewing seat, from the match's totals."""
    active = tuple(bool(a) for a in view["active"])
    players, me = sum(active), view["me"]
    plain = points_stakes(players, len(active), me, active)
    totals = tuple(view["totals"])
    if players < 2 or max(totals) + BUE_POINTS < view["target"]:
        return plain  # this game cannot end the match: points are the stakes
    return _match_stakes(totals, view["target"], active, me) or plain


@lru_cache(maxsize=64)
def _match_stakes(totals: tuple[int, ...], target: int, active: tuple[bool, ...], me: int) -> Stakes | None:
    seats = [seat for seat, on in enumerate(active) if on]
    others = [seat for seat in seats if seat != me]
    playouts = Playouts(totals, target, seats, me)
    bue = {seat: playouts.odds({seat: BUE_POINTS}) for seat in seats}
    ranked = [playouts.odds_placed(rank) for rank in range(len(seats))]
    spread = bue[me] - sum(bue[seat] for seat in others) / len(others)
    if spread < LEAST_SPREAD:
        return None
    # Its own Bué 50 above the others' mean, which costs 50 / (n - 1): as in points.
    scale = (BUE_POINTS + BUE_POINTS / len(others)) / spread
    zero = bue[me] - BUE_POINTS / scale
    loss = tuple(scale * (zero - bue[seat]) if seat in others else 0.0 for seat in range(len(active)))
    return Stakes(loss, tuple(scale * (odds - zero) for odds in ranked))


class Playouts:
    """The seat's odds of winning the match after an outcome of this game, each outcome played
    out from the same seeded draws (common random numbers: their differences are what count)."""

    def __init__(self, totals: tuple[int, ...], target: int, seats: list[int], me: int) -> None:
        self.totals, self.target, self.seats, self.me = totals, target, seats, me
        self.points = place_points(len(seats))
        self.no_bue = (1 - BUE_PER_EXCHANGE) ** (ROUNDS * len(seats))
        self.trials = max(50, PLAYOUTS // (2 * len(seats)))
        self.seed = zlib.crc32(repr((totals, target, seats, me)).encode())

    def odds(self, gains: dict[int, int]) -> float:
        return sum(self._play_out(trial, gains, None) for trial in range(self.trials)) / self.trials

    def odds_placed(self, rank: int) -> float:
        """After a game without a Bué in which this seat ends at ``rank`` (0: the closest)
        and the others take the other places at random."""
        return sum(self._play_out(trial, {}, rank) for trial in range(self.trials)) / self.trials

    def _play_out(self, trial: int, gains: dict[int, int], rank: int | None) -> float:
        """One playout of the rest of the match, every seat alike; this seat's share of the
        win (ties shared)."""
        generator = random.Random(self.seed + trial)
        scores = list(self.totals)
        for seat, gained in gains.items():
            scores[seat] += gained
        if rank is not None:
            others = [seat for seat in self.seats if seat != self.me]
            generator.shuffle(others)
            order = [*others[:rank], self.me, *others[rank:]]
            for seat, gained in zip(order, self.points, strict=True):
                scores[seat] += gained
        while max(scores) < self.target:
            if generator.random() < self.no_bue:
                order = list(self.seats)
                generator.shuffle(order)
                for seat, gained in zip(order, self.points, strict=True):
                    scores[seat] += gained
            else:
                scores[self.seats[generator.randrange(len(self.seats))]] += BUE_POINTS
        best = max(scores)
        if scores[self.me] != best:
            return 0.0
        return 1.0 / sum(1 for score in scores if score == best)
