"""Bué (rules: the rulebook, and docs/rules/bue.md)."""

from games.bue.engine import Bue

__all__ = ["Bue"]
