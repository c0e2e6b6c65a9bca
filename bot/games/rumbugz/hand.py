"""A player's hand: its picture and the private message with the next step's buttons."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.adapter import DrawnAt, Rendered, Viewer
from bot.games.rumbugz.steps import STEPS
from bot.games.rumbugz.table import (
    HAND_BACKGROUND,
    HAND_FONT,
    HAND_PER_ROW,
    HAND_TILE_H,
    HAND_TILE_W,
    MARGIN,
    RumBugzTable,
)
from bot.games.rumbugz.text import bug_text, bugz_text, kind_name
from bot.render import Canvas, picture
from games.core import JSON


class HandSide(RumBugzTable):
    """What one player sees: their hand, and what they may do next."""

    def hand_image(self, codes: Sequence[str]) -> Canvas:
        rows = -(-len(codes) // HAND_PER_ROW)
        columns = min(len(codes), HAND_PER_ROW)
        canvas = Canvas(
            2 * MARGIN + columns * (HAND_TILE_W + 8) - 8,
            2 * MARGIN + rows * (HAND_TILE_H + 10) - 10,
            background=HAND_BACKGROUND,
        )
        for index, code in enumerate(codes):
            row, column = divmod(index, HAND_PER_ROW)
            left = MARGIN + column * (HAND_TILE_W + 8)
            top = MARGIN + row * (HAND_TILE_H + 10)
            self._tile(canvas, (left, top, left + HAND_TILE_W, top + HAND_TILE_H), code, size=HAND_FONT)
        return canvas

    def hand(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
        seat = view["seat"]
        codes = view["hand"]
        embed = discord.Embed(
            title=viewer.t("rumbugz.ui.hand_title", round=view["round"]),
            description=bugz_text(codes, viewer) if codes else viewer.t("rumbugz.ui.hand_empty"),
            colour=self.colour,
        )
        done = view["completed"][seat]
        embed.add_field(name=viewer.t("rumbugz.ui.hand_value"), value=str(view["hand_value"]))
        embed.add_field(
            name=viewer.t("rumbugz.label.kinds_done"),
            value=", ".join(kind_name(kind, viewer) for kind in done) or viewer.t("rumbugz.ui.none"),
        )
        steps = view["to_act"][seat]
        items = self._step_buttons([m for m, step in STEPS.items() if step.action in steps], view, viewer, at)
        if not codes:
            return Rendered([embed], None, items)
        embed.set_image(url="attachment://rumbugz-hand.png")
        hand = picture("rumbugz-hand.png", self.hand_image, codes, alt_text=bugz_text(codes, viewer))
        return Rendered([embed], hand, items)

    def next_step(self, view: JSON, viewer: Viewer) -> str:
        seat = view["seat"]
        steps = view["to_act"][seat]
        if "bid" in steps:
            return viewer.t(
                "rumbugz.ui.next.bid",
                bug=bug_text(view["discard_top"], viewer),
                name=viewer.name(view["turn"]),
            )
        if not steps:
            return viewer.t("rumbugz.ui.next.wait")
        return viewer.t(f"rumbugz.ui.next.{view['phase']}")
