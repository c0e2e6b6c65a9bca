"""How long a results score chart takes to draw: 10 players, 20 games, the worst the bot draws.

    python bench/chart_bench.py [--runs 50] [--players 10] [--games 20]

Times ``charts.draw_scores`` (figure, lines, legend, PNG) after one warm-up draw that pays
matplotlib's import and font loading (reported apart). Wall time is ``time.perf_counter()``;
CPU time is ``time.process_time()``, the figure to trust on a machine shared with other jobs
(the draw is single-threaded, so unloaded, wall time is about CPU time). The chart is what the
bot posts: seeded running totals, a target line, the winner.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot import charts


def sample_chart(players: int, games: int, seed: int = 1) -> charts.ScoreChart:
    rng = random.Random(seed)
    running = [0] * players
    totals = []
    for _ in range(games):
        running = [total + rng.randint(0, 12) for total in running]
        totals.append(list(running))
    return charts.ScoreChart(
        names=[f"player {seat + 1}" for seat in range(players)],
        totals=totals,
        target=110,
        winner=max(range(players), key=lambda seat: running[seat]),
        x_label="Game",
        y_label="Match points",
        target_label="Target",
        winner_label="Winner",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    chart = sample_chart(args.players, args.games)
    start = time.perf_counter()
    png = charts.draw_scores(chart)
    first = time.perf_counter() - start
    wall, cpu = [], []
    for _ in range(args.runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        charts.draw_scores(chart)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(f"{args.players} players, {args.games} games, {args.runs} runs, PNG {len(png) / 1024:.0f} KiB")
    print(f"first draw (import, fonts): {first * 1000:.0f} ms")
    for name, times in (("wall", wall), ("cpu", cpu)):
        times.sort()
        print(
            f"{name}: median {statistics.median(times) * 1000:.1f} ms, "
            f"p90 {times[int(0.9 * (len(times) - 1))] * 1000:.1f} ms, "
            f"min {times[0] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
