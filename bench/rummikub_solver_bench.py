"""Benchmark: our Rummikub solver against rummikub-solver (PyPI, an ILP) on the same positions.

Run by hand, not a test (see bench/README.md):

    python bench/rummikub_solver_bench.py --games 200

Positions come from seeded simulated games: at every turn, the player to act, their rack,
the table and whether they still owe the initial meld. The simulated players lay our
solver's best play (most tiles) most of the time and draw otherwise, so tables grow as
in real games. Then, position by position, each solver answers "the play laying the most
tiles, and the table after it", and the script reports the time per solve (median, p99),
the tiles laid and how many of the table's sets each answer changes. Ours is timed twice:
with its search for the table changing the fewest sets, and without (any valid table,
which is what rummikub-solver returns). A position where ours lays fewer tiles than
rummikub-solver is listed: there should be none.

During the initial meld our rules forbid touching the table, so rummikub-solver gets the
rack alone there (its initial mode would otherwise add table moves in the same turn).

rummikub-solver runs in a child process (spawned, so it holds none of the parent's
memory), fed each position through a pipe as the game reaches it and timed in the child
around its one solve call: the main process's RSS growth is then our solver's and the
simulation's alone, and the child reports its own. The two solvers still take turns on
each position, never at the same time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import resource
import statistics
import sys
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rummikub import Rummikub
from games.rummikub.solver import most_tiles
from games.rummikub.tiles import is_joker

FEWEST = "ours, fewest sets changed"
ANY_TABLE = "ours, any valid table"
THEIRS = "rummikub-solver"


@dataclass(frozen=True)
class Position:
    game: int
    turn: int
    table: tuple[tuple[str, ...], ...]
    rack: tuple[str, ...]
    initial_meld: bool


@dataclass(frozen=True)
class Answer:
    seconds: float
    tiles: int
    sets_changed: int


def simulate(games: int, seed: int, play_chance: float) -> Iterator[Position]:
    """Each position as the game reaches it (kept, 9020 positions would add 8 MiB to the RSS)."""
    for number in range(games):
        rng = random.Random(seed * 100_003 + number)
        game = Rummikub.new(2 + number % 3, {}, seed * 100_003 + number)
        turn = 0
        while not game.finished:
            seat = game.turn
            table = tuple(tuple(s) for s in game.table)
            yield Position(number, turn, table, tuple(game.racks[seat]), not game.melded[seat])
            play = game.best_play(seat) if rng.random() < play_chance else None
            game.apply(seat, play or {"type": "draw"})
            turn += 1


class Answers:
    """Answers kept as columns of numbers: objects kept by the thousand would make each pass
    of the garbage collector during our timed solves longer, a cost of the bench, not of the
    solver.
    """

    def __init__(self) -> None:
        self.seconds = array("d")
        self.tiles = array("q")
        self.sets_changed = array("q")

    def append(self, answer: Answer) -> None:
        self.seconds.append(answer.seconds)
        self.tiles.append(answer.tiles)
        self.sets_changed.append(answer.sets_changed)

    def __iter__(self) -> Iterator[Answer]:
        return map(Answer, self.seconds, self.tiles, self.sets_changed)


def ours(fewest_changes: bool) -> Callable[[Position], Answer]:
    def answer(position: Position) -> Answer:
        start = time.perf_counter()
        layout = most_tiles(
            position.rack, position.table, initial_meld=position.initial_meld, fewest_changes=fewest_changes
        )
        seconds = time.perf_counter() - start
        return Answer(seconds, 0, 0) if layout is None else Answer(seconds, len(layout.tiles), layout.broken)

    return answer


def theirs() -> Callable[[Position], Answer]:
    from rummikub_solver import RuleSet

    ruleset = RuleSet()
    colours = {"k": "BLACK", "r": "RED", "b": "BLUE", "o": "ORANGE"}
    numbered = {(tile.colour.name, tile.value): int(tile) for tile in ruleset.tiles[:-1]}
    joker = int(ruleset.tiles[-1])

    def tile_of(code: str) -> int:
        return joker if is_joker(code) else numbered[(colours[code[0]], int(code[1:]))]

    def answer(position: Position) -> Answer:
        state = ruleset.new_game()
        if not position.initial_meld:
            state.add_table(*(tile_of(code) for s in position.table for code in s))
        state.add_rack(*(tile_of(code) for code in position.rack))
        state.initial = position.initial_meld
        start = time.perf_counter()
        solution = ruleset.solve(state)
        seconds = time.perf_counter() - start
        if solution is None:
            return Answer(seconds, 0, 0)
        old = Counter(tuple(sorted(tile_of(code) for code in s)) for s in position.table)
        new = Counter(tuple(sorted(int(tile) for tile in s)) for s in solution.sets)
        changed = 0 if position.initial_meld else sum((old - new).values())
        return Answer(seconds, len(solution.tiles), changed)

    return answer


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def row(name: str, answers: Answers) -> str:
    times = [seconds * 1000 for seconds in answers.seconds]
    return (
        f"| {name} | {statistics.median(times):.2f} | {percentile(times, 0.99):.2f} | {max(times):.2f} "
        f"| {sum(a.tiles for a in answers)} | {statistics.mean(a.sets_changed for a in answers):.2f} |"
    )


def compare(positions: Sequence[tuple[int, int]], answers: dict[str, Answers]) -> None:
    other = answers[THEIRS]
    for name in (FEWEST, ANY_TABLE):
        mine = answers[name]
        pairs = list(zip(positions, mine, other, strict=True))
        fewer = [(p, a, b) for p, a, b in pairs if a.tiles < b.tiles]
        more = sum(1 for _, a, b in pairs if a.tiles > b.tiles)
        changed_more = sum(1 for _, a, b in pairs if a.sets_changed > b.sets_changed)
        median = statistics.median(a.seconds for a in mine) / statistics.median(b.seconds for b in other)
        p99 = percentile([a.seconds for a in mine], 0.99) / percentile([b.seconds for b in other], 0.99)
        print(f"\n{name} against {THEIRS}:")
        print(f"  tiles: more in {more} positions, fewer in {len(fewer)}, equal in the others")
        for (game, turn), a, b in fewer:
            print(f"  FEWER: game {game} turn {turn}: {a.tiles} against {b.tiles}")
        print(f"  sets changed: more than {THEIRS} in {changed_more} positions")
        print(f"  time ours / theirs: median {median:.3f}, p99 {p99:.3f}")


def peak_rss_mib() -> float:
    """The process's peak resident set so far (Linux reports kibibytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


WARM_UP = Position(-1, 0, (("k1", "k2", "k3"),), ("r4", "r5", "r6", "b7"), False)


def serve_theirs(connection: Connection) -> None:
    """The child process: answer each position sent with rummikub-solver's; None ends it.

    Sends its peak RSS after the import and a first solve, then an Answer per position,
    then, at the end, its peak RSS again.
    """
    solve = theirs()
    solve(WARM_UP)
    connection.send(peak_rss_mib())
    while (position := connection.recv()) is not None:
        connection.send(solve(position))
    connection.send(peak_rss_mib())
    connection.close()


class Child:
    """rummikub-solver in a spawned process, called like the other solvers."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, child_end = context.Pipe()
        self.process = context.Process(target=serve_theirs, args=(child_end,), daemon=True)
        self.process.start()
        child_end.close()
        self.rss_start: float = self.connection.recv()

    def __call__(self, position: Position) -> Answer:
        self.connection.send(position)
        return self.connection.recv()

    def close(self) -> float:
        """Stop the child; its peak RSS at the end."""
        self.connection.send(None)
        rss_end: float = self.connection.recv()
        self.process.join()
        return rss_end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--play-chance", type=float, default=0.8, help="how often a simulated player plays")
    parser.add_argument("--ours-only", action="store_true", help="skip rummikub-solver")
    arguments = parser.parse_args()

    solvers: dict[str, Callable[[Position], Answer]] = {
        FEWEST: ours(fewest_changes=True),
        ANY_TABLE: ours(fewest_changes=False),
    }
    child = None if arguments.ours_only else Child()
    if child is not None:
        solvers[THEIRS] = child
    # After the imports and a first solve: what follows is what solving adds.
    for name, solve in solvers.items():
        if name != THEIRS:
            solve(WARM_UP)
    rss_start = peak_rss_mib()
    started = time.perf_counter()
    positions: list[tuple[int, int]] = []
    answers = {name: Answers() for name in solvers}
    for position in simulate(arguments.games, arguments.seed, arguments.play_chance):
        positions.append((position.game, position.turn))
        for name, solve in solvers.items():
            answers[name].append(solve(position))
    print(f"{len(positions)} positions from {arguments.games} games ({time.perf_counter() - started:.0f} s)")
    rss_end = peak_rss_mib()
    print(f"main process (ours, simulation), peak RSS: {rss_start:.0f} MiB after a first solve, ", end="")
    print(f"{rss_end:.0f} MiB at the end: growth {rss_end - rss_start:.0f} MiB")
    if child is not None:
        child_end = child.close()
        print(f"child process ({THEIRS}), peak RSS: {child.rss_start:.0f} MiB after a first solve, ", end="")
        print(f"{child_end:.0f} MiB at the end: growth {child_end - child.rss_start:.0f} MiB")
    print("\n| solver | median ms | p99 ms | max ms | tiles laid (sum) | sets changed (mean) |")
    print("|---|---|---|---|---|---|")
    for name, results in answers.items():
        print(row(name, results))
    if THEIRS in answers:
        compare(positions, answers)


if __name__ == "__main__":
    main()
