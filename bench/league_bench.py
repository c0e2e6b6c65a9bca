"""Tournaments at scale (issue 40): pairing a round of 1,000 entrants, and redrawing the
standings of 200.

    python -m bench.league_bench [--entrants 1000] [--standings 200] [--runs 3]

**Pairing.** A seeded Swiss field of ``--entrants`` plays two rounds with random places and
totals; then round 3 is paired, at four seats (standing order, swaps against repeat seatings) and
at two (the Dutch system through py4swiss). The reference, timed in the same run on the same
field: the standings alone (``bot.pairing.standings``), which any pairing by standing computes
first. Both are CPU time (``time.process_time``), the median of ``--runs``.

**Standings.** What the bot redraws as a table of a round finishes: the standings message of
``--standings`` entrants (``bot.tournament_views.standings_embeds``) and, at the end, the final
chart (``bot.tournament_views.final_chart`` drawn by ``bot.charts.draw_scores``, off the event
loop). The reference: the results score chart at its largest (10 players, 20 games,
``bench/chart_bench.py``), timed in the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bench.chart_bench import sample_chart
from bot import charts
from bot.pairing import Bye, PlayedTable, standings, swiss_round
from bot.store.tournaments import EntrantRow, TableRow, TournamentRow
from bot.tournament_views import final_chart, standings_embeds


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


def rows(entrants: int, seats: int, rounds: int) -> tuple[TournamentRow, list[EntrantRow], list[TableRow]]:
    """A tournament of ``entrants`` computers after ``rounds`` rounds, as the store gives it."""
    everyone, tables, byes = field(entrants, seats, rounds)
    tournament = TournamentRow(
        guild_id=5,
        channel_id=10,
        organiser_id=1,
        kind="bue",
        format="swiss",
        seats=seats,
        rounds=rounds,
        options={},
        turn_timeout=3600,
        locale="en",
        seed=1,
        server_settings={},
        created_at=0.0,
        id=1,
        status="running",
        round=rounds,
        schedule=None,
        message_id=None,
        standings_message_id=None,
    )
    entrant_rows = [EntrantRow(e, -e, f"🤖 Hard {e}", "en", "hard", 0, None) for e in everyone]
    table_rows = [
        TableRow(x.round, n, x.entrants, n, n, n, x.places, x.totals, (False,) * len(x.entrants), False)
        for n, x in enumerate(tables, start=1)
    ] + [
        TableRow(b.round, 1000 + b.entrant, (b.entrant,), None, None, None, (1,), (), (), False) for b in byes
    ]
    return tournament, entrant_rows, table_rows


def redrawing(entrants: int, runs: int) -> None:
    tournament, entrant_rows, table_rows = rows(entrants, 4, 3)
    print(f"the standings of {entrants} entrants after 3 rounds (CPU, median of {runs})")
    print("| what | ms | against the results chart (reference) |")
    print("|---|---|---|")
    reference = cpu_median(lambda: charts.draw_scores(sample_chart(10, 20)), runs)
    message = cpu_median(lambda: standings_embeds("en", tournament, entrant_rows, table_rows), runs)
    final = replace(tournament, status="finished")
    chart = cpu_median(lambda: charts.draw_scores(final_chart("en", final, entrant_rows, table_rows)), runs)
    print(f"| results chart, 10 players, 20 games (reference) | {reference * 1000:.0f} | 1.00 |")
    print(f"| standings message (a table ends) | {message * 1000:.0f} | {message / reference:.2f} |")
    print(f"| final chart (the leaders by round) | {chart * 1000:.0f} | {chart / reference:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--standings", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    redrawing(args.standings, args.runs)
    pairing(args.entrants, args.runs)


if __name__ == "__main__":
    main()
