"""Where every click on a game's message comes in: persistent buttons and selects whose custom id
carries the game, the version drawn at, the move and its argument (``gm:`` for buttons, ``gs:``
for selects, see ``bot.adapter.DrawnAt``), read once into a ``Click`` and answered as its
``Button`` says. They keep working after a restart because nothing about them lives in memory.
Ids are bounded so a forged one cannot name a number the database cannot hold.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot import asks
from bot.adapter import Click, GameAdapter, TableMoves
from bot.clicks import TableMovedOn, check_origin, check_version
from bot.i18n import t
from bot.lobby import Lobbies
from bot.lobby_message import ADD_COMPUTER, BEGIN, CANCEL, COMPUTERS, JOIN, LEAVE, REMOVE_COMPUTER
from bot.replies import Matched, chosen_values, language
from bot.tables import TableService
from games.core import BACK, GameError


class ComponentHost(Protocol):
    """The bot a game's click reaches (``interaction.client``): the services a click is answered
    by, and its guard that answers any error."""

    @property
    def tables(self) -> TableService: ...

    @property
    def lobbies(self) -> Lobbies: ...

    @property
    def moves(self) -> TableMoves: ...

    @property
    def adapters(self) -> Mapping[str, GameAdapter]: ...

    async def guard(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None: ...


@dataclass(frozen=True)
class Button:
    """What a click on a game's message does, and what is checked before: where it may come from
    (``private``: the game's channel, or also its player's DMs), and whether a player a computer
    stands in for takes their seat back first."""

    answer: Callable[[ComponentHost, Click], Awaitable[None]]
    private: bool
    comes_back: bool = False


async def own_move(host: ComponentHost, click: Click) -> None:
    """A game's own button or select, handed to its flow once its version is checked; one drawn
    before the player's decision changed shows the table again."""
    adapter = host.adapters[click.read.game.kind]
    flow = adapter.flows().get(click.move)
    if flow is None:
        raise GameError("error.unknown_action")
    try:
        check_version(click, click.read, adapter=adapter)
        await flow(click)
    except TableMovedOn:
        note = t(language(click.interaction), "error.table_moved_on")
        await asks.show_table(host.tables, click.interaction, click.game_id, note)


# The buttons every game's messages share, by move; any other move is the game's own (``OWN``).
SHARED: Mapping[str, Button] = {
    "rematch": Button(lambda host, click: host.lobbies.rematch(click), private=False),
    asks.ABORT: Button(lambda host, click: asks.abort(host.tables, click), private=False),
    asks.KEEP_PLAYING: Button(lambda host, click: asks.keep_playing(click.interaction), private=False),
    BACK: Button(lambda host, click: asks.back(host.tables, click), private=True),
    "hand": Button(
        lambda host, click: asks.show_hand(host.tables, click.interaction, click.game_id),
        private=True,
        comes_back=True,
    ),
    JOIN: Button(lambda host, click: host.lobbies.join(click), private=False),
    LEAVE: Button(lambda host, click: host.lobbies.leave(click), private=False),
    BEGIN: Button(lambda host, click: host.lobbies.begin(click), private=False),
    CANCEL: Button(lambda host, click: asks.abort(host.tables, click), private=False),
    COMPUTERS: Button(lambda host, click: host.lobbies.computers(click), private=False),
    ADD_COMPUTER: Button(lambda host, click: host.lobbies.computer_added(click), private=False),
    REMOVE_COMPUTER: Button(lambda host, click: host.lobbies.computer_removed(click), private=False),
}
OWN = Button(own_move, private=True, comes_back=True)


async def on_click(
    host: ComponentHost, interaction: discord.Interaction, game_id: int, version: int, move: str, arg: str
) -> None:
    """A click on one of a game's buttons or selects, drawn at ``version``: read once into a
    ``Click`` with the game as it stands, checked as its ``Button`` says, then answered by it."""
    read = await host.tables.read(game_id)
    if read is None or read.game.kind not in host.adapters:
        raise GameError("error.game_not_running")
    button = SHARED.get(move, OWN)
    check_origin(interaction, read.game, private=button.private)
    if button.comes_back:
        read = await asks.come_back_if_away(host.tables, interaction, read)
    parts = tuple(arg.split(".")) if arg else ()
    values = tuple(chosen_values(interaction))
    click = Click(interaction, game_id, version, move, parts, values, read, host.moves)
    await button.answer(host, click)


def _answered(interaction: discord.Interaction, game: str, version: str, move: str, arg: str) -> Any:
    host: ComponentHost = interaction.client  # type: ignore[assignment]
    return host.guard(interaction, on_click(host, interaction, int(game), int(version), move, arg))


TEMPLATE = r"(?P<game>\d{1,19}):(?P<version>\d{1,19}):(?P<move>\w{1,40}):(?P<arg>.*)"


class GameButton(Matched, template="gm:" + TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.match
        await _answered(interaction, match["game"], match["version"], match["move"], match["arg"])


class GameSelect(Matched, template="gs:" + TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.match
        await _answered(interaction, match["game"], match["version"], match["move"], match["arg"])


class LobbyButton(Matched, template=r"lobby:(?P<game>\d{1,19}):(?P<move>[a-z]{1,10})"):
    """A lobby's button as lobbies drew them before their buttons took the games' ids: the same
    click (``lobby_<move>``)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        await _answered(interaction, self.match["game"], "0", f"lobby_{self.match['move']}", "")


class LobbySelect(Matched, template=r"lobbysel:(?P<game>\d{1,19}):(?P<move>[a-z]{1,10})"):
    """The host's computer menus as drawn before (see ``LobbyButton``)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        await _answered(interaction, self.match["game"], "0", f"lobby_{self.match['move']}", "")


COMPONENTS: tuple[type[Matched], ...] = (GameButton, GameSelect, LobbyButton, LobbySelect)
