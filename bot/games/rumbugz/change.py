"""The Change panel: pick one of your sequences, Bugz to add and to take back, name the PLYTs'
numbers, change."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import discord

from bot.adapter import Click, LoadedGame, Viewer
from bot.games.rumbugz.drafts import ChangeDraft, Picks
from bot.games.rumbugz.panels import RumBugzPanel
from bot.games.rumbugz.steps import LABEL_LIMIT, ROWS
from bot.games.rumbugz.text import bugz_text, entries_text, entry_text, kind_name, table_entries
from bot.model import Match
from bot.replies import truncate
from games.core import JSON, GameError
from games.rumbugz.bugz import changed_sequence


class ChangePanel(RumBugzPanel):
    def _render_change(
        self, table: LoadedGame, seat: int, viewer: Viewer, draft: ChangeDraft | None
    ) -> tuple[str, list[Any]]:
        view = table.game.view(seat)
        at = table.drawn_at
        labels = [self._change_label(view, move, viewer) for move in self._suggested(table, seat, "change")]
        if draft is None:
            options = [
                discord.SelectOption(
                    label=truncate(
                        viewer.t(
                            "rumbugz.ui.change.sequence_option",
                            sequence=sequence["id"],
                            name=viewer.name(sequence["owner"]),
                            kind=kind_name(sequence["kind"], viewer),
                            bugz=entries_text(table_entries(sequence), viewer),
                        ),
                        LABEL_LIMIT,
                    ),
                    value=str(sequence["id"]),
                )
                for sequence in view["table"]
            ]
            items = self._suggestion_select(at, "chgq", labels, viewer)
            items.append(at.select("chgs", viewer.t("rumbugz.ui.change.sequence_placeholder"), options))
            return viewer.t("rumbugz.ui.change.prompt"), items
        sequence = self._sequence(view, draft.sequence)
        arg = draft.encode()
        added = draft.added(sequence)
        removed = [entry for entry in table_entries(sequence) if entry[0] in draft.remove]
        lines = [
            viewer.t(
                "rumbugz.ui.change.chosen",
                sequence=sequence["id"],
                name=viewer.name(sequence["owner"]),
                kind=kind_name(sequence["kind"], viewer),
                bugz=entries_text(table_entries(sequence), viewer),
            ),
            viewer.t("rumbugz.ui.hand_line", bugz=bugz_text(view["hand"], viewer)),
            viewer.t("rumbugz.ui.change.add", bugz=entries_text(added, viewer)),
            viewer.t("rumbugz.ui.change.remove", bugz=entries_text(removed, viewer)),
        ]
        ready = False
        if added:
            change = partial(changed_sequence, sequence["kind"], table_entries(sequence), added, draft.remove)
            ready, line = self._verdict(change, viewer)
            if ready:
                lines.append(viewer.t("rumbugz.ui.change.result", bugz=entries_text(change(), viewer)))
            lines.append(line)
        selects = self._bug_selects(
            at,
            "chga",
            arg,
            view["hand"],
            draft.add.codes,
            viewer.t("rumbugz.ui.change.add_placeholder"),
            viewer,
        )
        take_off = at.select(
            "chgr",
            viewer.t("rumbugz.ui.change.remove_placeholder"),
            [
                discord.SelectOption(
                    label=entry_text(code, value, viewer), value=code, default=code in draft.remove
                )
                for code, value in table_entries(sequence)
            ],
            arg,
        )
        take_off.min_values, take_off.max_values = 0, len(sequence["bugz"])
        selects.append(take_off)
        selects += self._plyt_selects(at, "chgv", arg, added, viewer, ROWS - 1 - len(selects))
        if len(selects) < ROWS - 1:
            selects = self._suggestion_select(at, "chgq", labels, viewer) + selects
        buttons = [
            at.button(
                "chgok",
                viewer.t("rumbugz.ui.button.change_it"),
                arg,
                discord.ButtonStyle.success,
                "✅",
                row=ROWS - 1,
                disabled=not ready,
            ),
            at.button("change", viewer.t("rumbugz.ui.button.other_sequence"), "", emoji="↩️", row=ROWS - 1),
        ]
        return "\n".join(lines), [*selects, *buttons]

    def _change_label(self, view: JSON, move: JSON, viewer: Viewer) -> str:
        sequence = self._sequence(view, move["sequence"])
        on_table = dict(table_entries(sequence))
        change = [
            viewer.t(
                "rumbugz.ui.change_add",
                bugz=entries_text(((e["bug"], e.get("value")) for e in move["add"]), viewer),
            )
        ]
        if move["remove"]:
            removed = ((code, on_table[code]) for code in move["remove"])
            change.append(viewer.t("rumbugz.ui.change_remove", bugz=entries_text(removed, viewer)))
        return viewer.t(
            "rumbugz.ui.suggest_change",
            sequence=sequence["id"],
            kind=kind_name(sequence["kind"], viewer),
            change=", ".join(change),
        )

    @staticmethod
    def _sequence(view: JSON, sequence_id: int) -> JSON:
        sequence = next((s for s in view["table"] if s["id"] == sequence_id), None)
        if sequence is None:
            raise GameError("error.out_of_date")
        return sequence

    async def _show_change(
        self, click: Click, draft_of: Callable[[LoadedGame, int, JSON], ChangeDraft | None]
    ) -> None:
        table, seat, view, viewer = await self._at_step(click, "change")
        content, items = self._render_change(table, seat, viewer, draft_of(table, seat, view))
        await self._show(click.interaction, content, items)

    async def open(self, click: Click) -> None:
        await self._show_change(click, lambda table, seat, view: None)

    async def suggested(self, click: Click) -> None:
        def draft_of(table: LoadedGame, seat: int, view: JSON) -> ChangeDraft:
            move = self._pick_suggestion(table, seat, "change", click.values)
            return ChangeDraft(move["sequence"], Picks.of(move["add"]), tuple(move["remove"]))

        await self._show_change(click, draft_of)

    async def pick_sequence(self, click: Click) -> None:
        def draft_of(table: LoadedGame, seat: int, view: JSON) -> ChangeDraft:
            sequence = self._sequence(view, click.chosen())
            return ChangeDraft(sequence["id"])

        await self._show_change(click, draft_of)

    async def pick_added(self, click: Click) -> None:
        def draft_of(table: LoadedGame, seat: int, view: JSON) -> ChangeDraft:
            draft = ChangeDraft.decode(click.parts)
            offered = self._hand_part(view["hand"], click.parts)
            return replace(draft, add=draft.add.choose(offered, self._owned(click.values, offered)))

        await self._show_change(click, draft_of)

    async def pick_removed(self, click: Click) -> None:
        def draft_of(table: LoadedGame, seat: int, view: JSON) -> ChangeDraft:
            draft = ChangeDraft.decode(click.parts)
            offered = [code for code, _ in table_entries(self._sequence(view, draft.sequence))]
            return replace(draft, remove=tuple(self._owned(click.values, offered)))

        await self._show_change(click, draft_of)

    async def name_plyt(self, click: Click) -> None:
        def draft_of(table: LoadedGame, seat: int, view: JSON) -> ChangeDraft:
            draft = ChangeDraft.decode(click.parts)
            return replace(draft, add=draft.add.name(click.parts[-1], click.chosen()))

        await self._show_change(click, draft_of)

    async def confirm(self, click: Click) -> None:
        draft = ChangeDraft.decode(click.parts)

        def action(table: Match[Any], seat: int) -> JSON:
            return draft.action(self._sequence(table.game.view(seat), draft.sequence))

        await self._play(click, action)
