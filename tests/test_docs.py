"""The README and docs/ kept alive: every link reaches a file and a heading that exist, every path
and every ``bot.``/``games.`` name they quote exists, the README stays one page that starts with
the two commands, and the development page's layers and recipe follow the code. No network:
an external link is only checked to be a well-formed https URL."""

from __future__ import annotations

import functools
import importlib
import os
import re
import tomllib
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DEVELOPMENT = ROOT / "docs" / "development.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
README_MOST_LINES = 150

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target) or [text](target "title"); the text may hold one level of brackets.
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
AUTOLINK = re.compile(r"<([a-z][a-z0-9+.-]*:[^<>\s]*)>", re.IGNORECASE)
BARE_URL = re.compile(r"(?<![(<\w])([a-z][a-z0-9+.-]*://[^\s<>()]+)", re.IGNORECASE)
# A quoted repository path: under one of the project's folders, no placeholder in it.
REPOSITORY_PATH = re.compile(r"^\.?(bot|games|bench|tests|docs|\.ci)/[\w./-]*$")
TOP_LEVEL_FILES = {"pyproject.toml", ".env.example", "Procfile", "README.md"}
FILE_NAME = re.compile(r"^[\w-]+\.(py|md|toml|json)$")
DOTTED_NAME = re.compile(r"^(bot|games)(\.\w+)+$")


def prose_lines(path: Path) -> list[tuple[int, str]]:
    """The page's lines outside fenced code blocks, numbered from 1."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text lower-cased, punctuation dropped (letters of any
    script, digits, '_' and '-' kept), spaces made hyphens."""
    text = CODE_SPAN.sub(lambda match: match.group(2), heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("*", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor; a repeated one gets -1, -2... as on GitHub."""
    found: set[str] = set()
    seen: Counter[str] = Counter()
    for _, line in prose_lines(path):
        match = HEADING.match(line)
        if match is None:
            continue
        slug = github_slug(match.group(2))
        found.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """Every link target of the page's prose (code spans and blocks are not links)."""
    found = []
    for number, line in prose_lines(path):
        text = CODE_SPAN.sub("", line)
        unlinked = LINK.sub("", text)
        targets = [
            *LINK.findall(text),
            *AUTOLINK.findall(unlinked),
            *BARE_URL.findall(AUTOLINK.sub("", unlinked)),
        ]
        found += [(number, target) for target in targets]
    return found


def code_spans(path: Path) -> list[tuple[int, str]]:
    return [
        (number, match.group(2).strip())
        for number, line in prose_lines(path)
        for match in CODE_SPAN.finditer(line)
    ]


def link_problem(page: Path, target: str) -> str | None:
    """Why ``target``, linked from ``page``, is dead; None when it is alive."""
    parts = urlsplit(target)
    if parts.scheme:
        well_formed = parts.scheme == "https" and parts.netloc and " " not in target
        return None if well_formed else "not a well-formed https URL"
    if not target:
        return "an empty link"
    path = page if not parts.path else (page.parent / parts.path).resolve()
    if not path.is_relative_to(ROOT):
        return "outside the repository"
    if not path.exists():
        return "no such file"
    if not parts.fragment:
        return None
    if path.suffix != ".md":
        return "an anchor in a page that is not Markdown"
    if parts.fragment not in anchors(path):
        return f"no heading with anchor #{parts.fragment} in {path.relative_to(ROOT)}"
    return None


def placeholder(text: str) -> bool:
    return any(mark in text for mark in ("<", "*", "…", "{", "..."))


def resolves(name: str) -> bool:
    """Whether ``bot.x.y.Z.attribute`` names a module, or something defined in one."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[split:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


@functools.cache
def repository_files() -> frozenset[str]:
    """The names of the project's files: not those of hidden folders (the virtual environment's,
    git's, the caches') but .ci's."""
    names: set[str] = set()
    for _, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if not name.startswith(".") or name == ".ci"]
        names.update(files)
    return frozenset(names)


def code_problem(text: str, files: frozenset[str]) -> str | None:
    """Why a quoted path or name does not exist in the repository; None when it does, or when it
    is not one the test can check (a placeholder, a path outside the project)."""
    if placeholder(text):
        return None
    if text in TOP_LEVEL_FILES:
        return None if (ROOT / text).exists() else "no such file"
    if REPOSITORY_PATH.match(text):
        return None if (ROOT / text).exists() else "no such path"
    if FILE_NAME.match(text):
        return None if text in files else "no file of that name"
    if DOTTED_NAME.match(text):
        return None if resolves(text) else "no such module or name"
    return None


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_link_reaches_a_page_and_a_heading(page: Path) -> None:
    dead = [
        f"line {number}: {target} ({problem})"
        for number, target in links(page)
        if (problem := link_problem(page, target)) is not None
    ]
    assert not dead, f"{page_id(page)} has dead links:\n" + "\n".join(dead)


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_quoted_path_and_name_exists(page: Path) -> None:
    files = repository_files()
    missing = [
        f"line {number}: `{text}` ({problem})"
        for number, text in code_spans(page)
        if (problem := code_problem(text, files)) is not None
    ]
    assert not missing, f"{page_id(page)} quotes what the repository lacks:\n" + "\n".join(missing)


def test_the_readme_is_one_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES, f"README.md has {len(lines)} lines, {README_MOST_LINES} at most"


def ci_command(lines: list[str]) -> str:
    """The line ``.ci/run`` runs: the third that ``sed -n '/^```sh$/,/^```$/p' README.md`` prints."""
    printed, inside = [], False
    for line in lines:
        if inside:
            printed.append(line)
            inside = line != "```"
        elif line == "```sh":
            printed.append(line)
            inside = True
    return printed[2]


def test_the_readme_starts_with_the_two_commands_then_says_what_the_bot_is() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# ") and lines[1] == ""
    assert lines[2] == "```sh" and lines[5] == "```", "the first block is the two commands, alone"
    run, test = lines[3], lines[4]
    assert '".[playground]"' in run and run.endswith("python -m bot")
    assert '".[test]"' in test and test.endswith("pytest")
    assert ci_command(lines) == test, ".ci/run would not run the test command"
    first_words = next(line for line in lines[6:] if line.strip())
    assert "Discord bot" in first_words, "what the bot is comes right after the commands"


def section(path: Path, title: str) -> list[str]:
    """The prose lines of the ``## title`` section of a page."""
    lines = [line for _, line in prose_lines(path)]
    start = lines.index(f"## {title}") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def table_cells(row: str) -> list[str]:
    """A Markdown table row's cells, ``\\|`` read as a pipe inside a cell."""
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", row.strip())[1:-1]]


def test_the_development_page_draws_the_layers_pyproject_states() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (layers,) = [contract["layers"] for contract in contracts["contracts"] if contract["type"] == "layers"]
    rows = [table_cells(line) for line in section(DEVELOPMENT, "Layers") if line.startswith("|")]
    drawn = [match.group(2) for row in rows[2:] if (match := CODE_SPAN.fullmatch(row[1]))]
    assert len(drawn) == len(rows) - 2, "each row of the layer table names its modules in one code span"
    assert drawn == [" ".join(layer.split()) for layer in layers], (
        "docs/development.md's layer table and pyproject.toml's layers contract disagree"
    )


def test_the_recipe_names_every_step_its_tests_check() -> None:
    written = {
        match.group(1)
        for line in section(DEVELOPMENT, "A fifth game")
        if (match := re.match(r"^\d+\. \*\*([^*]+)\*\*", line))
    }
    checked = {
        step
        for test in (ROOT / "tests" / "recipe").glob("*.py")
        for step in re.findall(r"[Ss]tep '([^']+)'", test.read_text(encoding="utf-8"))
    }
    assert checked, "the recipe's tests name their steps"
    assert checked <= written, f"docs/development.md's recipe lacks the steps {sorted(checked - written)}"
