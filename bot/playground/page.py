"""What the page shows, and which of its clicks SimCord's preview admits.

SimCord's preview (3.2.1) shows a page the state it last *published*, and admits a click only if
it names the revision the page shows. The playground publishes after each of the bot's deliveries,
so a computer's move can land between what a person sees and their click. Two of SimCord's
answers then undo the click, and this module keeps both from happening:

- ``Preview.refresh`` holds the simulation until the bot rests (a computer drawing its move's
  pictures); a click sent meanwhile is refused as an overlapping operation (HTTP 400), which the
  page takes for a lost answer: "Action outcome uncertain", every button grey until a reload.
  ``publish`` shows the same, without waiting on the bot.
- An action naming an older revision is refused as stale ("Action was not completed"), although
  Discord would have taken it: a message edited under a person's pointer still gets the click, and
  the bot decides whether it still stands (``bot.clicks.check_fresh``); a command typed while a
  computer moved still runs. ``SeenControls`` admits a command, a message or a form as typed, and
  a click (or a choice in a menu) when the control shows now what it showed then (its label,
  emoji, style, options: what the person saw; the version stamped in its custom id aside), so it
  means what the person meant. A control that changed is refused as before, and the page shows
  what it became.

Both use the preview's private members (``_publish``, ``_action``, ``_get_page``): SimCord has no
setting for either; the browser tests (tests/playground/test_to_the_end.py) fail if they change.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from simcord import Preview, SetupError

# How many of a page's past publications are remembered: a click older than that is stale.
KEPT_REVISIONS = 64
# What a click or a choice in a menu sends: a control of the page's, by its key.
CONTROL_ACTIONS = frozenset({"click", "select"})
# What carries only what the person typed or filled in, which no publication changes.
TYPED_ACTIONS = frozenset({"run_command", "autocomplete_command", "send_message", "modal_submit"})
# What names a control without being what a person sees on it.
UNSEEN = frozenset({"custom_id", "control_key", "id"})

Controls = dict[str, str]


def publish(preview: Preview) -> None:
    """What ``Preview.refresh`` publishes (the time, every open page), without its settling: the
    bot's state between two of its awaits, which the playground takes right after a delivery."""
    preview._advance_presentation_time()
    preview._publish_message_pages(reason="refresh")


def controls(snapshot: Mapping[str, Any]) -> Controls:
    """Each control of a published snapshot, by key: what a person sees of it."""
    return {
        component["control_key"]: json.dumps(
            {name: value for name, value in component.items() if name not in UNSEEN}, sort_keys=True
        )
        for message in snapshot.get("messages", {}).values()
        for component in _walk(message.get("components") or [])
    }


def _walk(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, list):
        for item in value:
            yield from _walk(item)
    elif isinstance(value, dict):
        if "control_key" in value:
            yield value
        for child in ("components", "accessory", "component"):
            yield from _walk(value.get(child))


class SeenControls:
    """Remembers what each page's last publications showed on each control, and admits a click
    made on one of them if the control still shows the same (see the module's docstring)."""

    def __init__(self, preview: Preview) -> None:
        self._preview = preview
        self._seen: dict[str, dict[int, Controls]] = {}
        published, act = preview._publish, preview._action

        def remembered(page: Any, **options: Any) -> None:
            published(page, **options)
            self._remember(page)

        async def admitted(context_id: str | None, body: Any) -> dict[str, Any]:
            return await act(context_id, self._rebased(context_id, body))

        preview._publish = remembered  # type: ignore[method-assign]
        preview._action = admitted  # type: ignore[method-assign]

    def _remember(self, page: Any) -> None:
        for gone in self._seen.keys() - self._preview._pages.keys():
            del self._seen[gone]
        revisions = self._seen.setdefault(page.id, {})
        revisions[page.revision] = controls(page.snapshot)
        for old in [revision for revision in revisions if revision <= page.revision - KEPT_REVISIONS]:
            del revisions[old]

    def _rebased(self, context_id: str | None, body: Any) -> Any:
        """``body``, naming the page's current revision if it clicks a control that shows now what
        it showed at the revision it names; else unchanged, for SimCord to judge."""
        kind = body.get("kind") if isinstance(body, Mapping) else None
        if kind not in CONTROL_ACTIONS | TYPED_ACTIONS:
            return body
        try:
            page = self._preview._get_page(context_id)
        except SetupError:
            return body
        shown, key = body.get("published_revision"), body.get("control_key")
        if shown == page.revision or self._preview._active_action is not None:
            return body
        if kind in TYPED_ACTIONS:
            return {**body, "published_revision": page.revision}
        seen = self._seen.get(page.id, {}).get(shown, {}).get(key) if isinstance(shown, int) else None
        if seen is None:
            return body
        # The bot may have moved since the last publication: compare with what it shows now.
        self._preview._publish(page, reason="refresh")
        if controls(page.snapshot).get(key) != seen:
            return body
        return {**body, "published_revision": page.revision}
