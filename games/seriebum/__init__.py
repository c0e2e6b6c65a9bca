"""Serie Bum! (rules: the rulebook, and docs/rules/seriebum.md)."""

from games.seriebum.engine import SerieBum

__all__ = ["SerieBum"]
