"""The computer players' arena: seeded two-player matches of every game and pairing.

    python bench/arena.py --matches 1000            # every game, every pairing
    python bench/arena.py --games bue --matches 200 --pairings hard-easy

Pairings: ``hard`` against a uniformly random legal player, ``hard`` against ``easy``, ``easy``
against random. Seats alternate from one match to the next. For each pairing: the first
player's win rate with a 95% Wilson interval, mean match points of each side, and the CPU
time of each decision (median, p99) of each level. Matches run in worker processes, one per core.
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


def classes(game: str) -> tuple[type[Game], type[Robot], Callable[..., JSON]]:
    package, engine, robot = GAMES[game]
    robots = import_module(f"{package}.robot")
    return getattr(import_module(package), engine), getattr(robots, robot), robots.random_action


def player(game: str, level: str, seed: int) -> Robot:
    """A robot of ``level``; "random" is the game's robot deciding by ``random_action`` (it keeps
    the robot's memory, which some games need to know what is legal)."""
    _, robot_class, random_action = classes(game)
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
    first_wins: int = 0
    second_wins: int = 0
    draws: int = 0
    first_points: list[int] = field(default_factory=list)
    second_points: list[int] = field(default_factory=list)
    first_times: list[float] = field(default_factory=list)
    second_times: list[float] = field(default_factory=list)

    def add(self, other: Outcome) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def play_matches(game: str, pairing: str, seeds: range) -> Outcome:
    engine, _, _ = classes(game)
    first, second = pairing.split("-")
    outcome = Outcome()
    for seed in seeds:
        # Seats alternate so neither side always starts.
        first_seat = seed % 2
        levels = {first_seat: first, 1 - first_seat: second}
        times = {first_seat: outcome.first_times, 1 - first_seat: outcome.second_times}
        robots = [Timed(player(game, levels[seat], seed * 2 + seat), times[seat]) for seat in range(2)]
        match = engine.new(2, {}, seed)
        play_out(match, robots)
        totals, winner = match.totals(), match.winner()
        outcome.first_points.append(totals[first_seat])
        outcome.second_points.append(totals[1 - first_seat])
        if winner == first_seat:
            outcome.first_wins += 1
        elif winner == 1 - first_seat:
            outcome.second_wins += 1
        else:
            outcome.draws += 1
    return outcome


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
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


def run(game: str, pairing: str, matches: int, workers: int) -> Outcome:
    chunks = [range(start, min(matches, start + 25)) for start in range(0, matches, 25)]
    outcome = Outcome()
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(play_matches, [game] * len(chunks), [pairing] * len(chunks), chunks):
            outcome.add(part)
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--pairings", nargs="*", default=list(PAIRINGS), choices=list(PAIRINGS))
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    arguments = parser.parse_args()
    print(
        "| game | pairing | matches | first wins (95% CI) | draws | mean points | decision ms median / p99 |"
    )
    print("|---|---|---|---|---|---|---|")
    for game in arguments.games:
        for pairing in arguments.pairings:
            outcome = run(game, pairing, arguments.matches, arguments.workers)
            low, high = wilson(outcome.first_wins, arguments.matches)
            points = statistics.mean(outcome.first_points), statistics.mean(outcome.second_points)
            first, second = pairing.split("-")
            times = " · ".join(
                f"{level} {statistics.median(values) * 1000:.2f} / {percentile(values, 0.99) * 1000:.1f}"
                for level, values in ((first, outcome.first_times), (second, outcome.second_times))
                if level != "random" and values
            )
            print(
                f"| {game} | {first} vs {second} | {arguments.matches} "
                f"| {outcome.first_wins / arguments.matches:.1%} ({low:.1%}-{high:.1%}) | {outcome.draws} "
                f"| {points[0]:.1f} vs {points[1]:.1f} "
                f"| {times} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
