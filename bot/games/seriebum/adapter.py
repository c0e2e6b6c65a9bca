"""The adapter of Serie Bum!: which click goes where, and each move played with its answer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Any

import discord

from bot.adapter import Click, LoadedGame, component_view
from bot.games.seriebum.panels import SerieBumPanels
from bot.model import Match
from bot.replies import language, show_game_panel, truncate
from games.core import JSON, Event, GameError


class SerieBumAdapter(SerieBumPanels):
    """Serie Bum! in Discord: the table, the panels, and where each of their clicks goes."""

    # Tiles covered again stay face up on the table until the next player's first flip (a memory
    # game): a computer's flip waits until people have had them in view (``Settings.view_pause``).
    current_moves = frozenset({"panel", "moves"})
    kept_in_view = frozenset(
        f"seriebum.event.{name}" for name in ("not_taken", "first_covered", "jolly_unusable", "bum_harmless")
    )

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {
            "panel": self._open,
            "moves": partial(self._open, moving=True),
            "column": self._open,
            "flip": self._flip,
            "end_turn": self._end_turn,
            **{kind: partial(self._choose, kind) for kind in ("place", "steal", "bum", "move")},
        }

    @staticmethod
    async def _show(
        interaction: discord.Interaction, content: str, items: list[discord.ui.Item[Any]]
    ) -> None:
        """A panel: it replaces the ephemeral panel it was opened from, or is sent as a new one."""
        view = component_view(items) if items else None
        await show_game_panel(interaction, truncate(content), view=view)

    async def _open(self, click: Click, *, moving: bool = False) -> None:
        """The player's panel; the column select reopens it on the chosen column."""
        table, seat, viewer = await click.deciding_player()
        column = click.values[0] if click.values else None
        content, items = self._panel(table, seat, viewer, column=column, moving=moving)
        await self._show(click.interaction, content, items)

    async def _flip(self, click: Click) -> None:
        cell = ".".join(click.parts)
        await self._play(click, {"type": "flip", "cell": cell}, column=cell[:1])

    async def _end_turn(self, click: Click) -> None:
        await self._play(click, {"type": "end_turn"})

    async def _play(
        self,
        click: Click,
        action: JSON | Callable[[Match[Any], int], JSON],
        *,
        column: str | None = None,
        moving: bool = False,
    ) -> None:
        """Play a move, then show the player what happened and their next decision in the panel."""
        interaction = click.interaction

        async def answer(table: LoadedGame, events: list[Event]) -> None:
            seat = table.seat_of(interaction.user.id)
            assert seat is not None
            viewer = table.viewer(seat, language(interaction))
            lines = [
                line for event in events if event.visible_to(seat) if (line := self.describe(event, viewer))
            ]
            prompt, items = self._panel(table, seat, viewer, column=column, moving=moving)
            await self._show(interaction, "\n".join([*lines, prompt]), items)

        await click.act(action, answer)

    async def _choose(self, kind: str, click: Click) -> None:
        """Option ``values[0]`` of a ``kind`` select (the click's version says it is still the
        decision the select was drawn for)."""
        index = click.chosen()

        def action(table: Match[Any], seat: int) -> JSON:
            choices = self._choices(table.game.view(seat), kind)
            if index >= len(choices):
                raise GameError("error.out_of_date")
            return {"type": kind, "option": choices[index]["id"]}

        await self._play(click, action, moving=kind == "move")


ADAPTER = SerieBumAdapter()
