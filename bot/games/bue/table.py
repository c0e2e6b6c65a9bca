"""The table: the cards as pictures, the table message and each hand, and the words of the events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import discord

from bot.adapter import DrawnAt, GameAdapter, Rendered, Viewer
from bot.render import HIGHLIGHT, INK, MIN_FONT, MUTED, PICTURE_W, Canvas, picture
from games.bue import Bue
from games.bue.robot import BueRobot
from games.core import JSON, Event

CARD_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "b": ((40, 110, 200), INK),
    "g": ((214, 168, 42), (40, 30, 0)),
    "h": ((180, 40, 50), INK),
    "x": ((90, 50, 140), INK),
}
# Gold cards have a shape too (colour is never the only cue): a gold 12 and a blue 12 differ.
GOLD_MARK = "diamond"
# The table's picture (issue 31), PICTURE_W wide: a row per player (name and points, five
# cards), the deck (its count on its back) and the discard pile on the right.
MARGIN = 10
CARD_W, CARD_H, GAP = 72, 80, 4
ROW_H = CARD_H + 8
NAME_W = 330
NAME_LENGTH = 12
PILE_LEFT = NAME_W + 5 * (CARD_W + GAP) + 6
LINE_H = 42  # a line of text
ROOMY_ROWS = 6  # more players: flatter rows
FLAT_CARD_H, FLAT_NAME_LENGTH = 44, 6
# The hand's picture: five large cards, under each its number and whether the others see it.
HAND_CARD_W, HAND_CARD_H, HAND_PITCH = 148, 196, 158
HAND_NUMBER_FONT = 40
HAND_LABEL_FONT = 72  # room under it for a gold card's word


def card_label(code: str, viewer: Viewer | None = None) -> str:
    """How a card reads: '7', '12' (gold), '100', '×2', '×0'."""
    if code.startswith("x"):
        return "×" + code[1:]
    if code.startswith("g") and viewer is not None:
        return viewer.t("bue.card.gold", value=code[1:])
    return code[1:]


class BueTable(GameAdapter):
    """What everyone sees, and each player's hand."""

    engine = Bue
    robot = BueRobot
    colour = discord.Colour.from_rgb(40, 110, 200)
    code_params = frozenset({"card", "gave", "received", "cards"})
    embed_events = frozenset({"bue.event.game_scored", "bue.event.match_won"})
    round_end_events = frozenset({"bue.event.game_scored"})
    feat_events: ClassVar[Mapping[str, str]] = {"bue.event.bue": "bue", "bue.event.superbue": "superbue"}
    start_options: ClassVar[Mapping[str, str]] = {"target": "cmd.option.target"}
    free_moves = frozenset({"shuffle"})

    # ------------------------------------------------------------------ drawing

    @staticmethod
    def _face(canvas: Canvas, box: tuple[int, int, int, int], code: str, **style: Any) -> None:
        fill, ink = CARD_COLOURS[code[0]]
        mark = GOLD_MARK if code.startswith("g") else ""
        canvas.face(box, card_label(code), code, fill, ink, mark=mark, **style)

    def _draw_card(self, canvas: Canvas, box: tuple[int, int, int, int], slot: Mapping[str, Any]) -> None:
        code = slot["card"]
        if code is None:  # no number on it: at display size it read as the card's value
            canvas.back(box)
            return
        self._face(canvas, box, code, label_size=MIN_FONT, outline=HIGHLIGHT if slot["revealed"] else None)

    def table_image(self, view: JSON, viewer: Viewer) -> Canvas:
        """The players' cards, the deck and the discard pile; the round and the scores' words
        are the message's text. Past ROOMY_ROWS players, rows are flatter (a line of text,
        the dealer left to the message's footer) to keep the picture in its box."""
        seats = [seat for seat in range(view["players"]) if view["active"][seat]]
        roomy = len(seats) <= ROOMY_ROWS
        card_h, row_h = (CARD_H, ROW_H) if roomy else (FLAT_CARD_H, FLAT_CARD_H + 6)
        canvas = Canvas(PICTURE_W, max(2 * MARGIN + row_h * len(seats), 2 * MARGIN + 2 * ROW_H))
        for index, seat in enumerate(seats):
            top = MARGIN + index * row_h
            # Who is to act: a ring, a pointer and a colour.
            acting = seat in view["to_act"]
            if acting:
                ring = (2, top - 3, NAME_W - 8, top + card_h + 3)
                canvas.rounded_rectangle(ring, radius=10, outline=HIGHLIGHT, width=3)
            name = ("▶ " if acting else "") + viewer.name(seat)[: NAME_LENGTH if roomy else FLAT_NAME_LENGTH]
            points = viewer.t("bue.table.points", points=view["totals"][seat])
            if roomy:
                canvas.text((MARGIN, top + 2), name, MIN_FONT, HIGHLIGHT if acting else INK)
                if seat == view["dealer"]:
                    points += " · " + viewer.t("bue.table.dealer")
                canvas.text((MARGIN, top + 2 + LINE_H), points, MIN_FONT, MUTED)
            else:
                middle = top + card_h / 2
                canvas.text((MARGIN, middle), name, MIN_FONT, HIGHLIGHT if acting else INK, "lm")
                canvas.text((NAME_W - 14, middle), points, MIN_FONT, MUTED, "rm")
            for position, slot in enumerate(view["hands"][seat]):
                left = NAME_W + position * (CARD_W + GAP)
                self._draw_card(canvas, (left, top, left + CARD_W, top + card_h), slot)
        # The deck with its count on its back; the discard pile under it.
        canvas.back((PILE_LEFT, MARGIN, PILE_LEFT + CARD_W, MARGIN + CARD_H), str(view["deck"]), MIN_FONT)
        discard_box = (PILE_LEFT, MARGIN + ROW_H, PILE_LEFT + CARD_W, MARGIN + ROW_H + CARD_H)
        if view["discard_top"]:
            self._face(canvas, discard_box, view["discard_top"], label_size=MIN_FONT)
        else:
            canvas.rounded_rectangle(discard_box, radius=8, outline=MUTED, width=2)
        return canvas

    def hand_image(self, slots: Sequence[JSON], best: JSON, viewer: Viewer) -> Canvas:
        """The hand, the one place it is shown: under each card its number (the panels' buttons
        say "Card 2"), where its ×2/×0 counts at best ("1 → 3"), and whether the others see it;
        gold cards say so in words at their foot.
        Drawn from these alone, so the picture is drawn again only when they change, not at
        every move of the others."""
        canvas = Canvas(PICTURE_W, MARGIN + HAND_CARD_H + 2 * LINE_H + 20)
        multipliers = {int(k): v for k, v in best.get("multipliers", {}).items()}
        for position, slot in enumerate(slots):
            left = MARGIN + 2 + position * HAND_PITCH
            box = (left, MARGIN, left + HAND_CARD_W, MARGIN + HAND_CARD_H)
            code, revealed = slot["card"], slot["revealed"]
            outline = HIGHLIGHT if revealed else None
            self._face(canvas, box, code, outline=outline, label_size=HAND_LABEL_FONT)
            centre, below = left + HAND_CARD_W / 2, MARGIN + HAND_CARD_H
            if code.startswith("g"):  # ties and SuperBué count gold cards
                ink = CARD_COLOURS[code[0]][1]
                canvas.text((centre, below - 8), viewer.t("bue.hand.gold_corner"), MIN_FONT, ink, anchor="md")
            number = str(position + 1)
            if position in multipliers:
                number = viewer.t("bue.hand.acts_on", position=number, target=multipliers[position] + 1)
            canvas.text((centre, below + 8), number, HAND_NUMBER_FONT, INK, anchor="ma")
            state = viewer.t("bue.hand.face_up" if revealed else "bue.hand.hidden")
            canvas.text(
                (centre, below + 8 + LINE_H + 8),
                state,
                MIN_FONT,
                HIGHLIGHT if revealed else MUTED,
                anchor="ma",
            )
        return canvas

    # ------------------------------------------------------------------ messages

    def table(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
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
            at.button("hand", viewer.t("bue.button.hand"), emoji="🃏"),
        ]
        if view["phase"] == "exchange":
            items.append(
                at.button(
                    "exchange",
                    viewer.t("bue.button.exchange"),
                    style=discord.ButtonStyle.primary,
                    emoji="🔄",
                )
            )
        elif view["phase"] == "reveal":
            items.append(
                at.button(
                    "reveal",
                    viewer.t("bue.button.reveal"),
                    style=discord.ButtonStyle.primary,
                    emoji="👁️",
                )
            )
        table = picture(
            "bue-table.png", self.table_image, view, viewer, alt_text=self._table_alt(view, viewer)
        )
        return Rendered([embed], table, items)

    @staticmethod
    def _table_alt(view: JSON, viewer: Viewer) -> str:
        """What the table's picture shows, in words: each player's cards (a hidden one by its
        number only), the deck and the discard pile."""
        lines = []
        for seat in range(view["players"]):
            if view["active"][seat]:
                cards = " · ".join(
                    card_label(slot["card"], viewer) if slot["card"] else f"{position + 1}. ?"
                    for position, slot in enumerate(view["hands"][seat])
                )
                lines.append(f"{viewer.name(seat)}: {cards}")
        top = view["discard_top"]
        lines.append(
            viewer.t(
                "bue.table.footer",
                deck=view["deck"],
                discard=card_label(top, viewer) if top else "—",
                dealer=viewer.name(view["dealer"]),
                target=view["target"],
            )
        )
        return "\n".join(lines)

    def hand(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
        seat = view["me"]
        embed = discord.Embed(
            title=viewer.t("bue.hand.title", game=view["game_number"], round=view["round"]),
            colour=self.colour,
        )
        slots = view["hands"][seat] if seat is not None and view["active"][seat] else []
        if not slots:
            embed.description = viewer.t("bue.hand.none")
            return Rendered([embed])
        # The cards are shown by the picture alone (a list here would show the hand twice); the
        # picture's alt text lists them for a screen reader, or a client that shows no pictures.
        total = view["best"]["total"]
        away = (
            "bue.hand.total"
            if total < 50
            else "bue.hand.total_over"
            if total > 50
            else "bue.hand.total_exact"
        )
        lines = [viewer.t(away, total=total, distance=abs(total - 50))]
        if view["best"].get("multipliers"):
            lines.append(viewer.t("bue.hand.multipliers"))
        embed.add_field(name=viewer.t("bue.hand.total_name"), value="\n".join(lines))
        if view.get("my_reveal") is not None:
            embed.add_field(name=viewer.t("bue.hand.reveal_chosen_name"), value=str(view["my_reveal"] + 1))
        embed.set_image(url="attachment://bue-hand.png")
        items: list[discord.ui.Item[Any]] = [
            at.button("shuffle", viewer.t("bue.button.shuffle"), emoji="🔀"),
        ]
        cards = " · ".join(
            f"{position + 1}. {card_label(slot['card'], viewer)} "
            f"({viewer.t('bue.hand.face_up' if slot['revealed'] else 'bue.hand.hidden')})"
            for position, slot in enumerate(slots)
        )
        hand = picture("bue-hand.png", self.hand_image, slots, view["best"], viewer, alt_text=cards)
        return Rendered([embed], hand, items)

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
