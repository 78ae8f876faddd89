"""The credentials a URL can carry are masked in every form a configured URL or a log line
shows them: password-like query names, a password holding a raw "@", a URL without a scheme,
and a value that came from an environment variable (not quoted at all)."""

from __future__ import annotations

import pytest

from bot.url_secrets import quoted_url, redact_urls, redacted_url

SECRET = "Sup3rS3cret"


@pytest.mark.parametrize(
    "name", ["pwd", "pass", "passwd", "credentials", "credential", "db_pwd", "user_pass"]
)
def test_password_like_query_values_are_masked(name: str) -> None:
    shown = redact_urls(f"https://db.example.com/q?{name}={SECRET}&n=1")
    assert shown == f"https://db.example.com/q?{name}=…&n=1"


@pytest.mark.parametrize(
    "text",
    [
        "https://db.example.com/q?bypass=1",
        "https://db.example.com/q?passage=7",
        "https://db.example.com/q?country_code=de",
        "https://db.example.com/u/ann@example.org",
        "https://db.example.com/q?email=ann@example.org",
        "mail from ann@example.org",
    ],
)
def test_values_that_are_no_credentials_stay_readable(text: str) -> None:
    assert redact_urls(text) == text


def test_a_password_with_a_raw_at_sign_is_masked_whole() -> None:
    # the user information ends at the last "@" before the host
    text = f"POST https://u:p@ss={SECRET}@llm.internal/v1 and https://x@y.example/"
    assert redact_urls(text) == "POST https://…@llm.internal/v1 and https://…@y.example/"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"user:{SECRET}@llm.internal/v1", "…@llm.internal/v1"),
        (f"u:p@ss{SECRET}@llm.internal:80a/v1?code=x", "…@llm.internal:80a/v1?code=…"),
        (f"https://user:{SECRET}@[::1/v1", "https://…@[::1/v1"),
        ("llm.internal/v1/u@x", "llm.internal/v1/u@x"),
    ],
)
def test_one_configured_url_is_masked_even_without_a_scheme(url: str, shown: str) -> None:
    assert redacted_url(url) == shown


def test_a_url_from_a_variable_is_named_not_quoted() -> None:
    url = f"https://forum.example.com/?api_key={SECRET}"
    assert quoted_url(url, "${FORUM_URL}") == "the value of ${FORUM_URL}"
    assert quoted_url(url) == "'https://forum.example.com/?api_key=…'"
