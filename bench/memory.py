"""Does the bot's memory level off? Thousands of Bué moves with computers through the real bot.

One person and three computers play Bué matches one after the other in one channel, through the
real bot driven by SimCord (the person's moves are random legal ones, the computers' are the
bot's own, fired by their timers). Every ``--every`` moves it prints the process's RSS, the
Python heap as tracemalloc sees it (with ``--tracemalloc``: only allocations made through
Python's allocator, so not Pillow's pixels nor zlib's buffers), what glibc's malloc holds
(``mallinfo2``: in use, and free but kept), and the fill of the caches that keep pictures or
fonts: the bot's own (``bot/render.py``), Pillow's block cache, matplotlib's font and text caches.

    python -m bench.memory [--moves 5000] [--every 100] [--tracemalloc] [--keep-driver]

SimCord keeps everything the bot ever sent (messages, every picture's bytes, a log of every
request and event): that is the driver's memory, not the bot's, and it grows with every move.
Unless ``--keep-driver``, it is forgotten at each checkpoint (messages no one can click any
more, their pictures, the logs), so the RSS is the bot's and a fixed driver's.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import itertools
import logging
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import simcord
from PIL import Image

import bot.render
from bot.client import GameBot, bot_for
from bot.config import Settings
from bot.store import Store
from bot.store.games import Games
from tests.bot.bue_driver import BueDriver
from tests.bot.test_computers import open_with_computers

COMPUTERS = 3


class MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in [
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        ]
    ]


def _libc() -> Any:
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = MallInfo2
        return libc
    except (OSError, AttributeError):
        return None


LIBC = _libc()


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def malloc_mib() -> tuple[float, float]:
    """(in use, free but kept by malloc) in MiB, over all arenas and mmapped blocks."""
    if LIBC is None:
        return float("nan"), float("nan")
    info = LIBC.mallinfo2()
    return (info.uordblks + info.hblkhd) / 2**20, info.fordblks / 2**20


def cache_fill() -> str:
    """How full each cache of pictures, glyphs or fonts is."""
    render = bot.render
    parts = [
        f"glyphs {render.glyphs.cache_info().currsize}",
        f"sprites {render._sprite.cache_info().currsize}",
        f"palette {render._in_palette.cache_info().currsize} (hits {_hit_rate(render._in_palette):.0%})",
        f"pictures {len(render.PICTURES._png)}",
    ]
    stats = Image.core.get_stats()
    parts.append(f"pillow blocks cached {stats['blocks_cached']} of {Image.core.get_blocks_max()}")
    if "matplotlib" in sys.modules:
        from matplotlib import font_manager, text

        parts.append(f"mpl fonts {font_manager._get_font.cache_info().currsize}")
        # Text metrics are cached per renderer while it lives (a weak dictionary of caches).
        renderers = text._get_text_metrics_function.__defaults__[0]
        parts.append(f"mpl renderers with text caches {len(renderers)}")
    return ", ".join(parts)


def _hit_rate(cached: Any) -> float:
    info = cached.cache_info()
    return info.hits / max(1, info.hits + info.misses)


def forget_driver(env: Any, keep: set[int]) -> None:
    """Drop what SimCord remembers of the past: messages other than ``keep``, their pictures,
    past interactions, and its logs (nothing the bot holds)."""
    backend = env.backend
    for channel_messages in backend.messages.values():
        for message_id in [m for m in channel_messages if m not in keep]:
            del channel_messages[message_id]
    kept_urls = {
        attachment["url"]
        for channel_messages in backend.messages.values()
        for message in channel_messages.values()
        for attachment in _attachments(message)
    }
    blobs = backend.cdn._blobs
    for url in [url for url in blobs if url not in kept_urls]:
        del blobs[url]
    backend.interactions.clear()
    backend.interaction_tokens.clear()
    backend.http_requests.clear()
    backend.transcript.clear()


def _attachments(message: Any) -> list[dict[str, Any]]:
    attachments = getattr(message, "attachments", None) or []
    return list(attachments)


def print_growth(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, lines: int = 15) -> None:
    """Where the Python heap grew over the second half of the run, by the line that allocated."""
    print("\n| grew by KiB | blocks | allocated at |\n|---|---|---|")
    for stat in after.compare_to(before, "lineno")[:lines]:
        frame = stat.traceback[0]
        print(f"| {stat.size_diff / 1024:.1f} | {stat.count_diff} | {frame.filename}:{frame.lineno} |")


@dataclass
class Counter:
    moves: int = 0


def count_commits(counter: Counter) -> Callable[[], None]:
    """Counts the changes of a running game the bot commits (its moves, each deal, any reminder);
    returns the undo."""
    commit = Games.commit

    async def counted(self: Store, *args: Any, **kwargs: Any) -> None:
        await commit(self, *args, **kwargs)
        counter.moves += 1

    Games.commit = counted  # type: ignore[method-assign]

    def undo() -> None:
        Games.commit = commit  # type: ignore[method-assign]

    return undo


async def play(options: argparse.Namespace, database: str) -> None:
    seeds = itertools.count(1000)
    # Computers move as soon as they may: their pause is wall-clock time SimCord would wait out.
    settings = Settings(
        token=None, database=database, dev_guild_id=None, log_level="WARNING", robot_pause=0.0
    )
    made: GameBot = bot_for(settings, seed_source=lambda: next(seeds))
    counter = Counter()
    undo = count_commits(counter)
    rng = random.Random(options.seed)
    print(
        "| moves | matches | RSS MiB | malloc in use MiB | malloc free kept MiB | Python heap MiB"
        " | gc objects | s per 100 moves | caches |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    try:
        async with simcord.run(made, settle_timeout=60) as env:
            driver = BueDriver(env, database, players=1)
            matches = 0
            checkpoint = 0
            halfway: tracemalloc.Snapshot | None = None
            started = time.perf_counter()
            while counter.moves < options.moves:
                if driver.game_id == 0 or driver.status() != "running":
                    await open_with_computers(driver, COMPUTERS, target=options.target)
                    matches += 1
                    continue
                if 0 in driver.state().to_act():
                    await driver.play_one(rng)
                else:
                    await env.advance_time(0.1)
                if counter.moves >= checkpoint:
                    if not options.keep_driver:
                        forget_driver(env, {driver.table_id()})
                    gc.collect()
                    in_use, kept = malloc_mib()
                    heap = tracemalloc.get_traced_memory()[0] / 2**20 if tracemalloc.is_tracing() else None
                    elapsed = time.perf_counter() - started
                    print(
                        f"| {counter.moves} | {matches} | {rss_mib():.1f} | {in_use:.1f} | {kept:.1f}"
                        f" | {'-' if heap is None else f'{heap:.1f}'} | {len(gc.get_objects())}"
                        f" | {elapsed * 100 / max(1, options.every):.1f} | {cache_fill()} |",
                        flush=True,
                    )
                    started = time.perf_counter()
                    checkpoint += options.every
                    if tracemalloc.is_tracing() and halfway is None and counter.moves >= options.moves // 2:
                        halfway = tracemalloc.take_snapshot()
            if halfway is not None:
                print_growth(halfway, tracemalloc.take_snapshot())
    finally:
        undo()
        made.timers.stop()
        await made.store.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--target", type=int, default=110, help="a match's target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tracemalloc", action="store_true", help="trace the Python heap (slower)")
    parser.add_argument("--keep-driver", action="store_true", help="let SimCord keep its history")
    options = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if options.tracemalloc:
        tracemalloc.start()
    with tempfile.TemporaryDirectory(prefix="memory-bench-") as folder:
        asyncio.run(play(options, f"{folder}/games.sqlite3"))


if __name__ == "__main__":
    main()
