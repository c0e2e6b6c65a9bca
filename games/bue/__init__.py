"""Bué (rules: shared/rules/bue.it.txt and RULINGS.md)."""

from games.bue.engine import Bue

__all__ = ["Bue"]
