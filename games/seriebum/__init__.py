"""Serie Bum! (rules: shared/rules/serie-bum.it.txt and RULINGS.md)."""

from games.seriebum.engine import SerieBum

__all__ = ["SerieBum"]
