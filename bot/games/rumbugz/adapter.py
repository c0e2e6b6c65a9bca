"""RumBugz's adapter: the table, the hand and every panel, and which click goes where."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from bot.adapter import Click
from bot.games.rumbugz.bid import BidPanel
from bot.games.rumbugz.change import ChangePanel
from bot.games.rumbugz.draw import DrawPanel
from bot.games.rumbugz.lay import LayPanel


class RumBugzAdapter(LayPanel, ChangePanel, BidPanel, DrawPanel):
    """RumBugz in Discord: the table, the hand and each panel, and where each of their clicks goes."""

    current_moves = frozenset({"lay", "change", "discard"})
    points_per_round = True

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {
            "bag": self._draw_bag,
            "pile": self._draw_pile,
            "bid": self._bid,
            "lay": self._lay_panel,
            "layq": self._lay_suggested,
            "layb": self._lay_bugz,
            "layv": self._lay_plyt,
            "layok": self._lay,
            "change": self._change_panel,
            "chgq": self._change_suggested,
            "chgs": self._change_sequence,
            "chga": self._change_add,
            "chgr": self._change_remove,
            "chgv": self._change_plyt,
            "chgok": self._change,
            "discard": self._discard_panel,
            "discq": self._discard,
        }


ADAPTER = RumBugzAdapter()
