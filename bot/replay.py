"""``python -m bot.replay FILE``: replay a match exported by ``/replay`` offline, printing every
move and the result.

A file changed since it was exported is refused (its SHA-256 digest no longer matches), and so is
one whose actions do not lead to the result it states; either way the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import import_module
from pathlib import Path

from bot.adapter import GameAdapter, Viewer
from bot.game_catalogue import GAME_EXTENSIONS
from bot.i18n import LANGUAGES, t
from bot.replays import CannotReplay, Replay, ReplayFileError, check_result, read_export


def adapter_of(kind: str) -> GameAdapter:
    extension = f"bot.games.{kind}"
    if extension not in GAME_EXTENSIONS:
        raise ReplayFileError(f"a match of an unknown game: {kind!r}")
    adapter: GameAdapter = import_module(extension).ADAPTER
    return adapter


def replayed(text: str) -> Replay:
    """The file's match replayed, once its digest and its result are checked."""
    match, result = read_export(text)
    try:
        replay = Replay.build(adapter_of(match.kind), match)
    except CannotReplay:
        raise ReplayFileError("its actions do not replay to a finished match") from None
    check_result(replay, result)
    return replay


def report(replay: Replay, language: str) -> list[str]:
    """Every position's line, then the result."""
    match = replay.match
    viewer = Viewer(language, match.names)
    options = ", ".join(f"{name} {value}" for name, value in match.options.items())
    lines = [f"{t(language, f'{match.kind}.title')} · {options} · seed {match.seed}", ""]
    for step in range(replay.last + 1):
        done = replay.steps[step]
        action = json.dumps(done.action, ensure_ascii=False)
        who = "" if done.seat is None else f"{viewer.name(done.seat)} {action} "
        told = " / ".join(replay.lines(step, viewer))
        lines.append(f"{step:>5} {who}{told}".rstrip())
    final = replay.final
    totals = final.totals()
    lines.append("")
    lines += [f"{viewer.name(seat)}: {totals[seat]}" for seat in range(len(totals))]
    winner = final.winner()
    lines.append(t(language, "stats.chart.winner") + ": " + ("—" if winner is None else viewer.name(winner)))
    return lines


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.replay", description=__doc__)
    parser.add_argument("file", type=Path, help="a match file exported by /replay")
    parser.add_argument("--language", choices=LANGUAGES, default="en")
    options = parser.parse_args(arguments)
    try:
        text = options.file.read_text(encoding="utf-8")
        replay = replayed(text)
    except (OSError, UnicodeDecodeError, ReplayFileError) as error:
        print(f"{options.file}: refused: {error}", file=sys.stderr)
        return 1
    print("\n".join(report(replay, options.language)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
