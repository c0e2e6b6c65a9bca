"""CPU per interaction: the real bot against a bare discord.py bot, both driven by SimCord.

Every figure is CPU time per interaction (``time.process_time``, every thread of the process:
the event loop, the database's thread, the threads that draw) with the driver's own share taken
out. SimCord runs in the same process and on the same loop as the bot it drives, so the
driver's share is measured on the same clicks in a second, profiled pass: the share of the
event loop's thread spent in SimCord's own code (and in the built-ins it calls), applied to that
thread's CPU time in the timed pass. Everything else (discord.py, the bot, the store, the
drawing) is the bot's. Drawing is also reported on its own: CPU time of the threads around
each table, hand and panel picture.

Discord's transport, which SimCord leaves out for both bots, is measured apart: each
interaction's traffic is recorded in a third pass and sent again through discord.py's real
transport (``bench/transport.py``); the last columns add it to both.

The real bot is also set against a same-traffic bot (``bench/same_traffic.py``): a bare
discord.py bot that sends, for each interaction, exactly the requests the real bot sent for it
(replayed from the recorded pass, with the same picture bytes), checked to be the same requests
on a recording of its own, and measured by the same three passes.

    python -m bench.interaction_cost [--clicks 40] [--exchanges 20] [--games 1000]

Scenarios, each on a fresh bot and database:
- bare: the bare bot (bench/bare_bot.py), a button answered with a fixed reply and one message edit;
- Rummikub Draw: two players draw in turn (the reply, the table edited with its picture, the
  channel line, the drawer's DM with the new rack);
- Bué exchange: the three interactions of an exchange with the deck (the panel with the hand,
  the card chosen, the deck chosen: the move), and the middle one alone (a panel step);
- Rummikub Draw again with ``--games`` other running games in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import itertools
import logging
import multiprocessing
import pstats
import sysconfig
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import simcord

import bot.charts
import bot.tables
from bench.bare_bot import BUTTON_LABEL, BareBot
from bench.chart_bench import sample_chart
from bench.same_traffic import SameTraffic, SameTrafficBot, World, replay_clicks, same_requests
from bench.store_writers import running_game
from bench.transport import Exchange, Recorder, Tally, transport_cost
from bot.client import GameBot, bot_for
from bot.config import Settings
from bot.publisher import Drawing
from bot.store import Store
from tests.bot.bue_driver import BueDriver
from tests.bot.test_rummikub_play import RummikubDriver

SIMCORD_FOLDER = str(Path(simcord.__file__).parent)
Result = TypeVar("Result")


@dataclass
class Cost:
    """CPU seconds spent over some interactions."""

    interactions: int = 0
    process: float = 0.0  # every thread
    loop_thread: float = 0.0  # the event loop's thread (bot and driver alike)
    drawing: float = 0.0  # the threads drawing pictures
    driver_share: float = 0.0  # of the loop thread, from the profiled pass
    transport: float = 0.0  # Discord's transport for the same traffic, from the recorded pass
    transport_parts: dict[str, Tally] = field(default_factory=dict)  # by gateway event and route
    # The share the first version of this bench took off: SimCord's functions and the built-ins
    # they call directly, without the standard library's functions they call (deepcopy above all).
    first_driver_share: float = 0.0

    def per_interaction_ms(self, first_method: bool = False) -> float:
        """The bot's CPU per interaction: the process's, less the driver's share of the loop thread."""
        share = self.first_driver_share if first_method else self.driver_share
        return 1000 * (self.process - self.loop_thread * share) / self.interactions

    def driver_ms(self) -> float:
        """SimCord's CPU per interaction, taken off the process's."""
        return 1000 * self.loop_thread * self.driver_share / self.interactions

    def drawing_ms(self) -> float:
        return 1000 * self.drawing / self.interactions

    def transport_ms(self) -> float:
        return 1000 * self.transport / self.interactions


@dataclass
class Meter:
    """Times the interactions of a scenario; profiles them too when ``profile`` is set, and records
    their traffic when ``recorder`` is."""

    profile: cProfile.Profile | None = None
    recorder: Recorder | None = None
    costs: dict[str, Cost] = field(default_factory=dict)
    world: World | None = None  # the ids of the world played in, for the same-traffic bot

    @contextlib.contextmanager
    def interaction(self, *names: str) -> Iterator[None]:
        drawn = DRAWING.seconds
        process, thread = time.process_time(), time.thread_time()
        if self.profile is not None:
            self.profile.enable()
        try:
            with self.recorder.interaction(*names) if self.recorder else contextlib.nullcontext():
                yield
        finally:
            if self.profile is not None:
                self.profile.disable()
            process, thread = time.process_time() - process, time.thread_time() - thread
            for name in names:
                cost = self.costs.setdefault(name, Cost())
                cost.interactions += 1
                cost.process += process
                cost.loop_thread += thread
                cost.drawing += DRAWING.seconds - drawn


class DrawingClock:
    """CPU time of the threads that draw pictures (TableService.render_all, which
    TableService.render goes through, and where a tree has it, the move's thread drawing
    what ``TableService._drawing`` gives) and score charts, summed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        service = getattr(bot.tables, "Publisher", bot.tables.TableService)
        render_all = service.render_all

        async def timed_render_all(table: Any, drawings: Sequence[Drawing]) -> Any:
            timed = [Drawing(self.timed(drawing.draw), drawing.args) for drawing in drawings]
            return await render_all(table, timed)

        service.render_all = staticmethod(timed_render_all)  # type: ignore[method-assign]
        drawing_of = getattr(service, "_drawing", None)
        if drawing_of is not None:

            def timed_drawing(table: Any, whose: int | None) -> Drawing:
                drawing = drawing_of(table, whose)
                return Drawing(self.timed(drawing.draw), drawing.args)

            service._drawing = staticmethod(timed_drawing)  # type: ignore[attr-defined]
        bot.charts.draw_scores = self.timed(bot.charts.draw_scores)  # type: ignore[assignment]

    def timed(self, draw: Callable[..., Result]) -> Callable[..., Result]:
        if getattr(draw, "timed", False):  # a drawing render_all is given by _drawing
            return draw

        def timed_draw(*arguments: Any) -> Result:
            started = time.thread_time()
            try:
                return draw(*arguments)
            finally:
                self.seconds += time.thread_time() - started

        timed_draw.timed = True  # type: ignore[attr-defined]
        return timed_draw


DRAWING = DrawingClock()


def first_driver_share(profile: cProfile.Profile) -> float:
    """The driver's share as the first version of this bench counted it (see Cost)."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = driver = 0.0
    for (filename, _, _), (_, _, own, _, callers) in stats.items():
        total += own
        if filename.startswith(SIMCORD_FOLDER):
            driver += own
        elif filename == "~":
            driver += sum(
                called[2]
                for (caller_file, _, _), called in callers.items()
                if caller_file.startswith(SIMCORD_FOLDER)
            )
    return driver / total if total else 0.0


def driver_share(profile: cProfile.Profile) -> float:
    """The share of the profiled thread's time spent for SimCord.

    A function of SimCord's is the driver's, a function of discord.py's or the bot's is the
    bot's. A function of Python's own (the standard library, built-ins: ``copy.deepcopy``,
    ``json``, the event loop) works for whoever calls it, so its time is split among its
    callers in proportion to the time each spent in it, and so on up through other such
    functions until a SimCord or a bot function is reached. Python's own functions that no one
    of either calls (the event loop's own turns) count as the bot's.
    """
    stats: dict[Function, Any] = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    driver = driver_fractions(stats)
    total = sum(row[2] for row in stats.values())
    return sum(row[2] * driver[function] for function, row in stats.items()) / total if total else 0.0


def driver_fractions(stats: dict[Function, Any]) -> dict[Function, float]:
    """The driver's fraction of each profiled function's own time (see ``driver_share``)."""
    driver = {function: _owner(function) or 0.0 for function in stats}
    shared = [function for function in stats if _owner(function) is None]
    # Python's own functions call each other (deepcopy recursing, say): settle the shares by
    # going over them until they no longer move.
    for _ in range(SHARE_ROUNDS):
        moved = 0.0
        for function in shared:
            callers = stats[function][4]
            spent = sum(edge[3] for edge in callers.values())
            if spent:
                share = sum(edge[3] * driver[caller] for caller, edge in callers.items()) / spent
                moved = max(moved, abs(share - driver[function]))
                driver[function] = share
        if moved < 1e-6:
            break
    return driver


Function = tuple[str, int, str]
SHARE_ROUNDS = 100
PYTHON_OWN = (sysconfig.get_paths()["stdlib"], "~", "<")
INSTALLED = (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])


def _owner(function: Function) -> float | None:
    """1 for SimCord's functions, 0 for the bot's (discord.py's, ours), None for Python's own."""
    filename = function[0]
    if filename.startswith(SIMCORD_FOLDER):
        return 1.0
    if filename.startswith(PYTHON_OWN) and not filename.startswith(INSTALLED):
        return None
    return 0.0


Scenario = Callable[[Any, str, Meter], Awaitable[None]]


async def bare(env: Any, database: str, meter: Meter, clicks: int) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("bench")
    member = guild.add_member(env.create_user("anna"))
    await member.slash(channel, "panel")
    panel = channel.last_message
    for _ in range(clicks):
        with meter.interaction("bare click"):
            await member.click(panel, label=BUTTON_LABEL)


async def rummikub_draws(env: Any, database: str, meter: Meter, clicks: int, name: str) -> None:
    driver = RummikubDriver(env, database)
    await driver.open()
    meter.world = World.of(driver)
    seat = driver.state().turn
    for _ in range(clicks):
        table = driver.table_message()
        with meter.interaction(name):
            await driver.members[seat].click(table, label="Draw")
        # A draw passes the turn: of two players, the other one draws next.
        seat = 1 - seat


async def bue_exchanges(env: Any, database: str, meter: Meter, exchanges: int) -> None:
    driver = BueDriver(env, database, players=2)
    await driver.open()
    meter.world = World.of(driver)
    done = 0
    while done < exchanges:
        game = driver.state()
        seat, actions = sorted(game.to_act().items())[0]
        if "deck" not in actions:
            await driver.reveal(seat, game.hidden_positions(seat)[0])
            continue
        member = driver.members[seat]
        give = game.hidden_positions(seat)[0]
        table = driver.table_message()
        with meter.interaction("Bué exchange"):
            panel = await member.click(table, label="Exchange")
        with meter.interaction("Bué exchange", "Bué panel step"):
            await member.click(panel.response, custom_id=driver.card_button(panel, "give", give))
        with meter.interaction("Bué exchange"):
            await member.click(panel.response, label="The deck")
        done += 1


async def store_running_games(database: str, count: int) -> None:
    """``count`` running Rummikub games in other channels, as the bot would have saved them."""
    store = await Store.open(database)
    try:
        for number in range(count):
            await running_game(store, 10_000_000 + number, [(0, "expire", "draw,play", time.time() + 86_400)])
    finally:
        await store.close()


def real_bot(database: str) -> GameBot:
    seeds = itertools.count(1000)
    settings = Settings(token=None, database=database, dev_guild_id=None, log_level="INFO")
    return bot_for(settings, seed_source=lambda: next(seeds))


@contextlib.asynccontextmanager
async def running(make: Callable[[str], Any], database: str) -> AsyncIterator[Any]:
    made = make(database)
    try:
        async with simcord.run(made) as env:
            yield env
    finally:
        # SimCord detaches a bot without closing it: its database thread would keep the process alive.
        if isinstance(made, GameBot):
            made.timers.stop()
            await made.store.close()


async def one_pass(scenario: str, options: argparse.Namespace, database: str, meter: Meter) -> Meter:
    # What a running bot pays once and for all is not a move's: matplotlib's import and font
    # cache, at the first score chart (chart_bench.py times that apart).
    bot.charts.draw_scores(sample_chart(players=2, games=1))
    make, play = scenarios(options)[scenario]
    if scenario == MANY_GAMES:
        await store_running_games(database, options.games)
    async with running(make, database) as env:
        await play(env, database, meter)
    return meter


def measure_in_process(scenario: str, options: argparse.Namespace, folder: str) -> dict[str, Cost]:
    """The scenario's costs: timed in one pass, its driver share profiled in a second, its
    traffic recorded in a third and sent again through Discord's transport; run in a process of
    its own, as SimCord keeps some state per process (and the recorder patches it for good)."""
    timed = asyncio.run(one_pass(scenario, options, f"{folder}/timed.sqlite3", Meter()))
    # CPU time, not wall time: waiting for the database thread or in epoll is nobody's cost.
    profile = cProfile.Profile(time.thread_time)
    asyncio.run(one_pass(scenario, options, f"{folder}/profiled.sqlite3", Meter(profile=profile)))
    recorder = Recorder()
    recorded = asyncio.run(
        one_pass(scenario, options, f"{folder}/recorded.sqlite3", Meter(recorder=recorder))
    )
    costs = with_driver_and_transport(timed, profile, recorder)
    if scenario in SAME_TRAFFIC_SCENARIOS:
        assert recorded.world is not None
        costs |= measure_same_traffic(recorder.exchanges, recorded.world)
    return costs


def with_driver_and_transport(timed: Meter, profile: cProfile.Profile, recorder: Recorder) -> dict[str, Cost]:
    """The timed pass's costs, with the driver's share from the profiled pass and the transport
    of the recorded pass's traffic."""
    transport = transport_cost(recorder.exchanges)
    share, first_share = driver_share(profile), first_driver_share(profile)
    for name, cost in timed.costs.items():
        cost.driver_share, cost.first_driver_share = share, first_share
        assert transport.interactions[name].count == cost.interactions, (
            "the recorded pass played other interactions"
        )
        cost.transport = transport.interactions[name].seconds
        cost.transport_parts = {
            part: tally for (interaction, part), tally in transport.parts.items() if interaction == name
        }
    return timed.costs


SAME_TRAFFIC = ", same traffic"
SAME_TRAFFIC_SCENARIOS = ("rummikub", "bue")


async def same_traffic_pass(exchanges: list[Exchange], world: World, meter: Meter) -> Meter:
    made = SameTrafficBot(SameTraffic(exchanges, world))
    async with simcord.run(made) as env:
        await replay_clicks(env, made, meter, SAME_TRAFFIC)
    return meter


def measure_same_traffic(exchanges: list[Exchange], world: World) -> dict[str, Cost]:
    """The same three passes for the bot that sends the recorded requests and nothing else, once
    it is checked that it sends the very requests the real bot sent."""
    timed = asyncio.run(same_traffic_pass(exchanges, world, Meter()))
    profile = cProfile.Profile(time.thread_time)
    asyncio.run(same_traffic_pass(exchanges, world, Meter(profile=profile)))
    recorder = Recorder()
    asyncio.run(same_traffic_pass(exchanges, world, Meter(recorder=recorder)))
    same_requests(exchanges, recorder.exchanges)
    return with_driver_and_transport(timed, profile, recorder)


MANY_GAMES = "many games"


def scenarios(options: argparse.Namespace) -> dict[str, tuple[Callable[[str], Any], Scenario]]:
    many = f"Rummikub Draw, {options.games} games stored"
    return {
        "bare": (lambda database: BareBot(), lambda env, db, meter: bare(env, db, meter, options.clicks)),
        "rummikub": (
            real_bot,
            lambda env, db, meter: rummikub_draws(env, db, meter, options.clicks, "Rummikub Draw"),
        ),
        "bue": (real_bot, lambda env, db, meter: bue_exchanges(env, db, meter, options.exchanges)),
        MANY_GAMES: (real_bot, lambda env, db, meter: rummikub_draws(env, db, meter, options.clicks, many)),
    }


def print_profile(options: argparse.Namespace, lines: int = 40) -> None:
    """The bot's functions (ours and discord.py's) by their cumulative CPU on the loop thread, per
    interaction, in the profiled pass of a scenario (SimCord's work inside them included)."""
    profile = cProfile.Profile(time.thread_time)
    with tempfile.TemporaryDirectory(prefix="interaction-profile-") as folder:
        meter = asyncio.run(one_pass(options.profile, options, f"{folder}/p.sqlite3", Meter(profile=profile)))
    interactions = sum(cost.interactions for cost in meter.costs.values())
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    rows = sorted(
        ((row[3], row[2], function) for function, row in stats.items() if _owner(function) == 0.0),
        key=lambda row: -row[0],
    )
    print("| cumulative ms | own ms | function |\n|---|---|---|")
    for cumulative, own, (filename, line, name) in rows[:lines]:
        where = filename.split("site-packages/")[-1].removeprefix(str(Path.cwd()) + "/")
        per = 1000 / interactions
        print(f"| {cumulative * per:.3f} | {own * per:.3f} | {where}:{line} {name} |")


def median_cost(costs: list[Cost]) -> Cost:
    """The round whose cost per interaction is the median."""
    return sorted(costs, key=Cost.per_interaction_ms)[len(costs) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clicks", type=int, default=40, help="Rummikub draws and bare clicks per run")
    parser.add_argument("--exchanges", type=int, default=20)
    parser.add_argument(
        "--games", type=int, default=1000, help="running games in the database for the last run"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="runs of every scenario, in turns; the median is shown"
    )
    parser.add_argument(
        "--profile",
        choices=("rummikub", "bue"),
        help="only profile that scenario's moves and print where the bot's loop thread spends",
    )
    options = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if options.profile:
        print_profile(options)
        return
    rounds: dict[str, list[Cost]] = defaultdict(list)
    for _ in range(options.rounds):
        for scenario in scenarios(options):
            with (
                tempfile.TemporaryDirectory(prefix="interaction-cost-") as folder,
                ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as process,
            ):
                measured = process.submit(measure_in_process, scenario, options, folder).result()
            for name, cost in measured.items():
                rounds[name].append(cost)
    costs = {name: median_cost(measured) for name, measured in rounds.items()}
    reference = costs["bare click"]
    print(
        "| interaction | bot CPU ms | drawing ms | bot CPU without drawing ms | x bare bot"
        " | x bare bot without drawing | driver CPU ms (share of loop thread) | x bare bot, first method"
        " | transport ms | bot CPU with transport ms | x bare bot, with transport |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, cost in costs.items():
        whole, drawing = cost.per_interaction_ms(), cost.drawing_ms()
        first = cost.per_interaction_ms(first_method=True) / reference.per_interaction_ms(first_method=True)
        carried = whole + cost.transport_ms()
        print(
            f"| {name} | {whole:.2f} | {drawing:.2f} | {whole - drawing:.2f}"
            f" | {whole / reference.per_interaction_ms():.2f}"
            f" | {(whole - drawing) / reference.per_interaction_ms():.2f}"
            f" | {cost.driver_ms():.2f} ({cost.driver_share:.0%})"
            f" | {first:.2f} | {cost.transport_ms():.2f} | {carried:.2f}"
            f" | {carried / (reference.per_interaction_ms() + reference.transport_ms()):.2f} |"
        )
    print("\n| interaction | part of its traffic | per interaction | transport ms each |")
    print("|---|---|---|---|")
    for name, cost in costs.items():
        for part, tally in cost.transport_parts.items():
            print(
                f"| {name} | {part} | {tally.count / cost.interactions:.2f}"
                f" | {1000 * tally.seconds / tally.count:.2f} |"
            )
    print(
        "\n| interaction | bot CPU with transport ms | same-traffic bot CPU with transport ms"
        " | x same traffic | driver CPU ms, bot / same traffic |"
    )
    print("|---|---|---|---|---|")
    for name, cost in costs.items():
        same = costs.get(f"{name}{SAME_TRAFFIC}")
        if same is None:
            continue
        ours = cost.per_interaction_ms() + cost.transport_ms()
        theirs = same.per_interaction_ms() + same.transport_ms()
        print(
            f"| {name} | {ours:.2f} | {theirs:.2f} | {ours / theirs:.2f}"
            f" | {cost.driver_ms():.2f} / {same.driver_ms():.2f} |"
        )
    one = costs["Rummikub Draw"].per_interaction_ms()
    stored = costs[f"Rummikub Draw, {options.games} games stored"].per_interaction_ms()
    print(f"\n{options.games} games stored / 1 game: {stored / one:.2f}")


if __name__ == "__main__":
    main()
