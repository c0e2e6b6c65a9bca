"""What a game plugs into the shared bot: rendering from views, its components, its events.

Everything here is drawn from an engine view: the public view for the channel, a seat's
own view for that seat's ephemeral and DM messages. The raw state never reaches a renderer.
A game's flows get the running game as a ``LoadedGame`` and ask the table service only what
``TableMoves`` names: this module sits below the services, and imports none of them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Container, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

import discord

from bot import standins
from bot.i18n import language_of, t
from bot.replies import language
from bot.store import GameRow, SeatRow, Snapshot, TimerRow
from games.core import BACK, JSON, STAND_IN, Event, Game, GameError, perform
from games.robots import Robot

# The game version a component is drawn at. Every game button and select carries it, so a click
# tells which decision its player saw; set by the service around drawing and around each click.
EngineType = TypeVar("EngineType", bound=Game)

drawn_at: ContextVar[int | None] = ContextVar("drawn_at", default=None)


def component_id(kind: str, game_id: int, name: str, arg: str) -> str:
    """``gm`` (button) or ``gs`` (select), the game, the version drawn at, the move and its argument."""
    return f"{kind}:{game_id}:{drawn_at.get() or 0}:{name}:{arg}"


@dataclass(frozen=True)
class Viewer:
    """Who a message is for: a language, the players' names, and the seat (None: everyone)."""

    language: str
    names: Sequence[str]
    seat: int | None = None

    def t(self, key: str, **params: Any) -> str:
        return t(self.language, key, **params)

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else "?"


@dataclass
class Rendered:
    """A message body: embeds, an optional image, optional components."""

    embeds: list[discord.Embed]
    file: discord.File | None = None
    items: list[discord.ui.Item[Any]] = field(default_factory=list)

    def view(self) -> discord.ui.View | None:
        return component_view(self.items) if self.items else None


@dataclass(frozen=True)
class Links:
    """How a message points at a game's table: a link to the table message on Discord, or, where
    Discord's pages cannot open (``Settings.discord_links``: the playground), the command that
    shows the table again; or, for what only the table message shows (``message``: Serie Bum!'s
    faces, which its copy hides), that message above."""

    to_discord: bool = True

    def table(self, language: str, kind: str, url: str, *, message: bool = False) -> str:
        if self.to_discord:
            return t(language, "common.link.table", url=url)
        if message:
            return t(language, "common.link.table_above")
        return f"`/{kind} table`"


@dataclass
class LoadedGame:
    """One running game as loaded from the database."""

    row: GameRow
    seats: list[SeatRow]
    game: Game
    adapter: GameAdapter
    # The computers playing a seat (their own, or one they stand in for), as they remember the game.
    robots: dict[int, Robot] = field(default_factory=dict)
    timers: list[TimerRow] = field(default_factory=list)
    links: Links = field(default_factory=Links)

    def __post_init__(self) -> None:
        if not self.robots:
            self.robots = {
                seat.seat: self.adapter.robot.from_json(seat.robot_state)
                for seat in self.seats
                if seat.robot_state is not None and (seat.stand_in is not None or not seat.gone)
            }

    def play(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Apply one move; every computer then looks at what its seat now sees. A stand-in sits
        down, or gets up for the person who is back, with the action that logs it."""
        events = perform(self.game, seat, action)
        kind = action.get("type")
        if kind == STAND_IN and seat not in self.robots:
            # Seeded from the game and the moment, so the log replays it.
            seed = (self.row.seed * 16 + seat) * 4096 + self.row.version
            self.robots[seat] = self.adapter.robot(str(action["level"]), seed)
        elif kind == BACK:
            self.robots.pop(seat, None)
        for robot_seat, robot in self.robots.items():
            robot.observe(
                self.game.view(robot_seat), [event for event in events if event.visible_to(robot_seat)]
            )
        return events

    def engine(self, kind: type[EngineType]) -> EngineType:
        """The game as its own engine's class, for what only that game offers (a game's adapter
        knows which engine it runs)."""
        if not isinstance(self.game, kind):
            raise TypeError(f"game {self.row.id} runs {type(self.game).__name__}, not {kind.__name__}")
        return self.game

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id and not s.gone), None)

    @property
    def names(self) -> list[str]:
        return self.names_in(language_of(self.row.locale))

    def names_in(self, language: str) -> list[str]:
        """Each seat's name as players read it ("🤖 for anna" while a computer stands in)."""
        return [standins.display_name(seat, language) for seat in self.seats]

    def viewer(self, seat: int | None = None, language: str | None = None) -> Viewer:
        language = language or language_of(self.row.locale)
        return Viewer(language, self.names_in(language), seat)

    def mention(self, seat: int) -> str:
        """A person is pinged; a computer, which needs no call, is named, and so is a person who
        asked not to be pinged (their preference)."""
        if self.seats[seat].played_by_computer or not self.seats[seat].ping:
            return f"**{self.names[seat]}**"
        return f"<@{self.seats[seat].user_id}>"

    def jump_url(self) -> str:
        return f"https://discord.com/channels/{self.row.guild_id}/{self.row.channel_id}/{self.row.message_id}"

    def link(self, language: str, *, message: bool = False) -> str:
        """The table message, as a message in ``language`` points at it (``Links``)."""
        return self.links.table(language, self.row.kind, self.jump_url(), message=message)


def component_view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """Components to send; their clicks reach the game through DynamicItems.

    The view is stopped before it is sent so discord.py does not keep it in memory:
    nothing about a component may live in memory, or a restart would lose it.
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def number(text: str, within: Container[int] | None = None) -> int:
    """A small number read from a component's id or values, one of ``within`` when given (the
    positions or seats its player may see); anything else is a forged or garbled click, refused
    like any illegal move (``isdigit`` alone would let "²" through to ``int``)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise GameError("error.unknown_action")
    value = int(text)
    if within is not None and value not in within:
        raise GameError("error.unknown_action")
    return value


@dataclass
class ClickRead:
    """A click's read of its game, made before the game's lock (``TableService.read``): its move
    plays from it, or its panel shows it, when nothing can have written the game since
    (``TableService.load_to_move``, ``TableService.load``)."""

    snapshot: Snapshot
    # How many times the game's lock had been taken when the read began (it was free then).
    taken: int
    # The table made of it, once one was (by the click's move, or its panel).
    table: LoadedGame | None = None


class TableMoves(Protocol):
    """What a game's own flows ask of the table service (``bot.tables.TableService``)."""

    async def load_player(
        self, game_id: int, user_id: int, read: ClickRead | None = None
    ) -> tuple[LoadedGame, int]: ...

    async def act(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action: Mapping[str, Any] | Callable[[LoadedGame, int], Mapping[str, Any]],
        answer: Callable[[LoadedGame, list[Event]], Awaitable[None]] | None = None,
        *,
        read: ClickRead | None = None,
        seen: int | None = None,
    ) -> None: ...

    async def render(self, table: LoadedGame, draw: Callable[..., Rendered], *args: Any) -> Rendered: ...


@dataclass(frozen=True)
class Click:
    """A game's own button or select, as its adapter receives it."""

    service: TableMoves
    interaction: discord.Interaction
    game_id: int
    parts: list[str]
    values: list[str]
    # The click's read of its game (``TableService.read``), played from when nothing wrote it since.
    read: ClickRead | None = None
    # The version the clicked panel was drawn at, None for a click any version may make: a move
    # from a decision its player no longer faces is refused (``bot.clicks.check_fresh``).
    seen: int | None = None

    def number(self, index: int, within: Container[int] | None = None) -> int:
        """Part ``index`` of the argument as a number (one of ``within``, when given)."""
        return number(self.parts[index] if index < len(self.parts) else "", within)

    def chosen(self) -> int:
        """The option chosen in a select, as a number."""
        return number(self.values[0] if self.values else "")

    async def player(self) -> tuple[LoadedGame, int, Viewer]:
        """The game, the clicking player's seat, and a viewer for them in their language."""
        table, seat = await self.service.load_player(self.game_id, self.interaction.user.id, self.read)
        return table, seat, table.viewer(seat, language(self.interaction))

    async def act(
        self,
        action: Mapping[str, Any] | Callable[[LoadedGame, int], Mapping[str, Any]],
        answer: Callable[[LoadedGame, list[Event]], Awaitable[None]] | None = None,
    ) -> None:
        """Play the clicking player's move, from the click's read and against the version it saw."""
        await self.service.act(self.interaction, self.game_id, action, answer, read=self.read, seen=self.seen)

    async def deciding_player(self) -> tuple[LoadedGame, int, Viewer]:
        """``player()``, refused unless the game is waiting on a decision of theirs."""
        table, seat, viewer = await self.player()
        if seat not in table.game.to_act():
            raise GameError("error.not_your_turn")
        return table, seat, viewer


def game_button(
    game_id: int,
    name: str,
    label: str,
    arg: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    row: int | None = None,
    disabled: bool = False,
) -> discord.ui.Button[Any]:
    """A button that survives restarts: its custom_id carries the game, the move and its arguments."""
    return discord.ui.Button(
        label=label,
        style=style,
        emoji=emoji,
        row=row,
        disabled=disabled,
        custom_id=component_id("gm", game_id, name, arg),
    )


def game_select(
    game_id: int,
    name: str,
    placeholder: str,
    options: Sequence[discord.SelectOption],
    arg: str = "",
    row: int | None = None,
) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        placeholder=placeholder,
        options=list(options),
        row=row,
        custom_id=component_id("gs", game_id, name, arg),
    )


class GameAdapter(ABC):
    """One game's Discord face. Subclasses are stateless; state comes in through views."""

    engine: ClassVar[type[Game]]
    # The computer player of the game.
    robot: ClassVar[type[Robot]]
    colour: ClassVar[discord.Colour]
    # Event params holding a card/tile code (or a list of codes), shown through label().
    code_params: ClassVar[frozenset[str]] = frozenset()
    # Events shown as a results embed (see results()) rather than as a line of text.
    embed_events: ClassVar[frozenset[str]] = frozenset()
    # The engine options ``/<game> start`` offers, in order, with their descriptions' catalogue keys.
    start_options: ClassVar[Mapping[str, str]] = {}
    # Moves that answer no decision (Bué's shuffle): a click on them is never stale.
    free_moves: ClassVar[frozenset[str]] = frozenset()
    # Moves that open a panel showing the game as it stands (Rummikub's Play tiles): a click on them,
    # from a table however old (a private copy, ``table_copy``), is made from the table as it is
    # now. Whatever the panel then plays is checked against what it showed.
    current_moves: ClassVar[frozenset[str]] = frozenset()
    # What tells a player whose DMs are closed where to look instead.
    dm_closed_key: ClassVar[str] = "common.dm_closed"
    # Events that close a game, round or manche: the match totals are kept after each (score charts).
    round_end_events: ClassVar[frozenset[str]] = frozenset()
    # Events whose outcome people need in view before a computer moves (Serie Bum!'s tiles covered
    # again): the computers' next moves wait until it has been shown ``Settings.view_pause`` seconds.
    kept_in_view: ClassVar[frozenset[str]] = frozenset()
    # Events that count as a feat for /stats, by the feat's name (Bué's "bue", say).
    feat_events: ClassVar[Mapping[str, str]] = {}
    # Whether /stats shows a player's average points per round (games scored round by round).
    points_per_round: ClassVar[bool] = False

    @property
    def name(self) -> str:
        return self.engine.name

    @abstractmethod
    def table(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        """The shared table from the public view, with the game's table buttons."""

    @abstractmethod
    def hand(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        """One seat's private hand from that seat's view, with its private buttons."""

    def table_copy(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        """The table for a reply that is never edited again (``/<game> table``): the table itself,
        as the channel's table shows it now (Serie Bum!'s flipped tiles included: hiding them
        drew a face-up tile as a labelled back, and the asker sees them on the table anyway)."""
        return self.table(view, viewer, game_id)

    def label(self, code: str, viewer: Viewer) -> str:
        """How a card or tile code reads in text."""
        return code

    def match_length(self, options: Mapping[str, int], language: str) -> str:
        """A match played to a points target or for a number of rounds, as the lobby says it (the
        game's own words: ``<game>.ui.option.target`` and ``.rounds``)."""
        if options["target"]:
            return t(language, f"{self.name}.ui.option.target", target=options["target"])
        return t(language, f"{self.name}.ui.option.rounds", rounds=options["rounds"])

    def labels(self, codes: Sequence[str], viewer: Viewer) -> str:
        """Several cards or tiles as they read in text, in the order the game shows them."""
        return " · ".join(self.label(code, viewer) for code in codes)

    def settings(self, options: Mapping[str, int], language: str) -> list[str]:
        """The lobby's lines about the game's options."""
        return [t(language, f"option.{name}", value=value) for name, value in options.items()]

    def event_params(self, event: Event, viewer: Viewer) -> dict[str, Any]:
        """Event params ready for a message: seats become names, codes become labels."""
        return self.readable(event.params, viewer)

    def readable(self, raw: Mapping[str, Any], viewer: Viewer) -> dict[str, Any]:
        """Params ready for a message: seats become names, codes become labels."""
        params: dict[str, Any] = {}
        for key, value in raw.items():
            if (key == "seat" or key.endswith("_seat")) and isinstance(value, int):
                params[key] = viewer.name(value)
            elif key in self.code_params and isinstance(value, str):
                params[key] = self.label(value, viewer)
            elif key in self.code_params and isinstance(value, list):
                params[key] = self.labels(value, viewer)
            else:
                params[key] = value
        return params

    def name_codes(self, error: GameError, viewer: Viewer) -> None:
        """A refusal as its player reads it: seats become names and card or tile codes labels, as
        in the game's lines ("black 13", not "k13"). In place: what kind of refusal it is stays."""
        error.params = self.readable(error.params, viewer)

    def describe(self, event: Event, viewer: Viewer) -> str | None:
        """One line telling ``viewer`` about the event, or None when an embed tells it."""
        if event.key in self.embed_events:
            return None
        return viewer.t(event.key, **self.event_params(event, viewer))

    def results(self, event: Event, viewer: Viewer) -> discord.Embed | None:
        """An embed for an end-of-game or end-of-match event, if the event is one."""
        return None

    @staticmethod
    def match_results(title: str, viewer: Viewer, totals: Sequence[int] | None = None) -> discord.Embed:
        """The embed that ends a match: gold, with the match totals from the highest down if given."""
        embed = discord.Embed(title=title, colour=discord.Colour.gold())
        if totals is not None:
            order = sorted(range(len(totals)), key=lambda seat: -totals[seat])
            embed.description = "\n".join(
                viewer.t("common.score_line", name=viewer.name(seat), points=totals[seat]) for seat in order
            )
        return embed

    def ends_round(self, events: Sequence[Event]) -> bool:
        return any(event.key in self.round_end_events for event in events)

    def feats(self, events: Sequence[Event]) -> list[tuple[int, str]]:
        """(seat, feat) for each feat among ``events``."""
        return [
            (event.params["seat"], self.feat_events[event.key])
            for event in events
            if event.key in self.feat_events
        ]

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        """The game's own moves by name: what each of its buttons and selects does."""
        return {}

    async def on_component(
        self,
        service: TableMoves,
        interaction: discord.Interaction,
        game_id: int,
        move: str,
        arg: str,
        values: Sequence[str],
        read: ClickRead | None = None,
        seen: int | None = None,
    ) -> None:
        """A game's own button or select was used (the service handles the shared ones)."""
        flow = self.flows().get(move)
        if flow is None:
            raise GameError("error.unknown_action")
        parts = arg.split(".") if arg else []
        await flow(Click(service, interaction, game_id, parts, list(values), read, seen))
