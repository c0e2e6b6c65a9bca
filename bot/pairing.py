"""Tournaments on paper: points by finishing place, standings with their tie-breaks, and each
round's tables, as pure functions of (the entrants, the tables played so far, a seed). No Discord,
no database, no clock: a round is paired again, identically, from what the store keeps.

**Points.** At a table of ``n`` in a tournament of ``seats`` seats, place ``p`` (1 is first)
scores ``(seats - 1) * (n - p) / (n - 1)``: 3, 2, 1, 0 at a full table of four, and a table one
seat short spreads the same range (3, 1.5, 0 for three), so its winner is not worth less than a
full table's. Equal places share the points of the places they span. A bye is worth a middle
place, ``(seats - 1) / 2``. Points are exact fractions.

**Standings.** By points, then the sum over the tables an entrant sat at of their opponents'
points (how strong the field they met was), then the sum of their match totals, then entry order.

**Swiss.** Round 1 at random (seeded). Later rounds by standing, the leaders at table 1; two
entrants of equal points at different tables swap seats whenever that seats fewer pairs who met
before. The entrants are split into full tables, then tables one seat short (never below the
game's fewest players), then byes for whoever is left, the lowest in the standings who never had
one. With two seats, the FIDE Dutch system pairs the round (``py4swiss``, see ``dutch_round``).

**Round robin.** With two seats, the circle method: everyone meets everyone once, and with an
odd number each sits out (a bye) once. With more seats no such schedule exists for most numbers
of entrants, so rounds are built greedily until every pair has met at least once, each table
seating those who have met fewest of its others.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from fractions import Fraction

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError as Py4SwissPairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import (
    ColorToken,
    ResultToken,
    RoundResult,
    ScoringPointSystem,
    ScoringPointSystemCode,
)
from py4swiss.trf.sections import PlayerSection, XSection

SWISS = "swiss"
ROUND_ROBIN = "round_robin"
FORMATS = (SWISS, ROUND_ROBIN)
# Greedy round robins tried from different draws, the shortest kept: a few more rounds are often
# saved this way (16 entrants at 4 seats: 5 rounds, the fewest possible, where one draw takes 10).
COVERING_TRIES = 20


@dataclass(frozen=True)
class PlayedTable:
    """A table of a past or current round: its entrants by seat, and once it finished, each seat's
    place (1 is first; equal places tie), match total, and whether a stand-in finished it."""

    round: int
    entrants: tuple[int, ...]
    places: tuple[int, ...] | None = None
    totals: tuple[int, ...] = ()
    stood_in: tuple[bool, ...] = ()

    @property
    def finished(self) -> bool:
        return self.places is not None


@dataclass(frozen=True)
class Bye:
    round: int
    entrant: int


@dataclass(frozen=True)
class RoundPlan:
    """A round's tables (entrants by seat, table 1 first) and its byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standing:
    entrant: int
    rank: int  # equal on points and both tie-breaks: the same rank
    points: Fraction
    opponents_points: Fraction
    totals: int
    tables: int
    byes: int
    stood_in: bool  # a stand-in finished one of their seats (they score its place, marked)


@dataclass
class _Record:
    points: Fraction = Fraction(0)
    totals: int = 0
    tables: int = 0
    byes: int = 0
    stood_in: bool = False
    met: list[list[int]] = field(default_factory=list)


# ---------------------------------------------------------------------- points and standings


def place_points(place: int, table_size: int, seats: int) -> Fraction:
    """What finishing ``place`` at a table of ``table_size`` is worth in a tournament of ``seats``."""
    if table_size < 2:
        return bye_points(seats)
    return Fraction((seats - 1) * (table_size - place), table_size - 1)


def table_points(places: Sequence[int], seats: int) -> list[Fraction]:
    """Each seat's points from its place; seats sharing a place share the points of the places they span."""
    size = len(places)
    shared = Counter(places)
    return [
        sum((place_points(p, size, seats) for p in range(place, place + shared[place])), Fraction(0))
        / shared[place]
        for place in places
    ]


def bye_points(seats: int) -> Fraction:
    """A middle place's points."""
    return Fraction(seats - 1, 2)


def standings(
    entrants: Sequence[int], tables: Iterable[PlayedTable], byes: Iterable[Bye], seats: int
) -> list[Standing]:
    """Every entrant (given in entry order: the last tie-break), best first; an unfinished table
    counts for nothing yet."""
    records = {entrant: _Record() for entrant in entrants}
    for table in tables:
        if table.places is None:
            continue
        points = table_points(table.places, seats)
        for seat, entrant in enumerate(table.entrants):
            record = records[entrant]
            record.points += points[seat]
            record.totals += table.totals[seat] if table.totals else 0
            record.tables += 1
            record.stood_in |= bool(table.stood_in and table.stood_in[seat])
            record.met.append([other for other in table.entrants if other != entrant])
    for bye in byes:
        records[bye.entrant].points += bye_points(seats)
        records[bye.entrant].byes += 1
    opponents = {
        entrant: sum((records[other].points for met in record.met for other in met), Fraction(0))
        for entrant, record in records.items()
    }
    order = {entrant: index for index, entrant in enumerate(entrants)}

    def key(entrant: int) -> tuple[Fraction, Fraction, int]:
        return (-records[entrant].points, -opponents[entrant], -records[entrant].totals)

    ranked = sorted(entrants, key=lambda entrant: (key(entrant), order[entrant]))
    result: list[Standing] = []
    for index, entrant in enumerate(ranked):
        tied = index > 0 and key(ranked[index - 1]) == key(entrant)
        record = records[entrant]
        result.append(
            Standing(
                entrant,
                result[-1].rank if tied else index + 1,
                record.points,
                opponents[entrant],
                record.totals,
                record.tables,
                record.byes,
                record.stood_in,
            )
        )
    return result


# ---------------------------------------------------------------------- table sizes


def table_sizes(count: int, seats: int, fewest: int) -> tuple[list[int], int]:
    """How ``count`` entrants sit: full tables first, then tables one seat short (if the game
    plays with one fewer), and the number of byes for whoever cannot be seated so. Fewer than a
    table's seats (the field thinned by drops) sit at one table, if the game can be played so."""
    if fewest <= count < seats:
        return [count], 0
    for byes in range(count + 1):
        seated = count - byes
        tables = math.ceil(seated / seats)
        short = tables * seats - seated
        if short == 0 or (seats - 1 >= fewest and short <= tables):
            return [seats] * (tables - short) + [seats - 1] * short, byes
    return [], count


def _chunk(ordered: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(ordered[start : start + size]))
        start += size
    return tables


# ---------------------------------------------------------------------- Swiss


def met_counts(tables: Iterable[PlayedTable]) -> Counter[frozenset[int]]:
    """How many times each pair of entrants sat at one table."""
    met: Counter[frozenset[int]] = Counter()
    for table in tables:
        met.update(frozenset(pair) for pair in itertools.combinations(table.entrants, 2))
    return met


def repeats(table: Sequence[int], met: Mapping[frozenset[int], int]) -> int:
    """The pairs of the table who sat together before."""
    return sum(met.get(frozenset(pair), 0) for pair in itertools.combinations(table, 2))


def avoid_repeats(
    tables: list[list[int]], points: Mapping[int, Fraction], met: Mapping[frozenset[int], int]
) -> list[list[int]]:
    """Swap an entrant who meets someone again with one of equal points at another table (the
    nearest table first, so that entrants stay close to their standing), while a swap seats fewer
    pairs who met before."""
    table_of = {entrant: index for index, table in enumerate(tables) for entrant in table}
    equals: defaultdict[Fraction, list[int]] = defaultdict(list)
    for entrant in table_of:
        equals[points[entrant]].append(entrant)

    def swapped(i: int, a: int, j: int, b: int) -> bool:
        """Swap ``a`` of table ``i`` with ``b`` of table ``j`` if that lowers the repeats."""
        first, second = tables[i], tables[j]
        before = repeats(first, met) + repeats(second, met)
        x, y = first.index(a), second.index(b)
        first[x], second[y] = b, a
        if repeats(first, met) + repeats(second, met) < before:
            table_of[a], table_of[b] = j, i
            return True
        first[x], second[y] = a, b
        return False

    improved = True
    while improved:
        improved = False
        for i, table in enumerate(tables):
            meeting_again = [
                a for a in table if any(met.get(frozenset((a, other)), 0) for other in table if other != a)
            ]
            for a in meeting_again:
                nearest = sorted(equals[points[a]], key=lambda b: (abs(table_of[b] - i), table_of[b]))
                if any(table_of[b] != i and swapped(i, a, table_of[b], b) for b in nearest):
                    improved = True
                    break
    return tables


def first_draw(entrants: Sequence[int], seed: int) -> list[int]:
    """The entrants of round 1 in a seeded random order: its tables, and with two seats the
    Dutch system's pairing numbers."""
    drawn = list(entrants)
    random.Random(seed).shuffle(drawn)
    return drawn


def swiss_round(
    number: int,
    entrants: Sequence[int],
    active: Set[int],
    tables: Sequence[PlayedTable],
    byes: Sequence[Bye],
    seats: int,
    fewest: int,
    seed: int,
) -> RoundPlan:
    """Round ``number`` of a Swiss tournament among the ``active`` of the ``entrants`` (every one
    who ever entered, in entry order), from the tables and byes of the rounds before."""
    rng = random.Random(seed * 1009 + number)
    playing = [entrant for entrant in entrants if entrant in active]
    sizes, bye_count = table_sizes(len(playing), seats, fewest)
    if number == 1:
        drawn = first_draw(playing, seed)
        seated, sitting_out = drawn[: len(drawn) - bye_count], drawn[len(drawn) - bye_count :]
        if seats == 2:
            return RoundPlan(dutch_first_round(seated), tuple(sitting_out))
        return RoundPlan(tuple(map(tuple, _chunk(seated, sizes))), tuple(sorted(sitting_out)))
    if seats == 2:
        dutch = dutch_round(number, entrants, active, tables, byes, seed)
        if dutch is not None:
            return dutch
    ranked = [standing for standing in standings(entrants, tables, byes, seats) if standing.entrant in active]
    had_bye = Counter(bye.entrant for bye in byes)
    # The lowest in the standings among those with the fewest byes (none, while anyone has none).
    bottom_up = sorted(reversed(ranked), key=lambda standing: had_bye[standing.entrant])
    resting = {standing.entrant for standing in bottom_up[:bye_count]}
    in_order = [standing.entrant for standing in ranked if standing.entrant not in resting]
    points = {standing.entrant: standing.points for standing in ranked}
    arranged = avoid_repeats(_chunk(in_order, sizes), points, met_counts(tables))
    # Who sits first at a table is drawn: no seat is a reward for a standing.
    for table in arranged:
        rng.shuffle(table)
    return RoundPlan(tuple(map(tuple, arranged)), tuple(sorted(resting)))


def dutch_first_round(drawn: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Round 1 of the Dutch system (pairing numbers in ``drawn``'s order): the top half meets the
    bottom half, 1-5, 2-6..., the higher number white on odd boards and black on even ones. Written
    here: ``py4swiss`` takes a minute over a round 1 of a thousand, one score group it pairs whole."""
    half = len(drawn) // 2
    return tuple(
        (drawn[board], drawn[board + half]) if board % 2 == 0 else (drawn[board + half], drawn[board])
        for board in range(half)
    )


def dutch_round(
    number: int,
    entrants: Sequence[int],
    active: Set[int],
    tables: Sequence[PlayedTable],
    byes: Sequence[Bye],
    seed: int,
) -> RoundPlan | None:
    """A two-seat round by the FIDE Dutch system, through ``py4swiss`` (bbpPairings' algorithm):
    the first seat is white; a win scores 1, a shared place ½ (a draw), a bye ½; the random draw
    of round 1's entrants gives the starting numbers (``first_draw``), later entrants following.
    None when the rules allow no pairing (everyone has met everyone): ``swiss_round`` then pairs
    by standing alone."""
    first = {entrant for table in tables if table.round == 1 for entrant in table.entrants}
    first |= {bye.entrant for bye in byes if bye.round == 1}
    drawn = first_draw([entrant for entrant in entrants if entrant in first], seed)
    order = [*drawn, *(entrant for entrant in entrants if entrant not in drawn)]
    starting = {entrant: index for index, entrant in enumerate(order, start=1)}
    seated_at = {(table.round, entrant): table for table in tables for entrant in table.entrants}
    sat_out = {(bye.round, bye.entrant) for bye in byes}
    players = []
    for entrant in order:
        results = [
            _round_result(round_number, entrant, seated_at, sat_out, starting)
            for round_number in range(1, number)
        ]
        players.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=starting[entrant],
                points_times_ten=sum(DUTCH_POINTS[(result.result, result.color)] for result in results),
                rank=starting[entrant],
                results=results,
            )
        )
    scoring = ScoringPointSystem()
    scoring.apply_code(ScoringPointSystemCode.PAIRING_ALLOCATED_BYE, 5)
    report = ParsedTrf(
        player_sections=players,
        x_section=XSection(
            number_of_rounds=number,
            zeroed_ids={starting[entrant] for entrant in order if entrant not in active},
            scoring_point_system=scoring,
        ),
    )
    try:
        report.validate_contents()
        paired = DutchEngine.generate_pairings(report)
    except Py4SwissPairingError:
        return None
    by_start = {index: entrant for entrant, index in starting.items()}
    return RoundPlan(
        tuple((by_start[pair.white], by_start[pair.black]) for pair in paired if pair.black),
        tuple(sorted(by_start[pair.white] for pair in paired if not pair.black)),
    )


# What each result of a two-seat table is worth to the Dutch system, in tenths of a point.
DUTCH_POINTS = {
    (ResultToken.WIN, ColorToken.WHITE): 10,
    (ResultToken.WIN, ColorToken.BLACK): 10,
    (ResultToken.DRAW, ColorToken.WHITE): 5,
    (ResultToken.DRAW, ColorToken.BLACK): 5,
    (ResultToken.LOSS, ColorToken.WHITE): 0,
    (ResultToken.LOSS, ColorToken.BLACK): 0,
    (ResultToken.PAIRING_ALLOCATED_BYE, ColorToken.BYE_OR_NOT_PAIRED): 5,
    (ResultToken.ZERO_POINT_BYE, ColorToken.BYE_OR_NOT_PAIRED): 0,
}


def _round_result(
    number: int,
    entrant: int,
    seated_at: Mapping[tuple[int, int], PlayedTable],
    sat_out: Set[tuple[int, int]],
    starting: Mapping[int, int],
) -> RoundResult:
    """An entrant's round as a tournament report says it: a game with its colour and result, a bye,
    or a round not played (not entered yet, dropped, or at a table of another size: none here)."""
    table = seated_at.get((number, entrant))
    if table is None or len(table.entrants) != 2 or table.places is None:
        bye = (number, entrant) in sat_out
        token = ResultToken.PAIRING_ALLOCATED_BYE if bye else ResultToken.ZERO_POINT_BYE
        return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=token)
    seat = table.entrants.index(entrant)
    mine, theirs = table.places[seat], table.places[1 - seat]
    result = ResultToken.WIN if mine < theirs else ResultToken.LOSS if mine > theirs else ResultToken.DRAW
    colour = ColorToken.WHITE if seat == 0 else ColorToken.BLACK
    return RoundResult(id=starting[table.entrants[1 - seat]], color=colour, result=result)


# ---------------------------------------------------------------------- round robin


def round_robin(entrants: Sequence[int], seats: int, fewest: int, seed: int) -> list[RoundPlan]:
    """Every round of a round robin among ``entrants``, fixed when it begins (see the module's
    docstring): the circle method with two seats, greedy rounds until every pair met with more."""
    drawn = list(entrants)
    random.Random(seed).shuffle(drawn)
    if seats == 2:
        return circle_method(drawn)
    tries = (covering_rounds(drawn, seats, fewest, random.Random(seed + k)) for k in range(COVERING_TRIES))
    return min(tries, key=len)


def circle_method(entrants: Sequence[int]) -> list[RoundPlan]:
    """Berger's circle: the first entrant stays put, the others turn one place a round; with an odd
    number, an empty place makes the one facing it sit out."""
    circle: list[int | None] = [*entrants, *([None] if len(entrants) % 2 else [])]
    half = len(circle) // 2
    rounds = []
    for number in range(len(circle) - 1):
        pairs = [(circle[i], circle[-1 - i]) for i in range(half)]
        tables = []
        byes = []
        for first, second in pairs:
            if first is None or second is None:
                byes.append(first if second is None else second)
            else:
                # Alternate who sits first, so nobody always starts.
                tables.append((first, second) if number % 2 == 0 else (second, first))
        rounds.append(RoundPlan(tuple(tables), tuple(sorted(e for e in byes if e is not None))))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def covering_rounds(entrants: Sequence[int], seats: int, fewest: int, rng: random.Random) -> list[RoundPlan]:
    """Rounds until every pair has met: each table takes, one at a time, the entrant who has met
    the fewest of those already seated there (then the one with the most left to meet)."""
    met: Counter[frozenset[int]] = Counter()
    had_bye: Counter[int] = Counter()
    unmet = {entrant: set(entrants) - {entrant} for entrant in entrants}
    sizes, bye_count = table_sizes(len(entrants), seats, fewest)
    rounds: list[RoundPlan] = []
    # Each round meets a pair not met before (table 1's first entrant, with the most left to meet,
    # is seated with one of them): the bound is never reached but keeps a bug from looping.
    while any(unmet.values()) and len(rounds) < len(entrants) ** 2:
        drawn = list(entrants)
        rng.shuffle(drawn)
        # Byes to those who had the fewest, and of them who have the fewest left to meet.
        drawn.sort(key=lambda entrant: (had_bye[entrant], len(unmet[entrant])))
        sitting_out, pool = drawn[:bye_count], drawn[bye_count:]
        pool.sort(key=lambda entrant: -len(unmet[entrant]))
        tables = []
        for size in sizes:
            table = [pool.pop(0)]
            while len(table) < size:
                best = min(
                    pool,
                    key=lambda entrant: (
                        sum(met[frozenset((entrant, other))] for other in table),
                        -len(unmet[entrant] & set(pool)),
                    ),
                )
                pool.remove(best)
                table.append(best)
            tables.append(tuple(table))
            for first, second in itertools.combinations(table, 2):
                met[frozenset((first, second))] += 1
                unmet[first].discard(second)
                unmet[second].discard(first)
        had_bye.update(sitting_out)
        rounds.append(RoundPlan(tuple(tables), tuple(sorted(sitting_out))))
    return rounds


def without_dropped(plan: RoundPlan, active: Set[int], fewest: int) -> RoundPlan:
    """A round robin's planned round once entrants dropped: their seats are empty, and a table left
    with fewer than the game's fewest players gives its remaining entrants a bye."""
    tables, byes = [], [entrant for entrant in plan.byes if entrant in active]
    for table in plan.tables:
        staying = tuple(entrant for entrant in table if entrant in active)
        if len(staying) >= fewest:
            tables.append(staying)
        else:
            byes += staying
    return RoundPlan(tuple(tables), tuple(sorted(byes)))
