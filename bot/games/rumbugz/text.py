"""How Bugz, entries and kinds read in messages."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.adapter import Viewer
from games.rumbugz.bugz import NUMBER_OF, Entry, is_plyt


def bug_text(code: str, viewer: Viewer) -> str:
    """How a Bug in a hand reads: its number, or PLYT."""
    number = NUMBER_OF[code]
    return viewer.t("rumbugz.label.plyt") if number is None else str(number)


def entry_text(code: str, value: int | None, viewer: Viewer) -> str:
    """How a Bug in a sequence reads: a PLYT shows the number it stands for."""
    if is_plyt(code) and value is not None:
        return viewer.t("rumbugz.ui.plyt_as", value=value)
    return bug_text(code, viewer)


def entries_text(entries: Iterable[Entry], viewer: Viewer) -> str:
    return " · ".join(entry_text(code, value, viewer) for code, value in entries) or "—"


def bugz_text(codes: Iterable[str], viewer: Viewer) -> str:
    return " · ".join(bug_text(code, viewer) for code in codes) or "—"


def table_entries(sequence: Mapping[str, Any]) -> list[Entry]:
    return [(entry["bug"], entry["value"]) for entry in sequence["bugz"]]


def kind_name(kind: str, viewer: Viewer) -> str:
    return viewer.t(f"rumbugz.label.{kind}")
