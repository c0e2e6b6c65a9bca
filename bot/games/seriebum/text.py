"""How tiles and moves read, the limits and prompts of the panels, and who decides now."""

from __future__ import annotations

from collections.abc import Sequence

from bot.adapter import Viewer
from bot.render import MARKS
from bot.replies import truncate
from games.core import JSON
from games.seriebum.engine import BUM_CHOICE, FLIP, FLIP_SECOND, PLACE, REARRANGE, STEAL
from games.seriebum.tiles import BUM, JOLLY, NUMBER, RUBA, TILE_ID, TILES

OptionText = tuple[str, str | None]  # a select option's label and description

COLOUR_SQUARES = {"R": "🟥", "Y": "🟨", "W": "⬜", "B": "🟦"}
# The shape beside each colour, in the pictures and in the texts (colour is never the only cue).
TILE_MARKS: dict[str, str] = {"R": "circle", "Y": "triangle", "W": "square", "B": "diamond"}
SPECIAL_WORDS = {JOLLY: "JOLLY", RUBA: "RUBA", BUM: "BUM!"}

SELECTS_PER_PANEL = 4  # the fifth row holds the panel's buttons
OPTIONS_PER_SELECT = 25
LABEL_LIMIT = 100

PANEL_BUTTONS: dict[str, tuple[str, str]] = {
    FLIP: ("seriebum.label.flip", "🀄"),
    FLIP_SECOND: ("seriebum.label.flip_second", "🀄"),
    PLACE: ("seriebum.label.place", "📥"),
    STEAL: ("seriebum.label.steal", "🤏"),
    BUM_CHOICE: ("seriebum.label.bum", "💥"),
    REARRANGE: ("seriebum.label.move", "🔀"),
}
CHOICE_PROMPTS = {
    PLACE: "seriebum.panel.place",
    STEAL: "seriebum.panel.steal",
    BUM_CHOICE: "seriebum.panel.bum",
}
# Told by the table (the tile stays seen there) and nowhere else: a line saying that the first
# tile went back because the second was special would tell, later, which cell holds a special.
SILENT_EVENTS = frozenset({"seriebum.event.first_covered"})


def tile_label(code: str, viewer: Viewer) -> str:
    """How a tile reads in text: '🟥●40' (its colour, and the shape the pictures mark it with),
    'JOLLY'."""
    tile = TILES[TILE_ID[code]]
    if tile.kind == NUMBER and tile.colour is not None:
        return f"{COLOUR_SQUARES[tile.colour]}{MARKS[TILE_MARKS[tile.colour]]}{tile.value}"
    return viewer.t(f"seriebum.label.tile_{tile.kind}")


def tiles_text(codes: Sequence[str], viewer: Viewer) -> str:
    return " ".join(tile_label(code, viewer) for code in codes)


def clip(text: str) -> str:
    return truncate(text, LABEL_LIMIT)


def seat_deciding(view: JSON) -> int | None:
    return view["to_act"][0]["seat"] if view["to_act"] else None


def actions_of(view: JSON, seat: int) -> list[str]:
    return next((entry["actions"] for entry in view["to_act"] if entry["seat"] == seat), [])


def face_down_by_column(view: JSON) -> dict[str, list[str]]:
    columns: dict[str, list[str]] = {column: [] for column in view["columns"]}
    for cell in view["cells"]:
        if cell["state"] in ("down", "seen"):
            columns[cell["cell"][0]].append(cell["cell"])
    return columns
