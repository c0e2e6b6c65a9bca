"""Seeded positions of each game, as the views and viewers its table and hand images are drawn from.

Shared by the image tests (``test_images.py`` and the references they compare with) and
``bench/render_bench.py``. Each game is played by simple seeded random players; every
``every`` actions the position gives one table picture (the public view) and one hand picture
(the view of a seat taken in turn), in English, Italian and French by turns.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from PIL import Image

from bot.adapter import DrawnAt, GameAdapter, Viewer
from bot.games import bue, rumbugz, rummikub, seriebum
from bot.i18n import LANGUAGES
from bot.render import PICTURES, DisplayBox, faces_in, glyph_height, text_sizes
from games.bue import Bue
from games.core import JSON, Game
from games.rumbugz import RumBugz
from games.rummikub import Rummikub
from games.seriebum import SerieBum

# Accents, a long name (cut at 18 characters on the tables) and a short one.
NAMES = ("Alice", "Bérénice", "Carlo", "Dominique-Françoise", "Émile", "Zoë", "Ugo")
ADAPTERS: dict[str, GameAdapter] = {
    "bue": bue.ADAPTER,
    "rummikub": rummikub.ADAPTER,
    "seriebum": seriebum.ADAPTER,
    "rumbugz": rumbugz.ADAPTER,
}
MAX_ACTIONS = 3000


@dataclass(frozen=True)
class Picture:
    game: str
    kind: str  # "table" or "hand"
    name: str  # unique: game, seed, action number, kind
    view: JSON
    viewer: Viewer

    def png(self) -> bytes | None:
        """The image the bot attaches for this view (None: the message has no image)."""
        adapter = ADAPTERS[self.game]
        draw = adapter.table if self.kind == "table" else adapter.hand
        file = draw(self.view, self.viewer, DrawnAt(1)).file
        return None if file is None else file.fp.read()


@dataclass(frozen=True)
class Measured:
    """A picture's size and the font size of its smallest text."""

    size: tuple[int, int]
    smallest_font: int

    def smallest_glyph(self, box: DisplayBox) -> float:
        """The height of its smallest text's digits, in pixels, once shown in ``box``."""
        return glyph_height(self.smallest_font) * box.scale(self.size)


def measured(shown: Picture) -> Measured | None:
    """The picture drawn afresh (not from the cache), and measured; None if there is none."""
    PICTURES.clear()
    with text_sizes() as sizes:
        png = shown.png()
    if png is None:
        return None
    with Image.open(io.BytesIO(png)) as image:
        return Measured(image.size, min(sizes))


def rgb_and_faces(png: bytes) -> tuple[bytes, tuple[int, int], list[str]]:
    """What a player sees (the RGB pixels and the size) and the faces the image recorded."""
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").tobytes(), image.size, faces_in(png)


def _bue_move(game: Game, seat: int, rng: random.Random) -> JSON:
    assert isinstance(game, Bue)
    exchanges = game.legal_exchanges(seat)
    if exchanges:
        return rng.choice(exchanges)
    return {"type": "reveal", "position": rng.choice(game.hidden_positions(seat))}


def _rummikub_move(game: Game, seat: int, rng: random.Random) -> JSON:
    # Mostly the best play, so that tables grow as in real games.
    assert isinstance(game, Rummikub)
    play = game.best_play(seat) if rng.random() < 0.8 else None
    return play or {"type": "draw"}


def _any_legal_move(game: Game, seat: int, rng: random.Random) -> JSON:
    legal = game.legal_actions(seat)  # type: ignore[attr-defined]
    # Lays and changes first most of the time, or RumBugz tables would stay empty.
    building = [action for action in legal if action["type"] in ("lay", "change")]
    return rng.choice(building if building and rng.random() < 0.8 else legal)


@dataclass(frozen=True)
class Seeded:
    engine: type[Game]
    move: Callable[[Game, int, random.Random], JSON]
    player_counts: tuple[int, ...]
    every: int  # actions between two pictures: about twenty positions a match


GAMES = {
    "bue": Seeded(Bue, _bue_move, (2, 4, 6), 5),
    "rummikub": Seeded(Rummikub, _rummikub_move, (2, 3, 4), 4),
    "seriebum": Seeded(SerieBum, _any_legal_move, (2,), 24),
    "rumbugz": Seeded(RumBugz, _any_legal_move, (2, 4, 6), 80),
}


def pictures(game_name: str, seeds: range) -> Iterator[Picture]:
    """Table and hand pictures of seeded matches; some hands have no image (``png()`` is None)."""
    seeded = GAMES[game_name]
    every = seeded.every
    for seed in seeds:
        players = seeded.player_counts[seed % len(seeded.player_counts)]
        game = seeded.engine.new(players, {}, seed)
        rng = random.Random(seed)
        names = NAMES[seed % 2 :][:players]
        for step in range(MAX_ACTIONS):
            deciding = game.to_act()
            if game.finished or not deciding:
                break
            if step % every == 0:
                language = LANGUAGES[(seed + step // every) % len(LANGUAGES)]
                seat = (step // every) % players
                prefix = f"{game_name} seed {seed} action {step}"
                yield Picture(game_name, "table", f"{prefix} table", game.view(None), Viewer(language, names))
                yield Picture(
                    game_name, "hand", f"{prefix} hand {seat}", game.view(seat), Viewer(language, names, seat)
                )
            seat = min(deciding)
            game.apply(seat, seeded.move(game, seat, rng))


def rummikub_table_of(sets: list[list[str]]) -> Picture:
    view = {**Rummikub.new(4, {}, 1).view(None), "table": sets}
    return Picture("rummikub", "table", f"rummikub {len(sets)} sets", view, Viewer("fr", list(NAMES[:4])))


def rumbugz_six_players_fullest_table() -> Picture:
    """The position of a seeded six-player match whose table holds the most."""
    game, rng = RumBugz.new(6, {}, 1), random.Random(1)
    fullest: tuple[int, JSON] = (-1, {})
    while not game.finished and game.to_act():
        view = game.view(None)
        held = len(json.dumps(view["table"])) + len(json.dumps(view["completed"]))
        fullest = max(fullest, (held, view), key=lambda found: found[0])
        seat = min(game.to_act())
        game.apply(seat, _any_legal_move(game, seat, rng))
    names = [f"{name}{seat}" for seat, name in enumerate(NAMES)][:6]
    return Picture("rumbugz", "table", "rumbugz six players", fullest[1], Viewer("fr", names))


def fullest_tables() -> list[Picture]:
    """The fullest tables a game may show: every Rummikub tile but two in eight runs; 95 tiles in 27
    groups; a six-player RumBugz table at its fullest (its lines wrap, its rows add up)."""
    runs = [[f"{colour}{number}" for number in range(1, 14)] for colour in "krbo" for _ in range(2)]
    groups = [[f"{colour}{number}" for colour in "krbo"][: 3 + number % 2] for number in range(1, 14)] * 2
    return [
        rummikub_table_of(runs),
        rummikub_table_of([*groups, ["j", "r1", "r2"]]),
        rumbugz_six_players_fullest_table(),
    ]
