"""The "File not found" page's advice fits every reader of a link: links in mail replies and
forum posts live for days, and their readers have no chat to reload."""

from __future__ import annotations

from bot.connectors.web_turn_page import missing_file_page


def test_the_missing_file_page_does_not_only_say_to_reload_the_chat() -> None:
    page = missing_file_page()
    assert "File not found" in page
    assert "ask your question again, in the chat, by email or wherever you found the link" in page
