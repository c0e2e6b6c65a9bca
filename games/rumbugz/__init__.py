"""RumBugz rules engine."""

from games.rumbugz.engine import RumBugz

__all__ = ["RumBugz"]
