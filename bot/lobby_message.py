"""What a lobby looks like: its message (the players seated, the game's settings) with **Join**,
**Leave**, **Begin**, **Cancel** and **Computers**, and the host's menus of computer players. Drawn
from the lobby as the database has it; its clicks take the one path of every change
(``bot.referee``'s lobby orders)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot import standins
from bot.adapter import DrawnAt, GameAdapter, Rendered
from bot.i18n import t
from bot.model import Lobby, SeatRow
from bot.time_text import clock_line
from bot.timekeeping import game_clock
from games.robots import LEVELS

# A lobby's moves, as its buttons and menus name them (``asks.SHARED``).
JOIN, LEAVE, BEGIN, CANCEL, COMPUTERS = (
    "lobby_join",
    "lobby_leave",
    "lobby_begin",
    "lobby_cancel",
    "lobby_computers",
)
ADD_COMPUTER, REMOVE_COMPUTER = "lobby_add", "lobby_remove"
BUTTONS: tuple[tuple[str, str, discord.ButtonStyle, str], ...] = (
    (JOIN, "lobby.join", discord.ButtonStyle.success, "✋"),
    (LEAVE, "lobby.leave", discord.ButtonStyle.secondary, "🚪"),
    (BEGIN, "lobby.begin", discord.ButtonStyle.primary, "▶️"),
    (CANCEL, "lobby.cancel", discord.ButtonStyle.danger, "✖️"),
    (COMPUTERS, "lobby.computers", discord.ButtonStyle.secondary, "🤖"),
)


def lobby_message(lobby: Lobby[GameAdapter], lang: str) -> Rendered:
    """The lobby message: who is seated and the game's settings, with the lobby's buttons."""
    at = DrawnAt(lobby.row.id, lobby.row.version)
    buttons = [at.button(move, t(lang, key), style=style, emoji=emoji) for move, key, style, emoji in BUTTONS]
    return Rendered([lobby_embed(lobby, lang)], items=list[discord.ui.Item[Any]](buttons))


def lobby_embed(lobby: Lobby[GameAdapter], lang: str) -> discord.Embed:
    adapter, row, seats = lobby.rules, lobby.row, lobby.seats
    engine = adapter.engine
    embed = discord.Embed(
        title=t(lang, "lobby.title", game=t(lang, f"{adapter.name}.title")),
        description=t(lang, "lobby.description", minimum=engine.min_players, maximum=engine.max_players),
        colour=adapter.colour,
    )
    players = "\n".join(
        f"{seat.seat + 1}. "
        # Names, not mentions: an embed pings nobody, and a mention in an embed shows as a raw
        # "<@id>" wherever the member is not known (a phone that has not loaded them, the playground).
        + seat.name
        + (" 👑" if seat.user_id == row.host_id else "")
        for seat in seats
    )
    embed.add_field(
        name=t(lang, "lobby.players", count=len(seats), maximum=engine.max_players),
        value=players or "—",
        inline=False,
    )
    own = {option.name for option in engine.options}
    rules = {name: value for name, value in row.options.items() if name in own}
    settings = adapter.settings(rules, lang)
    settings.append(t(lang, "standins.lobby.on" if standins.enabled(row.options) else "standins.lobby.off"))
    settings.append(clock_line(lang, game_clock(row)))
    if not row.rated(seats):
        settings.append(t(lang, "settings.lobby.unrated"))
    embed.add_field(name=t(lang, "lobby.settings"), value="\n".join(settings), inline=False)
    return embed


def computer_menus(
    at: DrawnAt, seats: Sequence[SeatRow], maximum: int, lang: str
) -> list[discord.ui.Item[Any]]:
    """A menu to add a computer at a level (while seats are free), one to remove a computer."""
    menus: list[discord.ui.Item[Any]] = []
    if len(seats) < maximum:
        levels = [
            discord.SelectOption(label=t(lang, f"lobby.level.{level}"), value=level) for level in LEVELS
        ]
        menus.append(at.select(ADD_COMPUTER, t(lang, "lobby.computer_add"), levels))
    robots = [discord.SelectOption(label=seat.name, value=str(seat.seat)) for seat in seats if seat.is_robot]
    if robots:
        menus.append(at.select(REMOVE_COMPUTER, t(lang, "lobby.computer_remove"), robots))
    return menus


def computer_name(lang: str) -> Any:
    """How the lobby names its computers: "🤖 Computer 2 (hard)", a number among the lobby's
    computers and the level (the referee numbers them)."""

    def name(number: int, level: str) -> str:
        return t(lang, "lobby.computer_name", number=number, level=t(lang, f"lobby.level.{level}"))

    return name
