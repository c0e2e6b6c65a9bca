"""One translation layer for every game: English, Italian and French.

Catalogues live in ``bot/locales/<namespace>.json`` as ``{key: {"en": ..., "it": ..., "fr": ...}}``
with ``str.format`` placeholders. A text that counts something has a form per plural category,
``{"one": ..., "other": ...}``, chosen by its ``count`` parameter (see ``plural_category``); a
number with its noun is written ``{points:points}``, which reads ``count.points`` with that count
("1 point", "3 points"). The language follows the user's Discord locale, English otherwise.
"""

from __future__ import annotations

import json
import logging
import string
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

LANGUAGES = ("en", "it", "fr")
DEFAULT_LANGUAGE = "en"
LOCALES_DIR = Path(__file__).with_name("locales")


def language_of(locale: discord.Locale | str | None) -> str:
    """'it' for any Italian locale, 'fr' for French, English for everything else."""
    code = str(locale.value if isinstance(locale, discord.Locale) else locale or "").lower()
    prefix = code.split("-")[0]
    return prefix if prefix in LANGUAGES else DEFAULT_LANGUAGE


def plural_category(language: str, count: int) -> str:
    """The CLDR plural category of ``count`` (its sign aside: "-1 point"): French treats 0 like 1
    ("0 partie"), English and Italian only 1."""
    if language == "fr":
        return "one" if abs(count) in (0, 1) else "other"
    return "one" if abs(count) == 1 else "other"


class _KeepMissing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class _Counting(string.Formatter):
    """Writes ``{value:noun}`` as the catalogue's ``count.<noun>`` for that value."""

    def __init__(self, catalog: Catalog, language: str) -> None:
        self.catalog = catalog
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec and self.catalog.has(f"count.{format_spec}"):
            if isinstance(value, int) and not isinstance(value, bool):
                return self.catalog.text(self.language, f"count.{format_spec}", count=value)
            return str(value)  # a parameter left missing, shown as {name}
        return str(super().format_field(value, format_spec))


class Catalog:
    def __init__(self, messages: Mapping[str, Mapping[str, Any]]) -> None:
        self.messages = dict(messages)

    @classmethod
    def load(cls, directory: Path = LOCALES_DIR) -> Catalog:
        messages: dict[str, Mapping[str, Any]] = {}
        for path in sorted(directory.glob("*.json")):
            loaded = json.loads(path.read_text(encoding="utf-8"))
            clash = set(messages) & set(loaded)
            if clash:
                raise ValueError(f"{path.name} defines keys already defined elsewhere: {sorted(clash)[:5]}")
            messages.update(loaded)
        return cls(messages)

    def has(self, key: str) -> bool:
        return key in self.messages

    def text(self, language: str, key: str, **params: Any) -> str:
        entry = self.messages.get(key)
        if entry is None:
            log.warning("missing translation key %s", key)
            return key
        template: Any = entry.get(language) or entry[DEFAULT_LANGUAGE]
        if isinstance(template, Mapping):
            template = template[plural_category(language, int(params.get("count", 0)))]
        # A missing parameter shows as {name} rather than failing the whole reply.
        return _Counting(self, language).vformat(template, (), _KeepMissing(params))


CATALOG = Catalog.load()


def t(language: str, key: str, **params: Any) -> str:
    try:
        return _known(language, key, *((name, type(value), value) for name, value in params.items()))
    except TypeError:  # a parameter that cannot key the cache (a list): worked out every time
        return CATALOG.text(language, key, **params)


@lru_cache(maxsize=4096)
def _known(language: str, key: str, *params: tuple[str, type, Any]) -> str:
    """A text is worked out once for its parameters (each with its type: 1 and True read apart):
    the same few come back move after move (a tile's name, a button's label, a title)."""
    return CATALOG.text(language, key, **{name: value for name, _, value in params})


class CommandTranslator(app_commands.Translator):
    """Localises command names' descriptions: a locale_str carries its catalogue key in ``key``."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        key = string.extras.get("key")
        language = language_of(locale)
        if key is None or language == DEFAULT_LANGUAGE or not CATALOG.has(key):
            return None
        return CATALOG.text(language, key)


def described(key: str) -> app_commands.locale_str:
    """A command or option description, English by default and translated by key."""
    return app_commands.locale_str(CATALOG.text(DEFAULT_LANGUAGE, key), key=key)


def discord_time(timestamp: float, style: discord.utils.TimestampStyle = "f") -> str:
    """A date every reader sees in their own time zone and language (``<t:…:f>``; ``R``: "in 3
    hours", for a deadline), as discord.py writes it."""
    return discord.utils.format_dt(datetime.fromtimestamp(timestamp, UTC), style)


def duration_text(language: str, seconds: int) -> str:
    """A turn timeout as players say it: '1 d 2 h', '30 min'; under a minute, in seconds ('30 s')."""
    seconds = max(0, seconds)
    if seconds < 60:
        return t(language, "common.seconds", count=seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [
        t(language, key, count=count)
        for key, count in (("common.days", days), ("common.hours", hours), ("common.minutes", minutes))
        if count
    ]
    return " ".join(parts)
