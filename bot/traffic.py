"""A busy channel keeps its game's table within reach: the messages posted in a running game's
channel after its table (anyone's, the bot's own lines included) are counted, and past
``bot.refusals.REPOST_AFTER`` the table's next showing posts it anew at the bottom, by the path
that does it for an old message (``bot.refusals.due_for_repost``).

Discord sends the bot each message of the channels it sees with the ``guild_messages`` intent
(their content empty without the privileged message content intent, which a count does not
need). The count is kept in memory and added to the game's row every ``SAVE_EVERY`` messages: a
restart loses fewer than that, and no chat message costs a write of its own. A channel belongs to
one server, and a server to one shard: the process that counts a channel's messages is the one
that shows its table.
"""

from __future__ import annotations

from bot.model import GameRow

# Messages counted before they are added to the game's row.
SAVE_EVERY = 5


class Traffic:
    """The messages posted after each running game's kept message, not yet saved, by channel."""

    def __init__(self) -> None:
        self._kept: dict[int, int] = {}  # channel -> its game's kept message
        self._unsaved: dict[int, int] = {}  # channel -> messages posted after it, not yet saved

    def watch(self, channel_id: int, message_id: int) -> None:
        """The channel's game keeps this message now (shown, or posted anew): counted from it."""
        if self._kept.get(channel_id) != message_id:
            self._kept[channel_id] = message_id
            self._unsaved.pop(channel_id, None)

    def forget(self, channel_id: int) -> None:
        """The channel's game is over: its messages are no longer counted."""
        self._kept.pop(channel_id, None)
        self._unsaved.pop(channel_id, None)

    def posted(self, channel_id: int, message_id: int) -> int:
        """A message was posted in a channel: how many to add to its game's row now (every
        ``SAVE_EVERY`` of those posted after its kept message), else 0."""
        kept = self._kept.get(channel_id)
        if kept is None or message_id <= kept:
            return 0
        count = self._unsaved.get(channel_id, 0) + 1
        self._unsaved[channel_id] = 0 if count >= SAVE_EVERY else count
        return count if count >= SAVE_EVERY else 0

    def after(self, row: GameRow) -> int:
        """The messages posted after the game's kept message: saved with its row, and counted since."""
        counting = self._kept.get(row.channel_id) == row.message_id
        return row.messages_after + (self._unsaved.get(row.channel_id, 0) if counting else 0)
