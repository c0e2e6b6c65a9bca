"""The store's fixtures (every test of the store runs on each database), for the tournaments' store tests."""

from tests.bot.test_store import database, open_store  # noqa: F401
