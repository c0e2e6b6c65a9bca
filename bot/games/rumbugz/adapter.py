"""RumBugz's adapter: the table, the hand and every panel, and which click goes where."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from bot.adapter import Click
from bot.games.rumbugz.bid import BidPanel
from bot.games.rumbugz.change import ChangePanel
from bot.games.rumbugz.draw import DrawPanel
from bot.games.rumbugz.hand import HandSide
from bot.games.rumbugz.lay import LayPanel


class RumBugzAdapter(HandSide):
    """RumBugz in Discord: the table and the hand, the panels it holds, and where each click goes."""

    current_moves = frozenset({"lay", "change", "discard"})

    def __init__(self) -> None:
        self.lay = LayPanel(self)
        self.change = ChangePanel(self)
        self.bid = BidPanel(self)
        self.draw = DrawPanel(self)

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {
            "bag": self.draw.draw_bag,
            "pile": self.draw.draw_pile,
            "bid": self.bid.bid,
            "lay": self.lay.lay_panel,
            "layq": self.lay.lay_suggested,
            "layb": self.lay.lay_bugz,
            "layv": self.lay.lay_plyt,
            "layok": self.lay.lay,
            "change": self.change.change_panel,
            "chgq": self.change.change_suggested,
            "chgs": self.change.change_sequence,
            "chga": self.change.change_add,
            "chgr": self.change.change_remove,
            "chgv": self.change.change_plyt,
            "chgok": self.change.change,
            "discard": self.draw.discard_panel,
            "discq": self.draw.discard,
        }


ADAPTER = RumBugzAdapter()
