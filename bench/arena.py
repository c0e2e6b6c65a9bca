"""The computer players' arena: seeded matches of one player against a field, at any table size.

    python bench/arena.py --matches 1000                        # every game, two seats, every pairing
    python bench/arena.py --games bue --seats 3 4 6 10 --pairings hard-easy --matches 500
    python bench/arena.py --games bue --seats 4 --pairings oracle-easy --matches 500

A pairing ``hero-field`` seats one ``hero`` against ``seats - 1`` players of the ``field`` level
(at two seats: one against one). Levels: ``easy``, ``hard``, ``random`` (a uniformly random legal
player: the game's ``random_action``) and, for Bué only, ``oracle``: the ``hard`` planner handed
every hidden card instead of samples, the ceiling of what any strategy could reach (bench only:
nothing in the bot can build it), and its halves ``oracle_hands`` (sees the others' hands, not the
deck), ``oracle_deck`` (sees the next draw, not the hands) and ``oracle_race`` (sees the hands
only to weigh the others' odds; its takes stay blind). The hero's seat rotates from one
match to the next; a match with no winner counts as a tie split evenly between its seats. For
each table: the hero's win rate with a 95% Wilson interval, chance (one in ``seats``), the win
rate over chance, mean match points of the hero and of the field, and the CPU time of each
decision (median / p99) of each computer level. Matches run in worker processes, one per core.
"""

from __future__ import annotations

import argparse
import inspect
import math
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from games.core import JSON, Game
from games.robots import Robot, play_out

GAMES = {
    "bue": ("games.bue", "Bue", "BueRobot"),
    "seriebum": ("games.seriebum", "SerieBum", "SerieBumRobot"),
    "rummikub": ("games.rummikub", "Rummikub", "RummikubRobot"),
    "rumbugz": ("games.rumbugz", "RumBugz", "RumBugzRobot"),
}
PAIRINGS = ("hard-random", "hard-easy", "easy-random")
ORACLE_PAIRINGS = tuple(
    f"{oracle}-{field}"
    for oracle in ("oracle", "oracle_hands", "oracle_deck", "oracle_race")
    for field in ("easy", "random")
)
VARIANT_PAIRINGS = tuple(
    f"{variant}-{field}"
    for variant in ("hard_safe_gifts", "hard_no_blind_swaps")
    for field in ("easy", "random")
)
CHUNK = 10


def classes(game: str) -> tuple[type[Game], type[Robot], Callable[..., JSON]]:
    package, engine, robot = GAMES[game]
    robots = import_module(f"{package}.robot")
    return getattr(import_module(package), engine), getattr(robots, robot), robots.random_action


def player(game: str, level: str, seed: int, match: Game) -> Robot:
    """A robot of ``level``; "random" is the game's robot deciding by ``random_action`` (it keeps
    the robot's memory, which some games need to know what is legal); "oracle" sees ``match``."""
    _, robot_class, random_action = classes(game)
    if level.startswith("oracle") or level.startswith("hard_"):
        if game != "bue":
            raise SystemExit("the oracle player and hard's variants exist for Bué only")
        from bench.bue_oracle import OracleRobot, VariantRobot

        return (
            OracleRobot(match, seed, level)
            if level.startswith("oracle")
            else VariantRobot(match, seed, level)
        )
    if level != "random":
        return robot_class(level, seed)
    takes_memory = len(inspect.signature(random_action).parameters) > 2

    class RandomPlayer(robot_class):  # type: ignore[misc, valid-type]
        def decide(self, view: JSON) -> JSON:
            extra = (self.memory,) if takes_memory else ()
            return random_action(view, self.random, *extra)

    return RandomPlayer("easy", seed)


class Timed(Robot):
    """Wraps a robot to time each of its decisions in CPU seconds."""

    def __init__(self, inner: Robot, times: list[float]) -> None:
        self.inner, self.times = inner, times

    def observe(self, view: JSON, events: Any) -> None:
        self.inner.observe(view, events)

    def decide(self, view: JSON) -> JSON:
        start = time.process_time()
        action = self.inner.decide(view)
        self.times.append(time.process_time() - start)
        return action


@dataclass
class Outcome:
    hero_wins: float = 0.0
    ties: int = 0
    hero_points: list[int] = field(default_factory=list)
    field_points: list[float] = field(default_factory=list)
    hero_times: list[float] = field(default_factory=list)
    field_times: list[float] = field(default_factory=list)

    def add(self, other: Outcome) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass(frozen=True)
class Table:
    game: str
    seats: int
    hero: str
    field: str
    options: tuple[tuple[str, int], ...] = ()


def play_matches(table: Table, seeds: range) -> Outcome:
    engine, _, _ = classes(table.game)
    outcome = Outcome()
    for seed in seeds:
        hero_seat = seed % table.seats  # the hero's seat rotates so no seat is favoured
        match = engine.new(table.seats, dict(table.options), seed)
        robots = [
            Timed(
                player(table.game, table.hero if seat == hero_seat else table.field, seed * 16 + seat, match),
                outcome.hero_times if seat == hero_seat else outcome.field_times,
            )
            for seat in range(table.seats)
        ]
        play_out(match, robots)
        totals, winner = match.totals(), match.winner()
        outcome.hero_points.append(totals[hero_seat])
        outcome.field_points.append(
            statistics.mean(points for seat, points in enumerate(totals) if seat != hero_seat)
        )
        if winner is None:
            outcome.ties += 1
            outcome.hero_wins += 1 / table.seats
        elif winner == hero_seat:
            outcome.hero_wins += 1
    return outcome


def wilson(wins: float, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if total == 0:
        return 0.0, 0.0
    rate = wins / total
    centre = (rate + z * z / (2 * total)) / (1 + z * z / total)
    spread = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - spread, centre + spread


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def run(table: Table, matches: int, workers: int, first_seed: int = 0) -> Outcome:
    end = first_seed + matches
    chunks = [range(start, min(end, start + CHUNK)) for start in range(first_seed, end, CHUNK)]
    outcome = Outcome()
    if workers <= 1:
        for chunk in chunks:
            outcome.add(play_matches(table, chunk))
        return outcome
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(play_matches, [table] * len(chunks), chunks):
            outcome.add(part)
    return outcome


def times_text(table: Table, outcome: Outcome) -> str:
    return " · ".join(
        f"{level} {statistics.median(values) * 1000:.2f} / {percentile(values, 0.99) * 1000:.1f}"
        for level, values in ((table.hero, outcome.hero_times), (table.field, outcome.field_times))
        if level != "random" and values
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--seats", nargs="*", type=int, default=[2])
    parser.add_argument(
        "--pairings", nargs="*", default=list(PAIRINGS), choices=PAIRINGS + ORACLE_PAIRINGS + VARIANT_PAIRINGS
    )
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="seeds first-seed .. first-seed + matches - 1 (to add to a run)",
    )
    parser.add_argument(
        "--target", type=int, default=None, help="match target (Bué, Serie Bum!); default: the game's own"
    )
    arguments = parser.parse_args()
    print(
        "| game | seats | hero vs field | matches | hero wins (95% CI) | chance | × chance | ties "
        "| mean points hero vs field | decision ms median / p99 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game in arguments.games:
        options = (("target", arguments.target),) if arguments.target is not None else ()
        for seats in arguments.seats:
            for pairing in arguments.pairings:
                hero, opponents = pairing.split("-")
                table = Table(game, seats, hero, opponents, options)
                outcome = run(table, arguments.matches, arguments.workers, arguments.first_seed)
                rate = outcome.hero_wins / arguments.matches
                low, high = wilson(outcome.hero_wins, arguments.matches)
                print(
                    f"| {game} | {seats} | {hero} vs {opponents} | {arguments.matches} "
                    f"| {rate:.1%} ({low:.1%}-{high:.1%}) | {1 / seats:.1%} | {rate * seats:.2f} "
                    f"| {outcome.ties} "
                    f"| {statistics.mean(outcome.hero_points):.1f} "
                    f"vs {statistics.mean(outcome.field_points):.1f} "
                    f"| {times_text(table, outcome)} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
