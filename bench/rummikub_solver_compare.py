"""Two versions of our Rummikub solver on the solver bench's positions: answers and times.

Run by hand, not a test (see bench/README.md), e.g. main's solver against the working tree's:

    git show main:games/rummikub/solver.py > /tmp/solver_before.py
    python bench/rummikub_solver_compare.py /tmp/solver_before.py games/rummikub/solver.py

Each version is loaded from its file as a module of its own, with caches of its own. The
positions are those of `rummikub_solver_bench.py` (same seed and games, played with the
working tree's solver). On each position each version solves both ways (fewest sets changed,
then any valid table, as the bench does), the versions taking turns as to which goes first.
The report says, per way, on how many positions the second version lays fewer or more tiles
than the first, the mean sets changed of each, on how many positions both return the same
table, and the median and p99 time of each: measured in the same run, they compare on a
shared machine where runs of their own would not.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rummikub_solver_bench import WARM_UP, Position, percentile, simulate

WAYS = {"fewest sets changed": True, "any valid table": False}


def load(path: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


Table = tuple[tuple[str, ...], ...]
Answer = tuple[float, int, int, Table | None]  # seconds, tiles laid, sets changed, the new table


def solve(solver: ModuleType, position: Position, fewest_changes: bool) -> Answer:
    """``solver``'s answer to ``position``; no table when it has no play."""
    start = time.perf_counter()
    layout = solver.most_tiles(
        position.rack, position.table, initial_meld=position.initial_meld, fewest_changes=fewest_changes
    )
    seconds = time.perf_counter() - start
    if layout is None:
        return seconds, 0, 0, None
    return seconds, len(layout.tiles), layout.broken, layout.table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="the solver's file, e.g. the version before a change")
    parser.add_argument("second", help="the solver's file to compare with it")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()

    solvers = (load(arguments.first, "solver_first"), load(arguments.second, "solver_second"))
    for solver in solvers:
        solve(solver, WARM_UP, True)
    answers: dict[str, tuple[list[tuple[float, int, int]], list[tuple[float, int, int]]]] = {
        way: ([], []) for way in WAYS
    }
    same_table = dict.fromkeys(WAYS, 0)
    count = 0
    for count, position in enumerate(simulate(arguments.games, arguments.seed, 0.8), start=1):
        tables: dict[tuple[str, int], Table | None] = {}
        for which in (0, 1) if count % 2 else (1, 0):
            for way, fewest_changes in WAYS.items():  # as the bench: the second on the first's caches
                seconds, tiles, changed, tables[way, which] = solve(solvers[which], position, fewest_changes)
                answers[way][which].append((seconds, tiles, changed))
        for way in WAYS:
            same_table[way] += tables[way, 0] == tables[way, 1]
    print(f"{count} positions; first: {arguments.first}, second: {arguments.second}")
    for way, (first, second) in answers.items():
        fewer = sum(1 for a, b in zip(first, second, strict=True) if b[1] < a[1])
        more = sum(1 for a, b in zip(first, second, strict=True) if b[1] > a[1])
        print(f"\n{way}:")
        print(f"  tiles: the second lays fewer on {fewer} positions, more on {more}")
        print(f"  sets changed (mean): first {sum(a[2] for a in first) / count:.4f}, ", end="")
        print(f"second {sum(b[2] for b in second) / count:.4f}; same table on {same_table[way]}")
        for name, results in (("first", first), ("second", second)):
            times = [seconds * 1000 for seconds, _, _ in results]
            print(f"  {name}: median {percentile(times, 0.5):.2f} ms, p99 {percentile(times, 0.99):.2f} ms")


if __name__ == "__main__":
    main()
