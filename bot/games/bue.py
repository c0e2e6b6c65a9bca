"""Bué in Discord: the table, private hands, and the exchange and reveal flows."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.adapter import Click, GameAdapter, Rendered, Viewer, component_view, game_button, game_select
from bot.commands import GameHost, game_group
from bot.render import HIGHLIGHT, INK, MUTED, Canvas, picture
from bot.replies import language, show_panel
from bot.replies import replace as replace_panel
from games.bue import Bue
from games.bue.robot import BueRobot
from games.core import JSON, Event, GameError

if TYPE_CHECKING:
    from bot.tables import Table

CARD_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "b": ((40, 110, 200), INK),
    "g": ((214, 168, 42), (40, 30, 0)),
    "h": ((180, 40, 50), INK),
    "x": ((90, 50, 140), INK),
}
CARD_W, CARD_H, GAP = 70, 100, 10
ROW_H = CARD_H + 24
NAME_W = 250


def card_label(code: str, viewer: Viewer | None = None) -> str:
    """How a card reads: '7', '12' (gold), '100', '×2', '×0'."""
    if code.startswith("x"):
        return "×" + code[1:]
    if code.startswith("g") and viewer is not None:
        return viewer.t("bue.card.gold", value=code[1:])
    return code[1:]


def stamp(view: JSON) -> str:
    """Which decision a panel was opened for; a panel from an earlier one is refused."""
    return f"{view['game_number']}.{view['round']}"


class BueAdapter(GameAdapter):
    engine = Bue
    robot = BueRobot
    colour = discord.Colour.from_rgb(40, 110, 200)
    code_params = frozenset({"card", "gave", "received", "cards"})
    embed_events = frozenset({"bue.event.game_scored", "bue.event.match_won"})
    round_end_events = frozenset({"bue.event.game_scored"})
    feat_events: ClassVar[Mapping[str, str]] = {"bue.event.bue": "bue", "bue.event.superbue": "superbue"}
    start_options: ClassVar[Mapping[str, str]] = {"target": "cmd.option.target"}
    free_moves = frozenset({"shuffle"})

    def own_hand(self, view: JSON) -> object:
        # The cards in their positions: others take a hidden card by its position.
        seat = view["me"]
        return [slot["card"] for slot in view["hands"][seat]] if view["active"][seat] else None

    # ------------------------------------------------------------------ drawing

    def _draw_card(
        self, canvas: Canvas, box: tuple[int, int, int, int], slot: Mapping[str, Any], position: int
    ) -> None:
        code = slot["card"]
        if code is None:
            canvas.back(box, str(position + 1))
            return
        fill, ink = CARD_COLOURS[code[0]]
        canvas.face(box, card_label(code), code, fill, ink, outline=HIGHLIGHT if slot["revealed"] else None)

    def table_image(self, view: JSON, viewer: Viewer) -> Canvas:
        seats = [seat for seat in range(view["players"]) if view["active"][seat]]
        canvas = Canvas(NAME_W + 5 * (CARD_W + GAP) + 240, 90 + ROW_H * len(seats))
        canvas.text(
            (20, 18), viewer.t("bue.table.heading", game=view["game_number"], round=view["round"]), 30
        )
        for index, seat in enumerate(seats):
            top = 80 + index * ROW_H
            if seat in view["to_act"]:
                canvas.rounded_rectangle(
                    (8, top - 6, NAME_W - 10, top + CARD_H + 6), radius=10, outline=HIGHLIGHT, width=3
                )
            name = viewer.name(seat)[:18]
            canvas.text((20, top + 10), name, 24)
            dealer = " · " + viewer.t("bue.table.dealer") if seat == view["dealer"] else ""
            canvas.text(
                (20, top + 44), viewer.t("bue.table.points", points=view["totals"][seat]) + dealer, 18, MUTED
            )
            for position, slot in enumerate(view["hands"][seat]):
                left = NAME_W + position * (CARD_W + GAP)
                self._draw_card(canvas, (left, top, left + CARD_W, top + CARD_H), slot, position)
        right = NAME_W + 5 * (CARD_W + GAP) + 30
        canvas.text((right, 80), viewer.t("bue.table.deck", count=view["deck"]), 18, MUTED)
        canvas.back((right, 106, right + CARD_W, 106 + CARD_H))
        canvas.text((right + CARD_W + 20, 80), viewer.t("bue.table.discard"), 18, MUTED)
        top_card = view["discard_top"]
        discard_box = (right + CARD_W + 20, 106, right + 2 * CARD_W + 20, 106 + CARD_H)
        if top_card:
            fill, ink = CARD_COLOURS[top_card[0]]
            canvas.face(discard_box, card_label(top_card), top_card, fill, ink)
        else:
            canvas.rounded_rectangle(discard_box, radius=8, outline=MUTED, width=2)
        return canvas

    def hand_image(self, slots: Sequence[JSON], best: JSON, viewer: Viewer) -> Canvas:
        """The cards of one hand and their best total: drawn from these alone, so the picture is
        drawn again only when they change, not at every move of the others."""
        canvas = Canvas(5 * (CARD_W + GAP) * 2 + 40, 2 * CARD_H + 110)
        multipliers = {int(k): v for k, v in best.get("multipliers", {}).items()}
        for position, slot in enumerate(slots):
            left = 20 + position * 2 * (CARD_W + GAP)
            box = (left, 20, left + 2 * CARD_W, 20 + 2 * CARD_H)
            fill, ink = CARD_COLOURS[slot["card"][0]]
            canvas.face(
                box,
                card_label(slot["card"]),
                slot["card"],
                fill,
                ink,
                outline=HIGHLIGHT if slot["revealed"] else None,
            )
            note = viewer.t("bue.hand.face_up") if slot["revealed"] else viewer.t("bue.hand.hidden")
            if position in multipliers:
                note += " → " + str(multipliers[position] + 1)
            canvas.text((left + CARD_W, 2 * CARD_H + 34), f"{position + 1} · {note}", 18, MUTED, anchor="ma")
        total = best.get("total", 0)
        canvas.text(
            (20, 2 * CARD_H + 66), viewer.t("bue.hand.total", total=total, distance=abs(total - 50)), 24
        )
        return canvas

    # ------------------------------------------------------------------ messages

    def table(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        embed = discord.Embed(
            title=viewer.t("bue.table.title", game=view["game_number"], round=view["round"]),
            colour=self.colour,
        )
        if view["phase"] == "exchange" and view["turn"] is not None:
            embed.description = viewer.t("bue.table.exchanging", name=viewer.name(view["turn"]))
        elif view["phase"] == "reveal":
            waiting = ", ".join(viewer.name(seat) for seat in view["to_act"])
            embed.description = viewer.t("bue.table.revealing", names=waiting)
        elif view["winner"] is not None:
            embed.description = viewer.t("bue.table.won", name=viewer.name(view["winner"]))
        for seat in range(view["players"]):
            if not view["active"][seat]:
                continue
            slots = view["hands"][seat]
            shown = [card_label(slot["card"], viewer) for slot in slots if slot["revealed"]]
            hidden = sum(not slot["revealed"] for slot in slots)
            marker = " 🃏" if seat == view["dealer"] else ""
            marker += " ⏳" if seat in view["to_act"] else ""
            embed.add_field(
                name=f"{viewer.name(seat)}{marker}",
                value=viewer.t(
                    "bue.table.seat",
                    points=view["totals"][seat],
                    shown=" · ".join(shown) or "—",
                    hidden=hidden,
                ),
                inline=True,
            )
        top = view["discard_top"]
        embed.set_footer(
            text=viewer.t(
                "bue.table.footer",
                deck=view["deck"],
                discard=card_label(top, viewer) if top else "—",
                dealer=viewer.name(view["dealer"]),
                target=view["target"],
            )
        )
        embed.set_image(url="attachment://bue-table.png")
        items: list[discord.ui.Item[Any]] = [
            game_button(game_id, "hand", viewer.t("bue.button.hand"), emoji="🃏"),
        ]
        if view["phase"] == "exchange":
            items.append(
                game_button(
                    game_id,
                    "exchange",
                    viewer.t("bue.button.exchange"),
                    style=discord.ButtonStyle.primary,
                    emoji="🔄",
                )
            )
        elif view["phase"] == "reveal":
            items.append(
                game_button(
                    game_id,
                    "reveal",
                    viewer.t("bue.button.reveal"),
                    style=discord.ButtonStyle.primary,
                    emoji="👁️",
                )
            )
        return Rendered([embed], picture("bue-table.png", self.table_image, view, viewer), items)

    def hand(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        seat = view["me"]
        embed = discord.Embed(
            title=viewer.t("bue.hand.title", game=view["game_number"], round=view["round"]),
            colour=self.colour,
        )
        slots = view["hands"][seat] if seat is not None and view["active"][seat] else []
        if not slots:
            embed.description = viewer.t("bue.hand.none")
            return Rendered([embed])
        embed.description = "\n".join(
            f"**{position + 1}.** {card_label(slot['card'], viewer)}"
            + (" · " + viewer.t("bue.hand.face_up") if slot["revealed"] else "")
            for position, slot in enumerate(slots)
        )
        total = view["best"]["total"]
        embed.add_field(
            name=viewer.t("bue.hand.total_name"),
            value=viewer.t("bue.hand.total", total=total, distance=abs(total - 50)),
        )
        if view.get("my_reveal") is not None:
            embed.add_field(name=viewer.t("bue.hand.reveal_chosen_name"), value=str(view["my_reveal"] + 1))
        embed.set_image(url="attachment://bue-hand.png")
        items: list[discord.ui.Item[Any]] = [
            game_button(game_id, "shuffle", viewer.t("bue.button.shuffle"), emoji="🔀"),
        ]
        return Rendered([embed], picture("bue-hand.png", self.hand_image, slots, view["best"], viewer), items)

    # ------------------------------------------------------------------ events

    def label(self, code: str, viewer: Viewer) -> str:
        return card_label(code, viewer)

    def event_params(self, event: Event, viewer: Viewer) -> dict[str, Any]:
        params = super().event_params(event, viewer)
        if event.key == "bue.event.revealed":
            params["cards"] = ", ".join(
                f"{viewer.name(int(seat))}: {card_label(code, viewer)}"
                for seat, code in event.params["cards"].items()
            )
        elif event.key == "bue.event.all_revealed":
            params["hands"] = "\n".join(
                f"**{viewer.name(int(seat))}**: " + " · ".join(card_label(code, viewer) for code in codes)
                for seat, codes in event.params.items()
            )
        return params

    def results(self, event: Event, viewer: Viewer) -> discord.Embed | None:
        if event.key == "bue.event.game_scored":
            points, totals, sums = event.params["points"], event.params["totals"], event.params["sums"]
            embed = discord.Embed(
                title=viewer.t("bue.results.game_title", game=event.params["game"]), colour=self.colour
            )
            order = sorted(range(len(points)), key=lambda seat: (-points[seat], -totals[seat]))
            lines = []
            for seat in order:
                total_text = viewer.t(
                    "bue.results.line", name=viewer.name(seat), points=points[seat], total=totals[seat]
                )
                if sums is not None and str(seat) in sums:
                    total_text += " · " + viewer.t("bue.results.sum", sum=sums[str(seat)])
                lines.append(total_text)
            embed.description = "\n".join(lines)
            return embed
        if event.key == "bue.event.match_won":
            title = viewer.t("bue.results.match_title", name=viewer.name(event.params["seat"]))
            return self.match_results(title, viewer, event.params["totals"])
        return None

    # ------------------------------------------------------------------ flows

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

    async def _my_decision(self, click: Click, wanted: str) -> tuple[Table, int, JSON, Viewer]:
        table, seat, viewer = await click.player()
        if wanted not in table.game.to_act().get(seat, frozenset()):
            raise GameError("error.not_your_turn" if wanted != "reveal" else "bue.error.not_reveal_time")
        return table, seat, table.game.view(seat), viewer

    @staticmethod
    def _check_stamp(view: JSON, parts: Sequence[str]) -> None:
        if not parts or ".".join(parts[:2]) != stamp(view):
            raise GameError("error.out_of_date")

    async def _card_panel(self, click: Click, decision: str, move: str, prompt: str) -> None:
        """A private panel: the player's hand and a menu of their hidden cards."""
        table, _, view, viewer = await self._my_decision(click, decision)
        options = [
            discord.SelectOption(
                label=viewer.t("bue.panel.card_option", position=p + 1, card=card_label(s["card"], viewer)),
                value=str(p),
            )
            for p, s in enumerate(view["hands"][view["me"]])
            if not s["revealed"]
        ]
        select = game_select(click.game_id, move, viewer.t(f"{prompt}_placeholder"), options, stamp(view))
        hand = await click.service.render(table, self.hand, view, viewer, click.game_id)
        await show_panel(
            click.interaction,
            viewer.t(prompt),
            embeds=hand.embeds,
            file=hand.file,
            view=component_view([select]),
        )

    async def _open_exchange(self, click: Click) -> None:
        await self._card_panel(click, "deck", "give", "bue.panel.give")

    async def _open_reveal(self, click: Click) -> None:
        await self._card_panel(click, "reveal", "reveal_card", "bue.panel.reveal")

    async def _choose_partner(self, click: Click) -> None:
        _, seat, view, viewer = await self._my_decision(click, "deck")
        self._check_stamp(view, click.parts)
        give = click.chosen()
        base = f"{stamp(view)}.{give}"
        deck_usable = view["deck"] > 0 or view["discard"] > 0
        items: list[discord.ui.Item[Any]] = [
            game_button(
                click.game_id,
                "deck",
                viewer.t("bue.panel.with_deck"),
                base,
                discord.ButtonStyle.primary,
                "🃏",
                disabled=not deck_usable,
            ),
        ]
        items += [
            game_button(click.game_id, "partner", viewer.name(other)[:80], f"{base}.{other}")
            for other in range(view["players"])
            if other != seat and view["active"][other]
        ]
        items.append(self._back_button(click, viewer))
        card = card_label(view["hands"][seat][give]["card"], viewer)
        await replace_panel(
            click.interaction,
            viewer.t("bue.panel.partner", position=give + 1, card=card),
            view=component_view(items),
        )

    async def _choose_taken_card(self, click: Click) -> None:
        _, _, view, viewer = await self._my_decision(click, "swap")
        self._check_stamp(view, click.parts)
        give, partner = click.number(2), click.number(3)
        items: list[discord.ui.Item[Any]] = [
            game_button(
                click.game_id,
                "take",
                viewer.t("bue.panel.card_n", position=position + 1),
                f"{stamp(view)}.{give}.{partner}.{position}",
                emoji="🃏",
            )
            for position, slot in enumerate(view["hands"][partner])
            if not slot["revealed"]
        ]
        items.append(self._back_button(click, viewer))
        await replace_panel(
            click.interaction,
            viewer.t("bue.panel.take", name=viewer.name(partner)),
            view=component_view(items),
        )

    @staticmethod
    def _back_button(click: Click, viewer: Viewer) -> discord.ui.Button[Any]:
        return game_button(
            click.game_id, "exchange", viewer.t("bue.panel.back"), style=discord.ButtonStyle.danger, emoji="↩️"
        )

    async def _play(self, click: Click, move: JSON, done: Callable[[Viewer, list[str]], str]) -> None:
        """Play a move checked against the panel's stamp, then tell the player what it did for them."""

        def action(table: Table, seat: int) -> JSON:
            self._check_stamp(table.game.view(seat), click.parts)
            return move

        async def answer(table: Table, events: list[Event]) -> None:
            seat = table.seat_of(click.interaction.user.id)
            viewer = table.viewer(seat, language(click.interaction))
            private = [
                line for e in events if e.seats and e.visible_to(seat) if (line := self.describe(e, viewer))
            ]
            text = done(viewer, private)
            # The channel does not call the player who just moved; tell them here if it is their move again.
            if seat in table.game.required_to_act():
                text += "\n" + viewer.t("common.your_move_again", url=table.jump_url())
            await replace_panel(click.interaction, text, view=None)

        await click.service.act(click.interaction, click.game_id, action, answer)

    @staticmethod
    def _what_happened(viewer: Viewer, private: list[str]) -> str:
        return "\n".join(private) or viewer.t("common.done")

    async def _exchange_with_deck(self, click: Click) -> None:
        await self._play(click, {"type": "deck", "give": click.number(2)}, self._what_happened)

    async def _swap(self, click: Click) -> None:
        give, partner, take = (click.number(index) for index in range(2, 5))
        move = {"type": "swap", "give": give, "target": partner, "take": take}
        await self._play(click, move, self._what_happened)

    async def _reveal(self, click: Click) -> None:
        position = click.chosen()
        await self._play(
            click,
            {"type": "reveal", "position": position},
            lambda viewer, _: viewer.t("bue.panel.reveal_done", position=position + 1),
        )

    async def _shuffle(self, click: Click) -> None:
        async def answer(table: Table, events: list[Event]) -> None:
            seat = table.seat_of(click.interaction.user.id)
            viewer = table.viewer(seat, language(click.interaction))
            hand = await click.service.render(table, self.hand, table.game.view(seat), viewer, click.game_id)
            await replace_panel(click.interaction, embeds=hand.embeds, file=hand.file, view=hand.view())

        await click.service.act(click.interaction, click.game_id, {"type": "shuffle"}, answer)


ADAPTER = BueAdapter()


async def setup(bot: GameHost) -> None:
    bot.register(ADAPTER, game_group(bot, ADAPTER))
