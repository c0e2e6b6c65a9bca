"""What a game plugs into the shared bot: rendering from views, its components, its events.

Everything here is drawn from an engine view: the public view for the channel, a seat's
own view for that seat's ephemeral and DM messages. The raw state never reaches a renderer.
A game's flows get a ``Click`` (parsed once, handed on whole) and the running game as a
``LoadedGame``, and ask the table service only what ``TableMoves`` names: this module sits below
the services, and imports none of them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import discord

from bot.i18n import discord_time, language_of, t
from bot.model import GameRules, Lobby, Match
from bot.replies import language
from bot.standins import NAME
from bot.store import Snapshot
from games.core import JSON, Event, GameError


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
    """A message body: embeds, an optional image, optional components, optional text."""

    embeds: list[discord.Embed]
    file: discord.File | None = None
    items: list[discord.ui.Item[Any]] = field(default_factory=list)
    content: str | None = None

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


@dataclass(frozen=True)
class DrawnAt:
    """The game and the version a message's buttons and menus are drawn at. Each custom id carries
    both (``gm:<game>:<version>:<move>:<argument>``, ``gs:`` for a menu): a click tells which
    decision its player saw. Version 0 for what answers no decision (a rematch, Back)."""

    game_id: int
    version: int = 0

    def button(
        self,
        name: str,
        label: str,
        arg: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> discord.ui.Button[Any]:
        """A button that survives restarts: its custom id carries the move and its argument."""
        return discord.ui.Button(
            label=label,
            style=style,
            emoji=emoji,
            row=row,
            disabled=disabled,
            custom_id=self._custom_id("gm", name, arg),
        )

    def select(
        self,
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
            custom_id=self._custom_id("gs", name, arg),
        )

    def _custom_id(self, kind: str, name: str, arg: str) -> str:
        return f"{kind}:{self.game_id}:{self.version}:{name}:{arg}"


@dataclass
class LoadedGame(Match["GameAdapter"]):
    """One running game as loaded from the database, with what its messages need: its game's
    Discord side, and how a message points at its table."""

    links: Links = field(default_factory=Links)

    @property
    def adapter(self) -> GameAdapter:
        return self.rules

    @property
    def drawn_at(self) -> DrawnAt:
        """What the buttons of a message showing the game as it stands are drawn at."""
        return DrawnAt(self.row.id, self.row.version)

    @property
    def names(self) -> list[str]:
        return self.names_in(language_of(self.row.locale))

    def names_in(self, language: str) -> list[str]:
        """Each seat's name as players read it ("🤖 for anna" while a computer stands in)."""
        return [
            t(language, NAME, name=seat.name) if seat.stand_in is not None else seat.name
            for seat in self.seats
        ]

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


class TableMoves(Protocol):
    """What a game's own flows ask of the table service (``bot.tables.TableService``)."""

    async def load(self, game_id: int, *, read: Snapshot | None = None) -> LoadedGame: ...

    async def play(
        self,
        click: Click,
        action: JSON | Callable[[Match[Any], int], JSON],
        then: Callable[[LoadedGame, list[Event]], Awaitable[None]] | None = None,
    ) -> None: ...

    async def command(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action: JSON | Callable[[Match[Any], int], JSON],
        then: Callable[[LoadedGame, list[Event]], Awaitable[None]] | None = None,
    ) -> None: ...

    async def render(self, draw: Callable[..., Rendered], *args: Any) -> Rendered: ...


@dataclass(frozen=True)
class Click:
    """A click on one of a game's buttons or menus: read once from its custom id
    (``gm:<game>:<version>:<move>:<argument>``) and its chosen values, and handed on whole."""

    interaction: discord.Interaction
    game_id: int
    # The version the clicked message was drawn at: a move from a decision its player no longer
    # faces is refused (``bot.clicks.check_version``).
    version: int
    move: str
    parts: tuple[str, ...]
    values: tuple[str, ...]
    # The game as read when the click arrived (``TableService.read``): its move plays from it.
    read: Snapshot
    service: TableMoves

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    def number(self, index: int, within: Container[int] | None = None) -> int:
        """Part ``index`` of the argument as a number (one of ``within``, when given)."""
        return number(self.parts[index] if index < len(self.parts) else "", within)

    def chosen(self) -> int:
        """The option chosen in a select, as a number."""
        return number(self.values[0] if self.values else "")

    async def player(self) -> tuple[LoadedGame, int, Viewer]:
        """The game as the click read it, the clicking player's seat, and a viewer for them in
        their language; refused for anyone not playing."""
        table = await self.service.load(self.game_id, read=self.read)
        seat = table.seat_of(self.user_id)
        if seat is None:
            raise GameError("error.not_a_player")
        return table, seat, table.viewer(seat, language(self.interaction))

    async def act(
        self,
        action: JSON | Callable[[Match[Any], int], JSON],
        then: Callable[[LoadedGame, list[Event]], Awaitable[None]] | None = None,
    ) -> None:
        """Play the clicking player's move from the game as the click read it; ``then`` answers
        the click once the move is saved (else the table's update, or "Done")."""
        await self.service.play(self, action, then)

    async def deciding_player(self) -> tuple[LoadedGame, int, Viewer]:
        """``player()``, refused unless the game is waiting on a decision of theirs."""
        table, seat, viewer = await self.player()
        if seat not in table.game.to_act():
            raise GameError("error.not_your_turn")
        return table, seat, viewer


class GameAdapter(GameRules, ABC):
    """One game's Discord face, with what the referee knows of it (``GameRules``: its engine, its
    computer player, what its events mean). Subclasses are stateless; state comes in through views."""

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
    # Whether /stats shows a player's average points per round (games scored round by round).
    points_per_round: ClassVar[bool] = False

    @abstractmethod
    def table(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
        """The shared table from the public view, with the game's table buttons drawn ``at``."""

    @abstractmethod
    def hand(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
        """One seat's private hand from that seat's view, with its private buttons drawn ``at``."""

    def table_copy(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
        """The table for a reply that is never edited again (``/<game> table``): the table itself,
        as the channel's table shows it now (Serie Bum!'s flipped tiles included: hiding them
        drew a face-up tile as a labelled back, and the asker sees them on the table anyway)."""
        return self.table(view, viewer, at)

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
            elif key.endswith("_at") and isinstance(value, int | float):
                # A time: the date, and how far off, as each reader's clock shows them.
                params[key] = f"{discord_time(value)} ({discord_time(value, 'R')})"
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

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        """The game's own moves by name: what each of its buttons and selects does."""
        return {}


# A game as a read finds it: still a lobby, or dealt.
GameOrLobby = LoadedGame | Lobby[GameAdapter]


def loaded(snapshot: Snapshot, adapters: Mapping[str, GameAdapter], links: Links) -> GameOrLobby:
    """The game a read found: a lobby (open or closed) until it is dealt, then the game as its
    engine plays it (running, finished or aborted)."""
    row = snapshot.game
    adapter = adapters.get(row.kind)
    if adapter is None:
        raise GameError("error.game_not_running")
    if row.state is None:
        return Lobby(row, snapshot.seats, adapter)
    game = adapter.engine.from_json(row.state)
    return LoadedGame(row, snapshot.seats, game, adapter, timers=snapshot.timers, links=links)


def as_loaded(
    table: Match[GameAdapter] | Lobby[GameAdapter], links: Links
) -> LoadedGame | Lobby[GameAdapter]:
    """A game the referee made (the deal makes a lobby a running ``Match``) as its messages show it."""
    if isinstance(table, Match) and not isinstance(table, LoadedGame):
        return LoadedGame(table.row, table.seats, table.game, table.rules, table.robots, table.timers, links)
    return table
