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
    points_per_round = True

    def __init__(self) -> None:
        self.lay = LayPanel(self)
        self.change = ChangePanel(self)
        self.bid = BidPanel(self)
        self.draw = DrawPanel(self)

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {
            "bag": self.draw.from_bag,
            "pile": self.draw.from_pile,
            "bid": self.bid.place,
            "lay": self.lay.open,
            "layq": self.lay.suggested,
            "layb": self.lay.pick,
            "layv": self.lay.name_plyt,
            "layok": self.lay.confirm,
            "change": self.change.open,
            "chgq": self.change.suggested,
            "chgs": self.change.pick_sequence,
            "chga": self.change.pick_added,
            "chgr": self.change.pick_removed,
            "chgv": self.change.name_plyt,
            "chgok": self.change.confirm,
            "discard": self.draw.open_discard,
            "discq": self.draw.discard,
        }


ADAPTER = RumBugzAdapter()
