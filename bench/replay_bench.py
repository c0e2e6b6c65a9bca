"""Replays of long matches: the time to rebuild and draw a position, and an end-of-match animation.

    python bench/replay_bench.py
    python bench/replay_bench.py --games bue --repeat 3

For each game a long match is played by computers driving the engine directly (``easy`` players,
seeded): a 10-player Bué match to 110, a Serie Bum! match to 1000, 4-player Rummikub and RumBugz
matches of 4 rounds; and a typical evening, a 4-player Bué match to 110. Then, as the bot does it
(``bot.replays``):

- build: the whole match replayed once and checked against its final state (what the first click
  on a match not replayed yet waits for);
- step: the last position rebuilt from its checkpoint and its panel drawn, every hand shown (what
  each later click waits for);
- reference: one table picture of the same position drawn alone, in the same run: the unit the
  other figures are compared to (``× ref``);
- first click: build and step, what a click on a match not replayed yet (or forgotten) waits for;
- animation: a frame per round (the table after each round's end), each frame the bot's table
  picture: the GIF the results of a match carry (its replay built first, as there), and the same
  frames as an animated WebP for comparison (drawn from the replay already built).

Times are CPU time of this thread (``time.thread_time``), the fastest of ``--repeat`` runs, the
picture cache emptied before each; the machine is shared.
"""

from __future__ import annotations

import argparse
import io
import json
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot import render
from bot.adapter import DrawnAt, GameAdapter, Viewer
from bot.games.bue.adapter import ADAPTER as BUE
from bot.games.rumbugz.adapter import ADAPTER as RUMBUGZ
from bot.games.rummikub.adapter import ADAPTER as RUMMIKUB
from bot.games.seriebum.adapter import ADAPTER as SERIEBUM
from bot.replays import MatchRecord, Replay, SeatEntry, animation, draw_panel
from games.core import JSON

MATCHES: dict[str, tuple[GameAdapter, int, dict[str, int]]] = {
    "bue": (BUE, 10, {"target": 110}),
    "bue4": (BUE, 4, {"target": 110}),  # a typical evening
    "seriebum": (SERIEBUM, 2, {"target": 1000}),
    "rummikub": (RUMMIKUB, 4, {"rounds": 4}),
    "rumbugz": (RUMBUGZ, 4, {"rounds": 4}),
}
NAMES = ("anna", "bruno", "carla", "dario", "elena", "fabio", "gina", "ivo", "lea", "marco")
DISCORD_UPLOAD_LIMIT = 10 * 1024 * 1024  # what a bot may attach without a boosted server


def long_match(
    adapter: GameAdapter, players: int, options: dict[str, int], seed: int
) -> tuple[MatchRecord, JSON]:
    options = adapter.engine.resolve_options(options)
    game, _ = adapter.engine.begin(players, options, seed)
    robots = [adapter.robot("easy", seed * 16 + seat) for seat in range(players)]
    log: list[tuple[int, JSON]] = []
    while not game.finished:
        seat = min(game.to_act())
        action = json.loads(json.dumps(robots[seat].decide(game.view(seat))))
        events = game.apply(seat, action)
        log.append((seat, action))
        for other, robot in enumerate(robots):
            robot.observe(game.view(other), [event for event in events if event.visible_to(other)])
    seats = [SeatEntry(NAMES[seat]) for seat in range(players)]
    return MatchRecord(adapter.name, options, seed, seats, log), json.loads(json.dumps(game.to_json()))


def fastest(work: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        render.PICTURES.clear()
        start = time.thread_time()
        result = work()
        best = min(best, time.thread_time() - start)
    return best * 1000, result


def webp_animation(replay: Replay, viewer: Viewer) -> bytes:
    """The alternative not taken: the same frames as an animated WebP, which must be full colour."""
    frames = []
    for step in [*replay.round_starts[1:], replay.last]:
        rendered = replay.adapter.table(replay.position(step).view(None), viewer, DrawnAt(0))
        assert rendered.file is not None
        frames.append(Image.open(rendered.file.fp).convert("RGB"))
    size = (max(frame.width for frame in frames), max(frame.height for frame in frames))
    padded = []
    for frame in frames:
        canvas = Image.new("RGB", size, render.FELT)
        canvas.paste(frame)
        padded.append(canvas)
    out = io.BytesIO()
    padded[0].save(out, "WEBP", save_all=True, append_images=padded[1:], duration=1500, loop=0, quality=70)
    return out.getvalue()


def measure(name: str, seed: int, repeat: int) -> str:
    adapter, players, options = MATCHES[name]
    match, final = long_match(adapter, players, options, seed)
    viewer = Viewer("en", match.names)
    build, replay = fastest(lambda: Replay.build(adapter, match, final), repeat)
    step, _ = fastest(lambda: draw_panel(replay, 1, replay.last, True, 0, viewer), repeat)
    view = replay.final.view(None)
    reference, _ = fastest(lambda: adapter.table(view, viewer, DrawnAt(1)), repeat)
    # As the results of a match get it: the match replayed, then drawn.
    gif_ms, gif = fastest(lambda: animation(Replay.build(adapter, match, final), viewer), repeat)
    webp_ms, webp = fastest(lambda: webp_animation(replay, viewer), repeat)
    assert max(len(webp), len(gif)) < DISCORD_UPLOAD_LIMIT
    return (
        f"| {name} | {players} | {replay.last} | {len(replay.round_starts)} | {build:.0f}"
        f" | {step:.1f} ({step / reference:.1f}) | {build + step:.0f} | {reference:.1f}"
        f" | {gif_ms:.0f} / {len(gif) / 1024:.0f} | {webp_ms:.0f} / {len(webp) / 1024:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", nargs="+", choices=sorted(MATCHES), default=list(MATCHES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    print(
        "| match | players | actions | rounds | build ms | step ms (× ref) | first click ms"
        " | ref: one table picture ms | animation GIF ms / KiB | animated WebP ms / KiB |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in options.games:
        print(measure(name, options.seed, options.repeat))


if __name__ == "__main__":
    main()
