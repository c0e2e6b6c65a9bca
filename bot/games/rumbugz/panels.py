"""What every private panel shares: the step check, the panel shown in place, the move played
with its answer, and the menus of Bugz, PLYT numbers and suggested moves."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.adapter import Click, DrawnAt, LoadedGame, Rendered, Viewer, component_view, number
from bot.games.rumbugz.hand import HandSide
from bot.games.rumbugz.steps import (
    CUSTOM_ID_LIMIT,
    HAND_MENUS,
    LABEL_LIMIT,
    LONGEST_SEQUENCE,
    OPTIONS_PER_SELECT,
    STEPS,
)
from bot.games.rumbugz.text import bug_text
from bot.model import Match
from bot.replies import language, show_game_panel, truncate
from games.core import JSON, Event, GameError
from games.rumbugz.bugz import HIGHEST_NUMBER, LOWEST_NUMBER, Entry, is_plyt
from games.rumbugz.engine import RumBugz


class RumBugzPanel:
    """The pieces the Lay, Change, Bid and Draw/Discard panels are made of; ``side`` is the hand and
    table side a played move is described and the hand drawn with."""

    def __init__(self, side: HandSide) -> None:
        self.side = side

    async def _at_step(self, click: Click, step: str) -> tuple[LoadedGame, int, JSON, Viewer]:
        """The clicking player's table, seat, view and viewer, if ``step`` is theirs to take now."""
        table, seat, viewer = await click.player()
        view = table.game.view(seat)
        if seat != view["turn"]:
            raise GameError("rumbugz.error.not_your_turn")
        if step not in view["to_act"][seat]:
            raise GameError("rumbugz.error.wrong_step", action=viewer.t(STEPS[step].label))
        # The public table offers Lay and Change whatever the hand holds (the hand is secret):
        # the player learns here, privately, when theirs makes none.
        if step in ("lay", "change") and view["phase"] == "play":
            moves = await asyncio.to_thread(table.engine(RumBugz).legal_actions, seat)
            if not any(move["type"] == step for move in moves):
                if step == "lay":
                    raise GameError("rumbugz.ui.error.no_lay")
                if not view["completed"][seat]:
                    raise GameError("rumbugz.error.change_needs_sequence")
                raise GameError("rumbugz.ui.error.no_change")
        return table, seat, view, viewer

    @staticmethod
    async def _show(
        interaction: discord.Interaction,
        content: str,
        items: Sequence[discord.ui.Item[Any]],
        rendered: Rendered | None = None,
    ) -> None:
        """A panel: it replaces the ephemeral panel it came from, or opens as a new one."""
        for item in items:
            if len(getattr(item, "custom_id", "") or "") > CUSTOM_ID_LIMIT:
                raise GameError("rumbugz.ui.error.too_many")
        view = component_view(items) if items else None
        embeds = rendered.embeds if rendered else None
        file = rendered.file if rendered else None
        await show_game_panel(interaction, truncate(content), embeds=embeds, file=file, view=view)

    async def _play(self, click: Click, action: JSON | Callable[[Match[Any], int], JSON]) -> None:
        """Play a move, then show the player what it did and their hand with the next step's buttons."""

        async def answer(table: LoadedGame, events: list[Event]) -> None:
            seat = table.seat_of(click.interaction.user.id)
            assert seat is not None
            viewer = table.viewer(seat, language(click.interaction))
            view = table.game.view(seat)
            described = (self.side.describe(event, viewer) for event in events if event.visible_to(seat))
            lines = [line for line in described if line]
            if not table.game.finished:
                lines.append(self.side.next_step(view, viewer))
            rendered = await click.service.render(self.side.hand, view, viewer, table.drawn_at)
            await self._show(click.interaction, "\n".join(lines), rendered.items, rendered)

        await click.act(action, answer)

    @staticmethod
    def _bug_selects(
        at: DrawnAt,
        move: str,
        arg: str,
        hand: Sequence[str],
        picked: Sequence[str],
        placeholder: str,
        viewer: Viewer,
    ) -> list[discord.ui.Item[Any]]:
        """The hand as multi-selects of 25, the picked Bugz ticked; each custom_id ends with its part."""
        parts = [
            hand[start : start + OPTIONS_PER_SELECT] for start in range(0, len(hand), OPTIONS_PER_SELECT)
        ]
        selects: list[discord.ui.Item[Any]] = []
        for index, part in enumerate(parts[:HAND_MENUS]):
            select = at.select(
                move,
                placeholder,
                [
                    discord.SelectOption(label=bug_text(code, viewer), value=code, default=code in picked)
                    for code in part
                ],
                f"{arg}.{index}",
            )
            select.min_values, select.max_values = 0, min(len(part), LONGEST_SEQUENCE)
            selects.append(select)
        return selects

    @staticmethod
    def _hand_part(hand: Sequence[str], parts: Sequence[str]) -> list[str]:
        """The Bugz a hand select offered (its part number is the custom_id's last field)."""
        part = number(parts[-1], within=range(HAND_MENUS)) if parts else 0
        return list(hand[part * OPTIONS_PER_SELECT : (part + 1) * OPTIONS_PER_SELECT])

    @staticmethod
    def _plyt_selects(
        at: DrawnAt, move: str, arg: str, entries: Sequence[Entry], viewer: Viewer, room: int
    ) -> list[discord.ui.Item[Any]]:
        """A select of 1-12 per picked PLYT, showing the number it stands for now."""
        plyts = [(code, value) for code, value in entries if is_plyt(code)]
        return [
            at.select(
                move,
                viewer.t("rumbugz.ui.plyt_placeholder", number=number),
                [
                    discord.SelectOption(
                        label=viewer.t("rumbugz.ui.plyt_option", number=number, value=option),
                        value=str(option),
                        default=option == value,
                    )
                    for option in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1)
                ],
                f"{arg}.{code}",
            )
            for number, (code, value) in enumerate(plyts[:room], start=1)
        ]

    @staticmethod
    def _suggestion_select(
        at: DrawnAt, move: str, labels: Sequence[str], viewer: Viewer
    ) -> list[discord.ui.Item[Any]]:
        if not labels:
            return []
        options = [
            discord.SelectOption(label=truncate(label, LABEL_LIMIT), value=str(index))
            for index, label in enumerate(labels)
        ]
        return [at.select(move, viewer.t("rumbugz.ui.suggest_placeholder"), options)]

    @staticmethod
    def _verdict(check: Callable[[], object], viewer: Viewer) -> tuple[bool, str]:
        """Whether the engine's own check accepts the move put together so far, and a line saying so."""
        try:
            check()
        except GameError as error:
            return False, viewer.t("rumbugz.ui.not_ready", reason=viewer.t(error.key, **error.params))
        return True, viewer.t("rumbugz.ui.ready")

    @staticmethod
    def _suggested(table: LoadedGame, seat: int, action_type: str) -> list[JSON]:
        """The engine's ready-made moves of a type, those emptying the hand most first, 25 at most."""
        moves = [move for move in table.engine(RumBugz).legal_actions(seat) if move["type"] == action_type]
        if action_type == "lay":
            moves.sort(key=lambda move: -len(move["bugz"]))
        else:
            moves.sort(key=lambda move: len(move["remove"]) - len(move["add"]))
        return moves[:OPTIONS_PER_SELECT]

    def _pick_suggestion(self, table: LoadedGame, seat: int, action_type: str, values: Sequence[str]) -> JSON:
        moves = self._suggested(table, seat, action_type)
        index = number(values[0]) if values else len(moves)
        if index >= len(moves):
            raise GameError("error.out_of_date")
        return moves[index]

    @staticmethod
    def _owned(values: Sequence[str], offered: Sequence[str]) -> list[str]:
        if any(value not in offered for value in values):
            raise GameError("error.out_of_date")
        return list(values)
