"""The Lay panel: pick Bugz from the hand (or a suggested sequence), name the PLYTs' numbers, lay."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import discord

from bot.adapter import Click, DrawnAt, LoadedGame, Viewer
from bot.games.rumbugz.drafts import LayDraft, Picks
from bot.games.rumbugz.panels import RumBugzPanel
from bot.games.rumbugz.steps import ROWS
from bot.games.rumbugz.text import bugz_text, entries_text, kind_name
from games.core import JSON
from games.rumbugz.bugz import KINDS, check_sequence, entry_order


class LayPanel(RumBugzPanel):
    def _render_lay(
        self, table: LoadedGame, seat: int, viewer: Viewer, draft: LayDraft
    ) -> tuple[str, list[Any]]:
        view = table.game.view(seat)
        at, arg = table.drawn_at, draft.encode()
        entries = draft.entries()
        lines = [
            viewer.t("rumbugz.ui.lay.prompt"),
            viewer.t("rumbugz.ui.hand_line", bugz=bugz_text(view["hand"], viewer)),
            viewer.t(
                "rumbugz.ui.lay.picked",
                bugz=entries_text(sorted(entries, key=entry_order), viewer)
                if entries
                else bugz_text(draft.picks.codes, viewer),
            ),
        ]
        ready = False
        if draft.kind is None:
            lines.append(viewer.t("rumbugz.ui.lay.pick_kind"))
        else:
            lines.append(viewer.t("rumbugz.ui.lay.kind", kind=kind_name(draft.kind, viewer)))
            if draft.picks.codes:
                ready, line = self._verdict(partial(check_sequence, draft.kind, entries), viewer)
                lines.append(line)
        buttons = self._lay_buttons(at, draft, view["completed"][seat], ready, viewer)
        selects = self._bug_selects(
            at,
            "layb",
            arg,
            view["hand"],
            draft.picks.codes,
            viewer.t("rumbugz.ui.lay.pick_placeholder"),
            viewer,
        )
        room = ROWS - 1 - len(selects)
        selects += self._plyt_selects(at, "layv", arg, entries, viewer, room)
        if len(selects) < ROWS - 1:
            labels = [
                viewer.t(
                    "rumbugz.ui.suggest_lay",
                    kind=kind_name(move["kind"], viewer),
                    bugz=entries_text(((e["bug"], e.get("value")) for e in move["bugz"]), viewer),
                )
                for move in self._suggested(table, seat, "lay")
            ]
            selects = self._suggestion_select(at, "layq", labels, viewer) + selects
        return "\n".join(lines), [*selects, *buttons]

    @staticmethod
    def _lay_buttons(
        at: DrawnAt, draft: LayDraft, done: Sequence[str], ready: bool, viewer: Viewer
    ) -> list[discord.ui.Item[Any]]:
        """A button per kind (those laid already are off until all four are) and Lay it."""
        all_done = len(done) == len(KINDS)
        buttons: list[discord.ui.Item[Any]] = [
            at.button(
                "lay",
                kind_name(kind, viewer),
                replace(draft, kind=kind).encode(),
                discord.ButtonStyle.primary if kind == draft.kind else discord.ButtonStyle.secondary,
                row=ROWS - 1,
                disabled=kind in done and not all_done,
            )
            for kind in KINDS
        ]
        confirm = at.button(
            "layok",
            viewer.t("rumbugz.ui.button.lay_it"),
            draft.encode(),
            discord.ButtonStyle.success,
            "✅",
            row=ROWS - 1,
            disabled=not ready,
        )
        return [*buttons, confirm]

    async def _show_lay(self, click: Click, draft_of: Callable[[LoadedGame, int, JSON], LayDraft]) -> None:
        table, seat, view, viewer = await self._at_step(click, "lay")
        content, items = self._render_lay(table, seat, viewer, draft_of(table, seat, view))
        await self._show(click.interaction, content, items)

    async def open(self, click: Click) -> None:
        """Opened from a Lay button (a fresh draft) or a kind button (the draft with that kind)."""

        def draft_of(table: LoadedGame, seat: int, view: JSON) -> LayDraft:
            return LayDraft.decode(click.parts) if click.parts else LayDraft()

        await self._show_lay(click, draft_of)

    async def suggested(self, click: Click) -> None:
        def draft_of(table: LoadedGame, seat: int, view: JSON) -> LayDraft:
            move = self._pick_suggestion(table, seat, "lay", click.values)
            return LayDraft(move["kind"], Picks.of(move["bugz"]))

        await self._show_lay(click, draft_of)

    async def pick(self, click: Click) -> None:
        def draft_of(table: LoadedGame, seat: int, view: JSON) -> LayDraft:
            draft = LayDraft.decode(click.parts)
            offered = self._hand_part(view["hand"], click.parts)
            return replace(draft, picks=draft.picks.choose(offered, self._owned(click.values, offered)))

        await self._show_lay(click, draft_of)

    async def name_plyt(self, click: Click) -> None:
        def draft_of(table: LoadedGame, seat: int, view: JSON) -> LayDraft:
            draft = LayDraft.decode(click.parts)
            return replace(draft, picks=draft.picks.name(click.parts[-1], click.chosen()))

        await self._show_lay(click, draft_of)

    async def confirm(self, click: Click) -> None:
        await self._play(click, LayDraft.decode(click.parts).action())
