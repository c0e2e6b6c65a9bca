"""Tournaments at scale (issue 40): pairing a round of 1,000 entrants, and redrawing the
standings of 200.

    python -m bench.league_bench [--entrants 1000] [--standings 200] [--runs 3]

**Pairing.** A seeded Swiss field of ``--entrants`` plays two rounds with random places and
totals; then round 3 is paired, at four seats (standing order, swaps against repeat seatings) and
at two (the Dutch system through py4swiss). The reference, timed in the same run on the same
field: the standings alone (``bot.pairing.standings``), which any pairing by standing computes
first. Both are CPU time (``time.process_time``), the median of ``--runs``.

**Standings.** What the bot redraws as a table of a round finishes: the standings message of
``--standings`` entrants (``bot.tournaments.standings_embeds``) and, at the end, the final chart
(``bot.charts.draw_standings``, drawn off the event loop). The reference: the results score chart
at its largest (10 players, 20 games, ``bench/chart_bench.py``), timed in the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bot.pairing import Bye, PlayedTable, standings, swiss_round


def field(
    entrants: int, seats: int, rounds: int, seed: int = 1
) -> tuple[list[int], list[PlayedTable], list[Bye]]:
    """``rounds`` Swiss rounds played with seeded random totals."""
    rng = random.Random(seed)
    everyone = list(range(1, entrants + 1))
    tables: list[PlayedTable] = []
    byes: list[Bye] = []
    for number in range(1, rounds + 1):
        plan = swiss_round(number, everyone, set(everyone), tables, byes, seats, 2, seed)
        for table in plan.tables:
            totals = tuple(rng.choice([0, 10, 20, 30, 40, 50]) for _ in table)
            places = tuple(1 + sum(other > total for other in totals) for total in totals)
            tables.append(PlayedTable(number, table, places, totals))
        byes += [Bye(number, entrant) for entrant in plan.byes]
    return everyone, tables, byes


def cpu_median(work: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def pairing(entrants: int, runs: int) -> None:
    print(f"pairing round 3 of {entrants} entrants (CPU, median of {runs})")
    print("| seats | pairing ms | standings ms (reference) | ratio |")
    print("|---|---|---|---|")
    for seats in (4, 2):
        print(pairing_row(entrants, seats, runs))


def pairing_row(entrants: int, seats: int, runs: int) -> str:
    everyone, tables, byes = field(entrants, seats, 2)
    active = set(everyone)
    paired = cpu_median(lambda: swiss_round(3, everyone, active, tables, byes, seats, 2, 1), runs)
    reference = cpu_median(lambda: standings(everyone, tables, byes, seats), runs)
    return f"| {seats} | {paired * 1000:.0f} | {reference * 1000:.1f} | {paired / reference:.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--standings", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    pairing(args.entrants, args.runs)


if __name__ == "__main__":
    main()
