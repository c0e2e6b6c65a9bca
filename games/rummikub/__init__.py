"""Rummikub: tiles, the rules engine and the solver that lays tiles on the table."""

from games.rummikub.engine import Rummikub

__all__ = ["Rummikub"]
