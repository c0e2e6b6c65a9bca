"""The adapter of Bué: the exchange and reveal panels, and which click goes where."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from bot.adapter import Click, DrawnAt, LoadedGame, Viewer, component_view
from bot.games.bue.table import BueTable, card_label
from bot.replies import language, show_game_panel
from bot.replies import replace as replace_panel
from games.core import JSON, Event, GameError

# The event of the cards everyone chose, revealed together once the last has chosen.
REVEALED = "bue.event.revealed"


class BueAdapter(BueTable):
    """Bué in Discord: the table, the hands, the exchange and reveal flows."""

    current_moves = frozenset({"exchange", "reveal"})

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {
            "exchange": self._open_exchange,
            "give": self._choose_partner,
            "partner": self._choose_taken_card,
            "deck": self._exchange_with_deck,
            "take": self._swap,
            "reveal": self._open_reveal,
            "reveal_card": self._reveal,
            "shuffle": self._shuffle,
        }

    async def _my_decision(self, click: Click, wanted: str) -> tuple[LoadedGame, int, JSON, Viewer]:
        table, seat, viewer = await click.player()
        if wanted not in table.game.to_act().get(seat, frozenset()):
            raise GameError("error.not_your_turn" if wanted != "reveal" else "bue.error.not_reveal_time")
        return table, seat, table.game.view(seat), viewer

    async def _card_panel(self, click: Click, decision: str, move: str, prompt: str) -> None:
        """A private panel: the player's hand and a button per hidden card (five at most: one row).
        Buttons, not a menu: in the playground a menu under the hand's picture closed as it
        opened (SimCord's preview closes an open menu that the pictures, drawn again as it
        opens, push out of the window)."""
        table, _, view, viewer = await self._my_decision(click, decision)
        buttons = [
            table.drawn_at.button(
                move,
                viewer.t("bue.panel.card_option", position=p + 1, card=card_label(s["card"], viewer)),
                str(p),
            )
            for p, s in enumerate(view["hands"][view["me"]])
            if not s["revealed"]
        ]
        hand = await click.service.render(self.hand, view, viewer, table.drawn_at)
        await show_game_panel(
            click.interaction,
            viewer.t(prompt),
            embeds=hand.embeds,
            file=hand.file,
            view=component_view(buttons),
        )

    async def _open_exchange(self, click: Click) -> None:
        await self._card_panel(click, "deck", "give", "bue.panel.give")

    async def _open_reveal(self, click: Click) -> None:
        await self._card_panel(click, "reveal", "reveal_card", "bue.panel.reveal")

    @staticmethod
    def _positions(view: JSON, seat: int) -> range:
        """The card positions of ``seat``'s hand: a number past them is a forged click."""
        return range(len(view["hands"][seat]))

    @staticmethod
    def _partners(view: JSON, seat: int) -> list[int]:
        """The players ``seat`` may exchange with."""
        return [other for other in range(view["players"]) if other != seat and view["active"][other]]

    async def _choose_partner(self, click: Click) -> None:
        table, seat, view, viewer = await self._my_decision(click, "deck")
        give = click.number(0, self._positions(view, seat))
        at, base = table.drawn_at, str(give)
        deck_usable = view["deck"] > 0 or view["discard"] > 0
        items: list[discord.ui.Item[Any]] = [
            at.button(
                "deck",
                viewer.t("bue.panel.with_deck"),
                base,
                discord.ButtonStyle.primary,
                "🃏",
                disabled=not deck_usable,
            ),
        ]
        items += [
            at.button("partner", viewer.name(other)[:80], f"{base}.{other}")
            for other in self._partners(view, seat)
        ]
        items.append(self._back_button(at, viewer))
        card = card_label(view["hands"][seat][give]["card"], viewer)
        await replace_panel(
            click.interaction,
            viewer.t("bue.panel.partner", position=give + 1, card=card),
            view=component_view(items),
        )

    async def _choose_taken_card(self, click: Click) -> None:
        table, seat, view, viewer = await self._my_decision(click, "swap")
        give, partner = (
            click.number(0, self._positions(view, seat)),
            click.number(1, self._partners(view, seat)),
        )
        at = table.drawn_at
        items: list[discord.ui.Item[Any]] = [
            at.button(
                "take",
                viewer.t("bue.panel.card_n", position=position + 1),
                f"{give}.{partner}.{position}",
                emoji="🃏",
            )
            for position, slot in enumerate(view["hands"][partner])
            if not slot["revealed"]
        ]
        items.append(self._back_button(at, viewer))
        await replace_panel(
            click.interaction,
            viewer.t("bue.panel.take", name=viewer.name(partner)),
            view=component_view(items),
        )

    @staticmethod
    def _back_button(at: DrawnAt, viewer: Viewer) -> discord.ui.Button[Any]:
        return at.button("exchange", viewer.t("bue.panel.back"), style=discord.ButtonStyle.danger, emoji="↩️")

    async def _play(
        self, click: Click, move: JSON, done: Callable[[Viewer, list[str], list[Event]], str]
    ) -> None:
        """Play a move, then tell the player what it did for them."""

        async def answer(table: LoadedGame, events: list[Event]) -> None:
            seat = table.seat_of(click.interaction.user.id)
            viewer = table.viewer(seat, language(click.interaction))
            private = [
                line for e in events if e.seats and e.visible_to(seat) if (line := self.describe(e, viewer))
            ]
            text = done(viewer, private, events)
            # The channel does not call the player who just moved; tell them here if it is their move again.
            if seat in table.game.required_to_act():
                text += "\n" + viewer.t("common.your_move_again", table=table.link(viewer.language))
            await replace_panel(click.interaction, text, view=None)

        await click.act(move, answer)

    @staticmethod
    def _what_happened(viewer: Viewer, private: list[str], events: list[Event]) -> str:
        return "\n".join(private) or viewer.t("common.done")

    async def _exchange_with_deck(self, click: Click) -> None:
        await self._play(click, {"type": "deck", "give": click.number(0)}, self._what_happened)

    async def _swap(self, click: Click) -> None:
        give, partner, take = (click.number(index) for index in range(3))
        move = {"type": "swap", "give": give, "target": partner, "take": take}
        await self._play(click, move, self._what_happened)

    async def _reveal(self, click: Click) -> None:
        position = click.number(0)
        await self._play(
            click,
            {"type": "reveal", "position": position},
            # The last to choose sees the cards revealed at once: theirs is face up already.
            lambda viewer, _, events: viewer.t(
                "bue.panel.revealed_now"
                if any(e.key == REVEALED for e in events)
                else "bue.panel.reveal_done",
                position=position + 1,
            ),
        )

    async def _shuffle(self, click: Click) -> None:
        async def answer(table: LoadedGame, events: list[Event]) -> None:
            seat = table.seat_of(click.interaction.user.id)
            viewer = table.viewer(seat, language(click.interaction))
            hand = await click.service.render(self.hand, table.game.view(seat), viewer, table.drawn_at)
            await replace_panel(click.interaction, embeds=hand.embeds, file=hand.file, view=hand.view())

        await click.act({"type": "shuffle"}, answer)


ADAPTER = BueAdapter()
