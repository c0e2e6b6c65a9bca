"""Replays: a finished match rebuilt, position by position, from its seed and its actions.

A match is its options, its seed and its action log (every move, time-out, leave and stand-in);
the engines are pure and seeded, so replaying the log through the engine gives back every
position exactly as it was. A replay is checked once, when built: its last position must be the
state the match finished in, or the match "cannot be replayed" (a log from an older engine) and
nothing of it is shown. Positions are drawn from views: the public table, a player's own hand,
and every hand only once the match is over (it is, or it has no replay).

Position 0 is the deal; position ``k`` is the match after its ``k``-th action. A replay keeps the
state every ``CHECKPOINT_EVERY`` positions, so any position is at most that many actions away.
"""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import io
import json
import logging
from collections import OrderedDict, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any, cast

import discord
from discord import app_commands
from PIL import Image

from bot.adapter import DrawnAt, GameAdapter, Rendered, Viewer
from bot.records import game_title
from bot.store import GameRow, SeatRow, Store
from games.core import BACK, JSON, LEAVE, STAND_IN, Event, Game, GameError, perform

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 32
# Matches kept replayed in memory (a long Bué match is about a megabyte of checkpoints and events).
REPLAYS_KEPT = 16
EXPORT_FORMAT = "tabletop-bot replay"
EXPORT_VERSION = 1
DIGEST = "sha256"
CHOICE_NAME_LIMIT = 100
CHOICES_LIMIT = 25  # Discord's most choices in an autocomplete answer, and options in a select
# The match's animation on its results: the table at the end of each round, looping.
ANIMATION_FILE = "match.gif"
ANIMATION_FRAME_MS = 1500

# Persistent components (their state is all in the custom id, so a restart loses nothing):
# a button ``rp:<match>:<position>:<hands shown>:<which>`` shows that position; the round select
# ``rs:<match>:<hands shown>`` shows the position chosen.
BUTTON_TEMPLATE = r"rp:(?P<game>\d{1,19}):(?P<step>\d{1,9}):(?P<hands>[01]):(?P<which>[a-z])"
SELECT_TEMPLATE = r"rs:(?P<game>\d{1,19}):(?P<hands>[01])"
# The buttons' ``which``: first, previous, next, last, the hands toggle, the file, and /history's.
FIRST, PREVIOUS, NEXT, LAST, HANDS, EXPORT, OPEN = "f", "p", "n", "l", "h", "x", "o"


class CannotReplay(GameError):
    """The match's log no longer replays to the match (an engine changed since it was played)."""

    def __init__(self) -> None:
        super().__init__("replay.error.cannot_replay")


class ReplayFileError(Exception):
    """An exported file that is not one, or that was changed since it was exported."""


def canonical(data: Any) -> str:
    """JSON as the digest reads it: one spelling of the same content."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------- the match and its positions


@dataclass(frozen=True)
class SeatEntry:
    """Who sat in a seat: a name, and the computer level for a computer."""

    name: str
    computer: str | None = None


@dataclass(frozen=True)
class MatchRecord:
    """All a replay is made of."""

    kind: str
    options: Mapping[str, int]
    seed: int
    seats: Sequence[SeatEntry]
    actions: Sequence[tuple[int, JSON]]

    @classmethod
    def of(cls, row: GameRow, seats: Sequence[SeatRow], actions: Sequence[tuple[int, JSON]]) -> MatchRecord:
        return cls(
            row.kind, row.options, row.seed, [SeatEntry(seat.name, seat.robot) for seat in seats], actions
        )

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]


@dataclass(frozen=True)
class Step:
    """One position: the action that led to it (None for the deal) and what it made happen."""

    seat: int | None
    action: JSON | None
    events: tuple[Event, ...]


@dataclass
class Replay:
    """A match replayed to its end once (``build``): each position's events, the rounds, and the
    state every ``CHECKPOINT_EVERY`` positions to rebuild any position from."""

    adapter: GameAdapter
    match: MatchRecord
    steps: list[Step]
    checkpoints: list[JSON]
    final: Game
    # The position each round starts at: the deal, then the position after each round's end.
    round_starts: list[int]
    # Whether the game keeps hands at all (Serie Bum!'s tiles lie on the table).
    has_hands: bool

    @classmethod
    def build(cls, adapter: GameAdapter, match: MatchRecord, finished: JSON | None = None) -> Replay:
        """The replay of ``match``; refused (``CannotReplay``) unless it replays to a finished match,
        and, when ``finished`` is given, to exactly that state."""
        engine = adapter.engine
        steps: list[Step] = []
        checkpoints: list[JSON] = []
        try:
            for game, step in replayed(engine, match):
                steps.append(step)
                if (len(steps) - 1) % CHECKPOINT_EVERY == 0:
                    checkpoints.append(game.to_json())
            final = game.to_json()
        except Exception as error:  # any failure of an old log: a GameError, a KeyError in a rule
            raise CannotReplay from error
        if not game.finished or (finished is not None and canonical(final) != canonical(finished)):
            raise CannotReplay
        ends = [number for number, step in enumerate(steps) if adapter.ends_round(step.events)]
        round_starts = [0, *(end for end in ends if end < len(steps) - 1)]
        dealt_game = engine.from_json(checkpoints[0])
        has_hands = any(dealt_game.hand(seat) is not None for seat in range(len(match.seats)))
        return cls(adapter, match, steps, checkpoints, game, round_starts, has_hands)

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def position(self, step: int) -> Game:
        """The match as it stood at position ``step``, rebuilt from the checkpoint before it."""
        if not 0 <= step <= self.last:
            raise GameError("replay.error.step", last=self.last)
        base = step // CHECKPOINT_EVERY
        game = self.adapter.engine.from_json(self.checkpoints[base])
        for number in range(base * CHECKPOINT_EVERY + 1, step + 1):
            perform(game, *self.match.actions[number - 1])
        return game

    def round_of(self, step: int) -> int:
        return bisect.bisect_right(self.round_starts, step)

    def lines(self, step: int, viewer: Viewer) -> list[str]:
        """What the channel was told at this position (the public events), in its own words."""
        return step_lines(self.adapter, self.steps[step], viewer)


def replayed(engine: type[Game], match: MatchRecord) -> Iterator[tuple[Game, Step]]:
    """The match played again from its seed: the game after each position, with the position (the
    same game, changed by each next one). Raises what the engine raises on a log it refuses."""
    game, dealt = engine.begin(len(match.seats), match.options, match.seed)
    yield game, Step(None, None, tuple(dealt))
    for seat, action in match.actions:
        yield game, Step(seat, action, tuple(perform(game, seat, action)))


def step_lines(adapter: GameAdapter, step: Step, viewer: Viewer) -> list[str]:
    """What a position told ``viewer`` (the channel when its seat is None: the public events; a
    player, what they were told too), in the game's own words."""
    lines = []
    if step.action is not None and step.seat is not None:
        handed_over = handover_line(step.seat, step.action, viewer)
        if handed_over:
            lines.append(handed_over)
    for event in step.events:
        if not event.visible_to(viewer.seat):
            continue
        line = adapter.describe(event, viewer)
        if line is None:
            embed = adapter.results(event, viewer)
            line = embed.title if embed is not None else None
        if line:
            lines.append(line)
    return lines


def handover_line(seat: int, action: JSON, viewer: Viewer) -> str | None:
    """The line for an action that changes who plays a seat (the engine tells nothing of it)."""
    kind = action.get("type")
    name = viewer.name(seat)
    if kind == LEAVE or (kind == STAND_IN and action.get("left")):
        return viewer.t("replay.left", name=name)
    if kind == STAND_IN:
        return viewer.t("replay.away", name=name)
    if kind == BACK:
        return viewer.t("replay.back", name=name)
    return None


def hand_text(adapter: GameAdapter, held: object, viewer: Viewer) -> str:
    """A hand (``Game.hand``: codes in the order the game keeps them) as it reads in text."""
    if not isinstance(held, list) or not held:
        return "—"
    return adapter.labels([str(code) for code in held], viewer)


def animation(replay: Replay, viewer: Viewer) -> bytes:
    """The table at the end of each round, as the channel saw it, in a looping GIF (run in a
    thread). The tables are palette pictures already: a GIF takes them as they are, where an
    animated WebP would have to encode every frame in full colour (see bench/replay_bench.py)."""
    frames = []
    for step in [*replay.round_starts[1:], replay.last]:
        rendered = replay.adapter.table(replay.position(step).view(None), viewer, DrawnAt(0))
        if rendered.file is not None:
            # discord.File types its data as any buffered stream; a rendered picture's is in memory.
            frames.append(Image.open(cast(IO[bytes], rendered.file.fp)))
    # A GIF's frames share the first one's size: each table is laid on the felt of the largest.
    size = (max(frame.width for frame in frames), max(frame.height for frame in frames))
    padded = []
    for frame in frames:
        canvas = Image.new("P", size, frame.getpixel((0, 0)))
        canvas.putpalette(frame.getpalette() or [])
        canvas.paste(frame)
        padded.append(canvas)
    out = io.BytesIO()
    padded[0].save(out, "GIF", save_all=True, append_images=padded[1:], duration=ANIMATION_FRAME_MS, loop=0)
    return out.getvalue()


async def match_animation(
    store: Store, adapter: GameAdapter, row: GameRow, seats: Sequence[SeatRow], finished: JSON, language: str
) -> discord.File | None:
    """The animation of a match that just finished, for its results message; None (and a warning)
    for a match that does not replay, which never holds its results up."""
    match = MatchRecord.of(row, seats, await store.games.actions(row.id))

    def draw() -> bytes:
        return animation(Replay.build(adapter, match, finished), Viewer(language, match.names))

    try:
        gif = await asyncio.to_thread(draw)
    except CannotReplay:
        log.warning("match %s does not replay: its results go without an animation", row.id)
        return None
    return discord.File(io.BytesIO(gif), filename=ANIMATION_FILE)


# ---------------------------------------------------------------------- the exported file


def export_data(replay: Replay) -> JSON:
    """The match as a file anyone can keep: everything its replay needs, its result, and a digest
    of all that, so a file changed since is refused."""
    match, final = replay.match, replay.final
    data: JSON = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": match.kind,
        "options": dict(match.options),
        "seed": match.seed,
        "seats": [{"name": seat.name, "computer": seat.computer} for seat in match.seats],
        "actions": [[seat, action] for seat, action in match.actions],
        "result": {"totals": final.totals(), "winner": final.winner()},
    }
    data[DIGEST] = hashlib.sha256(canonical(data).encode()).hexdigest()
    return data


def read_export(text: str) -> tuple[MatchRecord, JSON]:
    """The match in an exported file, and the result it states; ``ReplayFileError`` for a file that
    is not one, or whose content no longer matches its digest."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ReplayFileError(f"not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ReplayFileError("not a replay file of this bot")
    if data.get("version") != EXPORT_VERSION:
        raise ReplayFileError(f"a replay file of version {data.get('version')!r}, not {EXPORT_VERSION}")
    content = {key: value for key, value in data.items() if key != DIGEST}
    if hashlib.sha256(canonical(content).encode()).hexdigest() != data.get(DIGEST):
        raise ReplayFileError("the file was changed since it was exported (its sha256 does not match)")
    try:
        match = MatchRecord(
            str(data["game"]),
            {str(name): int(value) for name, value in data["options"].items()},
            int(data["seed"]),
            [SeatEntry(str(seat["name"]), seat["computer"]) for seat in data["seats"]],
            [(int(seat), dict(action)) for seat, action in data["actions"]],
        )
        result = {"totals": list(data["result"]["totals"]), "winner": data["result"]["winner"]}
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ReplayFileError(f"a field is missing or malformed: {error!r}") from None
    return match, result


def check_result(replay: Replay, result: JSON) -> None:
    """Refuse a file whose actions do not lead to the result it states."""
    final = replay.final
    if final.totals() != result["totals"] or final.winner() != result["winner"]:
        raise ReplayFileError("its actions do not lead to the result it states")


# ---------------------------------------------------------------------- components


def button_id(game_id: int, step: int, hands: bool, which: str) -> str:
    return f"rp:{game_id}:{step}:{int(hands)}:{which}"


def select_id(game_id: int, hands: bool) -> str:
    return f"rs:{game_id}:{int(hands)}"


def open_button(game_id: int, label: str) -> discord.ui.Button[Any]:
    """A button that opens the replay of a match at its deal (under each /history entry)."""
    return discord.ui.Button(label=label, emoji="🎬", custom_id=button_id(game_id, 0, False, OPEN))


# ---------------------------------------------------------------------- the service


@dataclass(frozen=True)
class Panel:
    """A replay's answer: its text, the picture and embeds, the buttons and select."""

    content: str
    embeds: list[discord.Embed]
    file: discord.File | None
    view: discord.ui.View


class ReplayService:
    """Finished matches of a server, replayed for whoever asks there."""

    def __init__(self, store: Store, adapters: Mapping[str, GameAdapter]) -> None:
        self.store = store
        self.adapters = adapters
        self._replays: OrderedDict[int, Replay] = OrderedDict()
        self._building: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def finished(self, guild_id: int | None, game_id: int) -> tuple[GameRow, list[SeatRow]]:
        """The finished match ``game_id`` of this server; refused otherwise, saying why."""
        row = await self.store.games.game(game_id)
        if row is None or row.kind not in self.adapters or row.status in ("lobby", "aborted"):
            raise GameError("replay.error.unknown")
        if row.guild_id != guild_id:
            raise GameError("replay.error.other_server")
        if row.status != "finished":
            raise GameError("replay.error.running")
        return row, await self.store.games.seats(game_id)

    def cached(self, game_id: int) -> bool:
        return game_id in self._replays

    async def replay(self, row: GameRow, seats: Sequence[SeatRow]) -> Replay:
        """The match's replay: built once, off the event loop, then kept (the last few matches)."""
        try:
            # One build of a match at a time: the clicks that come meanwhile wait for it.
            async with self._building[row.id]:
                replay = self._replays.get(row.id)
                if replay is None:
                    match = MatchRecord.of(row, seats, await self.store.games.actions(row.id))
                    replay = await asyncio.to_thread(Replay.build, self.adapters[row.kind], match, row.state)
                    self._replays[row.id] = replay
                    while len(self._replays) > REPLAYS_KEPT:
                        forgotten, _ = self._replays.popitem(last=False)
                        self._building.pop(forgotten, None)
                self._replays.move_to_end(row.id)
            return replay
        finally:
            # A match that does not replay keeps no lock behind it.
            if row.id not in self._replays:
                self._building.pop(row.id, None)

    async def panel(
        self, row: GameRow, seats: Sequence[SeatRow], step: int, hands: bool, user_id: int, language: str
    ) -> Panel:
        replay = await self.replay(row, seats)
        if not 0 <= step <= replay.last:
            raise GameError("replay.error.step", last=replay.last)
        mine = next((seat.seat for seat in seats if seat.user_id == user_id), None)
        viewer = Viewer(language, replay.match.names)
        return await asyncio.to_thread(draw_panel, replay, row.id, step, hands, mine, viewer)

    async def export(self, row: GameRow, seats: Sequence[SeatRow]) -> discord.File:
        replay = await self.replay(row, seats)
        text = json.dumps(export_data(replay), ensure_ascii=False, indent=1)
        return discord.File(io.BytesIO(text.encode()), filename=f"{row.kind}-{row.id}.json")

    async def choices(self, guild_id: int, typed: str, language: str) -> list[app_commands.Choice[str]]:
        """The server's finished matches, newest first, named as /history names them, those whose
        name holds what was typed."""
        matches = await self.store.records.finished_matches(guild_id, None, limit=CHOICES_LIMIT)
        wanted = typed.strip().casefold()
        choices = []
        for match in matches:
            when = datetime.fromtimestamp(match.finished_at, UTC).strftime("%Y-%m-%d %H:%M")
            players = " · ".join(
                ("🏆 " if seat.won else "") + f"{seat.name} {seat.points}" for seat in match.seats
            )
            name = f"{game_title(language, match.kind)} · {when} · {players}"
            if wanted in name.casefold():
                choices.append(app_commands.Choice(name=shorten(name), value=str(match.game_id)))
        return choices


def shorten(text: str, limit: int = CHOICE_NAME_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def draw_panel(
    replay: Replay, game_id: int, step: int, hands: bool, mine: int | None, viewer: Viewer
) -> Panel:
    """A position as the channel saw it (its table picture, its line), with the hands asked for:
    everyone's when ``hands``, else the viewer's own if they played (run in a thread)."""
    adapter, game = replay.adapter, replay.position(step)
    table: Rendered = adapter.table(game.view(None), viewer, DrawnAt(game_id))
    rounds = replay.round_starts
    heading = viewer.t(
        "replay.heading",
        game=game_title(viewer.language, replay.match.kind),
        step=step,
        last=replay.last,
        round=viewer.t(f"{replay.match.kind}.replay_round", round=replay.round_of(step)),
        rounds=len(rounds),
    )
    lines = replay.lines(step, viewer) or [viewer.t("replay.nothing_told")]
    content = "\n".join([heading, *(f"> {line}" for line in lines)])
    embeds = list(table.embeds)
    with_hands = replay.has_hands
    shown = range(len(replay.match.seats)) if hands else [mine] if mine is not None else []
    if with_hands and shown:
        embed = discord.Embed(
            title=viewer.t("replay.hands" if hands else "replay.your_hand"), colour=adapter.colour
        )
        for seat in shown:
            embed.add_field(
                name=viewer.name(seat), value=shorten(hand_text(adapter, game.hand(seat), viewer), 1024)
            )
        embeds.append(embed)
    return Panel(
        shorten(content, 2000), embeds[:10], table.file, panel_view(replay, game_id, step, hands, viewer)
    )


def panel_view(replay: Replay, game_id: int, step: int, hands: bool, viewer: Viewer) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = replay.last
    moves = (
        (FIRST, 0, "⏮️", step == 0),
        (PREVIOUS, max(step - 1, 0), "◀️", step == 0),
        (NEXT, min(step + 1, last), "▶️", step == last),
        (LAST, last, "⏭️", step == last),
    )
    for which, target, emoji, disabled in moves:
        view.add_item(
            discord.ui.Button(
                emoji=emoji,
                label=viewer.t(f"replay.button.{which}"),
                disabled=disabled,
                custom_id=button_id(game_id, target, hands, which),
                row=0,
            )
        )
    if replay.has_hands:
        view.add_item(
            discord.ui.Button(
                emoji="🂠",
                label=viewer.t("replay.button.hide_hands" if hands else "replay.button.show_hands"),
                style=discord.ButtonStyle.primary if hands else discord.ButtonStyle.secondary,
                custom_id=button_id(game_id, step, not hands, HANDS),
                row=1,
            )
        )
    view.add_item(
        discord.ui.Button(
            emoji="📄",
            label=viewer.t("replay.button.export"),
            custom_id=button_id(game_id, step, hands, EXPORT),
            row=1,
        )
    )
    starts = replay.round_starts
    if len(starts) > 1:
        current = replay.round_of(step) - 1
        # Discord's select holds 25 options: the rounds around this one.
        first = max(0, min(current - CHOICES_LIMIT // 2, len(starts) - CHOICES_LIMIT))
        options = [
            discord.SelectOption(
                label=viewer.t(f"{replay.match.kind}.replay_round", round=number + 1),
                description=viewer.t("replay.round_at", step=start),
                value=str(start),
                default=number == current,
            )
            for number, start in enumerate(starts[first : first + CHOICES_LIMIT], start=first)
        ]
        view.add_item(
            discord.ui.Select(
                placeholder=viewer.t("replay.jump"),
                options=options,
                custom_id=select_id(game_id, hands),
                row=2,
            )
        )
    view.stop()
    return view
